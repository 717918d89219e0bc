package web

import (
	"context"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// layoutEval loads url in headless Chromium in a width×height window and
// returns what the JavaScript expression expr evaluates to, as the page is
// laid out. It skips without Chromium as chromium does.
func layoutEval(t *testing.T, url string, width, height int, expr string) string {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("headless browser test: %s not found under CI: %v", chromiumPath, err)
		}
		testdb.Skip(t, noChromium)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumPath),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.Flag("disable-quic", true),
		chromedp.Flag("hide-scrollbars", true), chromedp.WindowSize(width, height),
		chromedp.UserDataDir(t.TempDir()))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	if _, err := chromedp.Run(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("chromium %s: %v", url, err)
	}
	out, err := chromedp.Run(bctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("chromium %s: evaluating %s: %v", url, expr, err)
	}
	return out
}

// offScreen lists, for a page laid out in the browser, the table header
// cells whose right edge lies past the window's: columns a reader cannot
// see without scrolling sideways.
const offScreen = `Array.from(document.querySelectorAll("table th")).filter(th => th.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(th => th.textContent).join("|")`

// TestLongNamesKeepColumnsOnScreen lays out the board and a match page
// with a player of a 100-character name (an imported football club's, say):
// every column, the ratings and W-L included, must stay on screen on a
// desktop and on a phone; the long name wraps instead.
func TestLongNamesKeepColumnsOnScreen(t *testing.T) {
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{})
	ctx := context.Background()
	g, err := e.svc.EnsureGuild(ctx, guildG)
	mustf(t, err, "EnsureGuild")
	g.PlacementGames = 0
	_, err = e.svc.UpdateGuild(ctx, ladder.System, g)
	mustf(t, err, "UpdateGuild")
	long := strings.Repeat("W", 100)
	res, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildG, Team1: []string{"41", "42"}, Team2: []string{"43", "44"},
		Winner: 1, Names: map[string]string{"41": long, "43": "Real Sociedad de Fútbol " + long}})
	mustf(t, err, "RecordResult")
	for _, u := range []string{"41", "42", "43", "44"} {
		_, err := e.svc.SetRating(ctx, ladder.System, guildG, "", u, 1500, 50, "listed")
		mustf(t, err, "SetRating")
	}
	e.srv.Invalidate(guildG)
	ts := httptest.NewServer(e.srv.Handler())
	defer ts.Close()
	for _, tt := range []struct {
		path string
		w, h int
	}{
		{"/guilds/" + guildG, 1200, 900},
		{"/guilds/" + guildG, 412, 915},
		{"/guilds/" + guildG + "/matches/" + itoa64(res.Match.ID), 1200, 900},
		{"/guilds/" + guildG + "/matches/" + itoa64(res.Match.ID), 412, 915},
		{"/guilds/" + guildG + "/players/42", 1200, 900},
	} {
		if got := layoutEval(t, ts.URL+tt.path, tt.w, tt.h, offScreen); got != "" {
			t.Errorf("Got(columns past the edge of %s at %dx%d) = %q, want none", tt.path, tt.w, tt.h, got)
		}
	}
}

// misordered lists the text, laid out, where a "#" before a digit or a "%"
// after one is drawn on the wrong side of it: the mark of a right-to-left
// name that is not isolated from the text after it ("50%" drawn "%50" after
// an Arabic name). The page's names hold neither mark: in a right-to-left
// name "#38" is rightly drawn "38#".
const misordered = `(() => {
  const bad = [], r = document.createRange();
  const x = (n, i) => { r.setStart(n, i); r.setEnd(n, i + 1); return r.getBoundingClientRect().left; };
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = w.nextNode()); ) {
    for (const m of n.data.matchAll(/#\d|\d%/g)) {
      if (x(n, m.index) > x(n, m.index + 1)) bad.push((n.parentElement.id || n.parentElement.tagName) + ": " + n.data.trim());
    }
  }
  return bad.join(" | ");
})()`

// TestRightToLeftNamesIsolated lays out pages with an Arabic and a Hebrew
// player in headless Chromium: a name must not reorder the numbers beside
// it (the compare page's one-on-one chances read "50% · %50" before).
func TestRightToLeftNamesIsolated(t *testing.T) {
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{})
	e.srv = New(Options{Service: e.svc, Community: community.New(e.db, e.svc)})
	ctx := context.Background()
	g, err := e.svc.EnsureGuild(ctx, guildG)
	mustf(t, err, "EnsureGuild")
	g.PlacementGames = 0
	_, err = e.svc.UpdateGuild(ctx, ladder.System, g)
	mustf(t, err, "UpdateGuild")
	_, err = e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildG, Team1: []string{"51", "52"}, Team2: []string{"53", "54"},
		Winner: 1, Names: map[string]string{"51": "محمد صلاح", "52": "Zoë", "53": "אבי כהן", "54": "孫興慜"}})
	mustf(t, err, "RecordResult")
	for _, u := range []string{"51", "52", "53", "54"} {
		_, err := e.svc.SetRating(ctx, ladder.System, guildG, "", u, 1500, 50, "listed")
		mustf(t, err, "SetRating")
	}
	e.srv.Invalidate(guildG)
	ts := httptest.NewServer(e.srv.Handler())
	defer ts.Close()
	for _, path := range []string{"/guilds/" + guildG + "/compare/51/53", "/guilds/" + guildG} {
		if got := layoutEval(t, ts.URL+path, 1200, 900, misordered); got != "" {
			t.Errorf("Got(misordered text of %s) = %q, want none", path, got)
		}
	}
}
