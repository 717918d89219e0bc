package commands

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// Discord's length limits, in characters.
const (
	limitDescription = 100
	limitLabel       = 80
	limitTitle       = 256
	limitFieldName   = 256
	limitFieldValue  = 1024
	limitContent     = 2000
	limitEmbedDesc   = 4096
	limitFooter      = 2048
	limitChoiceName  = 100
)

var localizedNameRule = regexp.MustCompile(`^[-_\p{L}\p{N}]{1,32}$`)

// walkRegistration calls fn with every text of the command set's
// registration: its section (i18n.SectionName, SectionDescription,
// SectionChoice) and the English text, with the path for messages.
func walkRegistration(s *Set, fn func(path, section, text string)) {
	var walk func(path string, opts []Option)
	walk = func(path string, opts []Option) {
		for _, o := range opts {
			p := path + " " + o.Name
			fn(p, i18n.SectionName, o.Name)
			fn(p, i18n.SectionDescription, o.Description)
			for _, c := range o.Choices {
				fn(p+" choice", i18n.SectionChoice, c.Name)
			}
			walk(p, o.Options)
		}
	}
	for _, c := range s.Commands() {
		fn("/"+c.Name, i18n.SectionName, c.Name)
		fn("/"+c.Name, i18n.SectionDescription, c.Description)
		walk("/"+c.Name, c.Options)
	}
}

// TestRegistrationLocalized checks every command, option and choice of
// the registration in every language: each description has a translation
// (the pseudo-locale proves none is left hard-coded), and every language's
// text keeps Discord's rules — names lowercase, 1-32 letters, digits, - or
// _, unique among their siblings; descriptions and choices at most 100
// characters.
func TestRegistrationLocalized(t *testing.T) {
	s := New(Deps{})
	cat := i18n.Default()
	pseudo := cat.Match(i18n.Pseudo)
	langs := append(cat.Languages(), i18n.Pseudo)
	n := 0
	walkRegistration(s, func(path, section, text string) {
		n++
		if section == i18n.SectionDescription && pseudo.Registration(section, text) == text {
			t.Errorf("%s: description %q has no catalog entry", path, text)
		}
		for _, code := range langs {
			l, _ := cat.Lang(code)
			got := l.Registration(section, text)
			switch section {
			case i18n.SectionName:
				if !localizedNameRule.MatchString(got) || strings.ToLower(got) != got {
					t.Errorf("%s (%s): name %q breaks Discord's name rule", path, code, got)
				}
			case i18n.SectionDescription:
				if k := utf8.RuneCountInString(got); code != i18n.Pseudo && (k == 0 || k > limitDescription) {
					t.Errorf("%s (%s): description of %d characters, want 1-%d: %q", path, code, k, limitDescription, got)
				}
			case i18n.SectionChoice:
				if k := utf8.RuneCountInString(got); k == 0 || k > limitChoiceName {
					t.Errorf("%s (%s): choice of %d characters: %q", path, code, k, got)
				}
			}
		}
	})
	if n < 200 {
		t.Errorf("Got(registration texts) = %d, want every command, option and choice", n)
	}
	// Localized names stay unique among siblings in every language.
	for _, code := range langs {
		l, _ := cat.Lang(code)
		var check func(path string, opts []Option)
		check = func(path string, opts []Option) {
			seen := map[string]string{}
			for _, o := range opts {
				name := l.Registration(i18n.SectionName, o.Name)
				if other, dup := seen[name]; dup {
					t.Errorf("%s (%s): %s and %s are both %q", path, code, other, o.Name, name)
				}
				seen[name] = o.Name
				check(path+" "+o.Name, o.Options)
			}
		}
		var top []Option
		for _, c := range s.Commands() {
			top = append(top, Option{Name: c.Name})
			check("/"+c.Name, c.Options)
		}
		check("", top)
	}
}

// checkLimits reports every text of r that breaks a Discord limit, or that
// is still English where the pseudo-locale was asked for.
func checkLimits(t *testing.T, what string, r Reply) {
	t.Helper()
	over := func(field, s string, limit int) {
		t.Helper()
		if k := utf8.RuneCountInString(s); k > limit {
			t.Errorf("%s: %s of %d characters, limit %d: %q", what, field, k, limit, s)
		}
	}
	over("content", r.Content, limitContent)
	for _, e := range r.Embeds {
		over("embed title", e.Title, limitTitle)
		over("embed description", e.Description, limitEmbedDesc)
		over("footer", e.Footer, limitFooter)
		for _, f := range e.Fields {
			over("field name", f.Name, limitFieldName)
			over("field value", f.Value, limitFieldValue)
		}
	}
	for _, row := range r.Buttons {
		for _, b := range row {
			over("button label", b.Label, limitLabel)
		}
	}
	if r.Modal != nil {
		over("modal title", r.Modal.Title, 45)
		for _, f := range r.Modal.Fields {
			over("text input label", f.Label, 45)
		}
	}
	for _, p := range r.Posts {
		checkLimits(t, what+" post", p.Message)
	}
}

// pseudoMarked reports whether s was rendered from the pseudo-locale.
func pseudoMarked(s string) bool { return strings.Contains(s, "⟦") }

// TestPseudoLocaleReplies plays the match flow with the user's client and
// the guild in the pseudo-locale: every reply and post stays within
// Discord's limits though each text is 40% longer, and every text the flow
// shows comes from the catalogs.
func TestPseudoLocaleReplies(t *testing.T) {
	f := newFixture(t)
	xa := func(r Request) Request {
		r.Locale, r.GuildLocale = i18n.Pseudo, i18n.Pseudo
		return r
	}
	f.ok(admin("config thresholds", map[string]any{"placement_games": int64(0)}))
	var joined []Reply
	for i := 1; i <= 4; i++ {
		r := f.ok(xa(cmd(user(i), "queue join", nil)))
		checkLimits(t, "queue join", r)
		joined = append(joined, r)
	}
	st := f.ok(xa(cmd(user(1), "queue status", nil)))
	checkLimits(t, "queue status", st)
	var ann Reply
	for _, r := range joined {
		for _, p := range r.Posts {
			ann = p.Message
		}
	}
	if len(ann.Embeds) == 0 || !pseudoMarked(ann.Content) || !pseudoMarked(ann.Embeds[0].Title) || !pseudoMarked(ann.Embeds[0].Footer) {
		t.Fatalf("Got(announcement) = %+v, want it in the pseudo-locale", ann)
	}
	for _, b := range ann.Buttons[0] {
		if !pseudoMarked(b.Label) {
			t.Errorf("Got(ready check button) = %q, want it in the pseudo-locale", b.Label)
		}
	}
	ms, err := f.svc.Matches(t.Context(), ladder.MatchFilter{GuildID: guild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 1})
	if err != nil || len(ms) != 1 {
		t.Fatalf("Got(open matches) = %v, %v", ms, err)
	}
	m := ms[0]
	var on Reply
	for _, u := range m.Players() {
		on = f.ok(xa(click(u, ID(actReady, m.ID))))
		checkLimits(t, "ready", on)
	}
	if !pseudoMarked(on.Content) || !pseudoMarked(on.Embeds[0].Fields[2].Name) {
		t.Errorf("Got(match on) = %+v, want it in the pseudo-locale", on)
	}
	rep := f.ok(xa(click(m.Teams[0][0], ID(actReport, m.ID, string(ladder.Win)))))
	checkLimits(t, "report", rep)
	if !pseudoMarked(rep.Content) || !pseudoMarked(rep.Posts[0].Message.Content) {
		t.Errorf("Got(report) = %+v, want it in the pseudo-locale", rep)
	}
	form := f.ok(xa(click(m.Teams[1][0], ID(actDispute, m.ID))))
	checkLimits(t, "dispute form", form)
	conf := f.ok(xa(click(m.Teams[1][0], ID(actConfirm, m.ID))))
	checkLimits(t, "confirm", conf)
	if !pseudoMarked(conf.Content) || !pseudoMarked(conf.Embeds[0].Title) {
		t.Errorf("Got(confirm) = %+v, want it in the pseudo-locale", conf)
	}
	show := f.ok(xa(cmd(m.Teams[0][0], "match show", map[string]any{"match": m.ID})))
	checkLimits(t, "match show", show)
	if !pseudoMarked(show.Embeds[0].Title) || !pseudoMarked(show.Embeds[0].Fields[0].Name) || !pseudoMarked(show.Embeds[0].Footer) {
		t.Errorf("Got(match show) = %+v, want it in the pseudo-locale", show.Embeds[0])
	}
	prof := f.ok(xa(cmd(m.Teams[0][0], "profile", nil)))
	checkLimits(t, "profile", prof)
	for _, fl := range prof.Embeds[0].Fields[:4] {
		if fl.Name != "GXE" && !pseudoMarked(fl.Name) {
			t.Errorf("Got(profile field) = %q, want it in the pseudo-locale", fl.Name)
		}
	}
	board := f.ok(xa(cmd(user(1), "leaderboard", nil)))
	checkLimits(t, "leaderboard", board)
	if !pseudoMarked(board.Embeds[0].Title) || !pseudoMarked(board.Embeds[0].Footer) || !pseudoMarked(board.Buttons[0][1].Label) {
		t.Errorf("Got(leaderboard) = %+v, want it in the pseudo-locale", board.Embeds[0])
	}
	// A coded error renders through the catalog too.
	_, err = f.call(xa(cmd(user(1), "report", map[string]any{"outcome": "win", "match": int64(m.ID + 100)})))
	format, args := ladder.ErrorFormat(err)
	if got := i18n.For(i18n.Pseudo).Error(format, args...); !pseudoMarked(got) {
		t.Errorf("Got(error %v) = %q, want it in the pseudo-locale", err, got)
	}
	// A hundred waiting players still fit the queue status.
	for i := 100; i < 200; i++ {
		f.ok(cmd(user(i), "queue join", nil))
	}
	checkLimits(t, "queue status (100 waiting)", f.ok(xa(cmd(user(150), "queue status", nil))))
}
