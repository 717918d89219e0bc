package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/ladderbot/ladderbot/internal/httperr"
	"github.com/ladderbot/ladderbot/ladder"
)

// errorBody is the JSON shape of every API error (docs/spec.md 7).
type errorBody struct {
	Error string `json:"error"`
}

// httpError is an error the HTTP layer itself raises with a fixed status,
// such as a missing token (401), an oversized body (413) or a rate limit (429),
// for which ladder has no code.
type httpError struct {
	status int
	msg    string
	// format and args made msg, so a page can say it in its language.
	format string
	args   []any
}

func (e *httpError) Error() string { return e.msg }

func errStatus(status int, format string, args ...any) error {
	return &httpError{status: status, msg: fmt.Sprintf(format, args...), format: format, args: args}
}

// statusOf maps an error to its HTTP status and the message the client
// sees: the HTTP layer's own errors here, the ladder's through httperr,
// as the dashboard maps them.
func statusOf(err error) (int, string) {
	var he *httpError
	if errors.As(err, &he) {
		return he.status, he.msg
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", mbe.Limit)
	}
	return httperr.Status(err)
}

// newRef returns a short random reference tying an internal error shown to a
// client to its log line.
func newRef() string { return httperr.Ref() }

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		// Only unencodable values (NaN ratings) get here; that is a bug.
		status, body = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// writeJSONError answers err as {"error": "..."} with the status statusOf
// chooses and records err for the request log line.
func writeJSONError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := statusOf(err)
	if status >= 500 && status != http.StatusServiceUnavailable {
		ref := newRef()
		msg = fmt.Sprintf("%s (ref %s)", msg, ref)
		noteError(r, err, ref)
	} else {
		noteError(r, err, "")
	}
	if status == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, status, errorBody{Error: msg})
}

// decodeJSON reads exactly one JSON value from r's body into v: unknown
// fields, repeated keys, trailing data, invalid UTF-8, strings failing
// ladder.CheckText (checkJSONBody), a wrong content type and bodies over the
// server's limit (413) are errors. The body limit itself is set by the
// middleware.
func decodeJSON(r *http.Request, v any) error { return decodeBody(r, v, false) }

// decodeOptionalJSON is decodeJSON for a body that may be left out: an
// empty body leaves v as it is, however it came (Content-Length: 0, or
// chunked with no Content-Length, as clients that stream a body send it).
func decodeOptionalJSON(r *http.Request, v any) error { return decodeBody(r, v, true) }

func decodeBody(r *http.Request, v any, optional bool) error {
	if !optional {
		if err := jsonContentType(r); err != nil {
			return err
		}
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return jsonError(err)
	}
	if optional {
		if len(body) == 0 {
			return nil
		}
		if err := jsonContentType(r); err != nil {
			return err
		}
	}
	if err := checkJSONBody(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		if err != nil {
			if e := jsonError(err); ladder.ErrorCode(e) != ladder.CodeInvalid {
				return e
			}
		}
		return ladder.Errorf(ladder.CodeInvalid, "request body must hold one JSON value, found more after it")
	}
	return nil
}

// jsonContentType refuses a body said to be anything but JSON; no
// Content-Type at all is taken as JSON.
func jsonContentType(r *http.Request) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return errStatus(http.StatusUnsupportedMediaType, "Content-Type must be application/json")
		}
	}
	return nil
}

// jsonError turns a decoding failure into a message that says what is wrong.
func jsonError(err error) error {
	var mbe *http.MaxBytesError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &mbe):
		return err
	case errors.Is(err, io.EOF):
		return ladder.Errorf(ladder.CodeInvalid, "request body is empty; want a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return ladder.Errorf(ladder.CodeInvalid, "request body is truncated JSON")
	case errors.As(err, &syn):
		return ladder.Errorf(ladder.CodeInvalid, "malformed JSON at byte %d: %v", syn.Offset, err)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return ladder.Errorf(ladder.CodeInvalid, "field %q: want %s, got JSON %s", typ.Field, typ.Type, typ.Value)
		}
		return ladder.Errorf(ladder.CodeInvalid, "want %s, got JSON %s", typ.Type, typ.Value)
	default:
		// DisallowUnknownFields reports `json: unknown field "x"`.
		return ladder.Errorf(ladder.CodeInvalid, "bad request body: %v", err)
	}
}
