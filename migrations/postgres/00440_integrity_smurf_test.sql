-- +goose Up
-- The smurf detector now keeps a sequential test per new account and the
-- ratings of each ladder's established players in the counters: every
-- ladder's counters are deleted and rebuilt from its log's start by the
-- integrity job, which folds the results rated meanwhile as it reaches
-- them. Flags already raised stay.
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;

-- +goose Down
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;
