-- +goose Up
-- The Showdown replays that proved a match (/report replay), one row a
-- replay and guild: a replay proves one match, so the same battle offered
-- for another match of the same players (a rematch) is refused. replay_id
-- is the replay's ID as ladder.ReplayKey writes it: the URL's last path
-- segment in lower case, without a query, a fragment, .json or .log.
CREATE TABLE match_replays (
    guild_id  text NOT NULL,
    replay_id text NOT NULL,
    match_id  INTEGER NOT NULL,
    at        TIMESTAMP NOT NULL,
    PRIMARY KEY (guild_id, replay_id)
);

-- The replays that proved matches before: each is the reason of its
-- replay_confirm audit entry; the earliest match keeps a replay given twice.
INSERT OR IGNORE INTO match_replays (guild_id, replay_id, match_id, at)
WITH a AS (
    SELECT guild_id, match_id, at, lower(trim(reason)) AS r
    FROM audit_log WHERE action = 'replay_confirm' AND match_id IS NOT NULL
), b AS (
    SELECT guild_id, match_id, at, CASE WHEN instr(r, '#') > 0 THEN substr(r, 1, instr(r, '#') - 1) ELSE r END AS r FROM a
), c AS (
    SELECT guild_id, match_id, at, rtrim(CASE WHEN instr(r, '?') > 0 THEN substr(r, 1, instr(r, '?') - 1) ELSE r END, '/') AS r FROM b
), d AS (
    SELECT guild_id, match_id, at, replace(r, rtrim(r, replace(r, '/', '')), '') AS r FROM c
), e AS (
    SELECT guild_id, match_id, at, CASE
        WHEN r LIKE '%.json' THEN substr(r, 1, length(r) - 5)
        WHEN r LIKE '%.log' THEN substr(r, 1, length(r) - 4)
        ELSE r END AS r FROM d
)
SELECT guild_id, r, match_id, at FROM e WHERE r <> '' ORDER BY at, match_id;

-- +goose Down
DROP TABLE match_replays;
