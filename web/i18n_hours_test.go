package web

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestHeatmapAndHiddenInLanguage: the busiest-hours heatmap's title,
// weekdays and note, and the board's line on hidden players, come from
// the reader's catalog; German and Portuguese keep no English.
func TestHeatmapAndHiddenInLanguage(t *testing.T) {
	var st community.Stats
	st.Queue.Name, st.Season.Number = "2v2", 3
	st.Hours[time.Saturday][20] = 7
	st.Hours[time.Monday][18] = 2
	u := ladder.Unlisted{Players: 10, Listed: 6, Placement: 2, HighRD: 1, Stale: 1, PlacementGames: 5, StaleDays: 30}
	en := hoursHeat(i18n.English(), st)
	if en.Rows[0] != "Mon" || en.Rows[5] != "Sat" || en.Note != "darkest cell: 7 matches" {
		t.Errorf("Got(English heatmap) = %q, %q, want Mon…Sat and the note", en.Rows, en.Note)
	}
	if got, want := hiddenText(i18n.English(), u), "4 players hidden: 2 in placement (fewer than 5 games), 1 with RD above 100, 1 inactive for 30+ days"; got != want {
		t.Errorf("Got(English hidden) = %q, want %q", got, want)
	}
	for _, code := range []string{"de", "pt-BR"} {
		l := i18n.For(code)
		h := hoursHeat(l, st)
		if want := l.T("web.hours_title", "Queue", "2v2", "Season", "3"); h.Title != want || strings.Contains(h.Title, "Rated matches") {
			t.Errorf("%s: Got(title) = %q, want %q", code, h.Title, want)
		}
		for i, key := range []string{"weekday.mon", "weekday.tue", "weekday.wed", "weekday.thu", "weekday.fri", "weekday.sat", "weekday.sun"} {
			if h.Rows[i] != l.T(key) || h.Rows[i] == en.Rows[i] {
				t.Errorf("%s: Got(row %d) = %q, want %q", code, i, h.Rows[i], l.T(key))
			}
		}
		if want := l.N("web.hours_darkest", 7); h.Note != want || h.Note == en.Note {
			t.Errorf("%s: Got(note) = %q, want %q", code, h.Note, want)
		}
		got := hiddenText(l, u)
		why := strings.Join([]string{l.N("web.hidden_placement", 2, "Games", "5"), l.N("web.hidden_rd", 1, "RD", "100"), l.N("web.hidden_stale", 1, "Days", "30")}, ", ")
		if want := l.N("web.hidden", 4, "Why", why); got != want || strings.Contains(got, "hidden") || strings.Contains(got, "placement (") {
			t.Errorf("%s: Got(hidden) = %q, want %q", code, got, want)
		}
	}
	if got := hiddenText(i18n.English(), ladder.Unlisted{Players: 3, Listed: 3}); got != "" {
		t.Errorf("Got(hidden with nobody hidden) = %q, want none", got)
	}
}

// TestHeatmapFollowsThePage: the stats page asks for its heatmap in its
// own language, and the picture answers in it.
func TestHeatmapFollowsThePage(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newCommunityEnv(t, dsn)
		base := "/guilds/" + comGuild
		st := call(e, "GET", base+"/stats?lang=pt-BR", "")
		if st.Code != http.StatusOK || !strings.Contains(st.Body.String(), "/stats/hours.png?queue=") || !strings.Contains(st.Body.String(), "&amp;lang=pt-BR") {
			t.Fatalf("Got(stats page) = %d, want its heatmap asked for in pt-BR", st.Code)
		}
		pics := map[string][]byte{}
		for _, code := range []string{"en", "de", "pt-BR"} {
			rec := call(e, "GET", base+"/stats/hours.png?lang="+code, "")
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Language") != i18n.For(code).Tag().String() {
				t.Fatalf("Got(hours.png in %s) = %d, Content-Language %q", code, rec.Code, rec.Header().Get("Content-Language"))
			}
			pics[code] = rec.Body.Bytes()
		}
		if bytes.Equal(pics["en"], pics["de"]) || bytes.Equal(pics["de"], pics["pt-BR"]) {
			t.Errorf("Got(the same heatmap in English, German and Portuguese), want each in its language")
		}
	})
}
