package storage

import (
	"fmt"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// The driver reports a lock held at open time as a bare ErrorCode wrapped in
// text; treating only *sqlite3.Error as a lock made concurrent opens fail.
func TestLockedErr(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("sqlite3: invalid _pragma: %w", sqlite3.BUSY), true},
		{fmt.Errorf("begin: %w", sqlite3.LOCKED), true},
		{fmt.Errorf("exec: %w", sqlite3.CONSTRAINT), false},
		{fmt.Errorf("plain"), false},
		{nil, false},
	} {
		if got := lockedErr(tc.err); got != tc.want {
			t.Errorf("lockedErr(%v) = %v, want %v", tc.err, got, tc.want)
		}
		if got := retryable(tc.err); got != tc.want {
			t.Errorf("retryable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
