// Package httperr maps the ladder's coded errors to HTTP statuses and the
// message a client may see, for the token API's JSON and the dashboard's
// pages alike, and makes the short references that tie an internal error
// shown to a client to its log line.
package httperr

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"

	"github.com/ladderbot/ladderbot/ladder"
)

// Status returns err's HTTP status and the message for the client: a
// coded ladder error's own message, a cancelled or timed-out request as
// 503, and anything else as 500 "internal error" (details stay in the log).
func Status(err error) (int, string) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// The client went away or the database did not answer in time.
		return http.StatusServiceUnavailable, "The request was cancelled or timed out; try again."
	}
	msg := ladder.ErrorMessage(err)
	switch ladder.ErrorCode(err) {
	case ladder.CodeInvalid:
		return http.StatusBadRequest, msg
	case ladder.CodeNotFound:
		return http.StatusNotFound, msg
	case ladder.CodeConflict:
		return http.StatusConflict, msg
	case ladder.CodeForbidden:
		return http.StatusForbidden, msg
	case ladder.CodeUnavailable:
		return http.StatusServiceUnavailable, msg
	}
	return http.StatusInternalServerError, "internal error"
}

// Ref returns a short random reference for an internal error: the client
// sees it, the log line repeats it.
func Ref() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
