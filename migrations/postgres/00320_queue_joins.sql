-- +goose Up
-- Who may join a queue and when: each queue's join requirements (0 and ''
-- are off), its open hours (windows in a time zone; '' is always open)
-- and whether a rated match offers its players a rematch.
CREATE TABLE queue_joins (
    queue_id         bigint PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
    guild_id         text NOT NULL,
    min_rating       double precision NOT NULL DEFAULT 0,
    max_rating       double precision NOT NULL DEFAULT 0,
    min_games        integer NOT NULL DEFAULT 0,
    games_queue_id   bigint NOT NULL DEFAULT 0,
    required_role    text NOT NULL DEFAULT '',
    excluded_role    text NOT NULL DEFAULT '',
    min_account_days integer NOT NULL DEFAULT 0,
    hours            text NOT NULL DEFAULT '',
    timezone         text NOT NULL DEFAULT 'UTC',
    rematch          text NOT NULL DEFAULT 'off' CHECK (rematch IN ('off', 'same', 'rebalance'))
);

-- A rated match's rematch offer: open until expires_at, formed once every
-- player pressed Rematch (formed_match_id, set in the transaction that
-- opens the new match, so a rematch is played at most once).
CREATE TABLE rematches (
    match_id        bigint PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id        text NOT NULL,
    queue_id        bigint NOT NULL,
    expires_at      timestamptz NOT NULL,
    formed_match_id bigint NOT NULL DEFAULT 0
);

-- Who pressed Rematch; a second press is the same row.
CREATE TABLE rematch_votes (
    match_id bigint NOT NULL REFERENCES rematches (match_id) ON DELETE CASCADE,
    user_id  text NOT NULL,
    at       timestamptz NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

-- +goose Down
DROP TABLE rematch_votes;
DROP TABLE rematches;
DROP TABLE queue_joins;
