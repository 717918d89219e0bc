-- +goose Up
-- The match lobby: per-queue lobby settings, ready checks with
-- one row per seated player, and queue cooldowns given as penalties.

-- A queue without a row here uses the defaults of ladder.DefaultLobby.
CREATE TABLE queue_lobby (
    queue_id        bigint PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
    ready_window_ms bigint NOT NULL DEFAULT 120000,
    cooldowns       text NOT NULL DEFAULT '5m,30m,2h',
    abandon_after_ms bigint NOT NULL DEFAULT 10800000,
    cancel_share    REAL NOT NULL DEFAULT 0.5,
    rating_penalty  REAL NOT NULL DEFAULT 0
);

-- A ready check is a deadline row the ready-check job catches up on after
-- downtime; state moves once from pending to passed or failed, under the
-- match's row lock.
CREATE TABLE ready_checks (
    match_id  bigint PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id  text NOT NULL,
    queue_id  bigint NOT NULL,
    deadline  TIMESTAMP NOT NULL,
    state     text NOT NULL DEFAULT 'pending'
);
CREATE INDEX ready_checks_due ON ready_checks (state, deadline);

-- ticket groups the players that queued together and joined_at keeps
-- their original wait, so a failed check requeues them as they were.
CREATE TABLE ready_players (
    match_id   bigint NOT NULL REFERENCES ready_checks (match_id) ON DELETE CASCADE,
    user_id    text NOT NULL,
    ticket     integer NOT NULL,
    joined_at  TIMESTAMP NOT NULL,
    channel_id text NOT NULL DEFAULT '',
    ready_at   TIMESTAMP,
    PRIMARY KEY (match_id, user_id)
);

CREATE TABLE queue_cooldowns (
    id         INTEGER PRIMARY KEY,
    guild_id   text NOT NULL,
    user_id    text NOT NULL,
    match_id   bigint NOT NULL DEFAULT 0,
    reason     text NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    until      TIMESTAMP NOT NULL,
    cleared_at TIMESTAMP
);
CREATE INDEX queue_cooldowns_user ON queue_cooldowns (guild_id, user_id, created_at);

CREATE TABLE cancel_votes (
    match_id   bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id    text NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

-- A player's request for a substitute in an open match; filled_by is who
-- took the seat (first eligible accept wins under the match's row lock).
CREATE TABLE sub_requests (
    match_id   bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id    text NOT NULL,
    created_at TIMESTAMP NOT NULL,
    filled_by  text NOT NULL DEFAULT '',
    filled_at  TIMESTAMP,
    PRIMARY KEY (match_id, user_id)
);

-- A reported no-show after the start: the other side confirms (or the
-- deadline does) and the match is cancelled, the absent penalised.
CREATE TABLE no_shows (
    match_id    bigint PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    reported_by text NOT NULL,
    absent      text NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    deadline    TIMESTAMP NOT NULL,
    state       text NOT NULL DEFAULT 'pending'
);
CREATE INDEX no_shows_due ON no_shows (state, deadline);

-- +goose Down
DROP TABLE no_shows;
DROP TABLE sub_requests;
DROP TABLE cancel_votes;
DROP TABLE queue_cooldowns;
DROP TABLE ready_players;
DROP TABLE ready_checks;
DROP TABLE queue_lobby;
