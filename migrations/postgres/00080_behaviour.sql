-- +goose Up
-- Behaviour flags (seed 002's behaviour score): after a match a
-- player may flag one other player of it, once per match, for a reason
-- from a short list; the score is computed from these rows and the
-- player's cooldowns. A queue may match low scores with each other once
-- at least behaviour_pairing players are queued (0, the default, is off).
CREATE TABLE behaviour_flags (
    id         bigserial PRIMARY KEY,
    guild_id   text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    match_id   bigint NOT NULL,
    from_user  text NOT NULL,
    to_user    text NOT NULL,
    reason     text NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (match_id, from_user)
);
CREATE INDEX behaviour_flags_target ON behaviour_flags (guild_id, to_user, created_at);
ALTER TABLE queues ADD COLUMN behaviour_pairing INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE queues DROP COLUMN behaviour_pairing;
DROP TABLE behaviour_flags;
