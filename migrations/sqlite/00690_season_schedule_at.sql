-- +goose Up
-- When a guild's season schedule was last changed: a schedule set while a
-- season runs counts from then, not from the season's start, so a season
-- is not closed at once for a time of the new schedule that had passed
-- before it was set. NULL: not changed since the guild's seasons began.
ALTER TABLE guilds ADD COLUMN season_schedule_at TIMESTAMP;

-- +goose Down
ALTER TABLE guilds DROP COLUMN season_schedule_at;
