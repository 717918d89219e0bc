package joins_test

import (
	"os"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestMain prints what this package's tests skipped and how to run them
// (testdb.Main).
func TestMain(m *testing.M) { os.Exit(testdb.Main(m, "joins")) }
