-- +goose Up
-- The smurf detector now weighs each game of a new account's sequential
-- test by the share of the game's other players who are established, and
-- tests other hypotheses: every ladder's counters are deleted and rebuilt
-- from its log's start by the integrity job, which folds the results rated
-- meanwhile as it reaches them. Flags already raised stay.
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;

-- +goose Down
UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true;
