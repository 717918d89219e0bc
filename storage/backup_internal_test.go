package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

const backupGuild = "100000000000000077"

func backupUser(i int) string { return fmt.Sprintf("3000000000000%05d", i) }

// openBackend opens a fresh, empty database of backend for t.
func openBackend(t *testing.T, backend string) *DB {
	t.Helper()
	db, err := Open(context.Background(), testdb.DSN(t, backend), nil)
	if err != nil {
		t.Fatalf("Open(%s) = %v", backend, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// seedLadder fills every kind of row a running ladder has: rated results
// (one with an idempotency key), a voided one (audit log, replay), a
// closed season (frozen standings), a dispute, a queue ticket, a ban, a
// token and a job run.
func seedLadder(t *testing.T, svc *ladder.Service) {
	t.Helper()
	ctx := context.Background()
	mod := ladder.Actor{UserID: "900000000000000001", Moderator: true}
	if _, err := svc.EnsureGuild(ctx, backupGuild); err != nil {
		t.Fatalf("EnsureGuild() = %v", err)
	}
	var first ladder.MatchResult
	for i := range 12 {
		in := ladder.ResultInput{GuildID: backupGuild, Winner: 1 + i%2,
			Team1: []string{backupUser(i % 6), backupUser((i + 1) % 6)},
			Team2: []string{backupUser((i + 2) % 6), backupUser((i + 3) % 6)},
			Names: map[string]string{backupUser(i % 6): fmt.Sprintf("Player «%d»", i%6)}}
		if i == 0 {
			in.IdempotencyKey = "seed-0"
		}
		res, err := svc.RecordResult(ctx, in)
		if err != nil {
			t.Fatalf("RecordResult(%d) = %v", i, err)
		}
		if i == 0 {
			first = res
		}
		if i == 5 {
			if _, err := svc.EndSeason(ctx, mod, backupGuild, 1); err != nil {
				t.Fatalf("EndSeason() = %v", err)
			}
		}
	}
	if _, err := svc.Void(ctx, mod, backupGuild, first.Match.ID, "seeded void"); err != nil {
		t.Fatalf("Void() = %v", err)
	}
	qs, err := svc.Queues(ctx, backupGuild)
	if err != nil {
		t.Fatalf("Queues() = %v", err)
	}
	m, err := svc.CreateMatch(ctx, ladder.NewMatch{GuildID: backupGuild, QueueID: qs[0].ID,
		Teams: [2][]string{{backupUser(20), backupUser(21)}, {backupUser(22), backupUser(23)}}})
	if err != nil {
		t.Fatalf("CreateMatch() = %v", err)
	}
	if _, err := svc.Report(ctx, ladder.Actor{UserID: backupUser(20)}, backupGuild, m.ID, ladder.Win); err != nil {
		t.Fatalf("Report() = %v", err)
	}
	if _, err := svc.Dispute(ctx, ladder.Actor{UserID: backupUser(22)}, backupGuild, m.ID, "we won", "https://example.com/x"); err != nil {
		t.Fatalf("Dispute() = %v", err)
	}
	if _, err := svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: backupGuild, UserID: backupUser(30), Name: "Queued"}); err != nil {
		t.Fatalf("JoinQueue() = %v", err)
	}
	if err := svc.BanFromQueue(ctx, mod, backupGuild, backupUser(31), time.Time{}, "seeded ban"); err != nil {
		t.Fatalf("BanFromQueue() = %v", err)
	}
	if _, _, err := svc.CreateToken(ctx, mod, backupGuild, "game-server"); err != nil {
		t.Fatalf("CreateToken() = %v", err)
	}
	if _, err := svc.ClaimJob(ctx, "seeded", "2026-01-01"); err != nil {
		t.Fatalf("ClaimJob() = %v", err)
	}
}

// writeWhile records results on svc until stop is closed and returns how
// many it recorded; the backup under test runs meanwhile.
func writeWhile(t *testing.T, svc *ladder.Service, stop <-chan struct{}, started chan<- struct{}) func() int {
	var (
		wg sync.WaitGroup
		mu sync.Mutex
		n  int
	)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				base := 100 + 10*w + i%2*4
				_, err := svc.RecordResult(context.Background(), ladder.ResultInput{GuildID: backupGuild, Winner: 1 + i%2,
					Team1: []string{backupUser(base), backupUser(base + 1)}, Team2: []string{backupUser(base + 2), backupUser(base + 3)}})
				if err != nil {
					t.Errorf("writer %d: RecordResult() = %v", w, err)
					return
				}
				mu.Lock()
				if n++; n == 4 {
					close(started)
				}
				mu.Unlock()
			}
		}()
	}
	return func() int { wg.Wait(); return n }
}

// TestBackupRestore takes a backup of each backend while two writers
// record results, restores it into an empty database of each backend,
// and checks that verify passes, every table arrived, new rows after the
// restore do not collide with restored IDs, and a second restore into the
// now full database is refused without changing it.
func TestBackupRestore(t *testing.T) {
	for _, from := range testdb.Backends() {
		for _, to := range testdb.Backends() {
			t.Run(from+"-to-"+to, func(t *testing.T) {
				ctx := context.Background()
				src := openBackend(t, from)
				srcSvc := ladder.NewService(src, nil)
				seedLadder(t, srcSvc)
				stop, started := make(chan struct{}), make(chan struct{})
				wait := writeWhile(t, srcSvc, stop, started)
				<-started
				file := filepath.Join(t.TempDir(), "ladder-backup.db")
				st, err := src.Backup(ctx, file)
				close(stop)
				writes := wait()
				if err != nil {
					t.Fatalf("Backup() = %v", err)
				}
				t.Logf("backup of %d rows taken among %d concurrent results", st.Total(), writes)
				if st.Rows["matches"] < 13 || st.Rows["api_tokens"] != 1 || st.Rows["seasons"] != 2 || st.Rows["disputes"] != 1 {
					t.Errorf("Got(backup rows) = %v, want ≥ 13 matches, 1 token, 2 seasons, 1 dispute", st.Rows)
				}

				dst := openBackend(t, to)
				got, err := dst.Restore(ctx, file)
				if err != nil {
					t.Fatalf("Restore() = %v", err)
				}
				if !equalRows(got.Rows, st.Rows) {
					t.Errorf("Got(restored rows) = %v, want the backup's %v", got.Rows, st.Rows)
				}
				dstSvc := ladder.NewService(dst, nil)
				rep, err := dstSvc.Verify(ctx, "")
				if err != nil || len(rep.Diffs) > 0 || rep.Matches == 0 {
					t.Fatalf("Verify() after restore = %+v, %v; want no differences", rep, err)
				}

				// New rows continue after the restored IDs and seq.
				var maxMatch, maxSeq, maxChange, maxAudit int64
				g := dst.Gorm()
				g.Raw("SELECT max(id) FROM matches").Scan(&maxMatch)
				g.Raw("SELECT max(seq) FROM rating_changes").Scan(&maxSeq)
				g.Raw("SELECT max(id) FROM rating_changes").Scan(&maxChange)
				g.Raw("SELECT max(id) FROM audit_log").Scan(&maxAudit)
				res, err := dstSvc.RecordResult(ctx, ladder.ResultInput{GuildID: backupGuild, Winner: 2,
					Team1: []string{backupUser(1), backupUser(2)}, Team2: []string{backupUser(3), backupUser(4)}})
				if err != nil {
					t.Fatalf("RecordResult() after restore = %v", err)
				}
				if res.Match.ID <= maxMatch || res.Match.Seq <= maxSeq {
					t.Errorf("Got(new match id, seq) = %d, %d, want after the restored %d, %d", res.Match.ID, res.Match.Seq, maxMatch, maxSeq)
				}
				var newChange, newAudit int64
				g.Raw("SELECT max(id) FROM rating_changes").Scan(&newChange)
				mod := ladder.Actor{UserID: "900000000000000001", Moderator: true}
				if _, err := dstSvc.Void(ctx, mod, backupGuild, res.Match.ID, "after restore"); err != nil {
					t.Fatalf("Void() after restore = %v", err)
				}
				g.Raw("SELECT max(id) FROM audit_log").Scan(&newAudit)
				if newChange <= maxChange || newAudit <= maxAudit {
					t.Errorf("Got(new rating change, audit ids) = %d, %d, want after %d, %d", newChange, newAudit, maxChange, maxAudit)
				}
				if rep, err := dstSvc.Verify(ctx, ""); err != nil || len(rep.Diffs) > 0 {
					t.Errorf("Verify() after new writes = %+v, %v; want no differences", rep, err)
				}

				before := tableDump(t, dst)
				if _, err := dst.Restore(ctx, file); err == nil || !strings.Contains(err.Error(), "not empty") {
					t.Errorf("Restore() into a full database = %v, want a refusal saying it is not empty", err)
				}
				if after := tableDump(t, dst); !slices.Equal(before, after) {
					t.Errorf("a refused restore changed the database")
				}
			})
		}
	}
}

// TestBackupRoundTrip moves a quiet SQLite ladder to PostgreSQL and back
// and compares every table with the original, value by value.
func TestBackupRoundTrip(t *testing.T) {
	ctx := context.Background()
	a := openBackend(t, testdb.SQLite)
	seedLadder(t, ladder.NewService(a, nil))
	pg := openBackend(t, testdb.Postgres)
	c := openBackend(t, testdb.SQLite)
	dir := t.TempDir()
	steps := []struct {
		from, to *DB
		file     string
	}{{a, pg, "a.db"}, {pg, c, "pg.db"}}
	for _, s := range steps {
		file := filepath.Join(dir, s.file)
		if _, err := s.from.Backup(ctx, file); err != nil {
			t.Fatalf("Backup(%s) = %v", s.file, err)
		}
		if _, err := s.to.Restore(ctx, file); err != nil {
			t.Fatalf("Restore(%s) = %v", s.file, err)
		}
	}
	want, got := tableDump(t, a), tableDump(t, c)
	if len(want) < 20 {
		t.Fatalf("Got(rows of the seeded ladder) = %d, want a ladder", len(want))
	}
	for i := range max(len(want), len(got)) {
		if i >= len(want) || i >= len(got) || want[i] != got[i] {
			t.Fatalf("round trip differs at row %d:\n got  %s\n want %s", i, at(got, i), at(want, i))
		}
	}
}

func at(rows []string, i int) string {
	if i < len(rows) {
		return rows[i]
	}
	return "(none)"
}

// TestBackupCoversEveryTable fails when a migration adds a table that
// backup and restore do not copy.
func TestBackupCoversEveryTable(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := openBackend(t, backend)
			q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
			if backend == testdb.Postgres {
				q = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() UNION ALL SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = current_schema() AND sequence_name = 'rating_seq'"
			}
			var names []string
			if err := db.Gorm().Raw(q).Scan(&names).Error; err != nil {
				t.Fatal(err)
			}
			names = slices.DeleteFunc(names, func(n string) bool { return n == "goose_db_version" || slices.Contains(notBackedUp, n) })
			slices.Sort(names)
			want := slices.Sorted(slices.Values(backupTables))
			if !slices.Equal(names, want) {
				t.Errorf("Got(tables) = %v, want backupTables %v", names, want)
			}
		})
	}
}

// TestRestoreRefusesNonBackup: a file that is not a ladderbot backup
// fails with a message naming it, and writes nothing.
func TestRestoreRefusesNonBackup(t *testing.T) {
	db := openBackend(t, testdb.SQLite)
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := writeFile(file, "not a database"); err != nil {
		t.Fatal(err)
	}
	_, err := db.Restore(context.Background(), file)
	if err == nil || !strings.Contains(err.Error(), "not a ladderbot backup") {
		t.Errorf("Restore(text file) = %v, want \"not a ladderbot backup\"", err)
	}
}

func equalRows(a, b map[string]int64) bool {
	for _, t := range backupTables {
		if a[t] != b[t] {
			return false
		}
	}
	return true
}

// tableDump returns every row of every table as text, tables in
// backupTables order and rows sorted, with values normalised by their
// declared kind so the two backends compare equal.
func tableDump(t *testing.T, db *DB) []string {
	t.Helper()
	ctx := context.Background()
	schema := openBackendSchema(t)
	var out []string
	for _, table := range backupTables {
		cols, err := sqliteColumns(ctx, schema, table)
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.name
		}
		rows, err := db.sql.QueryContext(ctx, "SELECT "+strings.Join(names, ", ")+" FROM "+table)
		if table == "rating_seq" && db.dialect == Postgres {
			rows, err = db.sql.QueryContext(ctx, "SELECT 1, CASE WHEN is_called THEN last_value ELSE 0 END FROM rating_seq")
		}
		if err != nil {
			t.Fatalf("dump %s: %v", table, err)
		}
		var lines []string
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("dump %s: %v", table, err)
			}
			var b strings.Builder
			b.WriteString(table)
			for i, c := range cols {
				v, err := convert(vals[i], c.kind)
				if err != nil {
					t.Fatalf("dump %s.%s: %v", table, c.name, err)
				}
				switch x := v.(type) {
				case time.Time:
					v = x.Format(time.RFC3339Nano)
				case string:
					v = canonicalJSON(x)
				}
				fmt.Fprintf(&b, " %s=%#v", c.name, v)
			}
			lines = append(lines, b.String())
		}
		rows.Close()
		slices.Sort(lines)
		out = append(out, lines...)
	}
	return out
}

// openBackendSchema returns a SQLite handle whose schema names every
// column's kind, for dumps of either backend.
func openBackendSchema(t *testing.T) *sql.DB {
	t.Helper()
	return openBackend(t, testdb.SQLite).sql
}

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o600) }

// canonicalJSON re-encodes a JSON object or array with sorted keys and no
// spaces: PostgreSQL keeps jsonb in its own canonical form, so settings
// such as divisions come back equal as JSON, not byte for byte. Other
// text is returned as it is.
func canonicalJSON(s string) string {
	if !strings.HasPrefix(s, "{") && !strings.HasPrefix(s, "[") {
		return s
	}
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return s
	}
	return "json:" + string(b)
}
