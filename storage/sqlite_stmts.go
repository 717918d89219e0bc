package storage

import (
	"context"
	"database/sql/driver"
	"errors"
	"time"

	"github.com/ncruces/go-sqlite3"
	sqlitedriver "github.com/ncruces/go-sqlite3/driver"
)

// connectBusyLimit bounds how long opening a connection waits for another
// connection that holds the lock it needs to apply its PRAGMAs.
const connectBusyLimit = 10 * time.Second

// maxCachedStmts bounds the statements one SQLite connection keeps
// prepared; past it, statements are prepared and finalized per use.
const maxCachedStmts = 256

// stmtConnector opens SQLite connections that keep their prepared
// statements by SQL text. database/sql prepares every statement with
// arguments again on each use (the driver has no QueryerContext), and
// parsing SQL was a large share of the CPU of SQLite writes; gorm's
// PrepareStmt does not help inside transactions, where it prepares on the
// transaction and so parses once per transaction.
type stmtConnector struct {
	driver.Connector
}

// Connect implements driver.Connector.
func (c stmtConnector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.connectWaiting(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := dc.(sqlitedriver.Conn)
	if !ok {
		dc.Close()
		return nil, errors.New("storage: unexpected SQLite driver connection")
	}
	return &stmtConn{Conn: sc, stmts: map[string]*cachedStmt{}}, nil
}

// connectWaiting opens a connection, retrying while the database is locked.
// Switching a new database file to WAL needs an exclusive lock, and SQLite
// reports "database is locked" for it at once instead of calling the busy
// handler, so processes opening one file together would fail without this.
func (c stmtConnector) connectWaiting(ctx context.Context) (driver.Conn, error) {
	deadline := time.Now().Add(connectBusyLimit)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		dc, err := c.Connector.Connect(ctx)
		if err == nil || !lockedErr(err) || time.Now().After(deadline) {
			return dc, err
		}
		select {
		case <-ctx.Done():
			return nil, errors.Join(err, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// lockedErr reports whether SQLite refused for a lock another connection
// holds. The driver returns either a *sqlite3.Error or a bare
// sqlite3.ErrorCode; errors.Is matches both.
func lockedErr(err error) bool {
	return errors.Is(err, sqlite3.BUSY) || errors.Is(err, sqlite3.LOCKED)
}

// stmtConn is a SQLite connection with a cache of prepared statements.
// database/sql uses a connection from one goroutine at a time.
type stmtConn struct {
	sqlitedriver.Conn
	stmts map[string]*cachedStmt
}

var (
	_ driver.ExecerContext      = (*stmtConn)(nil)
	_ driver.NamedValueChecker  = (*stmtConn)(nil)
	_ driver.ConnPrepareContext = (*stmtConn)(nil)
)

// cachedStmt is a statement that Close resets for the next use instead of
// finalizing.
type cachedStmt struct {
	driver.Stmt
	inUse bool
}

// stmtFull is what the driver's statements implement; cachedStmt passes
// it all on, so database/sql converts arguments as the driver wants.
type stmtFull interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
	driver.NamedValueChecker
}

var _ stmtFull = (*cachedStmt)(nil)

// ExecContext implements driver.StmtExecContext.
func (s *cachedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.Stmt.(stmtFull).ExecContext(ctx, args)
}

// QueryContext implements driver.StmtQueryContext.
func (s *cachedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.Stmt.(stmtFull).QueryContext(ctx, args)
}

// CheckNamedValue implements driver.NamedValueChecker.
func (s *cachedStmt) CheckNamedValue(arg *driver.NamedValue) error {
	return s.Stmt.(stmtFull).CheckNamedValue(arg)
}

// Close implements driver.Stmt: the statement's rows or execution are
// done (database/sql closes a statement it prepared for one query after
// the query's rows), and the statement goes back to the cache. Its rows
// or execution reset it and cleared its bindings already; it is reset
// again in case they did not finish.
func (s *cachedStmt) Close() error {
	if r, ok := s.Stmt.(interface{ Reset() error }); ok {
		r.Reset() // the error is the last step's, reported already
	}
	s.inUse = false
	return nil
}

// PrepareContext implements driver.ConnPrepareContext from the cache. A
// statement already in use on this connection (rows of the same query
// still open) is prepared anew and finalized on Close.
func (c *stmtConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if s, ok := c.stmts[query]; ok && !s.inUse {
		s.inUse = true
		return s, nil
	}
	st, err := c.Conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if _, ok := st.(stmtFull); !ok {
		return st, nil
	}
	if _, ok := c.stmts[query]; ok || len(c.stmts) >= maxCachedStmts {
		return st, nil
	}
	s := &cachedStmt{Stmt: st, inUse: true}
	c.stmts[query] = s
	return s, nil
}

// Prepare implements driver.Conn.
func (c *stmtConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// ExecContext implements driver.ExecerContext (statements without
// arguments, which the driver runs directly).
func (c *stmtConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, query, args)
}

// CheckNamedValue implements driver.NamedValueChecker as the driver does.
func (c *stmtConn) CheckNamedValue(arg *driver.NamedValue) error {
	return c.Conn.(driver.NamedValueChecker).CheckNamedValue(arg)
}

// Close finalizes the cached statements, then closes the connection.
func (c *stmtConn) Close() error {
	var errs []error
	for q, s := range c.stmts {
		errs = append(errs, s.Stmt.Close())
		delete(c.stmts, q)
	}
	return errors.Join(append(errs, c.Conn.Close())...)
}
