package jobs

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// lockedBuffer is a log sink safe for concurrent jobs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// openTestDB opens a fresh SQLite database closed when the test ends.
func openTestDB(t *testing.T) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "ladder.db"), nil)
	if err != nil {
		t.Fatalf("storage.Open() = %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestChain runs jobs through the cron chain: a panic is recovered, logged
// and recorded as the run's error; a job still running is skipped, not
// run twice; Stop waits for the running job.
func TestChain(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	svc := ladder.NewService(db, nil)
	var logs lockedBuffer
	s := New(svc, nil, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})), Options{})

	var finished atomic.Int32
	entered := make(chan struct{}, 4)
	release := make(chan struct{})
	// Periods that never repeat, so every call claims afresh and only the
	// chain can stop a second run.
	var n atomic.Int64
	fresh := func(time.Time) string { return strings.Repeat("x", int(n.Add(1))) }
	s.jobs = []job{
		{"boom", "0 0 1 1 *", fresh, func(context.Context, time.Time) error { panic("kaboom") }},
		{"block", "0 0 1 1 *", fresh, func(context.Context, time.Time) error {
			entered <- struct{}{}
			<-release
			finished.Add(1)
			return nil
		}},
	}
	if err := s.Start(ctx); err != nil {
		t.Fatalf("Start() = %v", err)
	}
	<-entered // the catch-up run of block is in

	// A second run of the same entry while the first runs is skipped.
	second := make(chan struct{})
	go func() { s.cron.Entry(s.entries[1]).WrappedJob.Run(); close(second) }()
	select {
	case <-second:
	case <-entered:
		t.Errorf("Got(block runs while one is running) = 2, want 1 (SkipIfStillRunning)")
		release <- struct{}{}
	}
	if !strings.Contains(logs.String(), "cron: skip") {
		t.Errorf("Got(log) without cron's skip line")
	}

	stopped := make(chan error, 1)
	go func() { stopped <- s.Stop(context.Background()) }()
	close(release)
	if err := <-stopped; err != nil {
		t.Fatalf("Stop() = %v", err)
	}
	if got := finished.Load(); got != 1 {
		t.Errorf("Got(block finished when Stop returned) = %d, want 1", got)
	}

	out := logs.String()
	if !strings.Contains(out, "cron: panic") || !strings.Contains(out, "kaboom") {
		t.Errorf("Got(log) without the recovered panic:\n%s", out)
	}
	runs, err := db.JobRuns(ctx, "boom")
	if err != nil || len(runs) != 1 || runs[0].FinishedAt.IsZero() || !strings.Contains(runs[0].Error, "panic: kaboom") {
		t.Errorf("Got(boom runs) = %+v, %v; want one finished run with the panic as its error", runs, err)
	}
}

// TestStopTimeout cancels a job that outlives Stop's context.
func TestStopTimeout(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	s := New(ladder.NewService(db, nil), nil, nil, Options{})
	entered := make(chan struct{})
	var cancelled atomic.Bool
	s.jobs = []job{{"slow", "0 0 1 1 *", minute, func(ctx context.Context, _ time.Time) error {
		close(entered)
		<-ctx.Done()
		cancelled.Store(true)
		return ctx.Err()
	}}}
	if err := s.Start(ctx); err != nil {
		t.Fatalf("Start() = %v", err)
	}
	<-entered
	stopCtx, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Stop(stopCtx); err == nil {
		t.Errorf("Got(Stop() with an ended context) = nil, want its error")
	}
	if !cancelled.Load() {
		t.Errorf("Got(slow job cancelled when Stop returned) = false, want true")
	}
}
