package ladder

import (
	"os"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestMain prints what this package's tests skipped here and how to run
// them, since go test otherwise says only "ok" (testdb.Main).
func TestMain(m *testing.M) { os.Exit(testdb.Main(m, "ladder")) }
