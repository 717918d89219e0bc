-- +goose Up
-- A webhook's deliveries by the webhook: the admin API's recent attempts
-- of a guild's webhooks start from its webhooks, not from every attempt
-- of every guild kept for the week, and deleting a webhook finds the
-- deliveries its ON DELETE CASCADE removes without reading them all.
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);

-- +goose Down
DROP INDEX webhook_deliveries_webhook;
