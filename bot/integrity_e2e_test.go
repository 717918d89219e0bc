package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestIntegrityEndToEnd: four players trading wins twenty times are
// flagged by their rated results themselves (listed before any job run),
// and the integrity job posts each flag once to the log channel (the run
// of a minute is claimed once, and each flag is claimed before its post);
// /mod integrity lists them for moderators only, and dismissing one takes
// it off the list.
func TestIntegrityEndToEnd(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		g, err := e.svc.EnsureGuild(e.ctx, testGuild)
		if err != nil {
			t.Fatalf("EnsureGuild() = %v", err)
		}
		g.LogChannelID = testChannel
		if _, err := e.svc.UpdateGuild(e.ctx, ladder.System, g); err != nil {
			t.Fatalf("UpdateGuild() = %v", err)
		}
		wantText(t, "empty list", e.slash(owner, "mod integrity", nil), "No open integrity flags")
		for i := range 20 {
			_, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: testGuild, Team1: []string{players[0].ID, players[1].ID},
				Team2: []string{players[2].ID, players[3].ID}, Winner: 1 + i%2, PlayedAt: time.Now().Add(-time.Hour)})
			if err != nil {
				t.Fatalf("RecordResult() = %v", err)
			}
		}
		no := e.slash(alice, "mod integrity", nil)
		if !no.Ephemeral() || !strings.Contains(no.Message.Text(), "not allowed") {
			t.Errorf("Got(non-moderator /mod integrity) = %q, want a private refusal", no.Message.Text())
		}
		wantText(t, "flagged by the results", e.slash(owner, "mod integrity", nil), "win-trade")
		if n := len(e.fake.ChannelMessages(testChannel)); n != 0 {
			t.Errorf("Got(%d log channel messages before the job), want none: the job posts", n)
		}

		sched := jobs.New(e.svc, e.h.bot, nil, jobs.Options{PostBackoff: time.Millisecond, Integrity: integrityOf(e)})
		for range 2 {
			if _, err := sched.Run(e.ctx, jobs.JobIntegrity); err != nil {
				t.Fatalf("Run(integrity) = %v", err)
			}
		}
		e.channelMessage("Integrity flag")
		posts := 0
		for _, m := range e.fake.ChannelMessages(testChannel) {
			if strings.Contains(m.Text(), "Integrity flag") {
				posts++
			}
		}
		if posts != 4 {
			t.Errorf("Got(%d flag posts in the log channel), want 4 (each opponent pair once)", posts)
		}
		list := e.slash(owner, "mod integrity", nil)
		if !list.Ephemeral() {
			t.Errorf("Got(/mod integrity public), want private")
		}
		wantText(t, "list", list, "win-trade")
		wantText(t, "list", list, "alternated")
		fs, err := integrityOf(e).Flags(e.ctx, testGuild, false, 10)
		if err != nil || len(fs) != 4 {
			t.Fatalf("Flags() = %d, %v, want 4", len(fs), err)
		}
		d := e.slash(owner, "mod integrity", map[string]any{"dismiss": int(fs[0].ID), "reason": "a scrim"})
		wantText(t, "dismiss", d, "dismissed")
		again := e.slash(owner, "mod integrity", map[string]any{"dismiss": int(fs[0].ID)})
		wantText(t, "dismiss again", again, "dismissed already")
		if open, _ := integrityOf(e).Flags(e.ctx, testGuild, false, 10); len(open) != 3 {
			t.Errorf("Got(%d open flags after a dismissal), want 3", len(open))
		}
	})
}

func integrityOf(e *env) *integrity.Service { return integrity.New(e.db, nil) }
