-- +goose Up
-- Fair webhook claims take each webhook's oldest due delivery and skip a
-- webhook with one claimed already: both look up pending deliveries by
-- webhook, which this index answers without scanning the outbox.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, next_at, id) WHERE state = 'pending';

-- +goose Down
DROP INDEX webhook_deliveries_pending;
