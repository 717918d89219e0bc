-- The shape of one rated result in one hot guild, for pgbench -f: lock the
-- guild's sequence row, update four players' rating rows, insert the match
-- and its four log rows, commit. BenchmarkHotGuild (internal/e2e) runs it
-- beside the ladder's own API path as the hardware's limit for that shape;
-- its tables (hg_*) are made by the benchmark in a scratch schema.
\set p1 random(1, 100)
\set p2 random(1, 100)
\set p3 random(1, 100)
\set p4 random(1, 100)
BEGIN;
UPDATE hg_guilds SET seq = seq + 1 WHERE id = 1 RETURNING seq;
UPDATE hg_ratings SET rating = rating + 1, games = games + 1 WHERE id = :p1;
UPDATE hg_ratings SET rating = rating + 1, games = games + 1 WHERE id = :p2;
UPDATE hg_ratings SET rating = rating - 1, games = games + 1 WHERE id = :p3;
UPDATE hg_ratings SET rating = rating - 1, games = games + 1 WHERE id = :p4;
INSERT INTO hg_matches (guild_id, team1, team2, played_at) VALUES (1, ':p1,:p2', ':p3,:p4', now());
INSERT INTO hg_log (player, delta, at) VALUES (:p1, 1, now()), (:p2, 1, now()), (:p3, -1, now()), (:p4, -1, now());
COMMIT;
