-- +goose Up
-- Division and badge roles take one ordered path per guild. role_wants is
-- the mapped roles each player should hold (sorted role IDs joined by
-- commas, '' for none), versioned: whoever plans them compares and sets
-- the version, so a plan read from older standings never overwrites a
-- newer one. applied is the version the role worker last made true on
-- Discord; a row whose applied is behind its version is pending.
CREATE TABLE role_wants (
    guild_id text NOT NULL,
    user_id  text NOT NULL,
    roles    text NOT NULL,
    version  bigint NOT NULL,
    applied  bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);

-- role_workers is the lease of the one worker that changes a guild's
-- roles on Discord at a time: the periodic sync and the reconcile, in any
-- process, take turns.
CREATE TABLE role_workers (
    guild_id text PRIMARY KEY,
    holder   text NOT NULL,
    until    TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE role_workers;
DROP TABLE role_wants;
