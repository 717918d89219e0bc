-- +goose Up
-- Community settings of a queue: predictions (spectators call a side of a
-- formed match) and the MVP vote (players vote a player of their rated
-- match). Both off by default; a queue without a row has both off.
CREATE TABLE community_settings (
    queue_id    bigint PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
    guild_id    text NOT NULL,
    predictions boolean NOT NULL DEFAULT false,
    mvp_vote    boolean NOT NULL DEFAULT false
);

-- A prediction: a user who does not play the match calls a side while the
-- prediction window runs, with the chance the match showed for that side.
-- Points are counted from the match's final result (a correction or void
-- counts at once); nobody bets anything.
CREATE TABLE predictions (
    match_id   bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    guild_id   text NOT NULL,
    user_id    text NOT NULL,
    team       smallint NOT NULL CHECK (team IN (1, 2)),
    chance     REAL NOT NULL,
    -- points a correct call earns: 100 × (1 − chance), rounded when called.
    points     integer NOT NULL,
    at         timestamptz NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX predictions_user ON predictions (guild_id, user_id);

-- An MVP vote: a player of a rated match votes another player of it.
CREATE TABLE mvp_votes (
    match_id bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    guild_id text NOT NULL,
    voter    text NOT NULL,
    votee    text NOT NULL,
    at       timestamptz NOT NULL,
    PRIMARY KEY (match_id, voter)
);
CREATE INDEX mvp_votes_votee ON mvp_votes (guild_id, votee);

-- +goose Down
DROP TABLE mvp_votes;
DROP TABLE predictions;
DROP TABLE community_settings;
