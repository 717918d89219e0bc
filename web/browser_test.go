package web

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// chromiumPath is where Debian's chromium package (installed by .ci/install)
// puts the browser.
const chromiumPath = "/usr/bin/chromium"

// noChromium is why the browser tests skip on a machine without Chromium.
var noChromium = testdb.Reason{
	Why:    "without Chromium at " + chromiumPath,
	Enable: "apt-get install chromium (as .ci/install does) to run them",
}

// dumpDOM loads url in headless Chromium and returns the DOM after parsing,
// as the browser serialises it. Without a Chromium the test is skipped with
// the reason printed, except under CI (CI=true), which installs it and must
// never silently lose the browser check.
func dumpDOM(t *testing.T, url string) string {
	t.Helper()
	return chromium(t, "--window-size=412,915", "--dump-dom", url) // a phone's viewport
}

// screenshot saves url as rendered in a width×height window to the PNG file path.
func screenshot(t *testing.T, url, path string, width, height int) {
	t.Helper()
	chromium(t, fmt.Sprintf("--window-size=%d,%d", width, height), "--hide-scrollbars", "--screenshot="+path, url)
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("chromium --screenshot=%s: no picture (%v)", path, err)
	}
}

// chromium runs headless Chromium with args after the common flags and
// returns its standard output; see dumpDOM for when it skips.
func chromium(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("headless browser test: %s not found under CI; .ci/install should have installed it: %v", chromiumPath, err)
		}
		testdb.Skip(t, noChromium)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromiumPath, append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir()}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// limitedBuffer keeps the first 8 KiB written to it, for error messages.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 8<<10 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
