package dashboard_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// chromiumPath is where Debian's chromium package (installed by .ci/install)
// puts the browser.
const chromiumPath = "/usr/bin/chromium"

var noChromium = testdb.Reason{
	Why:    "without Chromium at " + chromiumPath,
	Enable: "apt-get install chromium (as .ci/install does) to run them",
}

// TestBrowserScreenshots logs in through the fake Discord in real headless
// Chromium (each run starts at /admin/login?next=PAGE, so the browser
// itself follows the OAuth2 redirects, keeps the cookie and lands on the
// page) and photographs every dashboard page in light and dark mode at
// desktop and phone width. It checks that each landed logged in, on the
// page asked for. LADDERBOT_SCREENSHOT_DIR=docs/img keeps the pictures.
func TestBrowserScreenshots(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("headless browser test: %s not found under CI: %v", chromiumPath, err)
		}
		testdb.Skip(t, noChromium)
	}
	e := newEnv(t, testdb.SQLite)
	ctx := context.Background()
	disputedMatch(t, e)
	res, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildA, Queue: queueName, Team1: team1, Team2: team2, Winner: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("LADDERBOT_SCREENSHOT_DIR")
	switch {
	case dir == "":
		dir = t.TempDir()
	case !filepath.IsAbs(dir):
		dir = filepath.Join("..", dir) // from the repository root
	}
	e.fake.LogInBrowser(userAdmin)
	g := "/admin/guilds/" + guildA + "/"
	pages := map[string]string{
		"index": "/admin", "guild": g, "queue": g + "queues/" + queueName, "settings": g + "settings",
		"disputes": g + "disputes", "match": fmt.Sprintf("%smatches/%d?winner=2", g, res.Match.ID), "players": g + "players",
		"player": g + "players/" + team1[0], "integrations": g + "integrations", "audit": g + "audit",
	}
	for name, path := range pages {
		for _, mode := range []string{"light", "dark"} {
			for _, size := range []struct {
				name string
				w, h int
			}{{"desktop", 1000, 900}, {"phone", 412, 915}} {
				login := e.srv.URL + "/admin/login?next=" + url.QueryEscape(path)
				args := []string{fmt.Sprintf("--window-size=%d,%d", size.w, size.h)}
				if mode == "dark" {
					args = append(args, "--force-dark-mode", "--blink-settings=preferredColorScheme=0")
				}
				dom := chromium(t, append(args, "--dump-dom", login)...)
				if !strings.Contains(dom, "Log out") || strings.Contains(dom, `id="error"`) {
					t.Errorf("Got(%s in Chromium) = not logged in on the page: %.300s", path, dom)
				}
				file := filepath.Join(dir, fmt.Sprintf("dashboard-%s-%s-%s.png", name, mode, size.name))
				chromium(t, append(args, "--hide-scrollbars", "--screenshot="+file, login)...)
				if st, err := os.Stat(file); err != nil || st.Size() == 0 {
					t.Errorf("chromium --screenshot=%s: no picture (%v)", file, err)
				}
			}
		}
	}
	t.Logf("screenshots written to %s", dir)
}

// chromium runs headless Chromium with args after the common flags and
// returns its standard output.
func chromium(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromiumPath, append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir()}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return string(out)
}
