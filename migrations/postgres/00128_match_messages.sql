-- +goose Up
-- The Discord messages of a match other than its announcement that carry
-- buttons: a substitute request ("sub:" and the player to replace), the
-- request to confirm a report ("report") and a no-show report ("noshow").
-- Kept so that a substitute taken by /sub accept edits the request as the
-- button does, and so that once the match ends every one of its messages
-- loses its buttons. closed says the buttons are gone (or never to be
-- removed), for the match_announcements row as for these.
CREATE TABLE match_messages (
    match_id   bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    kind       text NOT NULL,
    channel_id text NOT NULL,
    message_id text NOT NULL,
    closed     boolean NOT NULL DEFAULT false,
    PRIMARY KEY (match_id, kind)
);
ALTER TABLE match_announcements ADD COLUMN closed boolean NOT NULL DEFAULT false;
-- Matches that ended before this version keep their announcements as
-- they are: removing the buttons of a whole history at the first run
-- would be a burst of edits to old messages nobody looks at.
UPDATE match_announcements SET closed = true
 WHERE match_id IN (SELECT id FROM matches WHERE state IN ('confirmed', 'resolved', 'cancelled', 'voided'));

-- +goose Down
ALTER TABLE match_announcements DROP COLUMN closed;
DROP TABLE match_messages;
