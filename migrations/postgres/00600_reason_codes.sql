-- +goose Up
-- The reasons the ladder writes itself (a dispute it opens for conflicting
-- reports, a failed ready check, a cancel vote, an abandoned match, a
-- no-show and the penalties they bring) get their code (ladder.Reason as
-- JSON) beside the English text, which stays for the JSON API and the
-- command line; the edges word the reason from the code. Every row written
-- from now on has one, '' for a person's own words. Rows written before
-- keep NULL: the stores read their code from the text (ladder.ReasonCodeOf).
ALTER TABLE audit_log ADD COLUMN reason_code text;
ALTER TABLE matches ADD COLUMN dispute_reason_code text;
ALTER TABLE disputes ADD COLUMN reason_code text;
ALTER TABLE queue_cooldowns ADD COLUMN reason_code text;

-- +goose Down
ALTER TABLE queue_cooldowns DROP COLUMN reason_code;
ALTER TABLE disputes DROP COLUMN reason_code;
ALTER TABLE matches DROP COLUMN dispute_reason_code;
ALTER TABLE audit_log DROP COLUMN reason_code;
