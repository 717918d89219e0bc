-- +goose Up
-- The calibrator of each queue (the map from the model's prediction to the
-- win chance shown), kept as a row and moved by every rated write in the
-- same transaction as the result, instead of being refolded from the log
-- whenever a match opens. seq is the log position of the last result folded
-- in; state is the calibrator as JSON, '' until the first rated write after
-- this migration folds the queue's whole log once. sided marks a queue
-- whose team order means something (home/away): only then does the
-- calibration learn an edge for team 1.
CREATE TABLE calibrators (
    queue_id bigint PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
    guild_id text NOT NULL,
    seq      bigint NOT NULL DEFAULT 0,
    state    text NOT NULL DEFAULT '',
    sided    boolean NOT NULL DEFAULT false
);
INSERT INTO calibrators (queue_id, guild_id) SELECT id, guild_id FROM queues;

-- +goose Down
DROP TABLE calibrators;
