-- +goose Up
-- Seed 003's party rating for matching. Both weights 0 keep the
-- members' mean rating, so existing queues match exactly as before.
ALTER TABLE queues ADD COLUMN party_max_weight double precision NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN party_median_weight double precision NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN ordinal_deviations double precision NOT NULL DEFAULT 3;

-- +goose Down
ALTER TABLE queues DROP COLUMN ordinal_deviations;
ALTER TABLE queues DROP COLUMN party_median_weight;
ALTER TABLE queues DROP COLUMN party_max_weight;
