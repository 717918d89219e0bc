-- +goose Up
-- The model's own, uncalibrated P(team 1 wins) beside p_team1, the chance
-- shown: p_team1 is calibrated on every path now, opened
-- matches and results recorded at once (API, import) alike, and p_raw is
-- the input the calibration maps. 0 on rows from before: unknown.
ALTER TABLE matches ADD COLUMN p_raw double precision NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE matches DROP COLUMN p_raw;
