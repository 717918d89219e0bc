package storage

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/ladderbot/ladderbot/ladder"
	sqlitedriver "github.com/ncruces/go-sqlite3/driver"
	"github.com/ncruces/go-sqlite3/gormlite"
	"github.com/ncruces/go-sqlite3/vfs/memdb"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Dialects of Open.
const (
	Postgres = "postgres"
	SQLite   = "sqlite"
)

// DB is an open, migrated database. It implements ladder.Store: its Tx
// methods read outside a transaction, InTx runs one.
type DB struct {
	tx
	sql *sql.DB
	log *slog.Logger
	// retryWait is the pause before retry attempt n (1, 2, …) of a
	// conflicting transaction; nil is retryBackoff. Tests lengthen it.
	retryWait func(attempt int) time.Duration
	// memory names the memdb database of OpenMemory, deleted by Close.
	memory string
}

// retryBackoff waits a little longer before each retry, so that the
// transaction that won the conflict can finish.
func retryBackoff(attempt int) time.Duration { return time.Duration(attempt) * 5 * time.Millisecond }

// tx runs the queries of ladder.Tx on a gorm handle: the pool, or one transaction.
type tx struct {
	db      *gorm.DB
	dialect string
	// pg is the PostgreSQL transaction that db runs in; nil outside InTx
	// and on SQLite.
	pg *pgTx
	// derive are the functions that keep the rows derived from the log
	// (derived.go), shared by the DB and its transactions.
	derive *derivers
	// created are the matches this transaction inserted with their
	// results (rated): no prediction or vote can name them yet, so
	// Recount leaves them out.
	created map[int64]bool
}

var _ ladder.Store = (*DB)(nil)

// Open connects to dsn — postgres://… or postgresql://… for PostgreSQL,
// sqlite:PATH for the embedded database — and applies pending migrations
// under a lock, so processes starting together do not race.
func Open(ctx context.Context, dsn string, log *slog.Logger) (*DB, error) {
	return open(ctx, dsn, log, nil)
}

// OpenScratch is Open for a SQLite database that is thrown away when the
// process ends (the simulator's temporary season): it skips the fsync of
// every commit (synchronous=OFF), which protects results already
// acknowledged to players against a power loss — nothing a scratch file
// holds. Everything else, transactions and locking included, is as Open.
func OpenScratch(ctx context.Context, path string, log *slog.Logger) (*DB, error) {
	return openWith(ctx, "sqlite:"+path, log, nil, "off", false)
}

// OpenMemory is OpenScratch for a database held in this process's memory
// (SQLite's memdb VFS, shared by the pool's connections): no file, so no
// commit writes to a disk. The database lives until Close. memdb keeps no
// write-ahead log, so SQLite journals each transaction in memory instead,
// and a writer waits for open reads to end as in a rollback journal;
// transactions, rollback and the busy timeout are otherwise as Open. It
// holds the whole database in memory, about 15 MB for the simulator's
// default season of 200 players and 30 days, so it suits a season that
// is thrown away and small enough to hold.
func OpenMemory(ctx context.Context, log *slog.Logger) (*DB, error) {
	name := "ladderbot-" + rand.Text()
	memdb.Create(name, nil)
	db, err := openWith(ctx, "sqlite:/"+name, log, nil, "off", true) // "/": shared by the pool
	if err != nil {
		memdb.Delete(name)
		return nil, err
	}
	db.memory = name
	return db, nil
}

// open is Open with an optional pgx tracer on every PostgreSQL connection
// (tests count the statements, hence round trips, of an operation).
func open(ctx context.Context, dsn string, log *slog.Logger, tracer pgx.QueryTracer) (*DB, error) {
	return openWith(ctx, dsn, log, tracer, "full", false)
}

// openWith is open with SQLite's synchronous setting, on a file or, with
// memory, on the memdb database the path names.
func openWith(ctx context.Context, dsn string, log *slog.Logger, tracer pgx.QueryTracer, synchronous string, memory bool) (*DB, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dialect, conn, err := dialector(dsn, tracer, synchronous, memory)
	if err != nil {
		return nil, err
	}
	g, err := gorm.Open(conn, &gorm.Config{
		SkipDefaultTransaction: true,
		TranslateError:         true,
		Logger:                 logger.Discard,
		NowFunc:                dbNow,
	})
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", dialect, err)
	}
	if err := markUnavailable(g); err != nil {
		return nil, err
	}
	sqlDB, err := g.DB()
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", dialect, err)
	}
	if dialect == SQLite {
		// One writer at a time anyway; a few readers run beside it in WAL mode.
		sqlDB.SetMaxOpenConns(4)
	} else {
		sqlDB.SetMaxOpenConns(32)
		sqlDB.SetMaxIdleConns(32)
	}
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	if err := sqlDB.PingContext(ctx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("storage: connect %s: %w", dialect, err)
	}
	db := &DB{tx: tx{db: g, dialect: dialect, derive: &derivers{}}, sql: sqlDB, log: log}
	lockPath := sqlitePath(dsn)
	if memory {
		lockPath = "" // one process: no file to lock migrations with
	}
	if err := migrate(ctx, sqlDB, dialect, lockPath, log); err != nil {
		sqlDB.Close()
		return nil, err
	}
	return db, nil
}

// dialector maps a DATABASE_URL to a gorm dialector.
func dialector(dsn string, tracer pgx.QueryTracer, synchronous string, memory bool) (string, gorm.Dialector, error) {
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return "", nil, fmt.Errorf("storage: %q: %w", redact(dsn), err)
		}
		if tracer != nil {
			cfg.Tracer = tracer
		}
		return Postgres, postgres.New(postgres.Config{Conn: stdlib.OpenDB(*cfg)}), nil
	case strings.HasPrefix(dsn, "sqlite:"):
		path := sqlitePath(dsn)
		if path == "" {
			return "", nil, fmt.Errorf("storage: %q: sqlite needs a path, as in sqlite:ladder.db", dsn)
		}
		// Immediate transactions take the write lock at BEGIN, so two writers
		// never deadlock upgrading read locks; the busy timeout queues them.
		// synchronous=FULL fsyncs the WAL at every commit: with NORMAL an OS
		// crash or power loss can roll back results already acknowledged to
		// players. The cost is measured by BenchmarkRecordResult.
		q := url.Values{}
		q.Set("_txlock", "immediate")
		q["_pragma"] = []string{"busy_timeout(10000)", "journal_mode(wal)", "foreign_keys(on)", "synchronous(" + synchronous + ")"}
		if memory {
			q.Set("vfs", "memdb")
		}
		conn, err := (&sqlitedriver.SQLite{}).OpenConnector(sqliteURI(path) + "?" + q.Encode())
		if err != nil {
			return "", nil, fmt.Errorf("storage: %q: %w", dsn, err)
		}
		return SQLite, gormlite.OpenDB(sql.OpenDB(stmtConnector{conn})), nil
	}
	return "", nil, fmt.Errorf("storage: %q: want postgres://… or sqlite:PATH", redact(dsn))
}

// sqliteURI is the file: URI of the SQLite database at path. SQLite reads
// "?", "#" and "%" in a URI as its query, fragment and escapes, so they are
// escaped: sqlite:/data/ladder#2.db opened /data/ladder, and a folder
// named "50%20" could not be opened at all.
func sqliteURI(path string) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath()
}

func sqlitePath(dsn string) string {
	if !strings.HasPrefix(dsn, "sqlite:") {
		return ""
	}
	return strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")
}

func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	return u.Redacted()
}

// Dialect returns Postgres or SQLite.
func (db *DB) Dialect() string { return db.dialect }

// Ping checks that the database answers (for /readyz).
func (db *DB) Ping(ctx context.Context) error { return db.sql.PingContext(ctx) }

// Close closes the connection pool.
func (db *DB) Close() error {
	err := db.sql.Close()
	if db.memory != "" {
		memdb.Delete(db.memory)
	}
	return err
}

// Gorm returns the gorm handle, for the storage of other features (the
// queue, jobs) that live beside this package's tables.
func (db *DB) Gorm() *gorm.DB { return db.db }

// InTx runs fn in one transaction and retries it, up to five times in all,
// when the database reports a serialization failure, a deadlock or a busy lock,
// or when on PostgreSQL the connection failed before BEGIN was answered.
func (db *DB) InTx(ctx context.Context, fn func(ladder.Tx) error) error {
	return db.inTx(ctx, func(t *tx) error { return fn(t) })
}

// InRatedTx implements ladder.Store: the rated write is the transaction's
// last statement, so on PostgreSQL COMMIT travels with it and a result
// costs two round trips (BEGIN with the first read, the write with COMMIT).
func (db *DB) InRatedTx(ctx context.Context, fn func(ladder.Tx) (*ladder.RatedWrite, error)) (ladder.Match, error) {
	var saved ladder.Match
	err := db.inTx(ctx, func(t *tx) error {
		saved = ladder.Match{}
		w, err := fn(t)
		if err != nil || w == nil {
			return err
		}
		// With derived rows to write, COMMIT travels with them instead.
		if saved, err = t.saveRated(ctx, *w, !t.deriving()); err != nil {
			return err
		}
		return t.rated(ctx, []ladder.RatedWrite{*w}, []ladder.Match{saved})
	})
	return saved, err
}

// InRatedTxs implements ladder.Store: InRatedTx for several rated writes
// that end one transaction, in log order. On PostgreSQL they travel
// together with COMMIT in one round trip.
func (db *DB) InRatedTxs(ctx context.Context, fn func(ladder.Tx) ([]ladder.RatedWrite, error)) ([]ladder.Match, error) {
	var saved []ladder.Match
	err := db.inTx(ctx, func(t *tx) error {
		saved = nil
		ws, err := fn(t)
		if err != nil || len(ws) == 0 {
			return err
		}
		last := !t.deriving()
		if t.dialect == Postgres {
			if saved, err = t.saveRatedPGs(ctx, ws, last); err != nil {
				return err
			}
			return t.rated(ctx, ws, saved)
		}
		saved = make([]ladder.Match, len(ws))
		for i, w := range ws {
			if saved[i], err = t.saveRated(ctx, w, last && i == len(ws)-1); err != nil {
				return err
			}
		}
		return t.rated(ctx, ws, saved)
	})
	return saved, err
}

// inTx is the one place that retries transactions (InTx, InRatedTx).
func (db *DB) inTx(ctx context.Context, fn func(*tx) error) error {
	var err error
	for attempt := range 5 {
		if db.dialect == Postgres {
			err = db.inTxPG(ctx, fn)
		} else {
			err = db.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
				return fn(&tx{db: g, dialect: db.dialect, derive: db.derive})
			})
		}
		if !retryable(err) || ctx.Err() != nil {
			return unavailable(err)
		}
		db.log.DebugContext(ctx, "storage: retrying transaction", "attempt", attempt+1, "err", err)
		// Back off so that the transaction that won the conflict can
		// finish, but not past the caller's context: a cancelled request
		// or a shutdown ends the wait at once.
		wait := retryBackoff
		if db.retryWait != nil {
			wait = db.retryWait
		}
		t := time.NewTimer(wait(attempt + 1))
		select {
		case <-ctx.Done():
			t.Stop()
			return unavailable(err)
		case <-t.C:
		}
	}
	return unavailable(err)
}

// retryable reports whether err is a transient conflict between transactions.
func retryable(err error) bool {
	if errors.Is(err, ladder.ErrRetry) {
		return true
	}
	var lost *lostConn
	if errors.As(err, &lost) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "40001" || pgErr.Code == "40P01"
	}
	return lockedErr(err)
}

// wrap maps driver errors to ladder's coded errors: a missing row is
// CodeNotFound, a unique violation CodeConflict, each with the message of
// format and args (so the catalogs' err.storage.* render it in the
// user's language); others keep their cause.
func wrap(op string, err error, format string, args ...any) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		return ladder.Errorf(ladder.CodeNotFound, format, args...)
	case errors.Is(err, gorm.ErrDuplicatedKey):
		e := ladder.Errorf(ladder.CodeConflict, format, args...)
		e.Err = err
		return e
	}
	var le *ladder.Error
	if errors.As(err, &le) {
		return err
	}
	return fmt.Errorf("storage: %s: %w", op, err)
}

// found turns an empty result into gorm.ErrRecordNotFound.
func found(res *gorm.DB) error {
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	return nil
}

// q returns the handle for a query; in a PostgreSQL transaction that has
// not begun yet, it sends BEGIN first.
// active is the condition "the match_players row is active" written as
// the partial index match_players_active is, with no parameter: SQLite
// proves a partial index usable from a bound value only by checking the
// value, and then prepares the statement again at every execution (its
// parser was a tenth of the CPU of a simulated season).
func (t *tx) active() string {
	if t.dialect == SQLite {
		return "active = 1"
	}
	return "active"
}

// contains is the condition "column contains the parameter's text". A
// LIKE with a bound pattern would make SQLite prepare the statement again
// at every execution, to try its LIKE optimization on the new pattern.
func (t *tx) contains(column string) string {
	if t.dialect == SQLite {
		return "instr(" + column + ", ?) > 0"
	}
	return "strpos(" + column + ", ?) > 0"
}

func (t *tx) q(ctx context.Context) *gorm.DB {
	g := t.db.WithContext(ctx)
	if t.pg != nil {
		if err := t.pg.begin(ctx); err != nil {
			g.AddError(err)
		}
	}
	return g
}

// forUpdate is the row-locking suffix; SQLite's immediate transactions
// already hold the database's write lock.
func (t *tx) forUpdate() string {
	if t.dialect == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// nt stores the zero time as NULL.
func nt(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// tv reads a nullable time back, in UTC.
func tv(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}
