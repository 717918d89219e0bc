-- +goose Up
-- Queue panels: one persistent Discord message per queue, listing who
-- waits, with Join, Leave, Join with… and Status buttons. The message is
-- edited in place by one process at a time: a process claims the row
-- (claimed_by, claimed_until) and only when the last edit is at least the
-- coalescing gap old (edited_at). shown is a digest of what the message
-- shows, so an unchanged queue costs no edit.
CREATE TABLE queue_panels (
    queue_id      bigint PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
    guild_id      text NOT NULL,
    channel_id    text NOT NULL,
    message_id    text NOT NULL DEFAULT '',
    shown         text NOT NULL DEFAULT '',
    edited_at     timestamptz,
    claimed_by    text NOT NULL DEFAULT '',
    claimed_until timestamptz
);
CREATE INDEX queue_panels_guild ON queue_panels (guild_id);

-- The results channel of a guild: every result rated since is posted
-- there once. result_posts is that once: a row is claimed before the post
-- and holds the message; shown is the result it showed (state, winner,
-- rated time), so a correction is posted as a follow-up.
CREATE TABLE results_channels (
    guild_id   text PRIMARY KEY,
    channel_id text NOT NULL,
    since      timestamptz NOT NULL
);

CREATE TABLE result_posts (
    match_id      bigint PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id      text NOT NULL,
    message_id    text NOT NULL DEFAULT '',
    shown         text NOT NULL DEFAULT '',
    claimed_until timestamptz
);

-- How long the players of each match the queue formed had waited, on
-- average, written in the transaction that formed it: a panel's typical
-- wait is the median over its queue's last 50.
CREATE TABLE queue_waits (
    match_id  bigint PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    queue_id  bigint NOT NULL,
    formed_at timestamptz NOT NULL,
    wait_ms   bigint NOT NULL
);
CREATE INDEX queue_waits_queue ON queue_waits (queue_id, match_id);

-- +goose Down
DROP TABLE queue_waits;
DROP TABLE result_posts;
DROP TABLE results_channels;
DROP TABLE queue_panels;
