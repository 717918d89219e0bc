package testdb

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Reason is why a test cannot run here and how to make it run. A package's
// TestMain (through Main) prints one line per Reason that skipped tests, so
// a plain `go test ./...` never says "ok" over tests that silently did not
// run (issue 13).
type Reason struct {
	// Without names what is missing, as in "skipped without <Without>".
	Without string
	// Enable says what to do so the tests run.
	Enable string
}

// NoPostgres is the reason every PostgreSQL test gives when
// TEST_DATABASE_URL is unset.
var NoPostgres = Reason{
	Without: "TEST_DATABASE_URL",
	Enable:  `set it to a PostgreSQL database whose name contains "test" to run them`,
}

// tally counts skipped tests by reason; tests of one package may run in
// parallel, hence the lock.
type tally struct {
	mu sync.Mutex
	n  map[Reason]int
}

func (c *tally) add(r Reason) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[Reason]int{}
	}
	c.n[r]++
}

// report writes one line per reason, sorted, nothing when none.
func (c *tally) report(w io.Writer, pkg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	reasons := make([]Reason, 0, len(c.n))
	for r := range c.n {
		reasons = append(reasons, r)
	}
	slices.SortFunc(reasons, func(a, b Reason) int { return strings.Compare(a.Without, b.Without) })
	for _, r := range reasons {
		noun := "tests"
		if c.n[r] == 1 {
			noun = "test"
		}
		fmt.Fprintf(w, "%s: %d %s skipped without %s; %s\n", pkg, c.n[r], noun, r.Without, r.Enable)
	}
}

// skipped is the tally of this test binary, which is one package's tests.
var skipped tally

// Skip records that t is skipped for r and skips it with r spelled out, so
// that -v still shows it per test and Main can sum it up.
func Skip(t testing.TB, r Reason) {
	t.Helper()
	skipped.add(r)
	t.Skipf("skipped without %s; %s", r.Without, r.Enable)
}

// Main runs the tests of package pkg and then prints one line per reason
// tests were skipped, with their count; it returns m.Run's exit code for
// os.Exit. Use it as a package's TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testdb.Main(m, "storage")) }
//
// `go test ./...` throws away all output of a passing package unless -v is
// given (cmd/go resets the buffer before printing "ok"), so without -v the
// line goes to the terminal that runs go test, /dev/tty, which cmd/go does
// not capture; with -v, or without a terminal (CI), to standard output,
// where -v and a failing run show it.
func Main(m *testing.M, pkg string) int {
	code := m.Run()
	w := io.Writer(os.Stdout)
	if !testing.Verbose() {
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			defer tty.Close()
			w = tty
		}
	}
	Report(w, pkg)
	return code
}

// Report writes the skip summary of package pkg to w: one line per
// reason, in a stable order, nothing when no test was skipped. Main calls
// it; a TestMain with its own set-up may call it after m.Run.
func Report(w io.Writer, pkg string) { skipped.report(w, pkg) }

// runner is *testing.T or *testing.B: what ForEach needs to make subtests.
type runner[T any] interface {
	testing.TB
	Run(name string, f func(T)) bool
}

// ForEach runs fn once per backend as the subtest <test>/<backend>: SQLite
// always, PostgreSQL when TEST_DATABASE_URL is set (skipped and counted
// otherwise, failed under CI; see PostgresURL). fn gets the backend name
// and makes its databases with DSN, so a test that needs several
// databases, or none fresh (a benchmark's surviving schema), can. It takes
// a *testing.T or a *testing.B.
func ForEach[T runner[T]](t T, fn func(t T, backend string)) {
	t.Helper()
	for _, b := range Backends() {
		t.Run(b, func(t T) {
			if b == Postgres {
				PostgresURL(t)
			}
			fn(t, b)
		})
	}
}
