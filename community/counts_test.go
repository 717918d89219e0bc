package community_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestSeasonCountsFollowTheResult: the season's partnerships and busiest
// hours are rows that each change of a result moves in its own
// transaction — a confirmed report, a dispute a moderator resolves, a
// correction, a void, a correction of the voided match — and after each
// the stats read them and verify finds them equal to a recount of the
// rated matches.
func TestSeasonCountsFollowTheResult(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		check := func(step string, pair12, pair34 community.Record, matches int) {
			t.Helper()
			st, err := e.com.Stats(e.ctx, guild, "", 0, 10)
			if err != nil {
				t.Fatalf("%s: Stats() = %v", step, err)
			}
			got := map[string]community.Record{}
			for _, p := range st.Partnerships {
				got[p.A+"+"+p.B] = p.Record
			}
			if got[user(1)+"+"+user(2)] != pair12 || got[user(3)+"+"+user(4)] != pair34 || len(got) != 2 {
				t.Errorf("%s: Got(partnerships) = %+v, want 1+2 %+v and 3+4 %+v", step, st.Partnerships, pair12, pair34)
			}
			n := 0
			for _, day := range st.Hours {
				for _, c := range day {
					n += c
				}
			}
			if n != matches {
				t.Errorf("%s: Got(busiest hours) = %d matches, want %d", step, n, matches)
			}
			if diffs, err := community.VerifyCounts(e.ctx, e.db, guild); err != nil || len(diffs) > 0 {
				t.Errorf("%s: VerifyCounts() = %v, %v, want no difference", step, diffs, err)
			}
			if diffs, err := community.VerifyCounts(e.ctx, e.db, other); err != nil || len(diffs) > 0 {
				t.Errorf("%s: VerifyCounts(other guild) = %v, %v, want no difference", step, diffs, err)
			}
		}
		// The imported season: 1+2 beat 3+4 four times, lost once, drew
		// once; 2+4 beat 1+3 twice (below the minimum of games).
		check("imported", community.Record{Wins: 4, Losses: 1, Draws: 1}, community.Record{Wins: 1, Losses: 4, Draws: 1}, 8)
		newMatch := func() ladder.Match {
			t.Helper()
			m, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID,
				Teams: [2][]string{{user(1), user(2)}, {user(3), user(4)}}})
			if err != nil {
				t.Fatalf("CreateMatch() = %v", err)
			}
			return m
		}
		m := newMatch()
		check("formed", community.Record{Wins: 4, Losses: 1, Draws: 1}, community.Record{Wins: 1, Losses: 4, Draws: 1}, 8)
		if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, ladder.Win); err != nil {
			t.Fatalf("Report() = %v", err)
		}
		if _, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID); err != nil {
			t.Fatalf("Confirm() = %v", err)
		}
		check("confirmed", community.Record{Wins: 5, Losses: 1, Draws: 1}, community.Record{Wins: 1, Losses: 5, Draws: 1}, 9)
		d := newMatch()
		if _, err := e.svc.Dispute(e.ctx, ladder.Actor{UserID: user(3)}, guild, d.ID, "they left", ""); err != nil {
			t.Fatalf("Dispute() = %v", err)
		}
		check("disputed", community.Record{Wins: 5, Losses: 1, Draws: 1}, community.Record{Wins: 1, Losses: 5, Draws: 1}, 9)
		if _, err := e.svc.Resolve(e.ctx, moderator, guild, d.ID, 2, "3 and 4 won"); err != nil {
			t.Fatalf("Resolve() = %v", err)
		}
		check("resolved", community.Record{Wins: 5, Losses: 2, Draws: 1}, community.Record{Wins: 2, Losses: 5, Draws: 1}, 10)
		if _, err := e.svc.Correct(e.ctx, moderator, guild, m.ID, ladder.Draw, "it was a draw"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		check("corrected", community.Record{Wins: 4, Losses: 2, Draws: 2}, community.Record{Wins: 2, Losses: 4, Draws: 2}, 10)
		if _, err := e.svc.Void(e.ctx, moderator, guild, m.ID, "never played"); err != nil {
			t.Fatalf("Void() = %v", err)
		}
		check("voided", community.Record{Wins: 4, Losses: 2, Draws: 1}, community.Record{Wins: 2, Losses: 4, Draws: 1}, 9)
		if _, err := e.svc.Correct(e.ctx, moderator, guild, m.ID, 2, "played after all"); err != nil {
			t.Fatalf("Correct(voided) = %v", err)
		}
		check("restored", community.Record{Wins: 4, Losses: 3, Draws: 1}, community.Record{Wins: 3, Losses: 4, Draws: 1}, 10)
		// VerifyCounts names the rows that differ from the recount: a win
		// added by hand, a partnership that never played and an hour's
		// row taken away.
		var slot int
		if err := e.db.SQL().QueryRowContext(e.ctx, `SELECT MIN(slot) FROM season_hours WHERE guild_id = '`+guild+`'`).Scan(&slot); err != nil {
			t.Fatal(err)
		}
		tamper(t, e, `UPDATE season_pairs SET wins = wins + 1 WHERE guild_id = '`+guild+`' AND a = '`+user(1)+`' AND b = '`+user(2)+`'`,
			`INSERT INTO season_pairs (queue_id, season_id, a, b, guild_id, wins, losses, draws)
			 SELECT queue_id, season_id, '`+user(1)+`', '`+user(4)+`', guild_id, 1, 0, 0 FROM season_pairs
			 WHERE guild_id = '`+guild+`' AND a = '`+user(1)+`' AND b = '`+user(2)+`'`,
			`DELETE FROM season_hours WHERE guild_id = '`+guild+`' AND slot = `+fmt.Sprint(slot))
		season := fmt.Sprintf("queue %d season %d", qs[0].ID, m.SeasonID)
		want := []string{
			"community: busiest hours " + season + " hour " + fmt.Sprint(slot) + ": not stored, recount ",
			"community: partnership " + season + " " + user(1) + "+" + user(2) + ": stored 5-3-1, recount 4-3-1",
			"community: partnership " + season + " " + user(1) + "+" + user(4) + ": stored 1-0-0, recount none",
		}
		diffs, err := community.VerifyCounts(e.ctx, e.db, guild)
		if err != nil || len(diffs) != len(want) {
			t.Fatalf("VerifyCounts(tampered) = %q, %v, want %d differences", diffs, err, len(want))
		}
		for i, w := range want {
			if !strings.HasPrefix(diffs[i], w) {
				t.Errorf("VerifyCounts(tampered)[%d] = %q, want %q", i, diffs[i], w)
			}
		}
		if diffs, err := community.VerifyCounts(e.ctx, e.db, other); err != nil || len(diffs) > 0 {
			t.Errorf("VerifyCounts(other guild) = %q, %v, want no difference", diffs, err)
		}
	})
}
