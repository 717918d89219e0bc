-- +goose Up
-- A season's partnerships and busiest hours, kept as counts that the
-- transaction changing a match's result moves (the rated write adds a
-- match; a moderator's correction or void takes its old result out and
-- puts the new one in), so the stats page reads a few rows instead of
-- every rated match of the season. Filled here from the rated matches
-- already stored; `ladderbot verify` recounts them and compares.
--
-- season_pairs: the record of two teammates a < b (byte order) in a
-- queue's season. season_pairs_best ranks those with 5 or more games
-- (community.MinPartnerGames) as the stats page does: points per game
-- (a draw ½), then games, then the pair.
CREATE TABLE season_pairs (
    queue_id  bigint NOT NULL,
    season_id bigint NOT NULL,
    a         text NOT NULL,
    b         text NOT NULL,
    guild_id  text NOT NULL,
    wins      integer NOT NULL DEFAULT 0,
    losses    integer NOT NULL DEFAULT 0,
    draws     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (queue_id, season_id, a, b)
);
CREATE INDEX season_pairs_best ON season_pairs (queue_id, season_id,
    ((wins + 0.5 * draws) / (wins + losses + draws)) DESC, (wins + losses + draws) DESC, a, b)
    WHERE wins + losses + draws >= 5;
INSERT INTO season_pairs (queue_id, season_id, a, b, guild_id, wins, losses, draws)
SELECT m.queue_id, m.season_id, a.user_id, b.user_id, m.guild_id,
    SUM(CASE WHEN m.winner = a.team THEN 1 ELSE 0 END),
    SUM(CASE WHEN m.winner <> a.team AND m.winner <> 0 THEN 1 ELSE 0 END),
    SUM(CASE WHEN m.winner = 0 THEN 1 ELSE 0 END)
FROM matches m
JOIN match_players a ON a.match_id = m.id
JOIN match_players b ON b.match_id = m.id AND b.team = a.team AND b.user_id > a.user_id COLLATE "C"
WHERE m.state IN ('confirmed', 'resolved')
GROUP BY m.queue_id, m.season_id, a.user_id, b.user_id, m.guild_id;

-- season_hours: a queue's rated matches of the season by the hour of the
-- week they were played (slot = weekday × 24 + hour, UTC, Sunday 0).
CREATE TABLE season_hours (
    queue_id  bigint NOT NULL,
    season_id bigint NOT NULL,
    slot      integer NOT NULL,
    guild_id  text NOT NULL,
    matches   integer NOT NULL DEFAULT 0,
    PRIMARY KEY (queue_id, season_id, slot)
);
INSERT INTO season_hours (queue_id, season_id, slot, guild_id, matches)
SELECT queue_id, season_id, (EXTRACT(DOW FROM COALESCE(played_at, created_at) AT TIME ZONE 'UTC') * 24 + EXTRACT(HOUR FROM COALESCE(played_at, created_at) AT TIME ZONE 'UTC'))::integer, guild_id, COUNT(*)
FROM matches
WHERE state IN ('confirmed', 'resolved')
GROUP BY 1, 2, 3, 4;

-- The season's biggest upsets: its won matches by the winners' shown
-- chance, lowest first, read from the front of this index.
CREATE INDEX matches_upsets ON matches (queue_id, season_id, (CASE WHEN winner = 1 THEN p_team1 ELSE 1 - p_team1 END), id DESC)
    WHERE state IN ('confirmed', 'resolved') AND winner IN (1, 2);

-- +goose Down
DROP INDEX matches_upsets;
DROP TABLE season_hours;
DROP TABLE season_pairs;
