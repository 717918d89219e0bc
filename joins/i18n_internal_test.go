package joins

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestRemovedGamesQueueInLanguage: a min_games refusal naming a games
// queue removed since says so in the player's language, from the
// catalog's joins.removed_queue, and in English for the log.
func TestRemovedGamesQueueInLanguage(t *testing.T) {
	c := joinCheck{q: ladder.Queue{Name: "2v2"}, st: Settings{MinGames: 5, GamesQueueID: 99}, games: map[string]int{"1": 2}, gamesQueue: removedQueue}
	err := c.refusal(ladder.Entrant{UserID: "1"}, true, nil)
	if err == nil {
		t.Fatal("Got(refusal) = nil, want min_games")
	}
	if !strings.Contains(err.Error(), "in a removed queue (min_games)") {
		t.Errorf("Got(English) = %q, want the removed queue named", err.Error())
	}
	format, args := ladder.ErrorFormat(err)
	for _, code := range []string{"de", "pt-BR", "fr", "es"} {
		l := i18n.For(code)
		got := l.Error(format, args...)
		if name := l.T("joins.removed_queue"); name == "a removed queue" || !strings.Contains(got, name) {
			t.Errorf("%s: Got(refusal) = %q, want the catalog's %q in it", code, got, name)
		}
		if strings.Contains(got, "removed queue") || strings.Contains(got, "needs") {
			t.Errorf("%s: Got(refusal) = %q, want no English", code, got)
		}
	}
}

// TestHoursPhrased: a queue's hours and a time in its zone read with the
// weekday names of the reader's catalog; the setting's own syntax stays.
func TestHoursPhrased(t *testing.T) {
	h, err := ParseHours("mon-fri 18:00-23:00; sat,sun 12:00-02:00", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2027, 3, 1, 17, 0, 0, 0, time.UTC) // a Monday, 18:00 in Berlin
	for _, tc := range []struct {
		code, hours, local string
	}{
		{"en", "Mon–Fri 18:00–23:00; Sat, Sun 12:00–02:00", "Mon 18:00 Europe/Berlin"},
		{"de", "Mo–Fr 18:00–23:00; Sa, So 12:00–02:00", "Mo, 18:00 Uhr (Europe/Berlin)"},
		{"fr", "lun.–ven. 18:00–23:00; sam., dim. 12:00–02:00", "lun. à 18:00 (Europe/Berlin)"},
		{"es", "lun–vie 18:00–23:00; sáb, dom 12:00–02:00", "el lun a las 18:00 (Europe/Berlin)"},
		{"pt-BR", "seg–sex 18:00–23:00; sáb, dom 12:00–02:00", "seg às 18:00 (Europe/Berlin)"},
	} {
		l := i18n.For(tc.code)
		if got := l.Phrase(h); got != tc.hours {
			t.Errorf("%s: Got(hours) = %q, want %q", tc.code, got, tc.hours)
		}
		if got := l.Phrase(h.Local(at)); got != tc.local {
			t.Errorf("%s: Got(local) = %q, want %q", tc.code, got, tc.local)
		}
		// The same words come from the catalog, not from Go's English.
		if day := l.T("weekday.mon"); !strings.HasPrefix(strings.TrimPrefix(l.Phrase(h.Local(at)), "el "), day) {
			t.Errorf("%s: Got(local) = %q, want it to start with the catalog's %q", tc.code, l.Phrase(h.Local(at)), day)
		}
	}
	if got := h.String(); got != "mon-fri 18:00-23:00; sat,sun 12:00-02:00" {
		t.Errorf("Got(String) = %q, want the setting's syntax", got)
	}
	if got := h.Local(at).String(); got != "Mon 18:00 Europe/Berlin" {
		t.Errorf("Got(Local.String) = %q, want the English for logs", got)
	}
	every, _ := ParseHours("18:00-02:00", "")
	if got, want := i18n.For("de").Phrase(every), "täglich 18:00–02:00"; got != want {
		t.Errorf("Got(every day in de) = %q, want %q", got, want)
	}
	// A refusal outside the hours carries them as data: German names the
	// weekdays in German.
	de := i18n.For("de")
	for _, err := range []error{closedRefusal("2v2", h, h.At(at.Add(-time.Hour))), closedRefusal("2v2", h, State{})} {
		format, args := ladder.ErrorFormat(err)
		got := de.Error(format, args...)
		if !strings.Contains(got, de.T("weekday.mon")) || strings.Contains(got, "Mon") || strings.Contains(got, "mon-fri") {
			t.Errorf("Got(closed refusal in de) = %q, want German weekdays only", got)
		}
	}
}
