package jobs

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// jobMetrics records ObserveJob calls; the other Metrics calls are
// checked in metrics_test.go.
type jobMetrics struct {
	mu   sync.Mutex
	runs []string // "job outcome"
}

func (m *jobMetrics) ObserveJob(job, outcome string, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if d < 0 {
		outcome += " (negative duration)"
	}
	m.runs = append(m.runs, job+" "+outcome)
}

func (m *jobMetrics) MatchesFormed(string, string, int) {}
func (m *jobMetrics) SetQueueSize(string, string, int)  {}

func (m *jobMetrics) observed() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.runs)
}

// TestObserveJob runs claimed and unclaimed jobs that succeed, fail and
// panic, and a claimed job a second time in its period: each run reaches
// Metrics.ObserveJob once with its outcome, whether it comes from Run or
// from the cron chain.
func TestObserveJob(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	m := &jobMetrics{}
	s := New(ladder.NewService(db, nil), nil, nil, Options{Metrics: m})
	fixed := func(time.Time) string { return "p1" }
	ok := func(context.Context, time.Time) error { return nil }
	fail := func(context.Context, time.Time) error { return errors.New("boom") }
	boom := func(context.Context, time.Time) error { panic("kaboom") }
	s.jobs = []job{
		{"claimed-ok", "0 0 1 1 *", fixed, ok},
		{"claimed-error", "0 0 1 1 *", fixed, fail},
		{"claimed-panic", "0 0 1 1 *", fixed, boom},
		{"unclaimed-ok", "0 0 1 1 *", nil, ok},
		{"unclaimed-error", "0 0 1 1 *", nil, fail},
		{"unclaimed-panic", "0 0 1 1 *", nil, boom},
	}
	cases := []struct {
		job       string
		want      string
		wantPanic bool
	}{
		{"claimed-ok", "claimed-ok ok", false},
		{"claimed-ok", "claimed-ok skipped", false}, // the period is taken
		{"claimed-error", "claimed-error error", false},
		{"claimed-panic", "claimed-panic panic", true},
		{"unclaimed-ok", "unclaimed-ok ok", false},
		{"unclaimed-ok", "unclaimed-ok ok", false}, // no claim: runs every time
		{"unclaimed-error", "unclaimed-error error", false},
		{"unclaimed-panic", "unclaimed-panic panic", true},
	}
	for i, tc := range cases {
		before := len(m.observed())
		panicked := func() (p bool) {
			defer func() { p = recover() != nil }()
			s.Run(ctx, tc.job)
			return false
		}()
		if panicked != tc.wantPanic {
			t.Errorf("case %d: Got(Run(%s) panicked) = %v, want %v", i, tc.job, panicked, tc.wantPanic)
		}
		got := m.observed()[before:]
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("case %d: Got(ObserveJob after Run(%s)) = %q, want [%q]", i, tc.job, got, tc.want)
		}
	}

	// Through the cron chain (Start's catch-up run of every job): the
	// panics are recovered by the chain and still observed once each.
	m.runs = nil
	s.jobs = []job{
		{"chain-ok", "0 0 1 1 *", nil, ok},
		{"chain-error", "0 0 1 1 *", nil, fail},
		{"chain-panic", "0 0 1 1 *", nil, boom},
	}
	if err := s.Start(ctx); err != nil {
		t.Fatalf("Start() = %v", err)
	}
	if err := s.Stop(ctx); err != nil {
		t.Fatalf("Stop() = %v", err)
	}
	got := m.observed()
	slices.Sort(got)
	want := []string{"chain-error error", "chain-ok ok", "chain-panic panic"}
	if !slices.Equal(got, want) {
		t.Errorf("Got(ObserveJob through the cron chain) = %q, want %q", got, want)
	}
}

// TestNoMetrics runs the jobs with no Metrics: a panic still reaches the
// caller and nothing else changes.
func TestNoMetrics(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	s := New(ladder.NewService(db, nil), nil, nil, Options{})
	s.jobs = []job{{"boom", "0 0 1 1 *", nil, func(context.Context, time.Time) error { panic("kaboom") }}}
	defer func() {
		if recover() == nil {
			t.Errorf("Got(Run(boom) without Metrics) returned, want its panic")
		}
	}()
	s.Run(ctx, "boom")
}
