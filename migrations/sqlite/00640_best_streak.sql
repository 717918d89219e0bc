-- +goose Up
-- The longest run of wins of each player in each ladder, kept with the
-- record it belongs to: on every log row (as it stood after that row),
-- so that a replay from any row starts from it, and on the rating row,
-- so that the season's stats rank it without reading the log. Filled for
-- the rows already there from the streaks the log kept.
ALTER TABLE rating_changes ADD COLUMN best_streak INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN best_streak INTEGER NOT NULL DEFAULT 0;
UPDATE rating_changes SET best_streak = w.best
FROM (SELECT id, MAX(CASE WHEN streak > 0 THEN streak ELSE 0 END)
        OVER (PARTITION BY queue_id, season_id, user_id ORDER BY seq, id ROWS UNBOUNDED PRECEDING) AS best
      FROM rating_changes) w
WHERE w.id = rating_changes.id AND w.best <> 0;
UPDATE ratings SET best_streak = (SELECT MAX(rc.best_streak) FROM rating_changes rc
  WHERE rc.queue_id = ratings.queue_id AND rc.season_id = ratings.season_id AND rc.user_id = ratings.user_id)
WHERE EXISTS (SELECT 1 FROM rating_changes rc
  WHERE rc.queue_id = ratings.queue_id AND rc.season_id = ratings.season_id AND rc.user_id = ratings.user_id AND rc.best_streak > 0);

-- +goose Down
ALTER TABLE ratings DROP COLUMN best_streak;
ALTER TABLE rating_changes DROP COLUMN best_streak;
