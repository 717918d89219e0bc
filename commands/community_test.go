package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"github.com/ladderbot/ladderbot/storage"
)

// newCommunityFixture is the command set with the community reads over a
// real database of backend b, holding 12 rated 2v2 matches: users 1+2 beat
// 3+4 nine times, then 3+4 win three.
func newCommunityFixture(t *testing.T, b string) *fixture {
	t.Helper()
	ctx := context.Background()
	db, svc := openCommunityDB(t, b)
	start := time.Now().UTC().Add(-24 * time.Hour)
	var recs []rating.MatchRecord
	for i := range 12 {
		w := 1
		if i >= 9 {
			w = 2
		}
		recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Minute),
			Team1: []string{user(1), user(2)}, Team2: []string{user(3), user(4)}, Winner: w})
	}
	if _, err := svc.ImportMatches(ctx, guild, "", recs, nil); err != nil {
		t.Fatalf("ImportMatches: %v", err)
	}
	return &fixture{t: t, svc: svc, set: New(Deps{Service: svc, Community: community.New(db, svc)})}
}

// openCommunityDB opens a fresh database of backend b with the rows
// derived from the log wired as the bot wires them, and its service.
func openCommunityDB(t *testing.T, b string) (*storage.DB, *ladder.Service) {
	t.Helper()
	db, err := storage.Open(context.Background(), testdb.DSN(t, b), nil)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	derived.Wire(db, integrity.New(db, nil))
	return db, ladder.NewService(db, nil)
}

func TestCompareCommand(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		f := newCommunityFixture(t, b)
		r := f.ok(cmd(user(5), "compare", map[string]any{"a": user(1), "b": user(3)}))
		fields := map[string]string{}
		for _, fl := range r.Embeds[0].Fields {
			fields[fl.Name] = fl.Value
		}
		if got := fields["Against each other"]; !strings.HasPrefix(got, "12 games · 9-3") {
			t.Errorf("Got(against) = %q, want 12 games 9-3", got)
		}
		if got := fields["As partners"]; got != "no games" {
			t.Errorf("Got(as partners) = %q, want no games", got)
		}
		if got := fields["Last meetings"]; strings.Count(got, "\n") != 5 || !strings.Contains(got, "Match #12") || !strings.Contains(got, "loss") {
			t.Errorf("Got(last meetings) = %q, want the last five, #12 a loss first", got)
		}
		if !strings.Contains(fields["Chance one on one"], "%") {
			t.Errorf("Got(chance) = %q", fields["Chance one on one"])
		}
		for _, tc := range []struct {
			name string
			opts map[string]any
			want ladder.Code
		}{
			{"same", map[string]any{"a": user(1), "b": user(1)}, ladder.CodeInvalid},
			{"unknown", map[string]any{"a": user(1), "b": user(77)}, ladder.CodeNotFound},
			{"queue", map[string]any{"a": user(1), "b": user(2), "queue": "nope"}, ladder.CodeNotFound},
			{"season", map[string]any{"a": user(1), "b": user(2), "season": int64(4)}, ladder.CodeNotFound},
		} {
			if _, err := f.call(cmd(user(5), "compare", tc.opts)); ladder.ErrorCode(err) != tc.want {
				t.Errorf("Got(/compare %s) = %v, want %s", tc.name, err, tc.want)
			}
		}
	})
}

// TestHistoryCommand pages a player's twelve matches with the buttons and
// back, privately, and refuses forged buttons.
func TestHistoryCommand(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		f := newCommunityFixture(t, b)
		r := f.ok(cmd(user(5), "history", map[string]any{"player": user(2)}))
		if !r.Ephemeral || len(r.Buttons) != 1 || len(r.Buttons[0]) != 2 {
			t.Fatalf("Got(/history) = %+v, want a private page with Prev and Next", r)
		}
		prev, next := r.Buttons[0][0], r.Buttons[0][1]
		// The player is mentioned on the first line, where a mention
		// renders, on every page.
		lines := func(r Reply) string {
			t.Helper()
			d, ok := strings.CutPrefix(r.Embeds[0].Description, "<@"+user(2)+">\n")
			if !ok || strings.Contains(r.Embeds[0].Title, "<@") {
				t.Errorf("Got(page) titled %q: %q, want the player mentioned on the first line", r.Embeds[0].Title, r.Embeds[0].Description)
			}
			return d
		}
		if !prev.Disabled || next.Disabled || strings.Count(lines(r), "\n") != historyPageSize {
			t.Fatalf("Got(first page) prev disabled %v, next disabled %v, %q", prev.Disabled, next.Disabled, r.Embeds[0].Description)
		}
		if !strings.HasPrefix(lines(r), "`#12`") || !strings.Contains(r.Embeds[0].Description, "(loss)") {
			t.Errorf("Got(first line) = %q, want #12 first, a loss for user 2", r.Embeds[0].Description)
		}
		r2 := f.ok(click(user(5), next.CustomID))
		if !r2.Update || !r2.Ephemeral || !strings.HasPrefix(lines(r2), "`#2`") || strings.Count(lines(r2), "\n") != 2 {
			t.Fatalf("Got(second page) = %+v, want #2 and #1, updated in place", r2)
		}
		if !r2.Buttons[0][1].Disabled || r2.Buttons[0][0].Disabled {
			t.Errorf("Got(second page buttons) = %+v, want Prev only", r2.Buttons[0])
		}
		r3 := f.ok(click(user(5), r2.Buttons[0][0].CustomID))
		if r3.Embeds[0].Description != r.Embeds[0].Description {
			t.Errorf("Got(Prev from page 2) = %q, want page 1 again", r3.Embeds[0].Description)
		}
		for _, forged := range []string{
			"hist:5:x:all:0",                // bad direction
			"hist:0:o:all:0",                // no cursor
			"hist:5:o:all",                  // missing queue
			"hist:5:o:all:999",              // another guild's (or no) queue
			"hist:5:o:700000000000000099:0", // unknown player
			"hist:5:o:abc:0",                // not a player ID
		} {
			if _, err := f.call(click(user(5), forged)); err == nil {
				t.Errorf("Got(%s) accepted, want refused", forged)
			}
		}
	})
}

func TestStatsCommand(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		f := newCommunityFixture(t, b)
		r := f.ok(cmd(user(5), "stats", nil))
		fields := map[string]string{}
		for _, fl := range r.Embeds[0].Fields {
			fields[fl.Name] = fl.Value
		}
		if got := fields["Current win streaks"]; strings.Count(got, "3 wins in a row") != 2 || strings.Contains(got, "9 wins") {
			t.Errorf("Got(streaks) = %q, want users 3 and 4 on 3", got)
		}
		// 1 and 2 won the first nine, then lost their run.
		if got := fields["Longest win streaks of the season"]; !strings.HasPrefix(got, "1. ") || strings.Count(got, "9 wins in a row") != 2 || strings.Count(got, "3 wins in a row") != 2 {
			t.Errorf("Got(best streaks) = %q, want users 1 and 2 on 9, then 3 and 4 on 3", got)
		}
		if got := fields["Best partnerships (5+ games together)"]; !strings.HasPrefix(got, "1. ") || !strings.Contains(got, "12 games · 9-3") {
			t.Errorf("Got(partnerships) = %q, want 1+2 at 9-3 first", got)
		}
		if got := fields["Most active"]; strings.Count(got, "12 matches") != 4 {
			t.Errorf("Got(most active) = %q", got)
		}
		if got := fields["Biggest upsets"]; !strings.HasPrefix(got, "1. Match #") {
			t.Errorf("Got(upsets) = %q", got)
		}
	})
}

// TestCommunityCommandsWithout checks that a bot started without the
// community reads refuses the commands plainly.
func TestCommunityCommandsWithout(t *testing.T) {
	f := newFixture(t)
	f.set = New(Deps{Service: f.svc})
	if _, err := f.call(cmd(user(1), "stats", nil)); ladder.ErrorCode(err) != ladder.CodeUnavailable {
		t.Errorf("Got(/stats without community) = %v, want unavailable", err)
	}
}

// TestHistoryWidePages: ten lines of 8v8 matches (sixteen mentions each)
// pass Discord's 4,096 characters a description, which clipped the page's
// last line mid-mention. A page now keeps whole lines within the limit,
// and paging on with Next and back with Previous shows every match once,
// in order, none skipped.
func TestHistoryWidePages(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		ctx := context.Background()
		db, svc := openCommunityDB(t, b)
		start := time.Now().UTC().Add(-24 * time.Hour)
		var recs []rating.MatchRecord
		// A queue name of Discord's 32 characters, as a server may name one.
		const n, queue = 25, "eight-a-side-premier-league-2026"
		for i := range n {
			var a, c []string
			for j := range 8 {
				a, c = append(a, user(100+j)), append(c, user(200+j))
			}
			recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Minute), Team1: a, Team2: c, Winner: 1 + i%2})
		}
		if _, err := svc.EnsureGuild(ctx, guild); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CreateQueue(ctx, ladder.System, ladder.NewQueue(guild, queue, 8)); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.ImportMatches(ctx, guild, queue, recs, nil); err != nil {
			t.Fatalf("ImportMatches: %v", err)
		}
		f := &fixture{t: t, svc: svc, set: New(Deps{Service: svc, Community: community.New(db, svc)})}
		ids := func(r Reply) []string {
			d := r.Embeds[0].Description
			if k := len([]rune(d)); k > 4096 || !strings.HasSuffix(d, "\n") {
				t.Fatalf("Got(page of %d characters) = %q, want whole lines within 4,096", k, d)
			}
			var out []string
			for _, line := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
				if !strings.HasPrefix(line, "`#") || !strings.HasSuffix(line, "**") {
					t.Fatalf("Got(line) = %q, want a whole match line", line)
				}
				out = append(out, strings.Trim(strings.Fields(line)[0], "`#"))
			}
			return out
		}
		var seen []string
		pages := []Reply{f.ok(cmd(user(5), "history", nil))}
		for {
			r := pages[len(pages)-1]
			seen = append(seen, ids(r)...)
			if r.Buttons[0][1].Disabled {
				break
			}
			pages = append(pages, f.ok(click(user(5), r.Buttons[0][1].CustomID)))
		}
		want := make([]string, n)
		for i := range want {
			want[i] = fmt.Sprint(n - i)
		}
		if strings.Join(seen, ",") != strings.Join(want, ",") || len(ids(pages[0])) >= historyPageSize {
			t.Errorf("Got(matches paging on, %d on the first page) = %v, want %v once each, fewer than %d a page", len(ids(pages[0])), seen, want, historyPageSize)
		}
		// Back from the last page with Previous, to the first.
		var back []string
		r := pages[len(pages)-1]
		for !r.Buttons[0][0].Disabled {
			r = f.ok(click(user(5), r.Buttons[0][0].CustomID))
			back = append(ids(r), back...)
		}
		if strings.Join(back, ",")+","+strings.Join(ids(pages[len(pages)-1]), ",") != strings.Join(want, ",") {
			t.Errorf("Got(matches paging back) = %v then the last page, want %v", back, want)
		}
	})
}
