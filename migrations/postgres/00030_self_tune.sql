-- +goose Up
-- A queue may tune its model's constants at season boundaries
-- (self_tune), and every adoption is a row of the rating log, numbered from
-- rating_seq like the matches, so a replay uses the constants in force at
-- each seq. The params are JSON text, not jsonb, so they read back byte for
-- byte as written.
ALTER TABLE queues ADD COLUMN self_tune boolean NOT NULL DEFAULT false;

CREATE TABLE rating_constants (
    seq           bigint PRIMARY KEY,
    queue_id      bigint NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    model         text NOT NULL,
    before_params text NOT NULL,
    params        text NOT NULL,
    gain          double precision NOT NULL,
    se            double precision NOT NULL,
    n             integer NOT NULL,
    source        text NOT NULL,
    actor_id      text NOT NULL,
    at            timestamptz NOT NULL
);
CREATE INDEX rating_constants_queue ON rating_constants (queue_id, seq);

-- +goose Down
DROP TABLE rating_constants;
ALTER TABLE queues DROP COLUMN self_tune;
