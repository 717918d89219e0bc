-- +goose Up
-- The smurf detector no longer takes a player of an earlier season who
-- plays a new season late for a new account: a ladder's player counters
-- say which players are new, so every ladder's counters are deleted and
-- rebuilt from its log's start by the integrity job, which folds the
-- results rated meanwhile as it reaches them. Flags already raised stay.
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;

-- +goose Down
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;
