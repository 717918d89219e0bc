package storage_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"github.com/ladderbot/ladderbot/storage"
)

// atpPath is the development data set of docs/spec.md 2.3, read in place.
const atpPath = "../../shared/data/atp_doubles_2v2.csv"

// noATP is why the import benchmarks skip on a clean clone.
var noATP = testdb.Reason{
	Why:    "without the dev data " + atpPath,
	Enable: "put atp_doubles_2v2.csv there to run them",
}

// atpHistory reads the ATP doubles history (25,782 2v2 matches).
func atpHistory(b *testing.B) []rating.MatchRecord {
	b.Helper()
	f, err := os.Open(atpPath)
	if errors.Is(err, os.ErrNotExist) {
		testdb.Skip(b, noATP)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	recs, err := rating.ReadMatchCSV(f)
	if err != nil {
		b.Fatal(err)
	}
	return recs
}

// BenchmarkImport imports the ATP doubles history into a fresh database
// (ladderbot import without the file reading): the check of every record,
// the rating replay, the bulk writes of 6 batches and, in each batch's
// transaction, the integrity counters the batch moves, wired as the
// command wires them. Compare it with BenchmarkImportBare, which writes
// the same rows and nothing else.
func BenchmarkImport(b *testing.B) {
	recs := atpHistory(b)
	testdb.ForEach(b, func(b *testing.B, be string) {
		ctx := context.Background()
		for range b.N {
			b.StopTimer()
			svc := ladder.NewService(openDerived(b, be), nil)
			b.StartTimer()
			rep, err := svc.ImportMatches(ctx, guild, "", recs, nil)
			if err != nil || rep.Imported != len(recs) {
				b.Fatalf("Got(ImportMatches) = %+v, %v, want %d imported", rep, err, len(recs))
			}
		}
		b.ReportMetric(float64(b.N*len(recs))/b.Elapsed().Seconds(), "matches/s")
	})
}

// importedTables are the tables an import writes, parents first; the log
// rows are written without their IDs, which the database assigns.
var importedTables = []struct{ name, columns string }{
	{"players", "guild_id, user_id, name, created_at"},
	{"ratings", "queue_id, season_id, user_id, guild_id, rating, dev, games, last_at, recent, base_rating, base_dev, base_games, " +
		"base_last_at, base_recent, wins, losses, draws, streak, best_streak, stale, display, display_dev, provisional"},
	{"matches", "id, guild_id, queue_id, season_id, team1, team2, state, winner, seq, p_team1, p_raw, quality, created_at, played_at, " +
		"reported_by, reported_winner, deadline, disputed_by, dispute_reason, evidence, rated_at, resolved_by, source, channel_id"},
	{"match_players", "match_id, guild_id, user_id, team, seat, active"},
	{"rating_changes", "seq, queue_id, season_id, match_id, user_id, team, kind, before_rating, before_dev, before_games, " +
		"before_last_at, before_recent, after_rating, after_dev, after_games, after_last_at, after_recent, wins, losses, draws, streak, best_streak, at"},
	{"idempotency_keys", "guild_id, key, match_id, created_at"},
	{"integrity_counters", "queue_id, season_id, guild_id, key, value"},
	{"integrity_flags", "guild_id, queue_id, season_id, kind, subject, matches, evidence, score, seq, raised_at"},
	{"season_pairs", "queue_id, season_id, a, b, guild_id, wins, losses, draws"},
	{"season_hours", "queue_id, season_id, slot, guild_id, matches"},
}

// openDerived is open with the derived rows wired, as every command that
// writes results wires them.
func openDerived(b *testing.B, be string) *storage.DB {
	db := open(b, be)
	derived.Wire(db, integrity.New(db, nil))
	return db
}

// importedATP opens a database with the derived rows wired and the ATP
// doubles history imported into guild, for the benchmarks of what runs
// over a long history.
func importedATP(b *testing.B, be string, recs []rating.MatchRecord) *storage.DB {
	b.Helper()
	db := openDerived(b, be)
	if _, err := ladder.NewService(db, nil).ImportMatches(context.Background(), guild, "", recs, nil); err != nil {
		b.Fatal(err)
	}
	return db
}

// BenchmarkImportBare is the floor BenchmarkImport is measured against:
// the rows an import of the ATP history leaves (players, final ratings,
// matches, their players, log rows, keys, integrity counters and flags),
// read back from one import
// and written into a fresh database with its guild in one transaction, by
// COPY on PostgreSQL and by INSERTs of 500 rows on SQLite, with no
// reading, checking or rating.
func BenchmarkImportBare(b *testing.B) {
	recs := atpHistory(b)
	testdb.ForEach(b, func(b *testing.B, be string) {
		ctx := context.Background()
		src := openDerived(b, be)
		if _, err := ladder.NewService(src, nil).ImportMatches(ctx, guild, "", recs, nil); err != nil {
			b.Fatal(err)
		}
		data := make([][][]any, len(importedTables))
		for i, tb := range importedTables {
			data[i] = readRows(b, src.SQL(), "SELECT "+tb.columns+" FROM "+tb.name)
		}
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			db := open(b, be)
			if _, err := ladder.NewService(db, nil).EnsureGuild(ctx, guild); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			var err error
			if be == testdb.Postgres {
				err = bareCopy(ctx, db, data)
			} else {
				err = bareInsert(ctx, db, data)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*len(recs))/b.Elapsed().Seconds(), "matches/s")
	})
}

// readRows reads every row of query as driver values.
func readRows(b *testing.B, db *sql.DB, query string) [][]any {
	b.Helper()
	rows, err := db.Query(query)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		b.Fatal(err)
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			b.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	return out
}

// bareCopy writes data with one COPY per table in one transaction.
func bareCopy(ctx context.Context, db *storage.DB, data [][][]any) error {
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		tx, err := pc.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		for i, tb := range importedTables {
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{tb.name}, strings.Split(tb.columns, ", "), pgx.CopyFromRows(data[i])); err != nil {
				return err
			}
		}
		return tx.Commit(ctx)
	})
}

// bareInsert writes data with INSERTs of 500 rows in one transaction.
func bareInsert(ctx context.Context, db *storage.DB, data [][][]any) error {
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i, tb := range importedTables {
		cols := strings.Split(tb.columns, ", ")
		row := "(" + strings.Repeat("?, ", len(cols)-1) + "?)"
		for start := 0; start < len(data[i]); start += 500 {
			chunk := data[i][start:min(start+500, len(data[i]))]
			args := make([]any, 0, len(chunk)*len(cols))
			for _, r := range chunk {
				args = append(args, r...)
			}
			q := "INSERT INTO " + tb.name + " (" + tb.columns + ") VALUES " + strings.TrimSuffix(strings.Repeat(row+", ", len(chunk)), ", ")
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}
