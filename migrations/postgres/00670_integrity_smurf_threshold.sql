-- +goose Up
-- The smurf detector's sequential test now flags at 20 times as likely
-- instead of 30: every ladder's counters are deleted and rebuilt from its
-- log's start by the integrity job, so an account whose ratio passed 20
-- times within its first games is flagged too; the results rated
-- meanwhile are folded as the job reaches them. Flags already raised stay.
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;

-- +goose Down
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;
