package web

import (
	"bytes"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommunityPages: the stats page with its heatmap PNG, the compare
// page and the matches page with its filters, linked from the player and
// leaderboard pages; bad filters are clear 400 pages; without the
// community service the pages are absent. Set CHART_OUT to keep the PNG.
func TestCommunityPages(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newCommunityEnv(t, dsn)
		base := "/guilds/" + comGuild
		body := func(path string, status int) string {
			t.Helper()
			rec := call(e, "GET", path, "")
			if rec.Code != status {
				t.Fatalf("GET %s = %d, want %d: %s", path, rec.Code, status, rec.Body)
			}
			return rec.Body.String()
		}
		st := body(base+"/stats", 200)
		for _, want := range []string{`id="hours"`, "/stats/hours.png?queue=", `id="active"`, `id="improved"`, `id="partnerships"`, base + "/compare/501/502"} {
			if !strings.Contains(st, want) {
				t.Errorf("stats page lacks %q", want)
			}
		}
		rec := call(e, "GET", base+"/stats/hours.png", "")
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
			t.Fatalf("Got(hours.png) = %d %s", rec.Code, rec.Header().Get("Content-Type"))
		}
		if dir := os.Getenv("CHART_OUT"); dir != "" {
			_ = os.WriteFile(filepath.Join(dir, "hours.png"), rec.Body.Bytes(), 0o644)
		}
		if _, err := png.Decode(bytes.NewReader(rec.Body.Bytes())); err != nil {
			t.Errorf("hours.png does not decode: %v", err)
		}
		cmp := body(base+"/compare/501/502", 200)
		for _, want := range []string{`id="together"`, "7 games · 5-2", `id="ptop"`, `id="p1v1"`} {
			if !strings.Contains(cmp, want) {
				t.Errorf("compare page lacks %q", want)
			}
		}
		body(base+"/compare/501/501", 400)
		body(base+"/compare/501/601", 404)

		all := body(base+"/matches", 200)
		if n := strings.Count(all, "data-match="); n != 7 {
			t.Errorf("Got(%d matches listed), want 7", n)
		}
		mine := body(base+"/matches?player=503", 200)
		if !strings.Contains(mine, "Matches of 503") || strings.Count(mine, `class="win"`) != 2 || strings.Count(mine, `class="loss"`) != 5 {
			t.Errorf("Got(503's matches) without 2 wins and 5 losses: %s", mine)
		}
		if none := body(base+"/matches?from=2000-01-01&to=2000-01-02", 200); !strings.Contains(none, `id="empty"`) {
			t.Errorf("Got(matches of 2000) listed some")
		}
		body(base+"/matches?from=yesterday", 400)
		body(base+"/matches?from=2026-02-02&to=2026-02-01", 400)
		body(base+"/matches?season=9", 404)
		body(base+"/matches?player=601", 404)

		if p := body(base+"/players/501", 200); !strings.Contains(p, `id="all-matches"`) || !strings.Contains(p, "/matches?player=501") {
			t.Errorf("player page does not link its matches")
		}
		if lb := body(base, 200); !strings.Contains(lb, `id="stats-link"`) {
			t.Errorf("leaderboard does not link the stats page")
		}
		bare := newEnv(t, dsn, Options{})
		if rec := call(bare, "GET", base+"/stats", ""); rec.Code != http.StatusNotFound {
			t.Errorf("Got(stats without community) = %d, want 404", rec.Code)
		}
	})
}
