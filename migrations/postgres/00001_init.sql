-- +goose Up
-- The whole ladder schema (SPEC 1, 3, 4, 5, 7). Times are UTC.

CREATE TABLE guilds (
    id                  text PRIMARY KEY,
    moderator_role_id   text NOT NULL DEFAULT '',
    announce_channel_id text NOT NULL DEFAULT '',
    log_channel_id      text NOT NULL DEFAULT '',
    placement_games     integer NOT NULL DEFAULT 5 CHECK (placement_games >= 0),
    stale_days          integer NOT NULL DEFAULT 30 CHECK (stale_days > 0),
    season_schedule     text NOT NULL DEFAULT '0 0 1 1,4,7,10 *',
    season_carry        double precision NOT NULL DEFAULT 0.5 CHECK (season_carry BETWEEN 0 AND 1),
    confirm_window_s    bigint NOT NULL DEFAULT 1800,
    queue_timeout_s     bigint NOT NULL DEFAULT 3600,
    divisions           jsonb NOT NULL DEFAULT '[]',
    weekly_top          boolean NOT NULL DEFAULT false,
    created_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE queues (
    id          bigserial PRIMARY KEY,
    guild_id    text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    name        text NOT NULL,
    team_size   integer NOT NULL CHECK (team_size BETWEEN 1 AND 8),
    model       text NOT NULL DEFAULT 'team-glicko',
    params      jsonb NOT NULL DEFAULT '{}',
    channel_id  text NOT NULL DEFAULT '',
    q_start     double precision NOT NULL DEFAULT 0.8,
    q_floor     double precision NOT NULL DEFAULT 0.5,
    buckets     integer NOT NULL DEFAULT 5,
    bucket_ms   bigint NOT NULL DEFAULT 30000,
    boost       double precision NOT NULL DEFAULT 0.5,
    rd_max      double precision NOT NULL DEFAULT 350,
    disabled    boolean NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (guild_id, name)
);

CREATE TABLE seasons (
    id         bigserial PRIMARY KEY,
    guild_id   text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    number     integer NOT NULL CHECK (number > 0),
    started_at timestamptz NOT NULL,
    ended_at   timestamptz,
    UNIQUE (guild_id, number)
);
-- At most one running season per guild.
CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;

CREATE TABLE players (
    guild_id   text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    user_id    text NOT NULL,
    name       text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (guild_id, user_id)
);

-- One row per player per ladder (queue, season): the model state, the
-- state the season started from (base, for replays), the record, and the
-- derived columns the leaderboard sorts and filters by.
CREATE TABLE ratings (
    queue_id     bigint NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    season_id    bigint NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    user_id      text NOT NULL,
    guild_id     text NOT NULL,
    rating       double precision NOT NULL,
    dev          double precision NOT NULL,
    games        integer NOT NULL DEFAULT 0,
    last_at      timestamptz,
    recent       bigint NOT NULL DEFAULT 0,
    base_rating  double precision NOT NULL,
    base_dev     double precision NOT NULL,
    base_games   integer NOT NULL DEFAULT 0,
    base_last_at timestamptz,
    base_recent  bigint NOT NULL DEFAULT 0,
    wins         integer NOT NULL DEFAULT 0,
    losses       integer NOT NULL DEFAULT 0,
    draws        integer NOT NULL DEFAULT 0,
    streak       integer NOT NULL DEFAULT 0,
    stale        boolean NOT NULL DEFAULT false,
    display      double precision NOT NULL,
    display_dev  double precision NOT NULL,
    provisional  boolean NOT NULL DEFAULT true,
    PRIMARY KEY (queue_id, season_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
);
-- Leaderboard keyset pagination over listed players only.
CREATE INDEX ratings_board ON ratings (queue_id, season_id, display DESC, user_id DESC)
    WHERE NOT provisional AND NOT stale;
-- The daily stale job.
CREATE INDEX ratings_last ON ratings (guild_id, season_id, last_at) WHERE NOT stale;

-- The match log: rows are never deleted; state changes are audited.
-- guild_id, queue_id and season_id carry no foreign keys on purpose: every
-- result would take a share lock on the same three parent rows, which costs
-- a WAL record each and serializes writers; the service checks them.
CREATE TABLE matches (
    id              bigserial PRIMARY KEY,
    guild_id        text NOT NULL,
    queue_id        bigint NOT NULL,
    season_id       bigint NOT NULL,
    team1           text NOT NULL,
    team2           text NOT NULL,
    state           text NOT NULL CHECK (state IN ('open', 'reported', 'confirmed', 'disputed', 'resolved', 'cancelled', 'voided')),
    winner          integer NOT NULL DEFAULT -1 CHECK (winner BETWEEN -1 AND 2),
    seq             bigint NOT NULL DEFAULT 0,
    p_team1         double precision NOT NULL DEFAULT 0.5,
    quality         double precision NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL,
    played_at       timestamptz,
    reported_by     text NOT NULL DEFAULT '',
    reported_winner integer NOT NULL DEFAULT -1,
    deadline        timestamptz,
    disputed_by     text NOT NULL DEFAULT '',
    dispute_reason  text NOT NULL DEFAULT '',
    evidence        text NOT NULL DEFAULT '',
    rated_at        timestamptz,
    resolved_by     text NOT NULL DEFAULT '',
    source          text NOT NULL DEFAULT '',
    channel_id      text NOT NULL DEFAULT ''
);
CREATE INDEX matches_log ON matches (queue_id, season_id, seq) WHERE state IN ('confirmed', 'resolved');
CREATE INDEX matches_guild ON matches (guild_id, id DESC);
CREATE INDEX matches_due ON matches (deadline) WHERE state = 'reported';
CREATE INDEX matches_state ON matches (guild_id, state, id DESC) WHERE state IN ('open', 'reported', 'disputed');

CREATE TABLE match_players (
    match_id bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    guild_id text NOT NULL,
    user_id  text NOT NULL,
    team     smallint NOT NULL CHECK (team IN (1, 2)),
    seat     smallint NOT NULL,
    -- active while the match is open or reported: a player is in at most one such match.
    active   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (match_id, user_id)
);
CREATE UNIQUE INDEX match_players_active ON match_players (guild_id, user_id) WHERE active;
CREATE INDEX match_players_user ON match_players (guild_id, user_id, match_id DESC);

-- Position in the rating log, taken after the rows a result changes are
-- locked, so the order of seq is the order of updates.
CREATE SEQUENCE rating_seq;

-- The rating log: what each rated match (or moderator adjustment, no
-- match) did to each player, with the record before it.
CREATE TABLE rating_changes (
    id             bigserial PRIMARY KEY,
    seq            bigint NOT NULL,
    queue_id       bigint NOT NULL,
    season_id      bigint NOT NULL,
    match_id       bigint REFERENCES matches (id),
    user_id        text NOT NULL,
    team           smallint NOT NULL DEFAULT 0,
    kind           text NOT NULL CHECK (kind IN ('match', 'set', 'reset')),
    before_rating  double precision NOT NULL,
    before_dev     double precision NOT NULL,
    before_games   integer NOT NULL,
    before_last_at timestamptz,
    before_recent  bigint NOT NULL,
    after_rating   double precision NOT NULL,
    after_dev      double precision NOT NULL,
    after_games    integer NOT NULL,
    after_last_at  timestamptz,
    after_recent   bigint NOT NULL,
    wins           integer NOT NULL,
    losses         integer NOT NULL,
    draws          integer NOT NULL,
    streak         integer NOT NULL,
    at             timestamptz NOT NULL
);
CREATE INDEX rating_changes_log ON rating_changes (queue_id, season_id, seq);
CREATE INDEX rating_changes_player ON rating_changes (queue_id, season_id, user_id, seq DESC);
CREATE INDEX rating_changes_match ON rating_changes (match_id);

CREATE TABLE season_results (
    season_id bigint NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    queue_id  bigint NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    user_id   text NOT NULL,
    name      text NOT NULL DEFAULT '',
    rank      integer NOT NULL,
    rating    double precision NOT NULL,
    rd        double precision NOT NULL,
    division  text NOT NULL DEFAULT '',
    badge     text NOT NULL DEFAULT '',
    wins      integer NOT NULL DEFAULT 0,
    losses    integer NOT NULL DEFAULT 0,
    draws     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, queue_id, user_id)
);
CREATE INDEX season_results_rank ON season_results (season_id, queue_id, rank);

CREATE TABLE disputes (
    match_id    bigint PRIMARY KEY REFERENCES matches (id),
    guild_id    text NOT NULL,
    user_id     text NOT NULL,
    reason      text NOT NULL,
    evidence    text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL,
    resolved_at timestamptz
);
CREATE INDEX disputes_open ON disputes (guild_id, created_at) WHERE resolved_at IS NULL;

-- Matchmaking: a party is one entry with several members; a player is in
-- at most one entry of a guild.
CREATE TABLE queue_entries (
    id         bigserial PRIMARY KEY,
    guild_id   text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    queue_id   bigint NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    channel_id text NOT NULL DEFAULT '',
    joined_at  timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX queue_entries_queue ON queue_entries (queue_id, joined_at, id);
CREATE INDEX queue_entries_expiry ON queue_entries (expires_at);

CREATE TABLE queue_entry_members (
    entry_id bigint NOT NULL REFERENCES queue_entries (id) ON DELETE CASCADE,
    guild_id text NOT NULL,
    user_id  text NOT NULL,
    PRIMARY KEY (entry_id, user_id),
    UNIQUE (guild_id, user_id)
);

CREATE TABLE party_invites (
    id         bigserial PRIMARY KEY,
    guild_id   text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    queue_id   bigint NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    from_user  text NOT NULL,
    to_user    text NOT NULL,
    channel_id text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    UNIQUE (guild_id, from_user),
    UNIQUE (guild_id, to_user)
);

CREATE TABLE queue_bans (
    guild_id   text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    user_id    text NOT NULL,
    until      timestamptz,
    reason     text NOT NULL DEFAULT '',
    banned_by  text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE audit_log (
    id       bigserial PRIMARY KEY,
    guild_id text NOT NULL,
    actor_id text NOT NULL,
    action   text NOT NULL,
    match_id bigint,
    target   text NOT NULL DEFAULT '',
    reason   text NOT NULL DEFAULT '',
    before   text NOT NULL DEFAULT '',
    after    text NOT NULL DEFAULT '',
    at       timestamptz NOT NULL
);
CREATE INDEX audit_log_guild ON audit_log (guild_id, id DESC);

CREATE TABLE job_runs (
    job         text NOT NULL,
    period      text NOT NULL,
    started_at  timestamptz NOT NULL,
    finished_at timestamptz,
    error       text NOT NULL DEFAULT '',
    PRIMARY KEY (job, period)
);

CREATE TABLE api_tokens (
    id         bigserial PRIMARY KEY,
    guild_id   text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    name       text NOT NULL,
    hash       bytea NOT NULL UNIQUE,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
);
CREATE UNIQUE INDEX api_tokens_live_name ON api_tokens (guild_id, name) WHERE revoked_at IS NULL;

CREATE TABLE idempotency_keys (
    guild_id   text NOT NULL,
    key        text NOT NULL,
    match_id   bigint NOT NULL REFERENCES matches (id),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (guild_id, key)
);

-- +goose Down
DROP TABLE idempotency_keys;
DROP TABLE api_tokens;
DROP TABLE job_runs;
DROP TABLE audit_log;
DROP TABLE queue_bans;
DROP TABLE party_invites;
DROP TABLE queue_entry_members;
DROP TABLE queue_entries;
DROP TABLE disputes;
DROP TABLE season_results;
DROP TABLE rating_changes;
DROP SEQUENCE rating_seq;
DROP TABLE match_players;
DROP TABLE matches;
DROP TABLE ratings;
DROP TABLE players;
DROP TABLE seasons;
DROP TABLE queues;
DROP TABLE guilds;
