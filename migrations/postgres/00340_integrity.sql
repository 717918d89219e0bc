-- +goose Up
-- Integrity counters: per ladder (queue, season), one row per opponents
-- pair, partner pair and player, folded match by match over the rated log
-- by the integrity job (package integrity). value is the counter as JSON.
CREATE TABLE integrity_counters (
    queue_id  bigint NOT NULL,
    season_id bigint NOT NULL,
    guild_id  text NOT NULL,
    key       text NOT NULL,
    value     text NOT NULL,
    PRIMARY KEY (queue_id, season_id, key)
);

-- How far each ladder's counters have folded its log.
CREATE TABLE integrity_progress (
    queue_id  bigint NOT NULL,
    season_id bigint NOT NULL,
    guild_id  text NOT NULL,
    seq       bigint NOT NULL DEFAULT 0,
    folded    integer NOT NULL DEFAULT 0,
    PRIMARY KEY (queue_id, season_id)
);

-- The last audit entry (a correction or void) the job has looked at.
CREATE TABLE integrity_audit (
    guild_id text PRIMARY KEY,
    audit_id bigint NOT NULL
);

-- Flags for moderators: one per ladder, kind and subject (the players,
-- comma-separated), with its evidence; posted once to the log channel,
-- dismissed by a moderator (audited).
CREATE TABLE integrity_flags (
    id             bigserial PRIMARY KEY,
    guild_id       text NOT NULL,
    queue_id       bigint NOT NULL,
    season_id      bigint NOT NULL,
    kind           text NOT NULL,
    subject        text NOT NULL,
    matches        text NOT NULL DEFAULT '',
    evidence       text NOT NULL,
    score          REAL NOT NULL DEFAULT 0,
    seq            bigint NOT NULL,
    raised_at      timestamptz NOT NULL,
    posted         boolean NOT NULL DEFAULT false,
    dismissed_by   text NOT NULL DEFAULT '',
    dismissed_at   timestamptz,
    dismiss_reason text NOT NULL DEFAULT '',
    UNIQUE (guild_id, queue_id, season_id, kind, subject)
);
CREATE INDEX integrity_flags_guild ON integrity_flags (guild_id, id DESC);

-- +goose Down
DROP TABLE integrity_flags;
DROP TABLE integrity_audit;
DROP TABLE integrity_progress;
DROP TABLE integrity_counters;
