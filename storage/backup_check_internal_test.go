package storage

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestRestoreRefusesImpossibleBackups: a backup changed by hand into a
// state the live paths never write — a rated match without its
// match_players rows, a player name with a NUL, a stored rating the log
// does not give, a text value that is not UTF-8 — is refused with the
// table, the row and the reason, on both backends, and the target stays
// empty (a good backup then restores into it).
func TestRestoreRefusesImpossibleBackups(t *testing.T) {
	ctx := context.Background()
	src := openBackend(t, testdb.SQLite)
	seedLadder(t, ladder.NewService(src, nil))
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	if _, err := src.Backup(ctx, good); err != nil {
		t.Fatalf("Backup() = %v", err)
	}
	cases := []struct {
		name   string
		tamper string
		want   []string
	}{
		{"rated match without its players",
			"DELETE FROM match_players WHERE match_id = (SELECT min(id) FROM matches WHERE state = 'confirmed')",
			[]string{"table match_players", "match ", "0 rows"}},
		{"NUL in a player name",
			"UPDATE players SET name = 'Eve' || char(0) || 'x' WHERE rowid = (SELECT min(rowid) FROM players)",
			[]string{"table players", "column name", "control character U+0000"}},
		{"invalid UTF-8 in a dispute reason",
			"UPDATE matches SET dispute_reason = CAST(x'ff41' AS TEXT) WHERE id = (SELECT min(id) FROM matches)",
			[]string{"table matches", "column dispute_reason", "not valid UTF-8"}},
		{"rating that the log does not give",
			"UPDATE ratings SET rating = rating + 50, display = display + 50 WHERE rowid = (SELECT min(rowid) FROM ratings WHERE games > 0)",
			[]string{"table ratings", "player ", "replay gives"}},
		{"user ID with a NUL",
			"UPDATE queue_bans SET user_id = 'x' || char(0) WHERE rowid = (SELECT min(rowid) FROM queue_bans)",
			[]string{"table queue_bans", "column user_id"}},
	}
	for _, c := range cases {
		file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".db")
		if err := copyFile(good, file); err != nil {
			t.Fatal(err)
		}
		tamper(t, file, c.tamper)
		for _, backend := range testdb.Backends() {
			t.Run(c.name+"/"+backend, func(t *testing.T) {
				dst := openBackend(t, backend)
				_, err := dst.Restore(ctx, file)
				if err == nil {
					t.Fatalf("Restore(%s) = nil, want a refusal", c.name)
				}
				for _, w := range c.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("Restore(%s) = %q, want it to name %q", c.name, err, w)
					}
				}
				if rows := slices.DeleteFunc(tableDump(t, dst), func(r string) bool { return strings.HasPrefix(r, "rating_seq ") }); len(rows) != 0 {
					t.Errorf("Got(rows after a refused restore) = %d, want 0, first %s", len(rows), rows[0])
				}
				if _, err := dst.Restore(ctx, good); err != nil {
					t.Errorf("Restore(good backup after a refusal) = %v", err)
				}
			})
		}
	}
}

// tamper runs one statement on the SQLite file at path, as a person
// editing a backup by hand would.
func tamper(t *testing.T, path, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(stmt)
	if err != nil {
		t.Fatalf("tamper %q: %v", stmt, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		t.Fatalf("tamper %q changed no row", stmt)
	}
}

// TestBackupRefusesLiveFile: a backup whose target is the live SQLite
// database — by its path, through a symbolic link, as a hard link, or one
// of its -wal/-shm files — is refused, and the ladder stays intact and
// readable; a failed backup leaves no file beside the target.
func TestBackupRefusesLiveFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	db, err := Open(ctx, "sqlite:"+live, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := ladder.NewService(db, nil)
	seedLadder(t, svc)
	before := tableDump(t, db)
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(live, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.db")
	if err := os.Link(live, hard); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Symlink(dir, sub); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{live, link, hard, live + "-wal", live + "-shm", filepath.Join(sub, "live.db"), filepath.Join(dir, ".", "live.db")} {
		_, err := db.Backup(ctx, target)
		if err == nil || !strings.Contains(err.Error(), "live database") {
			t.Errorf("Backup(%s) = %v, want a refusal naming the live database", target, err)
		}
	}
	if after := tableDump(t, db); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("the live ladder changed under refused backups")
	}
	if err := checkSnapshot(ctx, db.sql); err != nil {
		t.Errorf("live database after refused backups: %v", err)
	}
	if rep, err := svc.Verify(ctx, ""); err != nil || len(rep.Diffs) != 0 {
		t.Errorf("Verify() after refused backups = %+v, %v", rep.Diffs, err)
	}
	// A backup that fails at the rename (the target is a folder) leaves
	// nothing beside it.
	folder := filepath.Join(dir, "out")
	if err := os.MkdirAll(filepath.Join(folder, "busy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Backup(ctx, filepath.Join(folder, "busy")); err == nil {
		t.Errorf("Backup(onto a folder) = nil, want an error")
	}
	if names := dirNames(t, folder); strings.Join(names, ",") != "busy" {
		t.Errorf("Got(files beside a failed backup) = %v, want only busy", names)
	}
	// A good backup beside it still works.
	if _, err := db.Backup(ctx, filepath.Join(folder, "ok.db")); err != nil {
		t.Errorf("Backup(ok.db) = %v", err)
	}
	if names := dirNames(t, folder); strings.Join(names, ",") != "busy,ok.db" {
		t.Errorf("Got(files after a backup) = %v, want busy and ok.db only", names)
	}
}

// TestRestoreLeavesNoTemporaryFiles: every restore, refused or not, removes
// its ladderbot-restore-* copy from the temporary folder.
func TestRestoreLeavesNoTemporaryFiles(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	src := openBackend(t, testdb.SQLite)
	seedLadder(t, ladder.NewService(src, nil))
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	if _, err := src.Backup(ctx, good); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.db")
	if err := copyFile(good, bad); err != nil {
		t.Fatal(err)
	}
	tamper(t, bad, "UPDATE players SET name = 'a' || char(0) WHERE rowid = 1")
	text := filepath.Join(dir, "notes.txt")
	if err := writeFile(text, "not a database"); err != nil {
		t.Fatal(err)
	}
	dst := openBackend(t, testdb.SQLite)
	for _, from := range []string{text, bad, filepath.Join(dir, "missing.db"), good, good} {
		dst.Restore(ctx, from) // the last is refused: not empty
		if names := dirNames(t, tmp); len(names) != 0 {
			t.Fatalf("Got(temporary files after Restore(%s)) = %v, want none", filepath.Base(from), names)
		}
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
