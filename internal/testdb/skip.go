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
// run.
type Reason struct {
	// Why completes "N tests skipped ...": "without TEST_DATABASE_URL",
	// "under -short".
	Why string
	// Enable says what to do so the tests run.
	Enable string
}

// Short is the reason of tests that -short leaves out.
var Short = Reason{Why: "under -short", Enable: "run without -short to run them"}

// NoPostgres is the reason every PostgreSQL test gives when
// TEST_DATABASE_URL is unset.
var NoPostgres = Reason{
	Why:    "without TEST_DATABASE_URL",
	Enable: `set it to a PostgreSQL database whose name contains "test" to run them`,
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
	slices.SortFunc(reasons, func(a, b Reason) int { return strings.Compare(a.Why, b.Why) })
	for _, r := range reasons {
		noun := "tests"
		if c.n[r] == 1 {
			noun = "test"
		}
		fmt.Fprintf(w, "%s: %d %s skipped %s; %s\n", pkg, c.n[r], noun, r.Why, r.Enable)
	}
}

// skipped is the tally of this test binary, which is one package's tests.
var skipped tally

// Skip records that t is skipped for r and skips it with r spelled out, so
// that -v still shows it per test and Main can sum it up.
func Skip(t testing.TB, r Reason) {
	t.Helper()
	skipped.add(r)
	t.Skipf("skipped %s; %s", r.Why, r.Enable)
}

// Main runs the tests of package pkg, then PrintSkips; it returns m.Run's
// exit code for os.Exit. Use it as a package's TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testdb.Main(m, "storage")) }
func Main(m *testing.M, pkg string) int {
	code := m.Run()
	PrintSkips(pkg)
	return code
}

// PrintSkips prints one line per reason tests of package pkg were skipped,
// with their count, and nothing when none was; a TestMain with set-up of
// its own calls it after m.Run.
//
// `go test ./...` throws away all output of a passing package unless -v is
// given (cmd/go resets the buffer before printing "ok"), so without -v the
// lines go to the terminal that runs go test, /dev/tty, which cmd/go does
// not capture; with -v, or without a terminal (CI), to standard output,
// where -v and a failing run show them.
func PrintSkips(pkg string) {
	w := io.Writer(os.Stdout)
	if !testing.Verbose() {
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			defer tty.Close()
			w = tty
		}
	}
	skipped.report(w, pkg)
}

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
