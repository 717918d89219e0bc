package rating

import (
	"os"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestMain prints what this package's tests skipped here and how to run
// them, since go test otherwise says only "ok" (testdb.Main).
func TestMain(m *testing.M) { os.Exit(testdb.Main(m, "ladder/rating")) }

// noDevData is why the tests on the ATP doubles history (docs/spec.md 2.3) skip on
// a clean clone.
var noDevData = testdb.Reason{
	Why:    "without the dev data " + atpPath,
	Enable: "put atp_doubles_2v2.csv there to run them",
}
