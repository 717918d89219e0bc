-- +goose Up
-- Partial indexes of the few rows the minute jobs look for, so that a
-- run costs those rows, not the history: the open matches the abandon job
-- checks (by when they were formed), and the messages of matches whose
-- buttons the buttons job has still to remove (every match leaves an
-- announcement row, and most of them are long closed).
CREATE INDEX matches_open ON matches (created_at, id) WHERE state = 'open';
CREATE INDEX match_announcements_open ON match_announcements (match_id) WHERE NOT closed;
CREATE INDEX match_messages_open ON match_messages (match_id, kind) WHERE NOT closed;

-- +goose Down
DROP INDEX match_messages_open;
DROP INDEX match_announcements_open;
DROP INDEX matches_open;
