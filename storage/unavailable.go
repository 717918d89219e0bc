package storage

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/ladderbot/ladderbot/ladder"
)

// unavailableMessage is what a user sees when the database is down for a
// moment (docs/spec.md 9: a clear "try again" rather than an internal error).
const unavailableMessage = "the ladder's database is not reachable right now"

// unavailable marks err as ladder.CodeUnavailable when it is a transient
// fault of the database connection (server restarting or shutting down,
// connection refused or reset, too many connections, SQLite still busy
// after the retries); other errors are returned unchanged.
func unavailable(err error) error {
	if err == nil || !transient(err) || ladder.ErrorCode(err) != ladder.CodeInternal {
		return err
	}
	return ladder.Wrap(ladder.CodeUnavailable, err, unavailableMessage)
}

func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return strings.HasPrefix(pgErr.Code, "08") || // connection exception
			pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03" || // shutdown, crash, starting up
			pgErr.Code == "53300" // too many connections
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) || pgconn.SafeToRetry(err) || pgconn.Timeout(err) {
		return true
	}
	if lockedErr(err) {
		return true
	}
	var netErr net.Error
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.As(err, &netErr)
}

// markUnavailable registers a gorm callback after every kind of statement
// that turns a transient connection fault into ladder.CodeUnavailable, so
// every read and write of the package reports it the same way.
func markUnavailable(g *gorm.DB) error {
	mark := func(d *gorm.DB) { d.Error = unavailable(d.Error) }
	cb := g.Callback()
	for name, err := range map[string]error{
		"create": cb.Create().After("*").Register("ladderbot:unavailable", mark),
		"query":  cb.Query().After("*").Register("ladderbot:unavailable", mark),
		"update": cb.Update().After("*").Register("ladderbot:unavailable", mark),
		"delete": cb.Delete().After("*").Register("ladderbot:unavailable", mark),
		"row":    cb.Row().After("*").Register("ladderbot:unavailable", mark),
		"raw":    cb.Raw().After("*").Register("ladderbot:unavailable", mark),
	} {
		if err != nil {
			return errors.New("storage: register " + name + " callback: " + err.Error())
		}
	}
	return nil
}
