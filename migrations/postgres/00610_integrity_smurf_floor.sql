-- +goose Up
-- The smurf detector's sequential test now keeps its log-likelihood ratio
-- from falling below −2 instead of 0 and flags at 30 times instead of 60:
-- every ladder's counters are deleted and rebuilt from its log's start by
-- the integrity job under the new test, which folds the results rated
-- meanwhile as it reaches them. Flags already raised stay.
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;

-- +goose Down
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;
