-- +goose Up
-- HTTP interactions seen by any process (docs/spec.md 10): Discord may
-- deliver an interaction again, to any process behind the load balancer,
-- and it is handled once. Rows older than an interaction token's 15
-- minutes are pruned as new ones arrive.
CREATE TABLE interaction_deliveries (
    id      text PRIMARY KEY,
    seen_at TIMESTAMP NOT NULL
);
CREATE INDEX interaction_deliveries_seen_at ON interaction_deliveries (seen_at);

-- +goose Down
DROP TABLE interaction_deliveries;
