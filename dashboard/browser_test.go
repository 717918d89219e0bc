package dashboard_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// screenshotPage is one dashboard page to photograph: where it is and an
// element only that page has, so a picture of the wrong page (a login
// redirect, an error) fails the test.
type screenshotPage struct {
	name, path, mark string
	// loggedOut pages are taken in a tab that never logged in.
	loggedOut bool
}

// TestBrowserScreenshots photographs every dashboard page in real headless
// Chromium, in light and dark mode (prefers-color-scheme) at desktop and
// phone width, after logging in through the fake Discord. It checks each
// picture shows the page asked for, at the width asked for.
// LADDERBOT_SCREENSHOT_DIR=docs/img/dashboard keeps the pictures (the docs
// show them).
func TestBrowserScreenshots(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	startChrome(t)
	ctx := context.Background()
	disputedMatch(t, e)
	// Enough games for the players to be past their placement and listed.
	var res ladder.MatchResult
	for i := range 8 {
		var err error
		res, err = e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildA, Queue: queueName, Team1: team1, Team2: team2, Winner: 2 - i%2})
		if err != nil {
			t.Fatal(err)
		}
	}
	web := ladder.Actor{UserID: "web:" + userAdmin, Moderator: true}
	if _, _, err := e.svc.CreateToken(ctx, web, guildA, "game-server"); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SetQueueSides(ctx, web, guildA, queueName, true); err != nil {
		t.Fatal(err)
	}
	// A webhook, so that the integrations page shows its card.
	if _, err := e.svc.CreateWebhook(ctx, web, guildA, "https://overlay.example.com/ladder", []string{"match.formed", "match.confirmed"}, ladder.URLPolicy{}); err != nil {
		t.Fatal(err)
	}
	// Integrity flags to look at, one of them dismissed.
	flags := raiseFlags(t, e, guildA)
	if _, err := e.in.Dismiss(ctx, web, guildA, flags[len(flags)-1].ID, "friends testing a map"); err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("LADDERBOT_SCREENSHOT_DIR")
	switch {
	case dir == "":
		dir = t.TempDir()
	case !filepath.IsAbs(dir):
		dir = filepath.Join("..", dir) // from the repository root
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	g := "/admin/guilds/" + guildA + "/"
	pages := []screenshotPage{
		{name: "login", path: "/admin", mark: "#login", loggedOut: true},
		{name: "index", path: "/admin", mark: "#guilds"},
		{name: "guild", path: g, mark: "#queues"},
		{name: "queue", path: g + "queues/" + queueName, mark: "#queue-form"},
		{name: "settings", path: g + "settings", mark: "#settings-form"},
		{name: "disputes", path: g + "disputes", mark: "form[action$='/resolve']"},
		{name: "match", path: fmt.Sprintf("%smatches/%d?winner=2", g, res.Match.ID), mark: "#preview-table"},
		{name: "players", path: g + "players?queue=" + queueName, mark: "#players"},
		{name: "player", path: g + "players/" + team1[0], mark: "#player"},
		{name: "integrations", path: g + "integrations", mark: "#tokens"},
		{name: "integrity", path: g + "integrity?all=true", mark: "#flags form[action$='/dismiss']"},
		{name: "audit", path: g + "audit", mark: "#audit"},
		{name: "logout", path: "/admin/logout", mark: "#logout"},
		{name: "error", path: "/admin/guilds/" + guildB + "/", mark: "#error"},
	}
	in := e.tab(t)
	in.login(userAdmin, "/admin")
	out := e.tab(t)
	sizes := []struct {
		name  string
		w, h  int64
		phone bool
	}{{"desktop", 1000, 800, false}, {"phone", 390, 844, true}}
	for _, p := range pages {
		b := in
		if p.loggedOut {
			b = out
		}
		for _, mode := range []string{"light", "dark"} {
			for _, size := range sizes {
				b.emulate(size.w, size.h, size.phone, mode)
				b.open(p.path)
				if !b.has(p.mark) {
					t.Errorf("Got(%s) at %s: no %s on the page", p.name, b.location(), p.mark)
					continue
				}
				if loggedIn := b.has("a[href='/admin/logout']"); loggedIn == p.loggedOut {
					t.Errorf("Got(%s) logged in = %v, want %v", p.name, loggedIn, !p.loggedOut)
				}
				if p.name != "error" && b.has("#error") {
					t.Errorf("Got(%s) shows an error: %s", p.name, b.text("#error"))
				}
				if got := b.colorScheme(); got != mode {
					t.Errorf("Got(%s, %s) colour scheme = %s", p.name, mode, got)
				}
				shot := b.screenshot()
				cfg, err := png.DecodeConfig(bytes.NewReader(shot))
				if err != nil || int64(cfg.Width) != size.w {
					t.Errorf("Got(%s %s %s screenshot) = %d px wide, %v; want %d", p.name, mode, size.name, cfg.Width, err, size.w)
				}
				// The page fits the width: nothing wider than the viewport.
				if w := b.scrollWidth(); w > size.w {
					t.Errorf("Got(%s at %s width) = %d px of content, wider than the screen", p.name, size.name, w)
				}
				file := filepath.Join(dir, fmt.Sprintf("%s-%s-%s.png", p.name, mode, size.name))
				if err := os.WriteFile(file, shot, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("screenshots written to %s", dir)
}

// screenshot takes a PNG of the whole page.
func (b *tab) screenshot() []byte {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("browser: screenshot: %v", err)
	}
	return shot
}

// colorScheme is the scheme the page's CSS sees.
func (b *tab) colorScheme() string {
	return b.eval(`matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"`)
}

// scrollWidth is the width of the page's content in CSS pixels.
func (b *tab) scrollWidth() int64 {
	var n int64
	fmt.Sscan(b.eval(`String(document.documentElement.scrollWidth)`), &n)
	return n
}

// eval evaluates a JavaScript expression of string value in the page
// (through DevTools; the page itself runs no script).
func (b *tab) eval(expr string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.t.Fatalf("browser: evaluate %s: %v", expr, err)
	}
	return strings.TrimSpace(s)
}
