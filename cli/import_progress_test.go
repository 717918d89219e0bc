//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"golang.org/x/sys/unix"
)

// noPTY is why the terminal tests skip where no pseudo-terminal can be opened.
var noPTY = testdb.Reason{Why: "without /dev/ptmx", Enable: "run them where pseudo-terminals can be opened"}

// openPTY opens a pseudo-terminal and returns its two ends: what a program
// writes to tty, a terminal, is read from pty.
func openPTY(t *testing.T) (pty, tty *os.File) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		testdb.Skip(t, noPTY)
	}
	t.Cleanup(func() { pty.Close() })
	if err := unix.IoctlSetPointerInt(int(pty.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(pty.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("pty number: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open tty: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return pty, tty
}

// TestImportProgress runs `ladderbot import` with stderr on a terminal,
// where it draws a progress bar of the matches written, and with stderr
// not a terminal,
// where stderr stays empty.
func TestImportProgress(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		var b strings.Builder
		b.WriteString("date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n")
		start := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
		rows := ladder.ImportBatch + 500 // two batches: the bar moves after the first
		for i := range rows {
			fmt.Fprintf(&b, "%s,p%d,p%d,p%d,p%d,%d\n", start.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), i%7, (i+1)%7, (i+2)%7, (i+3)%7, 1+i%2)
		}
		file := filepath.Join(t.TempDir(), "history.csv")
		if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		env := []string{"DATABASE_URL=" + testdb.DSN(t, backend), "LOG_LEVEL=error"}

		pty, tty := openPTY(t)
		read := make(chan string)
		go func() {
			out, _ := io.ReadAll(pty) // until the tty side closes
			read <- string(out)
		}()
		var stdout bytes.Buffer
		code := Main([]string{"import", "--guild", "123456789012345678", "--data", file}, env, &stdout, tty)
		tty.Close()
		drawn := <-read
		if code != 0 || !strings.Contains(stdout.String(), fmt.Sprintf("imported %d matches", rows)) {
			t.Fatalf("Got(ladderbot import on a terminal) = %d, %q, want 0 and %d imported", code, stdout.String(), rows)
		}
		// The bar moves after each batch and is cleared at the end.
		for _, want := range []string{"importing", fmt.Sprintf("(%d/%d)", ladder.ImportBatch, rows)} {
			if !strings.Contains(drawn, want) {
				t.Errorf("Got(terminal) = %q, want a progress bar with %q", drawn, want)
			}
		}

		var stderr bytes.Buffer
		stdout.Reset()
		code = Main([]string{"import", "--guild", "223456789012345678", "--data", file}, env, &stdout, &stderr)
		if code != 0 || stderr.Len() != 0 {
			t.Errorf("Got(ladderbot import on a pipe) = %d, stderr %q, want 0 and no progress bar", code, stderr.String())
		}
	})
}
