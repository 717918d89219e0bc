-- +goose Up
-- Outgoing webhooks. An event is written to webhook_events in the
-- transaction of the change it describes, with one webhook_deliveries row
-- per subscribed webhook; the delivery job claims those rows, posts and
-- logs every attempt in webhook_attempts.
CREATE TABLE webhooks (
    id         bigserial PRIMARY KEY,
    guild_id   text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    url        text NOT NULL,
    -- events is the subscribed types wrapped in commas, ",match.formed,",
    -- so that one LIKE selects the subscribers of a type.
    events     text NOT NULL,
    secret     text NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX webhooks_guild ON webhooks (guild_id);

CREATE TABLE webhook_events (
    id       text PRIMARY KEY,
    guild_id text NOT NULL,
    type     text NOT NULL,
    at       timestamptz NOT NULL,
    body     text NOT NULL
);

CREATE TABLE webhook_deliveries (
    id            bigserial PRIMARY KEY,
    event_id      text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    webhook_id    bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    state         text NOT NULL,
    attempts      integer NOT NULL DEFAULT 0,
    next_at       timestamptz NOT NULL,
    claimed_until timestamptz,
    created_at    timestamptz NOT NULL,
    done_at       timestamptz,
    UNIQUE (event_id, webhook_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';

CREATE TABLE webhook_attempts (
    id          bigserial PRIMARY KEY,
    delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    at          timestamptz NOT NULL,
    status      integer NOT NULL,
    error       text NOT NULL,
    duration_ms bigint NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id);

-- +goose Down
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
DROP TABLE webhooks;
