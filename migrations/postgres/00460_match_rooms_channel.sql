-- +goose Up
-- A post to a match's room that Discord answers "Unknown Channel" (the
-- room deleted by a moderator mid-match) finds the open room by its
-- channel, to move the match back to the queue's channel.
CREATE INDEX match_rooms_channel ON match_rooms (channel_id) WHERE state = 'open';

-- +goose Down
DROP INDEX match_rooms_channel;
