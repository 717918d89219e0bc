-- +goose Up
-- Best-of series. A queue plays best_of games a match (1 keeps single
-- games) and rates a series once (series) or each game in order (games).
ALTER TABLE queue_formats ADD COLUMN best_of int NOT NULL DEFAULT 1 CHECK (best_of IN (1, 3, 5));
ALTER TABLE queue_formats ADD COLUMN series_rating text NOT NULL DEFAULT 'series' CHECK (series_rating IN ('series', 'games'));

-- A series' score as team 1's wins, a dash, team 2's ("2-1"); '' for a
-- single game.
ALTER TABLE matches ADD COLUMN score text NOT NULL DEFAULT '';

-- One row per reported game of a series: the winner as reported, who
-- reported it and, once the other team confirmed, when; rated_match is
-- the match row that rated the game (series_rating games), 0 before.
CREATE TABLE series_games (
    match_id     bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    game         int NOT NULL,
    guild_id     text NOT NULL,
    best_of      int NOT NULL,
    rating       text NOT NULL,
    winner       int NOT NULL CHECK (winner IN (1, 2)),
    reported_by  text NOT NULL,
    reported_at  timestamptz NOT NULL,
    confirmed_by text NOT NULL DEFAULT '',
    confirmed_at timestamptz,
    rated_match  bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, game)
);

-- +goose Down
DROP TABLE series_games;
ALTER TABLE matches DROP COLUMN score;
ALTER TABLE queue_formats DROP COLUMN series_rating;
ALTER TABLE queue_formats DROP COLUMN best_of;
