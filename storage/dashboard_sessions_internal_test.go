package storage

import (
	"context"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestDashboardSessions: a session is found until it expires; committing
// replaces it; a user's sessions go together; expired rows are swept.
func TestDashboardSessions(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		db := openBackend(t, backend)
		ctx := context.Background()
		later := time.Now().Add(time.Hour)
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(db.CommitSession(ctx, []byte("a"), "", []byte("anon"), later))
		must(db.CommitSession(ctx, []byte("a"), "u1", []byte("one"), later))
		must(db.CommitSession(ctx, []byte("b"), "u1", []byte("two"), later))
		must(db.CommitSession(ctx, []byte("c"), "u2", []byte("other"), later))
		if data, ok, err := db.FindSession(ctx, []byte("a")); err != nil || !ok || string(data) != "one" {
			t.Errorf("Got(FindSession(a)) = %q, %v, %v; want the replaced data", data, ok, err)
		}
		if n, err := db.DeleteUserSessions(ctx, "u1"); err != nil || n != 2 {
			t.Errorf("Got(DeleteUserSessions(u1)) = %d, %v; want 2", n, err)
		}
		for key, want := range map[string]bool{"a": false, "b": false, "c": true} {
			if _, ok, _ := db.FindSession(ctx, []byte(key)); ok != want {
				t.Errorf("Got(session %s found) = %v, want %v", key, ok, want)
			}
		}
		// An expired session is not found, and the next commit sweeps it.
		must(db.CommitSession(ctx, []byte("old"), "u3", []byte("x"), time.Now().Add(-time.Second)))
		if _, ok, _ := db.FindSession(ctx, []byte("old")); ok {
			t.Error("Got(expired session) found, want not")
		}
		must(db.CommitSession(ctx, []byte("d"), "u4", []byte("y"), later))
		var n int64
		must(db.Gorm().Raw("SELECT COUNT(*) FROM dashboard_sessions WHERE user_id = 'u3'").Scan(&n).Error)
		if n != 0 {
			t.Errorf("Got(expired rows after a commit) = %d, want 0", n)
		}
		must(db.DeleteSession(ctx, []byte("c")))
		must(db.DeleteSession(ctx, []byte("c")))
		if _, ok, _ := db.FindSession(ctx, []byte("c")); ok {
			t.Error("Got(deleted session) found")
		}
	})
}
