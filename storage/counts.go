package storage

import (
	"context"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/ladder"
)

// The season counts of package community (season_pairs, season_hours):
// moved by the transaction that changes a match's result, read by the
// stats page, recounted from the rated matches by verify.

var _ community.CountsReader = (*DB)(nil)

// The upserts of the season counts: on PostgreSQL one statement a table
// whatever the rows, given as arrays (its text is the same for a result
// as for an import batch of thousands, parsed once per connection); on
// SQLite statements of importInsertRows rows, straight to the connection
// (all but the last of an import's have the same text, parsed once).
const (
	pairsUpsertPG = `INSERT INTO season_pairs (queue_id, season_id, a, b, guild_id, wins, losses, draws)
 SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::int[])
 ON CONFLICT (queue_id, season_id, a, b) DO UPDATE SET wins = season_pairs.wins + excluded.wins,
 losses = season_pairs.losses + excluded.losses, draws = season_pairs.draws + excluded.draws`
	hoursUpsertPG = `INSERT INTO season_hours (queue_id, season_id, slot, guild_id, matches)
 SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::int[], ?::text[], ?::int[])
 ON CONFLICT (queue_id, season_id, slot) DO UPDATE SET matches = season_hours.matches + excluded.matches`
	pairsConflict = ` ON CONFLICT (queue_id, season_id, a, b) DO UPDATE SET wins = season_pairs.wins + excluded.wins,
 losses = season_pairs.losses + excluded.losses, draws = season_pairs.draws + excluded.draws`
	hoursConflict = ` ON CONFLICT (queue_id, season_id, slot) DO UPDATE SET matches = season_hours.matches + excluded.matches`
)

var (
	pairsColumns = []string{"queue_id", "season_id", "a", "b", "guild_id", "wins", "losses", "draws"}
	hoursColumns = []string{"queue_id", "season_id", "slot", "guild_id", "matches"}
)

// AddCounts implements community.CountsStore, the rows in key order.
// Deferred (later): it reads nothing back, so on PostgreSQL it travels
// with the transaction's next round trip.
func (t *tx) AddCounts(ctx context.Context, c community.Counts) error {
	if t.dialect == Postgres {
		if n := len(c.Pairs); n > 0 {
			qs, ss, as, bs, gs := make([]int64, n), make([]int64, n), make([]string, n), make([]string, n), make([]string, n)
			ws, ls, ds := make([]int32, n), make([]int32, n), make([]int32, n)
			for i, p := range c.Pairs {
				qs[i], ss[i], as[i], bs[i], gs[i] = p.QueueID, p.SeasonID, p.A, p.B, p.GuildID
				ws[i], ls[i], ds[i] = int32(p.Wins), int32(p.Losses), int32(p.Draws)
			}
			if err := t.arrays(ctx, pairsUpsertPG, qs, ss, as, bs, gs, ws, ls, ds); err != nil {
				return wrap("season pairs", err, "")
			}
		}
		if n := len(c.Hours); n > 0 {
			qs, ss, sl, gs, ms := make([]int64, n), make([]int64, n), make([]int32, n), make([]string, n), make([]int32, n)
			for i, h := range c.Hours {
				qs[i], ss[i], sl[i], gs[i], ms[i] = h.QueueID, h.SeasonID, int32(h.Slot), h.GuildID, int32(h.Matches)
			}
			if err := t.arrays(ctx, hoursUpsertPG, qs, ss, sl, gs, ms); err != nil {
				return wrap("season hours", err, "")
			}
		}
		return nil
	}
	for part := range slices.Chunk(c.Pairs, importInsertRows) {
		args := make([]any, 0, len(pairsColumns)*len(part))
		for _, p := range part {
			args = append(args, p.QueueID, p.SeasonID, p.A, p.B, p.GuildID, p.Wins, p.Losses, p.Draws)
		}
		if _, err := t.q(ctx).Statement.ConnPool.ExecContext(ctx, insertRowsSQL("season_pairs", pairsColumns, len(part))+pairsConflict, args...); err != nil {
			return wrap("season pairs", err, "")
		}
	}
	for part := range slices.Chunk(c.Hours, importInsertRows) {
		args := make([]any, 0, len(hoursColumns)*len(part))
		for _, h := range part {
			args = append(args, h.QueueID, h.SeasonID, h.Slot, h.GuildID, h.Matches)
		}
		if _, err := t.q(ctx).Statement.ConnPool.ExecContext(ctx, insertRowsSQL("season_hours", hoursColumns, len(part))+hoursConflict, args...); err != nil {
			return wrap("season hours", err, "")
		}
	}
	return nil
}

// arrays runs a PostgreSQL statement whose arguments include arrays:
// deferred in a pgx transaction (later), else straight to the
// connection, since the ORM would spread the arrays into lists.
func (t *tx) arrays(ctx context.Context, text string, args ...any) error {
	if t.pg != nil {
		return t.later(ctx, text, args...)
	}
	_, err := t.q(ctx).Statement.ConnPool.ExecContext(ctx, pgSQL(text), args...)
	return err
}

// SeasonCounts implements community.CountsReader. The recount folds the
// guild's rated matches through the same function as the writes
// (community.CountsOf), so the two can differ only where a write was
// lost or doubled.
func (db *DB) SeasonCounts(ctx context.Context, guildID string, fromLog bool) (community.Counts, error) {
	if fromLog {
		ms, err := db.ratedMatches(ctx, guildID)
		if err != nil {
			return community.Counts{}, err
		}
		return community.CountsOf(ms), nil
	}
	var c community.Counts
	err := db.q(ctx).Raw(`SELECT queue_id, season_id, guild_id, a, b, wins, losses, draws FROM season_pairs
		WHERE guild_id = ? AND (wins <> 0 OR losses <> 0 OR draws <> 0)`, guildID).Scan(&c.Pairs).Error
	if err != nil {
		return c, wrap("season counts", err, "")
	}
	err = db.q(ctx).Raw(`SELECT queue_id, season_id, guild_id, slot, matches FROM season_hours
		WHERE guild_id = ? AND matches <> 0`, guildID).Scan(&c.Hours).Error
	if err != nil {
		return c, wrap("season counts", err, "")
	}
	community.SortCounts(c)
	return c, nil
}

// StoredHours implements community.CountsReader.
func (db *DB) StoredHours(ctx context.Context, guildID string) ([]community.HourCount, error) {
	var out []community.HourCount
	err := db.q(ctx).Raw(`SELECT queue_id, season_id, guild_id, slot, matches FROM season_hours
		WHERE guild_id = ? AND matches <> 0`, guildID).Scan(&out).Error
	return out, wrap("season counts", err, "")
}

// ratedMatches reads a guild's rated matches with their teams, in ID
// order: the whole log.
func (db *DB) ratedMatches(ctx context.Context, guildID string) ([]ladder.Match, error) {
	var out []ladder.Match
	for {
		after := int64(0)
		if len(out) > 0 {
			after = out[len(out)-1].ID
		}
		ms, err := db.CountedMatches(ctx, guildID, after, 1000)
		if err != nil || len(ms) == 0 {
			return out, err
		}
		out = append(out, ms...)
	}
}

// CountedMatches implements community.CountsReader: a page of the guild's
// rated matches by ID (matches_guild), and their players.
func (db *DB) CountedMatches(ctx context.Context, guildID string, afterID int64, limit int) ([]ladder.Match, error) {
	var rows []struct {
		ID, QueueID, SeasonID int64
		Winner                int
		State                 string
		CreatedAt             time.Time
		PlayedAt              *time.Time
	}
	err := db.q(ctx).Raw(`SELECT m.id, m.queue_id, m.season_id, m.winner, m.state, m.created_at, m.played_at FROM matches m
		WHERE m.guild_id = ? AND `+ratedIn+` AND m.id > ? ORDER BY m.id LIMIT ?`, guildID, afterID, max(limit, 1)).Scan(&rows).Error
	if err != nil || len(rows) == 0 {
		return nil, wrap("rated matches", err, "")
	}
	out := make([]ladder.Match, len(rows))
	at := make(map[int64]int, len(rows))
	ids := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = ladder.Match{ID: r.ID, GuildID: guildID, QueueID: r.QueueID, SeasonID: r.SeasonID, Winner: r.Winner,
			State: ladder.MatchState(r.State), CreatedAt: r.CreatedAt.UTC()}
		if r.PlayedAt != nil {
			out[i].PlayedAt = r.PlayedAt.UTC()
		}
		at[r.ID], ids[i] = i, r.ID
	}
	for chunk := range slices.Chunk(ids, 500) {
		var ps []struct {
			MatchID int64
			UserID  string
			Team    int
		}
		err = db.q(ctx).Raw(`SELECT match_id, user_id, team FROM match_players WHERE match_id IN ? ORDER BY match_id, team, seat`, chunk).Scan(&ps).Error
		if err != nil {
			return nil, wrap("rated matches", err, "")
		}
		for _, p := range ps {
			if i, ok := at[p.MatchID]; ok && p.Team >= 1 && p.Team <= 2 {
				out[i].Teams[p.Team-1] = append(out[i].Teams[p.Team-1], p.UserID)
			}
		}
	}
	return out, nil
}

// StoredPairs implements community.CountsReader: a range of season_pairs'
// primary key after after's, rows of zeros left out.
func (db *DB) StoredPairs(ctx context.Context, guildID string, after community.PairCount, limit int) ([]community.PairCount, error) {
	var out []community.PairCount
	err := db.q(ctx).Raw(`SELECT queue_id, season_id, guild_id, a, b, wins, losses, draws FROM season_pairs
		WHERE (queue_id, season_id, a, b) > (?, ?, ?, ?) AND guild_id = ? AND (wins <> 0 OR losses <> 0 OR draws <> 0)
		ORDER BY queue_id, season_id, a, b LIMIT ?`, after.QueueID, after.SeasonID, after.A, after.B, guildID, max(limit, 1)).Scan(&out).Error
	return out, wrap("season counts", err, "")
}
