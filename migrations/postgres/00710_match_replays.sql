-- +goose Up
-- The Showdown replays that proved a match (/report replay), one row a
-- replay and guild: a replay proves one match, so the same battle offered
-- for another match of the same players (a rematch) is refused. replay_id
-- is the replay's ID as ladder.ReplayKey writes it: the URL's last path
-- segment in lower case, without a query, a fragment, .json or .log.
CREATE TABLE match_replays (
    guild_id  text NOT NULL,
    replay_id text NOT NULL,
    match_id  bigint NOT NULL,
    at        timestamptz NOT NULL,
    PRIMARY KEY (guild_id, replay_id)
);

-- The replays that proved matches before: each is the reason of its
-- replay_confirm audit entry; the earliest match keeps a replay given twice.
INSERT INTO match_replays (guild_id, replay_id, match_id, at)
SELECT guild_id, id, match_id, at FROM (
    SELECT guild_id, match_id, at,
           regexp_replace(regexp_replace(regexp_replace(lower(btrim(reason)), '[?#].*$', ''), '/+$', ''), '^.*/', '') AS r
    FROM audit_log WHERE action = 'replay_confirm' AND match_id IS NOT NULL
) a, LATERAL (SELECT regexp_replace(a.r, '\.(json|log)$', '') AS id) k
WHERE id <> ''
ORDER BY at, match_id
ON CONFLICT DO NOTHING;

-- +goose Down
DROP TABLE match_replays;
