-- +goose Up
-- A map per game of a series. Each game's pick is a map_picks row of its
-- own (game 2, 3, …), started when the game before it is confirmed; the
-- map a game was played on is kept with the game, so the match page, the
-- API and the per-map records read it from the rows. 'loser' picks are
-- made by the team (team) that lost the game before; a ban pick of a
-- later game is started by that team (team), 0 for the first game.
-- SQLite cannot change a CHECK: the picks and their votes and bans are
-- copied into new tables (children dropped first, so nothing cascades).
ALTER TABLE series_games ADD COLUMN map text NOT NULL DEFAULT '';

CREATE TABLE map_picks_next (
    match_id   bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    game       int NOT NULL,
    guild_id   text NOT NULL,
    queue_id   bigint NOT NULL,
    mode       text NOT NULL CHECK (mode IN ('vote', 'ban', 'random', 'loser')),
    state      text NOT NULL CHECK (state IN ('picking', 'done')),
    pool       text NOT NULL,
    banner1    text NOT NULL DEFAULT '',
    banner2    text NOT NULL DEFAULT '',
    deadline   TIMESTAMP,
    seed       bigint NOT NULL,
    chosen     text NOT NULL DEFAULT '',
    channel_id text NOT NULL DEFAULT '',
    message_id text NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    team       int NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, game)
);
CREATE TABLE map_votes_next (
    match_id bigint NOT NULL,
    game     int NOT NULL,
    user_id  text NOT NULL,
    map      text NOT NULL,
    at       TIMESTAMP NOT NULL,
    PRIMARY KEY (match_id, game, user_id),
    FOREIGN KEY (match_id, game) REFERENCES map_picks_next (match_id, game) ON DELETE CASCADE
);
CREATE TABLE map_bans_next (
    match_id bigint NOT NULL,
    game     int NOT NULL,
    turn     int NOT NULL,
    team     int NOT NULL,
    user_id  text NOT NULL,
    map      text NOT NULL,
    auto     boolean NOT NULL DEFAULT 0,
    at       TIMESTAMP NOT NULL,
    PRIMARY KEY (match_id, game, turn),
    UNIQUE (match_id, game, map),
    FOREIGN KEY (match_id, game) REFERENCES map_picks_next (match_id, game) ON DELETE CASCADE
);
INSERT INTO map_picks_next (match_id, game, guild_id, queue_id, mode, state, pool, banner1, banner2, deadline, seed, chosen, channel_id, message_id, created_at)
    SELECT match_id, game, guild_id, queue_id, mode, state, pool, banner1, banner2, deadline, seed, chosen, channel_id, message_id, created_at FROM map_picks;
INSERT INTO map_votes_next SELECT match_id, game, user_id, map, at FROM map_votes;
INSERT INTO map_bans_next SELECT match_id, game, turn, team, user_id, map, auto, at FROM map_bans;
DROP TABLE map_bans;
DROP TABLE map_votes;
DROP TABLE map_picks;
ALTER TABLE map_picks_next RENAME TO map_picks;
ALTER TABLE map_votes_next RENAME TO map_votes;
ALTER TABLE map_bans_next RENAME TO map_bans;
CREATE INDEX map_picks_due ON map_picks (deadline) WHERE state = 'picking';

-- +goose Down
DELETE FROM map_picks WHERE mode = 'loser';
ALTER TABLE series_games DROP COLUMN map;
