-- +goose Up
-- Rows derived from the rated log are now written in the rated write's
-- transaction (storage's extension point, derived.go) instead of by a job
-- catching up on the log.

-- Integrity: a ladder is live when the rated write folds each new match;
-- otherwise the job rebuilds it (clear: delete the old counters first).
-- Every existing ladder is rebuilt once, from its log's start.
ALTER TABLE integrity_progress ADD COLUMN live boolean NOT NULL DEFAULT false;
ALTER TABLE integrity_progress ADD COLUMN clear boolean NOT NULL DEFAULT false;
DELETE FROM integrity_counters;
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = false;
INSERT INTO integrity_progress (queue_id, season_id, guild_id, seq, folded, live, clear)
SELECT DISTINCT queue_id, season_id, guild_id, 0, 0, false, false FROM matches WHERE state IN ('confirmed', 'resolved')
ON CONFLICT (queue_id, season_id) DO NOTHING;
CREATE INDEX integrity_progress_pending ON integrity_progress (queue_id, season_id) WHERE NOT live;
CREATE INDEX integrity_flags_unposted ON integrity_flags (guild_id, id) WHERE NOT posted;
-- Corrections mark their ladder in their own transaction: no audit position.
DROP TABLE integrity_audit;

-- Predictions: what each counts for in predictor_points (its match rated;
-- called right), and the points per predictor, queue and season.
ALTER TABLE predictions ADD COLUMN counted boolean NOT NULL DEFAULT false;
ALTER TABLE predictions ADD COLUMN won boolean NOT NULL DEFAULT false;
UPDATE predictions SET counted = (SELECT m.state IN ('confirmed', 'resolved') FROM matches m WHERE m.id = predictions.match_id),
 won = (SELECT m.state IN ('confirmed', 'resolved') AND m.winner = predictions.team FROM matches m WHERE m.id = predictions.match_id);
CREATE TABLE predictor_points (
    queue_id  bigint NOT NULL,
    season_id bigint NOT NULL,
    user_id   text NOT NULL,
    guild_id  text NOT NULL,
    points    integer NOT NULL DEFAULT 0,
    correct   integer NOT NULL DEFAULT 0,
    called    integer NOT NULL DEFAULT 0,
    PRIMARY KEY (queue_id, season_id, user_id)
);
CREATE INDEX predictor_points_board ON predictor_points (queue_id, season_id, points DESC, correct DESC, user_id);
INSERT INTO predictor_points (queue_id, season_id, user_id, guild_id, points, correct, called)
SELECT m.queue_id, m.season_id, p.user_id, p.guild_id, SUM(CASE WHEN p.won THEN p.points ELSE 0 END),
 SUM(CASE WHEN p.won THEN 1 ELSE 0 END), COUNT(*)
FROM predictions p JOIN matches m ON m.id = p.match_id WHERE p.counted
GROUP BY m.queue_id, m.season_id, p.user_id, p.guild_id;

-- MVP votes: whether each counts in mvp_counts (its match rated), and the
-- titles and votes per player, queue and season.
ALTER TABLE mvp_votes ADD COLUMN counted boolean NOT NULL DEFAULT false;
UPDATE mvp_votes SET counted = (SELECT m.state IN ('confirmed', 'resolved') FROM matches m WHERE m.id = mvp_votes.match_id);
CREATE TABLE mvp_counts (
    queue_id  bigint NOT NULL,
    season_id bigint NOT NULL,
    user_id   text NOT NULL,
    guild_id  text NOT NULL,
    mvps      integer NOT NULL DEFAULT 0,
    votes     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (queue_id, season_id, user_id)
);
CREATE INDEX mvp_counts_board ON mvp_counts (queue_id, season_id, mvps DESC, votes DESC, user_id);
WITH tally AS (SELECT v.match_id, m.queue_id, m.season_id, m.guild_id, v.votee, COUNT(*) AS votes
  FROM mvp_votes v JOIN matches m ON m.id = v.match_id WHERE v.counted
  GROUP BY v.match_id, m.queue_id, m.season_id, m.guild_id, v.votee),
 top AS (SELECT match_id, MAX(votes) AS best FROM tally GROUP BY match_id)
INSERT INTO mvp_counts (queue_id, season_id, user_id, guild_id, mvps, votes)
SELECT t.queue_id, t.season_id, t.votee, t.guild_id, SUM(CASE WHEN t.votes = top.best THEN 1 ELSE 0 END), SUM(t.votes)
FROM tally t JOIN top ON top.match_id = t.match_id
GROUP BY t.queue_id, t.season_id, t.votee, t.guild_id;

-- +goose Down
DROP TABLE mvp_counts;
ALTER TABLE mvp_votes DROP COLUMN counted;
DROP TABLE predictor_points;
ALTER TABLE predictions DROP COLUMN won;
ALTER TABLE predictions DROP COLUMN counted;
CREATE TABLE integrity_audit (
    guild_id text PRIMARY KEY,
    audit_id bigint NOT NULL
);
DROP INDEX integrity_flags_unposted;
DROP INDEX integrity_progress_pending;
ALTER TABLE integrity_progress DROP COLUMN clear;
ALTER TABLE integrity_progress DROP COLUMN live;
