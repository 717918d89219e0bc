package matchmaking

import "fmt"

// Error is invalid input to the matchmaker or the lobby balancer. Message
// is meant for the user; ladder reports it as CodeInvalid, so matchmaking can
// stay free of ladder's coded errors and ladder can import matchmaking.
type Error struct {
	Message string
	Err     error
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

// invalidf returns an *Error whose message is formatted like fmt.Sprintf.
func invalidf(format string, args ...any) *Error {
	return &Error{Message: fmt.Sprintf(format, args...)}
}
