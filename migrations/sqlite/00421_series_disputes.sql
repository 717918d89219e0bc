-- +goose Up
-- A game of a series disputed on its own: the player of the other team
-- who disputed the reported winner, why, and when. A disputed game waits
-- for a moderator (/mod series game); the rest of the series stands.
ALTER TABLE series_games ADD COLUMN disputed_by text NOT NULL DEFAULT '';
ALTER TABLE series_games ADD COLUMN dispute_reason text NOT NULL DEFAULT '';
ALTER TABLE series_games ADD COLUMN disputed_at TIMESTAMP;
CREATE INDEX series_games_disputed ON series_games (guild_id, disputed_at) WHERE disputed_by <> '' AND confirmed_by = '';

-- +goose Down
DROP INDEX series_games_disputed;
ALTER TABLE series_games DROP COLUMN disputed_at;
ALTER TABLE series_games DROP COLUMN dispute_reason;
ALTER TABLE series_games DROP COLUMN disputed_by;
