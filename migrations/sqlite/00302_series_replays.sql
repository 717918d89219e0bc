-- +goose Up
-- The Showdown replay that proved a game of a series ('' when the teams
-- reported and confirmed it). A replay proves one game of a series, never
-- two.
ALTER TABLE series_games ADD COLUMN replay text NOT NULL DEFAULT '';
CREATE UNIQUE INDEX series_games_replay ON series_games (match_id, replay) WHERE replay <> '';

-- +goose Down
DROP INDEX series_games_replay;
ALTER TABLE series_games DROP COLUMN replay;
