package ladder

import (
	"errors"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder/matchmaking"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// Code classifies an error so the edges (bot, HTTP) can choose what to show
// and which status to answer without parsing messages.
type Code string

// The error codes of STYLE.md. Unavailable is a transient fault (database or
// network down) that the user may retry.
const (
	CodeInvalid     Code = "invalid"
	CodeNotFound    Code = "not_found"
	CodeConflict    Code = "conflict"
	CodeForbidden   Code = "forbidden"
	CodeUnavailable Code = "unavailable"
	CodeInternal    Code = "internal"
)

// Error is a coded error with a message meant for the user. Err, when set,
// is the underlying cause, kept for logs and errors.Is.
type Error struct {
	Code    Code
	Message string
	Err     error
	// Format and Args, when Format is set, are what Message was made from
	// (Errorf), so an edge can render the message in the user's language.
	Format string
	Args   []any
}

// Error returns the user message followed by the cause, if any.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause so errors.Is and errors.As see through it.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns a coded error whose message is formatted like fmt.Sprintf.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// Wrap returns a coded error with a user message around cause.
func Wrap(code Code, cause error, message string) *Error {
	return &Error{Code: code, Message: message, Err: cause}
}

// ErrorCode returns the code of the first *Error in err's chain, CodeInternal
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	if e, ok := asError(err); ok {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the user-facing message of err: the message of the
// first *Error in its chain, or a generic text for internal errors, whose
// details belong in the log and never in front of a user.
func ErrorMessage(err error) string {
	if e, ok := asError(err); ok && e.Code != CodeInternal {
		return e.Message
	}
	return "internal error"
}

// ErrorFormat returns the format and arguments the user message of err was
// made from, or its message and no arguments when it was not formatted;
// "" for internal errors and nil. The bot renders it in the user's
// language (package i18n), falling back to the message itself.
func ErrorFormat(err error) (string, []any) {
	e, ok := asError(err)
	if !ok || e.Code == CodeInternal {
		return "", nil
	}
	if e.Format == "" {
		return e.Message, nil
	}
	return e.Format, e.Args
}

// asError returns the first *Error in err's chain. Failing that, it returns
// the invalid-input error of rating or matchmaking as a CodeInvalid *Error
// with the same message: those packages cannot import ladder, so their
// errors are coded here, where they reach the bot and the HTTP layer.
func asError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	var re *rating.Error
	if errors.As(err, &re) {
		return &Error{Code: CodeInvalid, Message: re.Message, Err: re.Err}, true
	}
	var me *matchmaking.Error
	if errors.As(err, &me) {
		return &Error{Code: CodeInvalid, Message: me.Message, Err: me.Err}, true
	}
	return nil, false
}

// reword gives a store's error of code the message users read: storage
// names rows ("queue ban not found"), the Service says what it means to
// the user. Other errors pass unchanged.
func reword(err error, code Code, format string, args ...any) error {
	if err == nil || ErrorCode(err) != code {
		return err
	}
	w := Wrap(code, err, fmt.Sprintf(format, args...))
	w.Format, w.Args = format, args
	return w
}

// ErrRetry is returned from inside a transaction whose reads went stale
// before its write could be made consistent with them (new constants
// adopted between reading a ladder and locking its calibrator): the store
// rolls back and runs the transaction again, as after a serialization
// failure.
var ErrRetry = errors.New("ladder: the transaction read stale state; run it again")
