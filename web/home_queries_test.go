package web

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"gorm.io/gorm"
)

// seedGuilds imports a short history into n guilds, 100000000000001000 and
// on; guild i's players are listed or not by how many matches it played.
func seedGuilds(tb testing.TB, svc *ladder.Service, n int) []string {
	tb.Helper()
	start := time.Now().UTC().Add(-48 * time.Hour)
	var ids []string
	for g := range n {
		id := fmt.Sprint(100000000000001000 + g)
		var recs []rating.MatchRecord
		for i := range 6 + 6*(g%3) {
			a, b := []string{"1", "2"}, []string{"3", "4"}
			if i%2 == 1 {
				a, b = []string{"1", "3"}, []string{"2", "4"}
			}
			recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Minute), Team1: a, Team2: b, Winner: 1 + i%2})
		}
		if _, err := svc.ImportMatches(context.Background(), id, "", recs, nil); err != nil {
			tb.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// countStatements counts the statements gorm sends from now on.
func countStatements(tb testing.TB, g *gorm.DB) *atomic.Int64 {
	tb.Helper()
	var n atomic.Int64
	inc := func(*gorm.DB) { n.Add(1) }
	cb := g.Callback()
	name := fmt.Sprintf("test:count:%p", &n)
	for _, err := range []error{
		cb.Query().After("*").Register(name, inc), cb.Row().After("*").Register(name, inc),
		cb.Raw().After("*").Register(name, inc), cb.Create().After("*").Register(name, inc),
		cb.Update().After("*").Register(name, inc), cb.Delete().After("*").Register(name, inc),
	} {
		if err != nil {
			tb.Fatal(err)
		}
	}
	return &n
}

// TestHomeQueries checks that the start page reads the database a fixed
// number of times however many guilds it lists (it sent four statements
// per guild), and that each guild's count is what its board
// lists.
func TestHomeQueries(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		statements := map[int]int64{}
		for _, guilds := range []int{3, 12} {
			e := newEnv(t, testdb.DSN(t, backend), Options{})
			ids := seedGuilds(t, e.svc, guilds)
			n := countStatements(t, e.db.Gorm())
			home := call(e, "GET", "/", "").Body.String()
			statements[guilds] = n.Load()
			listed := 0
			for _, id := range ids {
				u, err := e.svc.Unlisted(context.Background(), id, "", 0)
				if err != nil {
					t.Fatal(err)
				}
				listed += u.Listed
				if want := fmt.Sprintf(`<a href="/guilds/%s">%s</a></td><td class="num">%d</td>`, id, id, u.Listed); !strings.Contains(home, want) {
					t.Errorf("Got(/ with %d guilds) lacks %q", guilds, want)
				}
			}
			if listed == 0 {
				t.Errorf("Got(no listed player in %d guilds), want some, or the counts prove nothing", guilds)
			}
		}
		if statements[3] != statements[12] || statements[12] > 2 {
			t.Errorf("Got(statements for / with 3 guilds, 12 guilds) = %d, %d; want the same, at most 2", statements[3], statements[12])
		}
	})
}

// BenchmarkHome serves the start page of 100 guilds, uncached, on each
// backend (it sent four statements per guild).
func BenchmarkHome(b *testing.B) {
	testdb.ForEach(b, func(b *testing.B, backend string) {
		e := newEnv(b, testdb.DSN(b, backend), Options{})
		seedGuilds(b, e.svc, 100)
		b.ResetTimer()
		for b.Loop() {
			rec := call(e, "GET", "/", "")
			if rec.Code != 200 {
				b.Fatalf("GET / = %d", rec.Code)
			}
		}
	})
}
