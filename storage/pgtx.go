package storage

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// pgTx is a PostgreSQL transaction on one pooled connection that begins
// lazily, so that BEGIN travels with the first statement, and that may
// commit with its last write (InRatedTx). Recording a result
// is then two round trips: BEGIN with the statement that reads the ladder
// and locks the rows, and the write with COMMIT. Statements through gorm
// send BEGIN first on their own when it has not been sent yet.
type pgTx struct {
	conn      *sql.Conn
	begun     bool
	committed bool
	// lost says that the round trip carrying BEGIN failed on the
	// connection: nothing ran, so InTx may run the transaction again on
	// another connection, as database/sql retries a BEGIN on a bad one.
	lost bool
	// later are writes deferred by tx.later: they travel with the next
	// round trip, COMMIT's at the latest, so that the rows derived from a
	// rated write (derived.go) cost no round trip of their own.
	later []queued
	// loaded are the integrity reads sent with the rated write
	// (saveRatedPGs), taken by IntegrityLoad in place of a round trip.
	loaded map[integrity.Ladder]*loaded
	// ahead is what the transaction expects to rate (ExpectRated), until
	// the lock that reads ahead for it; reserved are the match IDs and
	// log positions that lock took (ahead.go).
	ahead    *ahead
	reserved []reservation
	// quiet are matches this transaction locked (LockMatchLadder) and
	// found without predictions or MVP votes: none can be added while the
	// lock is held, so Recount leaves them out.
	quiet []int64
	// ladderOf is the ladder of the first match LockMatches locked, read
	// in its round trip: LadderOf answers from it rather than read it
	// again in a round trip of its own.
	ladderOf *ladder.Ladder
}

// queued is a deferred statement in PostgreSQL's numbered placeholders.
type queued struct {
	sql  string
	args []any
	// check, when set, reads the statement's answer in place of Exec.
	check func(pgx.BatchResults) error
}

// lostConn is the error of a transaction whose BEGIN was lost with its
// connection; InTx retries it.
type lostConn struct{ err error }

func (e *lostConn) Error() string { return e.err.Error() }
func (e *lostConn) Unwrap() error { return e.err }

// connFailed reports whether err ended the connection and with it the
// session: a network failure, or the server closing it (connection
// exception, shutdown, crash, restart), after which nothing of the
// transaction remains.
func connFailed(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return true
	}
	return strings.HasPrefix(pgErr.Code, "08") || pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03"
}

// errCommitted refuses a statement after the transaction committed with
// a write that promised to be its last.
var errCommitted = errors.New("storage: statement after the transaction's last write committed it")

// inTxPG runs fn once in a pgTx: it commits when fn returns nil (unless a
// last write committed already) and rolls back otherwise.
func (db *DB) inTxPG(ctx context.Context, fn func(*tx) error) (err error) {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	p := &pgTx{conn: conn}
	g := db.db.Session(&gorm.Session{Context: ctx, NewDB: true})
	g.Statement.ConnPool = conn
	done := false
	defer func() {
		if !done || err != nil {
			p.rollback()
		}
	}()
	err = fn(&tx{db: g, dialect: Postgres, pg: p, derive: db.derive})
	done = true
	if err != nil && p.lost && !p.committed && ctx.Err() == nil {
		return &lostConn{err}
	}
	if err != nil {
		return err
	}
	return p.commit(ctx)
}

// begin sends BEGIN unless the transaction has begun, and the deferred
// writes, so that a statement sent after it through gorm sees them.
func (p *pgTx) begin(ctx context.Context) error {
	if p.committed {
		return errCommitted
	}
	if p.begun {
		if len(p.later) == 0 {
			return nil
		}
		return p.batch(ctx, func(*pgx.Batch) {}, func(pgx.BatchResults) error { return nil })
	}
	p.begun = true
	_, err := p.conn.ExecContext(ctx, "begin")
	p.lost = connFailed(err)
	return err
}

// commit sends COMMIT unless nothing ran or a last write committed. A
// transaction that a failed statement aborted answers ROLLBACK to COMMIT;
// that is an error, as with database/sql.
func (p *pgTx) commit(ctx context.Context) error {
	if p.committed {
		return nil
	}
	if !p.begun {
		if len(p.later) == 0 {
			return nil
		}
		// Deferred writes alone: BEGIN and them first, COMMIT after.
		if err := p.batch(ctx, func(*pgx.Batch) {}, func(pgx.BatchResults) error { return nil }); err != nil {
			return err
		}
	}
	// The deferred writes travel with COMMIT (batch sends them first).
	return p.batch(ctx, func(b *pgx.Batch) { b.Queue("commit") }, func(br pgx.BatchResults) error {
		return p.readCommit(br)
	})
}

// readCommit reads the result of a queued COMMIT.
func (p *pgTx) readCommit(br pgx.BatchResults) error {
	tag, err := br.Exec()
	if err != nil {
		return err
	}
	if tag.String() == "ROLLBACK" {
		return pgx.ErrTxCommitRollback
	}
	p.committed = true
	return nil
}

// rollback ends a transaction that did not commit. When it cannot, the
// connection is still in a transaction and the driver discards it instead
// of returning it to the pool.
func (p *pgTx) rollback() {
	if !p.begun || p.committed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p.conn.ExecContext(ctx, "rollback")
}

// batch sends the statements queue adds, after BEGIN when it has not been
// sent, in one round trip, and lets read take their results in order.
func (p *pgTx) batch(ctx context.Context, queue func(*pgx.Batch), read func(pgx.BatchResults) error) error {
	if p.committed {
		return errCommitted
	}
	return p.conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("storage: PostgreSQL connection is not pgx")
		}
		var b pgx.Batch
		begin := !p.begun
		if begin {
			b.Queue("begin")
			p.begun = true
		}
		// Deferred writes run before anything queued after them.
		later := p.later
		p.later = nil
		for _, q := range later {
			b.Queue(q.sql, q.args...)
		}
		queue(&b)
		br := sc.Conn().SendBatch(ctx, &b)
		var err error
		if begin {
			_, err = br.Exec()
		}
		for _, q := range later {
			switch {
			case err != nil:
			case q.check != nil:
				err = q.check(br)
			default:
				_, err = br.Exec()
			}
		}
		if err == nil {
			err = read(br)
		}
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		if begin && connFailed(err) {
			p.lost = true
		}
		return translate(err)
	})
}

// translate maps PostgreSQL errors as gorm's TranslateError does for
// statements through gorm (a unique violation is gorm.ErrDuplicatedKey).
func translate(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return postgres.Dialector{}.Translate(pgErr)
	}
	return err
}
