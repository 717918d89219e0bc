package jobs_test

import (
	"context"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// seasonStart is when the test guild's season 1 starts; the default
// quarterly schedule makes it due on April 1.
var (
	seasonStart = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	aprilFirst  = time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
)

// playSeason sets up the guild and plays a season among 32 players, so the
// final table is longer than one embed.
func playSeason(t *testing.T, p *proc, c *ladder.ManualClock) ladder.Guild {
	t.Helper()
	g := setupGuild(t, p.svc, 5)
	// Played late in the season, so nobody is stale (30 days) at its end.
	c.Set(time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC))
	playRounds(t, p.svc, users(1, 32), 14, 2)
	return g
}

// finals returns each player's final season-1 state: R and RD as stored.
func finals(t *testing.T, p *proc) map[string]ladder.Standing {
	t.Helper()
	ss, err := p.svc.CurrentStandings(context.Background(), guild, "", users(1, 32))
	if err != nil {
		t.Fatalf("CurrentStandings() = %v", err)
	}
	out := map[string]ladder.Standing{}
	for _, s := range ss {
		out[s.UserID] = s
	}
	return out
}

// TestSeasonCloseRace has three processes (three storage handles on one
// database) run the seasons job at once when the season is due: the season
// closes exactly once, its standings are frozen with ranks, divisions and
// badges, the next season opens, the table is posted once, and the next
// season's first ratings are the soft reset R' = r0 + α(R − r0), RD' = rd0.
func TestSeasonCloseRace(t *testing.T) {
	cases := []struct {
		name string
		// offsets of the three processes' clocks from April 1: the same
		// minute races on the job's claim, different minutes on the
		// guild's close claim.
		offsets [3]time.Duration
		// ran is how many processes win the job's minute claim.
		ran int
	}{
		{"same minute", [3]time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second}, 1},
		{"different minutes", [3]time.Duration{10 * time.Second, 70 * time.Second, 130 * time.Second}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			each(t, func(t *testing.T, b string) { seasonRace(t, b, tc.offsets, tc.ran) })
		})
	}
}

func seasonRace(t *testing.T, b string, offsets [3]time.Duration, wantRan int) {
	ctx := context.Background()
	dsn := testdb.DSN(t, b)
	setup := ladder.NewManualClock(seasonStart)
	p0 := newProc(t, dsn, setup, nil)
	g := playSeason(t, p0, setup)

	// Not due yet: nothing happens on March 31.
	setup.Set(aprilFirst.Add(-time.Minute))
	if err := p0.sched.RunAll(ctx); err != nil {
		t.Fatalf("RunAll() on March 31 = %v", err)
	}
	if cur, _ := p0.svc.LatestSeason(ctx, guild); cur.Number != 1 {
		t.Fatalf("Got(season on March 31) = %d, want 1", cur.Number)
	}
	before := finals(t, p0)

	rec := &poster{}
	var procs [3]*proc
	for i := range procs {
		procs[i] = newProc(t, dsn, ladder.NewManualClock(aprilFirst.Add(offsets[i])), rec)
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	ran := make([]bool, 3)
	errs := make([]error, 3)
	for i, p := range procs {
		wg.Go(func() {
			<-start
			ran[i], errs[i] = p.sched.Run(ctx, jobs.JobSeasons)
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("process %d: Run(seasons) = %v", i, err)
		}
	}
	if got := count(ran); got != wantRan {
		t.Errorf("Got(processes that ran the seasons job) = %d, want %d", got, wantRan)
	}

	seasons, err := p0.svc.Seasons(ctx, guild)
	if err != nil {
		t.Fatalf("Seasons() = %v", err)
	}
	if len(seasons) != 2 || seasons[0].Running() || !seasons[1].Running() {
		t.Fatalf("Got(seasons) = %+v, want season 1 closed and season 2 running", seasons)
	}
	runs, err := p0.db.JobRuns(ctx, "season-close:"+guild)
	if err != nil {
		t.Fatalf("JobRuns() = %v", err)
	}
	if len(runs) != 1 || runs[0].Period != "2026-04-01T00:00:00Z" || runs[0].FinishedAt.IsZero() || runs[0].Error != "" {
		t.Errorf("Got(season-close runs) = %+v, want one finished run for 2026-04-01T00:00:00Z", runs)
	}
	audit, err := p0.svc.Audit(ctx, guild, 100)
	if err != nil {
		t.Fatalf("Audit() = %v", err)
	}
	ends := 0
	for _, e := range audit {
		if e.Action == "season.end" {
			ends++
			if e.ActorID != ladder.SchedulerActor {
				t.Errorf("Got(season.end actor) = %q, want %q", e.ActorID, ladder.SchedulerActor)
			}
		}
	}
	if ends != 1 {
		t.Errorf("Got(season.end audit entries) = %d, want 1", ends)
	}

	// Frozen standings: the listed players of season 1, ranked, with
	// divisions and badges.
	sts, err := p0.svc.SeasonStandingsOf(ctx, guild, 1)
	if err != nil {
		t.Fatalf("SeasonStandingsOf(1) = %v", err)
	}
	if len(sts) != 1 {
		t.Fatalf("Got(queues in standings) = %d, want 1", len(sts))
	}
	rs := sts[0].Results
	listed := 0
	for _, s := range before {
		if !s.Provisional && !s.Stale {
			listed++
		}
	}
	if len(rs) != listed || listed <= 25 {
		t.Fatalf("Got(frozen rows) = %d, want %d listed players (more than 25)", len(rs), listed)
	}
	for i, r := range rs {
		f := before[r.UserID]
		switch {
		case r.Rank != i+1:
			t.Errorf("Got(rank of row %d) = %d, want %d", i, r.Rank, i+1)
		case r.Rating != f.Rating || r.RD != f.RD:
			t.Errorf("Got(frozen %s) = %g ± %g, want %g ± %g", r.UserID, r.Rating, r.RD, f.Rating, f.RD)
		case r.Division != g.Division(r.Rating):
			t.Errorf("Got(division of %s at %g) = %q, want %q", r.UserID, r.Rating, r.Division, g.Division(r.Rating))
		case r.Badge != ladder.Badge(r.Rank):
			t.Errorf("Got(badge of rank %d) = %q, want %q", r.Rank, r.Badge, ladder.Badge(r.Rank))
		case i > 0 && r.Rating > rs[i-1].Rating:
			t.Errorf("Got(row %d rating %g) above row %d's %g", i, r.Rating, i-1, rs[i-1].Rating)
		}
	}
	if rs[0].Badge != "top3" || rs[3].Badge != "top30" {
		t.Errorf("Got(badges of ranks 1 and 4) = %q, %q; want top3, top30", rs[0].Badge, rs[3].Badge)
	}

	// Posted once, to the announcement channel, with the whole table.
	ps := rec.posts()
	// sts holds the listed rows, checked above; the post renders all of them.
	if len(ps) != 1 || ps[0].channel != announce || !reflect.DeepEqual(ps[0].msg, commands.FinalStandings(i18n.English(), sts[0])) {
		t.Fatalf("Got(posts) = %d (%+v), want one season-1 table of %d rows to %s", len(ps), ps, listed, announce)
	}
	// Later runs post nothing more.
	for i := range procs {
		c := ladder.NewManualClock(aprilFirst.Add(time.Duration(5+i) * time.Minute))
		q := newProc(t, dsn, c, rec)
		if _, err := q.sched.Run(ctx, jobs.JobSeasons); err != nil {
			t.Fatalf("process %d: later Run(seasons) = %v", i, err)
		}
	}
	if got := len(rec.posts()); got != 1 {
		t.Errorf("Got(posts after later runs) = %d, want 1", got)
	}

	// Season 2 starts each player from the soft reset of their season-1 rating.
	checkSoftReset(t, procs[0], g, before)
}

// checkSoftReset plays one season-2 match and checks the ratings it
// started from: R' = r0 + α(R − r0), RD' = rd0 (docs/spec.md 4).
func checkSoftReset(t *testing.T, p *proc, g ladder.Guild, before map[string]ladder.Standing) {
	t.Helper()
	// The constants in force in season 2: a new queue self-tunes, so the
	// close may have adopted new ones (a new rd0 among them).
	qs, err := p.svc.Queues(context.Background(), guild)
	if err != nil || len(qs) == 0 {
		t.Fatalf("Queues() = %v, %v", qs, err)
	}
	model, err := rating.NewModel(qs[0].Model, qs[0].Params)
	if err != nil {
		t.Fatalf("NewModel() = %v", err)
	}
	fresh := model.New()
	res := record(t, p.svc, user(1), user(2), user(31), user(32), 1)
	if res.Match.SeasonID == 0 {
		t.Fatalf("Got(season of the new match) = 0")
	}
	cur, _ := p.svc.LatestSeason(context.Background(), guild)
	if res.Match.SeasonID != cur.ID || cur.Number != 2 {
		t.Fatalf("Got(match season) = %d, want season 2 (%d)", res.Match.SeasonID, cur.ID)
	}
	for _, d := range res.Changes {
		R := before[d.UserID].Rating
		want := fresh.Rating + g.SeasonCarry*(R-fresh.Rating)
		got := d.Rating - d.Delta
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("Got(season-2 start of %s) = %g, want r0 + α(R − r0) = %g (R = %g)", d.UserID, got, want, R)
		}
	}
	// The stored season-2 rows start (Base) from the carry, RD' = rd0.
	rows, err := p.db.Ratings(context.Background(), ladder.Key{QueueID: res.Match.QueueID, SeasonID: cur.ID}, nil)
	if err != nil {
		t.Fatalf("Ratings(season 2) = %v", err)
	}
	if len(rows) != 4 {
		t.Fatalf("Got(season-2 rows) = %d, want 4 (rows appear when players first play)", len(rows))
	}
	for _, r := range rows {
		want := fresh.Rating + g.SeasonCarry*(before[r.UserID].Rating-fresh.Rating)
		if math.Abs(r.Base.Rating-want) > 1e-9 || r.Base.Dev != fresh.Dev || r.Base.Games != 0 {
			t.Errorf("Got(season-2 base of %s) = %g ± %g in %d games, want %g ± %g in 0", r.UserID, r.Base.Rating, r.Base.Dev, r.Base.Games, want, fresh.Dev)
		}
	}
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
