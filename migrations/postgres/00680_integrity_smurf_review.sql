-- +goose Up
-- The smurf detector reviews each new account's first games once more
-- when the ladder's season ends, on the sum of its games' ratios without
-- the floor: a ladder's progress row now says whether its season has
-- ended (then every fold reviews the accounts it touches), and the player
-- counters keep that sum and the rating after the latest early game.
-- Counters folded before have neither, so every ladder's counters are
-- deleted and rebuilt from its log's start by the integrity job; a ladder
-- of a season that ended already is rebuilt as ended, and so reviewed.
-- Flags already raised stay.
ALTER TABLE integrity_progress ADD COLUMN ended boolean NOT NULL DEFAULT false;
-- The ladders of running seasons, for the job's check that no ladder of
-- an ended season missed its end (a first fold racing it): its cost then
-- follows the running seasons' ladders, not every season's.
CREATE INDEX integrity_progress_running ON integrity_progress (season_id) WHERE NOT ended;
UPDATE integrity_progress SET ended = true
 WHERE season_id IN (SELECT id FROM seasons WHERE ended_at IS NOT NULL);
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;

-- +goose Down
DROP INDEX integrity_progress_running;
ALTER TABLE integrity_progress DROP COLUMN ended;
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;
