-- +goose Up
-- The language of the bot's posts to a guild's channels (a catalog code
-- such as 'de'; '' follows the preferred locale), and the locale Discord
-- says the guild prefers, noted from its interactions.
ALTER TABLE guilds ADD COLUMN language text NOT NULL DEFAULT '';
ALTER TABLE guilds ADD COLUMN preferred_locale text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE guilds DROP COLUMN preferred_locale;
ALTER TABLE guilds DROP COLUMN language;
