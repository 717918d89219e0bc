-- +goose Up
-- A ladder's log rows of matches by when the match was played: the stats
-- page's "most improved over 30 days" reads the window's rows from here
-- instead of walking the season's whole log by seq and testing each
-- row's time.
CREATE INDEX rating_changes_at ON rating_changes (queue_id, season_id, at) WHERE kind = 'match';

-- +goose Down
DROP INDEX rating_changes_at;
