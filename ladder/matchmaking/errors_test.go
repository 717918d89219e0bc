package matchmaking

import "errors"

// isInvalid reports whether err is this package's invalid-input error, the
// one ladder reports as CodeInvalid.
func isInvalid(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
