package jobs_test

import (
	"context"
	"log/slog"
	"math"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/matchmaking"
)

// logRecorder keeps the scheduler's log records: the matchmaking pass
// logs each match it forms with the proposal behind it (quality, q_min,
// the anchor's wait), which the announcement, a rendered message, does not
// carry.
type logRecorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (l *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logRecorder) WithGroup(string) slog.Handler            { return l }

func (l *logRecorder) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.records = append(l.records, r.Clone())
	return nil
}

// formed returns the attributes of the "match formed by the scheduled
// pass" records, one map per match formed.
func (l *logRecorder) formed() []map[string]slog.Value {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]slog.Value
	for _, r := range l.records {
		if r.Message != "match formed by the scheduled pass" {
			continue
		}
		attrs := map[string]slog.Value{}
		r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value; return true })
		out = append(out, attrs)
	}
	return out
}

// queueChannel is the channel a test queue announces its matches in.
const queueChannel = "200000000000000003"

// mmStart is midday, so the few minutes a test waits never cross a day
// and grow nobody's RD (team-glicko grows RD per idle day).
var mmStart = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

// defaultQueue returns the guild's default queue after applying edit.
func defaultQueue(t testing.TB, svc *ladder.Service, edit func(*ladder.Queue)) ladder.Queue {
	t.Helper()
	ctx := context.Background()
	qs, err := svc.Queues(ctx, guild)
	if err != nil || len(qs) == 0 {
		t.Fatalf("Queues() = %v, %v; want the default queue", qs, err)
	}
	q := qs[0]
	edit(&q)
	if q, err = svc.UpdateQueue(ctx, moderator, q); err != nil {
		t.Fatalf("UpdateQueue() = %v", err)
	}
	return q
}

// join queues u alone from channel and fails the test if the join itself
// formed a match; it returns the matches the join's own pass formed.
func join(t *testing.T, svc *ladder.Service, u string) []ladder.FormedMatch {
	t.Helper()
	res, err := svc.JoinQueue(context.Background(), ladder.JoinRequest{GuildID: guild, UserID: u, Name: "p" + u[len(u)-3:], ChannelID: channel})
	if err != nil {
		t.Fatalf("JoinQueue(%s) = %v", u, err)
	}
	return res.Formed
}

// gapFor is the effective rating gap Δ_eff that gives a 2v2 of players
// with RD 50 the quality q (docs/spec.md 3 step 4: Q = 1/(1 + (Δ/400)² + RD_comb²/400²),
// RD_comb² = 50² + 50²).
func gapFor(q float64) float64 {
	return 400 * math.Sqrt(1/q-1-(50*50+50*50)/(400.0*400.0))
}

// rateFour sets four players to RD 50, three at 1500 and one 2·gap above,
// so that every split of them has Δ_eff = gap.
func rateFour(t *testing.T, svc *ladder.Service, ps []string, gap float64) {
	t.Helper()
	for i, u := range ps {
		r := 1500.0
		if i == 3 {
			r += 2 * gap
		}
		if _, err := svc.SetRating(context.Background(), moderator, guild, "", u, r, 50, "test"); err != nil {
			t.Fatalf("SetRating(%s) = %v", u, err)
		}
	}
}

// TestMatchmakeWidensOverWait queues four players whose only match has a
// quality below q_start (0.80) and no one else: nobody joins after them,
// so only the scheduled pass can form their match. It must not form at
// wait 0 nor a second before the anchor's wait enters the first bucket
// whose q_min (docs/spec.md 3 defaults: 0.80, 0.725, 0.65, 0.575, 0.50 from 0, 30,
// 120, 270 and 480 s) the quality reaches, and must form there, announced
// once in the queue's channel. A match below q_floor never forms.
func TestMatchmakeWidensOverWait(t *testing.T) {
	cases := []struct {
		name    string
		quality float64
		formsAt time.Duration // 0: never within the hour
		qmin    float64
	}{
		{"0.76 forms at 30 s", 0.76, 30 * time.Second, 0.725},
		{"0.69 forms at 120 s", 0.69, 120 * time.Second, 0.65},
		{"0.61 forms at 270 s", 0.61, 270 * time.Second, 0.575},
		{"0.54 forms at 480 s", 0.54, 480 * time.Second, 0.50},
		{"0.47 below the floor never forms", 0.47, 0, 0},
	}
	each(t, func(t *testing.T, b string) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				ctx := context.Background()
				c := ladder.NewManualClock(mmStart)
				rec := &poster{}
				p := newProc(t, testdb.DSN(t, b), c, rec)
				logs := &logRecorder{}
				p.sched = jobs.New(p.svc, rec, slog.New(logs), jobs.Options{PostBackoff: time.Millisecond})
				setupGuild(t, p.svc, 0)
				q := defaultQueue(t, p.svc, func(q *ladder.Queue) { q.ChannelID = queueChannel })
				ps := users(1, 4)
				rateFour(t, p.svc, ps, gapFor(tc.quality))
				for _, u := range ps {
					if f := join(t, p.svc, u); len(f) != 0 {
						t.Fatalf("Got(matches formed by joining at wait 0) = %d, want 0", len(f))
					}
				}
				check := func(at time.Duration, wantMatches int) {
					t.Helper()
					c.Set(mmStart.Add(at))
					if !run(t, p, jobs.JobMatchmake) {
						t.Fatalf("Got(Run(matchmake) ran) = false, want true (the pass claims nothing)")
					}
					ms, err := p.svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, Limit: 10})
					if err != nil {
						t.Fatalf("Matches() = %v", err)
					}
					if len(ms) != wantMatches || len(rec.announced()) != wantMatches {
						t.Fatalf("Got(matches, announcements at wait %s) = %d, %d, want %d, %d",
							at, len(ms), len(rec.announced()), wantMatches, wantMatches)
					}
				}
				check(0, 0)
				if tc.formsAt == 0 {
					check(59*time.Minute, 0)
					return
				}
				check(tc.formsAt-time.Second, 0)
				check(tc.formsAt, 1)
				check(tc.formsAt+5*time.Second, 1) // a later tick forms nothing more

				as := rec.announced()
				a := as[0]
				if a.channel != queueChannel {
					t.Errorf("Got(announced in) = %s, want the queue's channel %s", a.channel, queueChannel)
				}
				ms, err := p.svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, Limit: 10})
				if err != nil || len(ms) != 1 {
					t.Fatalf("Matches() = %d, %v, want 1", len(ms), err)
				}
				m := ms[0]
				if id := announcedMatch(t, a); id != m.ID {
					t.Errorf("Got(announced match) = #%d, want #%d", id, m.ID)
				}
				if got := slices.Sorted(slices.Values(m.Players())); !slices.Equal(got, ps) {
					t.Errorf("Got(match players) = %v, want %v", got, ps)
				}
				if m.State != ladder.StateOpen || m.QueueID != q.ID {
					t.Errorf("Got(match state, queue) = %s, %d, want open, %d", m.State, m.QueueID, q.ID)
				}
				if !(m.PTeam1 > 0 && m.PTeam1 < 1) {
					t.Errorf("Got(P(team 1 wins)) = %g, want in (0, 1)", m.PTeam1)
				}
				// The announcement is the one /queue join renders for the
				// match in its queue.
				want := commands.Announcement(i18n.English(), ladder.FormedMatch{Match: m, Proposal: matchmaking.Proposal{Quality: m.Quality}, Queue: q})
				if !reflect.DeepEqual(a.msg, want) {
					t.Errorf("Got(announcement) = %+v, want %+v", a.msg, want)
				}
				fs := logs.formed()
				if len(fs) != 1 {
					t.Fatalf("Got(formed matches logged) = %d, want 1", len(fs))
				}
				f := fs[0]
				quality, qmin, wait := f["quality"].Float64(), f["q_min"].Float64(), f["anchor_wait_ms"].Int64()
				if math.Abs(quality-tc.quality) > 1e-3 || math.Abs(m.Quality-quality) > 1e-9 {
					t.Errorf("Got(quality) = %.4f (match %.4f), want %.4f", quality, m.Quality, tc.quality)
				}
				if math.Abs(qmin-tc.qmin) > 1e-9 || wait != tc.formsAt.Milliseconds() {
					t.Errorf("Got(q_min, anchor wait) = %.3f, %d ms, want %.3f, %s", qmin, wait, tc.qmin, tc.formsAt)
				}
				if f["match_id"].Int64() != m.ID || f["queue_id"].Int64() != q.ID {
					t.Errorf("Got(logged match, queue) = %v, %v, want %d, %d", f["match_id"], f["queue_id"], m.ID, q.ID)
				}
			})
		}
	})
}

// TestMatchmakeWithoutPoster: a process that cannot announce (web only,
// no Poster) leaves the queue to the bot processes and forms nothing.
func TestMatchmakeWithoutPoster(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		c := ladder.NewManualClock(mmStart)
		p := newProc(t, testdb.DSN(t, b), c, nil)
		setupGuild(t, p.svc, 0)
		ps := users(1, 4)
		rateFour(t, p.svc, ps, gapFor(0.69))
		for _, u := range ps {
			join(t, p.svc, u)
		}
		c.Set(mmStart.Add(10 * time.Minute))
		run(t, p, jobs.JobMatchmake)
		st, err := p.svc.QueueStatus(context.Background(), guild, "")
		if err != nil {
			t.Fatalf("QueueStatus() = %v", err)
		}
		if got := st.Queues[0].Players; got != 4 {
			t.Errorf("Got(players still queued) = %d, want 4", got)
		}
	})
}
