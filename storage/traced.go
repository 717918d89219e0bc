package storage

import (
	"context"
	"log/slog"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
)

// OpenTraced is Open with tracer on every PostgreSQL connection (SQLite
// ignores it): benchmarks count the statements, and so the round trips and
// rows, of one pass of a job with it.
func OpenTraced(ctx context.Context, dsn string, log *slog.Logger, tracer pgx.QueryTracer) (*DB, error) {
	return open(ctx, dsn, log, tracer)
}

// RoundTripLog is a pgx tracer for OpenTraced that records the round trips
// to PostgreSQL: each statement sent alone, and each batch of pipelined
// statements joined with " | ". Tests count an operation's round trips
// with it.
type RoundTripLog struct {
	mu    sync.Mutex
	stmts []string
}

// TraceQueryStart implements pgx.QueryTracer.
func (l *RoundTripLog) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stmts = append(l.stmts, strings.Join(strings.Fields(d.SQL), " "))
	return ctx
}

// TraceQueryEnd implements pgx.QueryTracer.
func (l *RoundTripLog) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TraceBatchStart implements pgx.BatchTracer: a whole batch is one round
// trip.
func (l *RoundTripLog) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	var qs []string
	for _, q := range d.Batch.QueuedQueries {
		qs = append(qs, strings.Join(strings.Fields(q.SQL), " "))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stmts = append(l.stmts, strings.Join(qs, " | "))
	return ctx
}

// TraceBatchQuery implements pgx.BatchTracer.
func (l *RoundTripLog) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

// TraceBatchEnd implements pgx.BatchTracer.
func (l *RoundTripLog) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// Reset returns the round trips recorded since the last Reset and forgets
// them.
func (l *RoundTripLog) Reset() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.stmts
	l.stmts = nil
	return s
}
