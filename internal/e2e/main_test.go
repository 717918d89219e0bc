package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// binary is the ladderbot executable built once by TestMain.
var binary string

// TestMain builds ladderbot once into a temporary directory; every test
// runs that binary as real processes.
func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "ladderbot-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "ladderbot")
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	args := []string{"build", "-o", binary}
	if raceBuild {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: go build:", err)
		return 1
	}
	code := m.Run()
	testdb.PrintSkips("internal/e2e")
	return code
}

// moduleRoot is the directory of go.mod, two levels up from this package.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the ladderbot module")
	}
	return filepath.Dir(mod), nil
}

// needPostgres skips a test that needs several processes on one server when
// PostgreSQL is not configured (and fails it under CI).
func needPostgres(t testing.TB) { testdb.PostgresURL(t) }

// freshDSN returns an empty database of backend (testdb); a PostgreSQL
// schema is named in the DSN's search_path, so every process of the test
// shares it.
func freshDSN(t testing.TB, backend string) string { return testdb.DSN(t, backend) }
