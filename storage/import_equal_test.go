package storage_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestImportEqualsResults imports a history in bulk into one guild and
// records the same matches one by one (RecordResult) into another, on
// both backends: the matches, the rating log and the rating rows are the
// same, so the bulk write is only a faster way to write them.
func TestImportEqualsResults(t *testing.T) {
	suite(t, map[string]func(t *testing.T, b string){
		"bulk import and one result at a time": func(t *testing.T, b string) {
			e := newEnv(t, b)
			const oneByOne = "100000000000000088"
			start := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
			recs := make([]rating.MatchRecord, 2500) // two batches
			for i := range recs {
				// Players join over time, so rows are created mid-batch.
				p := func(k int) string { return fmt.Sprintf("3%017d", (i*5+k*7)%(8+i/50)) }
				ps := []string{p(0), p(1), p(2), p(3)}
				if ps[0] == ps[1] || ps[0] == ps[2] || ps[0] == ps[3] || ps[1] == ps[2] || ps[1] == ps[3] || ps[2] == ps[3] {
					ps = []string{"3000000000000000001", "3000000000000000002", "3000000000000000003", "3000000000000000004"}
				}
				recs[i] = rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Minute),
					Team1: ps[:2], Team2: ps[2:], Winner: i % 3}
			}
			if _, err := e.svc.ImportMatches(e.ctx, guild, "", recs, nil); err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				in := ladder.ResultInput{GuildID: oneByOne, Team1: r.Team1, Team2: r.Team2, Winner: r.Winner, PlayedAt: r.Date, Source: "import"}
				if _, err := e.svc.RecordResult(e.ctx, in); err != nil {
					t.Fatal(err)
				}
			}
			for _, q := range []struct{ name, sql string }{
				{"matches", `SELECT team1, team2, state, winner, p_team1, p_raw, quality, played_at, source FROM matches WHERE guild_id = ? ORDER BY seq`},
				{"rating log", `SELECT c.user_id, c.team, c.kind, c.before_rating, c.before_dev, c.before_games, c.before_last_at, c.before_recent,
 c.after_rating, c.after_dev, c.after_games, c.after_last_at, c.after_recent, c.wins, c.losses, c.draws, c.streak, c.at
 FROM rating_changes c JOIN matches m ON m.id = c.match_id WHERE m.guild_id = ? ORDER BY c.seq, c.user_id`},
				{"ratings", `SELECT user_id, rating, dev, games, last_at, recent, base_rating, base_dev, base_games, wins, losses, draws, streak,
 stale, display, display_dev, provisional FROM ratings WHERE guild_id = ? ORDER BY user_id`},
			} {
				got, want := tableText(t, e, q.sql, guild), tableText(t, e, q.sql, oneByOne)
				if got != want || got == "" {
					t.Errorf("Got(%s of the import) =\n%.2000s\nwant those of the results one by one\n%.2000s", q.name, got, want)
				}
			}
			mustVerify(t, e)
		},
	})
}

// tableText returns the rows of query, whose one ? is guildID, as text.
func tableText(t *testing.T, e *env, query, guildID string) string {
	t.Helper()
	if e.db.Dialect() == "postgres" {
		query = strings.Replace(query, "?", "$1", 1)
	}
	rows, err := e.db.SQL().QueryContext(e.ctx, query, guildID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			if tm, ok := v.(time.Time); ok {
				v = tm.UTC().Format(time.RFC3339Nano)
			}
			fmt.Fprintf(&b, "%v|", v)
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
