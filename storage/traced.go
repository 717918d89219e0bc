package storage

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5"
)

// OpenTraced is Open with tracer on every PostgreSQL connection (SQLite
// ignores it): benchmarks count the statements, and so the round trips and
// rows, of one pass of a job with it.
func OpenTraced(ctx context.Context, dsn string, log *slog.Logger, tracer pgx.QueryTracer) (*DB, error) {
	return open(ctx, dsn, log, tracer)
}
