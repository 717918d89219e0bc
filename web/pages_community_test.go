package web

import (
	"bytes"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/i18n"
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
		if !strings.Contains(mine, "Matches of \u2068503\u2069") || strings.Count(mine, `class="win"`) != 2 || strings.Count(mine, `class="loss"`) != 5 {
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

// TestCommunityPagesLanguage: the matches, stats and compare pages come
// from the catalogs like every other page — in German nothing of their
// English is left, and no message ID shows raw in any language.
func TestCommunityPagesLanguage(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newCommunityEnv(t, dsn)
		base := "/guilds/" + comGuild
		pages := []string{base + "/matches", base + "/matches?player=503", base + "/stats", base + "/compare/501/502"}
		english := []string{"Matches of", "Server stats", "Busiest hours", "Most active", "Longest win streaks", "Most improved",
			"Biggest upsets", "Best partnerships", "As partners", "Against each other", "One on one", "Last meetings",
			" games", ">Filter<", ">Result<", "team 1 won", "team 2 won", ">win<", ">loss<", "win for", "loss for", "Nobody yet", "Older »"}
		for _, path := range pages {
			rec := call(e, "GET", path, "", "Accept-Language", "de")
			html := rec.Body.String()
			if rec.Code != http.StatusOK || !strings.Contains(html, `<html lang="de">`) {
				t.Fatalf("GET %s in German = %d: %.300s", path, rec.Code, html)
			}
			for _, s := range english {
				if strings.Contains(html, s) {
					t.Errorf("GET %s in German shows English %q", path, s)
				}
			}
			for _, code := range append(i18n.Default().Languages(), i18n.Pseudo) {
				html := call(e, "GET", path+sep(path)+"lang="+code, "").Body.String()
				if strings.Contains(html, ">web.") || strings.Contains(html, " web.") || strings.Contains(html, `"web.`) {
					t.Errorf("GET %s in %s shows a raw message ID: %s", path, code, html)
				}
			}
		}
		de := i18n.For("de")
		cmp := call(e, "GET", base+"/compare/501/502", "", "Accept-Language", "de").Body.String()
		if want := de.N("web.n_games", 7) + " · 5-2"; !strings.Contains(cmp, want) {
			t.Errorf("German compare page lacks %q", want)
		}
		if strings.Contains(cmp, " vs ") || !strings.Contains(cmp, "</a> "+de.T("compare.vs")+" <a") {
			t.Errorf("German compare page's heading is not in German: %s", cmp)
		}
		mine := call(e, "GET", base+"/matches?player=503", "", "Accept-Language", "de").Body.String()
		if !strings.Contains(mine, escaped(de.T("web.matches_of", "Player", "\u2068503\u2069"))) || strings.Count(mine, `class="win">`+de.T("outcome.win")+"<") != 2 {
			t.Errorf("German matches of 503 lack the title or two wins: %s", mine)
		}
	})
}

func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}
