-- +goose Up
-- The Discord message that announced each formed match, so
-- that the deadline job, in whichever process runs it, can edit the
-- announcement when a ready check runs out instead of leaving its Ready
-- buttons live. A table of its own, not a column of matches: every write
-- of a match row rewrites all its columns, and this ID is set outside
-- those transactions, after the post.
CREATE TABLE match_announcements (
    match_id   bigint PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    channel_id text NOT NULL,
    message_id text NOT NULL
);

-- +goose Down
DROP TABLE match_announcements;
