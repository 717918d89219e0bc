package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/ladder"
)

// checkLedger asserts what must hold after any load, faults or not:
// violations seen during the load, no player in two open matches, every
// acknowledged result stored as acknowledged, every rated match rated
// exactly once (one rating change per player) and no other match rated,
// and `ladderbot verify` clean.
func checkLedger(t *testing.T, l *load, dsn string) {
	t.Helper()
	ctx := context.Background()
	l.mu.Lock()
	for _, w := range l.wrong {
		t.Errorf("during the load: %s", w)
	}
	acked := l.acked
	mustRate, voided := l.mustRate, l.voided
	l.mu.Unlock()

	sqlDB := l.db.SQL()
	rows, err := sqlDB.QueryContext(ctx, `SELECT mp.guild_id, mp.user_id, COUNT(*) FROM match_players mp
		JOIN matches m ON m.id = mp.match_id WHERE m.state IN ('open', 'reported')
		GROUP BY mp.guild_id, mp.user_id HAVING COUNT(*) > 1`)
	if err != nil {
		t.Fatalf("query open matches per player: %v", err)
	}
	for rows.Next() {
		var g, u string
		var n int
		rows.Scan(&g, &u, &n)
		t.Errorf("Got(open matches of player %s in guild %s) = %d, want at most 1", u, g, n)
	}
	rows.Close()

	changes := map[int64]int{}
	rows, err = sqlDB.QueryContext(ctx, `SELECT match_id, COUNT(*) FROM rating_changes WHERE kind = 'match' GROUP BY match_id`)
	if err != nil {
		t.Fatalf("query rating changes: %v", err)
	}
	for rows.Next() {
		var id int64
		var n int
		rows.Scan(&id, &n)
		changes[id] = n
	}
	rows.Close()

	rated, total := 0, 0
	for _, g := range l.guilds {
		var ms []ladder.Match
		for before := int64(0); ; {
			page, err := l.svc.Matches(ctx, ladder.MatchFilter{GuildID: g.id, BeforeID: before, Limit: 500})
			if err != nil {
				t.Fatalf("matches of guild %s: %v", g.id, err)
			}
			ms = append(ms, page...)
			if len(page) < 500 {
				break
			}
			before = page[len(page)-1].ID
		}
		for _, m := range ms {
			total++
			want := 0
			if m.State.Rated() {
				want = len(m.Players())
				rated++
			}
			if got := changes[m.ID]; got != want {
				t.Errorf("match %d (%s): Got(rating changes) = %d, want %d (once per player)", m.ID, m.State, got, want)
			}
			if w, ok := acked[m.ID]; ok && (!m.State.Rated() || m.Winner != w) {
				t.Errorf("match %d: acknowledged as rated with winner %d; Got(state, winner) = %s, %d", m.ID, w, m.State, m.Winner)
			}
			if mustRate[m.ID] && !m.State.Rated() {
				t.Errorf("match %d: both teams' agreeing reports were answered; Got(state) = %s, want rated", m.ID, m.State)
			}
			if voided[m.ID] && m.State != ladder.StateVoided {
				t.Errorf("match %d: void acknowledged; Got(state) = %s", m.ID, m.State)
			}
			delete(acked, m.ID)
		}
	}
	for id := range acked {
		t.Errorf("match %d: acknowledged as rated but not stored", id)
	}
	if rated == 0 {
		t.Errorf("Got(rated matches) = 0 of %d, want the load to rate some", total)
	}
	out := verifyClean(t, dsn)
	t.Logf("ledger: %d matches, %d rated; verify: %s", total, rated, strings.TrimSpace(out))
	checkDerived(t, out)
}

// derivedLine is verify's line on the integrity counters: the ladders
// compared with a replay, and those a correction left to the job.
var derivedLine = regexp.MustCompile(`integrity counters: refolded (\d+) ladders?, .*\((\d+) ladders? being rebuilt`)

// checkDerived asserts that verify compared the rows the rated writes
// derive from the log (integrity counters, predictors' points, MVP
// counts, the seasons' partnerships and busiest hours) with their rebuild: a result committed with its rated write
// folded its counters in the same transaction, and a process killed
// mid-write left neither.
func checkDerived(t *testing.T, out string) {
	t.Helper()
	m := derivedLine.FindStringSubmatch(out)
	if m == nil {
		t.Errorf("Got(verify output) without the integrity counters' line:\n%s", out)
		return
	}
	if m[1] == "0" && m[2] == "0" {
		t.Errorf("Got(verify) comparing no ladder's integrity counters, want the rated ladders'")
	}
	if !strings.Contains(out, "predictions and MVP counts: recounted") {
		t.Errorf("Got(verify output) without the predictions' line:\n%s", out)
	}
	if !strings.Contains(out, "partnerships and busiest hours: recounted") {
		t.Errorf("Got(verify output) without the season counts' line:\n%s", out)
	}
}

// checkCallbacks asserts that the bot answered every interaction once:
// the fake refused no callback, except (with fan-out to a duplicate shard
// process) the loser's "already acknowledged".
func checkCallbacks(t *testing.T, fake *fakediscord.Server, fanOut bool) {
	t.Helper()
	refused := 0
	for _, ix := range fake.Interactions() {
		if len(ix.Callbacks) > 1 {
			t.Errorf("interaction %s (%s%s): Got(callbacks) = %d, want 1", ix.ID, ix.Command, ix.CustomID, len(ix.Callbacks))
		}
		for _, r := range ix.Rejected {
			if fanOut && strings.Contains(r, "already been acknowledged") {
				refused++
				continue
			}
			t.Errorf("interaction %s (%s%s): the fake refused %q", ix.ID, ix.Command, ix.CustomID, r)
		}
	}
	if fanOut {
		t.Logf("duplicate shard process: %d second acknowledgements refused by Discord", refused)
	}
}

// checkJobs counts "job ran" log lines per job across procs and compares
// them with the finished job_runs rows: each period of each job ran in
// exactly one process, and each job ran at least minRuns[job] times.
func checkJobs(t *testing.T, l *load, minRuns map[string]int, procs ...*proc) {
	t.Helper()
	logged := map[string]int{}
	for _, p := range procs {
		for _, line := range p.lines() {
			if line["msg"] == "job ran" {
				logged[fmt.Sprint(line["job"])]++
			}
		}
	}
	rows, err := l.db.SQL().QueryContext(context.Background(),
		`SELECT job, COUNT(*) FROM job_runs WHERE finished_at IS NOT NULL AND job IN ('stale', 'confirm', 'queue-expiry', 'seasons') GROUP BY job`)
	if err != nil {
		t.Fatalf("query job_runs: %v", err)
	}
	defer rows.Close()
	stored := map[string]int{}
	for rows.Next() {
		var j string
		var n int
		rows.Scan(&j, &n)
		stored[j] = n
	}
	for _, j := range []string{"stale", "confirm", "queue-expiry", "seasons"} {
		if logged[j] != stored[j] {
			t.Errorf("job %s: Got(runs logged by the processes) = %d, want %d (one per claimed period in job_runs)", j, logged[j], stored[j])
		}
		if want := minRuns[j]; stored[j] < want {
			t.Errorf("job %s: Got(runs) = %d, want at least %d", j, stored[j], want)
		}
	}
	t.Logf("job runs (one per period across processes): %v", stored)
}
