-- +goose Up
-- A map per game of a series. Each game's pick is a map_picks row of its
-- own (game 2, 3, …), started when the game before it is confirmed; the
-- map a game was played on is kept with the game, so the match page, the
-- API and the per-map records read it from the rows. 'loser' picks are
-- made by the team (team) that lost the game before; a ban pick of a
-- later game is started by that team (team), 0 for the first game.
ALTER TABLE series_games ADD COLUMN map text NOT NULL DEFAULT '';
ALTER TABLE map_picks DROP CONSTRAINT map_picks_mode_check;
ALTER TABLE map_picks ADD CONSTRAINT map_picks_mode_check CHECK (mode IN ('vote', 'ban', 'random', 'loser'));
ALTER TABLE map_picks ADD COLUMN team int NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE map_picks DROP COLUMN team;
DELETE FROM map_picks WHERE mode = 'loser';
ALTER TABLE map_picks DROP CONSTRAINT map_picks_mode_check;
ALTER TABLE map_picks ADD CONSTRAINT map_picks_mode_check CHECK (mode IN ('vote', 'ban', 'random'));
ALTER TABLE series_games DROP COLUMN map;
