-- +goose Up
-- The Showdown names players linked with /link showdown: a
-- replay between linked names proves a match.
CREATE TABLE showdown_links (
    guild_id   text NOT NULL,
    user_id    text NOT NULL,
    name       text NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- +goose Down
DROP TABLE showdown_links;
