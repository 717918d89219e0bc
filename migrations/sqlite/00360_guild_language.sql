-- +goose Up
-- The language of the bot's posts to a guild's channels (a catalog code
-- such as 'de'); '' follows the guild's preferred locale.
ALTER TABLE guilds ADD COLUMN language text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE guilds DROP COLUMN language;
