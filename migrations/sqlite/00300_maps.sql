-- +goose Up
-- Map and mode pools. A match's map is a column of the match log, so the
-- API, the CSV export and a replay carry it; '' is a match without one.
ALTER TABLE matches ADD COLUMN map text NOT NULL DEFAULT '';

-- A queue's format: how its map is picked ('none' keeps matches as they
-- were). A queue without a row has the defaults.
CREATE TABLE queue_formats (
    queue_id bigint PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
    map_pick text NOT NULL DEFAULT 'none' CHECK (map_pick IN ('none', 'vote', 'ban', 'random', 'loser'))
);

-- A queue's pool, in the order maps were added (position), at most 25.
CREATE TABLE queue_maps (
    queue_id  bigint NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    name      text NOT NULL,
    image_url text NOT NULL DEFAULT '',
    position  int NOT NULL,
    PRIMARY KEY (queue_id, name)
);

-- One row per map pick of a match (game 1 for a single game): the pool
-- it picks from as it was when the pick started, the mode, the two
-- banners (ban), the deadline of the vote or of the current ban, the
-- seed that breaks ties and makes timed-out bans, the map chosen, and
-- the message that shows the pick (so the deadline job edits it).
CREATE TABLE map_picks (
    match_id   bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    game       int NOT NULL,
    guild_id   text NOT NULL,
    queue_id   bigint NOT NULL,
    mode       text NOT NULL CHECK (mode IN ('vote', 'ban', 'random')),
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
    PRIMARY KEY (match_id, game)
);
CREATE INDEX map_picks_due ON map_picks (deadline) WHERE state = 'picking';

-- Votes (one per player, the last one counts) and bans (numbered turns,
-- each map banned once) of a pick.
CREATE TABLE map_votes (
    match_id bigint NOT NULL,
    game     int NOT NULL,
    user_id  text NOT NULL,
    map      text NOT NULL,
    at       TIMESTAMP NOT NULL,
    PRIMARY KEY (match_id, game, user_id),
    FOREIGN KEY (match_id, game) REFERENCES map_picks (match_id, game) ON DELETE CASCADE
);

CREATE TABLE map_bans (
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
    FOREIGN KEY (match_id, game) REFERENCES map_picks (match_id, game) ON DELETE CASCADE
);

-- +goose Down
DROP TABLE map_bans;
DROP TABLE map_votes;
DROP TABLE map_picks;
DROP TABLE queue_maps;
DROP TABLE queue_formats;
ALTER TABLE matches DROP COLUMN map;
