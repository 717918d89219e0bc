-- +goose Up
-- Captains mode: a queue's pick mode and pick window, and the
-- drafts of matches whose two highest-rated players pick their teams.
ALTER TABLE queue_lobby ADD COLUMN pick_mode text NOT NULL DEFAULT 'balanced';
ALTER TABLE queue_lobby ADD COLUMN pick_window_ms bigint NOT NULL DEFAULT 60000;

-- A draft waits for the ready check, then each pick has a deadline the
-- draft job makes the pick at, also after downtime; the state moves under
-- the match's row lock.
CREATE TABLE drafts (
    match_id bigint PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id text NOT NULL,
    queue_id bigint NOT NULL,
    state    text NOT NULL,
    deadline timestamptz
);
CREATE INDEX drafts_due ON drafts (state, deadline);

-- One row per player: captains hold their team from the start (pick 0),
-- the others team 0 until picked. rating is the displayed rating when the
-- match formed, what the captains saw.
CREATE TABLE draft_seats (
    match_id bigint NOT NULL REFERENCES drafts (match_id) ON DELETE CASCADE,
    user_id  text NOT NULL,
    rating   double precision NOT NULL,
    team     smallint NOT NULL DEFAULT 0,
    pick     smallint NOT NULL DEFAULT 0,
    auto     boolean NOT NULL DEFAULT false,
    PRIMARY KEY (match_id, user_id)
);

-- +goose Down
DROP TABLE draft_seats;
DROP TABLE drafts;
ALTER TABLE queue_lobby DROP COLUMN pick_window_ms;
ALTER TABLE queue_lobby DROP COLUMN pick_mode;
