package jobs_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/bot"
	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestSeasonPostToDiscord closes a season with three processes racing,
// each posting through the real bot (discordgo) to a fake Discord: the
// announcement channel gets one message, an embed of the top 25 and the
// full table as a CSV attachment.
func TestSeasonPostToDiscord(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		fake := fakediscord.New()
		defer fake.Close()
		dsn := testdb.DSN(t, b)
		setup := ladder.NewManualClock(seasonStart)
		p0 := newProc(t, dsn, setup, nil)
		playSeason(t, p0, setup)

		var procs []*proc
		for range 3 {
			bt, err := bot.New(bot.Config{Token: "test-token", APIBase: fake.URL()}, commands.NewSet(nil, nil, nil), slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatalf("bot.New() = %v", err)
			}
			var poster jobs.Poster = bt
			procs = append(procs, newProc(t, dsn, ladder.NewManualClock(aprilFirst.Add(5*time.Second)), poster))
		}
		done := make(chan error, len(procs))
		for _, p := range procs {
			go func() { _, err := p.sched.Run(ctx, jobs.JobSeasons); done <- err }()
		}
		for range procs {
			if err := <-done; err != nil {
				t.Fatalf("Run(seasons) = %v", err)
			}
		}

		sts, err := p0.svc.SeasonStandingsOf(ctx, guild, 1)
		if err != nil || len(sts) != 1 {
			t.Fatalf("SeasonStandingsOf(1) = %d, %v", len(sts), err)
		}
		rows := sts[0].Results
		msgs := fake.ChannelMessages(announce)
		if len(msgs) != 1 {
			t.Fatalf("Got(messages in the announcement channel) = %d, want 1", len(msgs))
		}
		m := msgs[0]
		if len(m.Embeds) != 1 || !strings.Contains(m.Embeds[0].Title, "Season 1 final standings") {
			t.Fatalf("Got(embeds) = %+v, want one titled Season 1 final standings", m.Embeds)
		}
		if got := len(m.Embeds[0].Fields); got != 25 {
			t.Errorf("Got(embed rows) = %d, want 25", got)
		}
		first := m.Embeds[0].Fields[0]
		if !strings.HasPrefix(first.Name, "#1 ") || !strings.Contains(first.Value, rows[0].Division) {
			t.Errorf("Got(first row) = %q / %q, want rank 1 in %s", first.Name, first.Value, rows[0].Division)
		}
		if len(m.Mentions) != 0 {
			t.Errorf("Got(allowed mentions) = %v, want nobody pinged", m.Mentions)
		}
		if len(m.Files) != 1 || m.Files[0].Name != "season-1-2v2.csv" {
			t.Fatalf("Got(files) = %d, want season-1-2v2.csv", len(m.Files))
		}
		recs, err := csv.NewReader(bytes.NewReader(m.Files[0].Data)).ReadAll()
		if err != nil {
			t.Fatalf("reading the attached CSV: %v", err)
		}
		if len(recs) != len(rows)+1 || recs[0][0] != "rank" || recs[len(recs)-1][1] != rows[len(rows)-1].UserID {
			t.Errorf("Got(CSV) = %d lines ending %v, want a header and %d rows ending with %s", len(recs), recs[len(recs)-1], len(rows), rows[len(rows)-1].UserID)
		}
	})
}
