package commands

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/integrity"
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
	// Discord shows a title, a footer, a field's name, a label and a
	// placeholder as they are: a mention there is raw "<@…>" text.
	plain := func(field, s string) {
		t.Helper()
		if strings.Contains(s, "<@") || strings.Contains(s, "<#") || strings.Contains(s, "<t:") {
			t.Errorf("%s: %s %q holds a mention, which Discord shows there as raw text", what, field, s)
		}
	}
	over("content", r.Content, limitContent)
	for _, e := range r.Embeds {
		over("embed title", e.Title, limitTitle)
		over("embed description", e.Description, limitEmbedDesc)
		over("footer", e.Footer, limitFooter)
		plain("embed title", e.Title)
		plain("footer", e.Footer)
		for _, f := range e.Fields {
			over("field name", f.Name, limitFieldName)
			over("field value", f.Value, limitFieldValue)
			plain("field name", f.Name)
		}
	}
	for _, row := range r.Buttons {
		for _, b := range row {
			over("button label", b.Label, limitLabel)
			plain("button label", b.Label)
		}
	}
	for _, m := range r.Menus {
		plain("select placeholder", m.Placeholder)
		for _, o := range m.Options {
			plain("select option", o.Label+" "+o.Description)
		}
	}
	if r.Modal != nil {
		over("modal title", r.Modal.Title, 45)
		plain("modal title", r.Modal.Title)
		for _, f := range r.Modal.Fields {
			over("text input label", f.Label, 45)
			plain("text input label", f.Label+" "+f.Placeholder)
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
	// The community commands and /link: every text marked, within limits.
	a, b := m.Teams[0][0], m.Teams[1][0]
	for _, c := range []struct {
		what string
		req  Request
	}{
		{"compare", cmd(a, "compare", map[string]any{"a": a, "b": b})},
		{"stats", cmd(a, "stats", nil)},
		{"history", cmd(a, "history", map[string]any{"player": a})},
		{"history of all", cmd(a, "history", nil)},
		{"link", cmd(a, "link showdown", map[string]any{"name": "Ash K."})},
	} {
		r := f.ok(xa(c.req))
		checkMarked(t, c.what, r)
		if c.what != "link" && (len(r.Embeds) == 0 || !pseudoMarked(r.Embeds[0].Title)) {
			t.Errorf("Got(%s) = %+v, want its title in the pseudo-locale", c.what, r)
		}
	}
	// The profile, now with the Showdown name linked.
	checkMarked(t, "profile with Showdown", f.ok(xa(cmd(a, "profile", nil))))
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

// checkMarked reports the texts of r that are not in the pseudo-locale:
// the content (when there is one), every embed title, description,
// footer and field name, every button label and menu placeholder.
// Field values are data (mentions, ratings, names) and are not looked at;
// a text of nothing but data (mentions, numbers, the maps and divisions
// the test configured) needs no mark either.
func checkMarked(t *testing.T, what string, r Reply) {
	t.Helper()
	checkLimits(t, what, r)
	data := strings.NewReplacer("Dust", "", "Inferno", "", "Low", "", "High", "")
	marked := func(field, s string) {
		t.Helper()
		if s != "" && !pseudoMarked(s) && word.MatchString(markup.ReplaceAllString(data.Replace(s), "")) {
			t.Errorf("%s: %s %q is not from the catalogs", what, field, s)
		}
	}
	marked("content", r.Content)
	for _, e := range r.Embeds {
		marked("embed title", e.Title)
		marked("embed description", e.Description)
		marked("footer", e.Footer)
		for _, f := range e.Fields {
			marked("field name", f.Name)
		}
	}
	for _, row := range r.Buttons {
		for _, b := range row {
			marked("button label", b.Label)
		}
	}
	for _, m := range r.Menus {
		marked("menu placeholder", m.Placeholder)
	}
	for _, p := range r.Posts {
		checkMarked(t, what+" post", p.Message)
	}
}

// TestPseudoLocaleModeration runs the moderators' and admins' commands,
// /balance, /sub, the map vote and the posts of the scheduled jobs in the
// pseudo-locale: every text they show is marked (so it came from the
// catalogs) and within Discord's limits though 40% longer.
func TestPseudoLocaleModeration(t *testing.T) {
	f := newFixture(t)
	xa := func(r Request) Request {
		r.Locale, r.GuildLocale = i18n.Pseudo, i18n.Pseudo
		return r
	}
	run := func(what string, r Request) Reply {
		t.Helper()
		got := f.ok(xa(r))
		checkMarked(t, what, got)
		return got
	}
	run("config thresholds", admin("config thresholds", map[string]any{"placement_games": int64(0)}))
	run("config show", admin("config show", nil))
	run("config queue add", admin("config queue add", map[string]any{"name": "3v3", "team_size": int64(3)}))
	run("config queue set", admin("config queue set", map[string]any{"queue": "3v3", "open": false, "self_tune": true,
		"party_max_weight": 1.5, "behaviour_pairing": int64(12), "ready_window": int64(60), "pick_mode": "captains"}))
	run("config divisions", admin("config divisions", map[string]any{"list": "Low:0, High:1600"}))
	run("config roles clear", admin("config roles", map[string]any{"clear": true}))
	run("config queue sides", admin("config queue sides", map[string]any{"queue": "2v2", "sided": true}))
	run("config queue community", admin("config queue community", map[string]any{"queue": "2v2", "predictions": true}))
	run("config maps add", admin("config maps add", map[string]any{"queue": "2v2", "name": "Dust"}))
	run("config maps add", admin("config maps add", map[string]any{"queue": "2v2", "name": "Inferno"}))
	run("config queue format", admin("config queue format", map[string]any{"queue": "2v2", "map_pick": "vote", "best_of": int64(3)}))
	run("config season", admin("config season", map[string]any{"schedule": "0 0 1 * *"}))

	// A match: its map vote and its series message are the guild's posts.
	var formed Reply
	for i := 1; i <= 4; i++ {
		formed = f.ok(xa(cmd(user(i), "queue join", nil)))
	}
	checkMarked(t, "formed", formed)
	ms, err := f.svc.Matches(t.Context(), ladder.MatchFilter{GuildID: guild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 1})
	if err != nil || len(ms) != 1 {
		t.Fatalf("Got(open matches) = %v, %v", ms, err)
	}
	m := ms[0]
	var on Reply
	for _, u := range m.Players() {
		on = f.ok(xa(click(u, ID(actReady, m.ID))))
	}
	checkMarked(t, "match on", on)
	if len(on.Posts) < 2 {
		t.Errorf("Got(match on posts) = %d, want the map vote and the series", len(on.Posts))
	}

	run("balance players", cmd(user(9), "balance", map[string]any{"p1": user(1), "p2": user(2), "p3": user(3)}))
	run("balance match", admin("balance", map[string]any{"match": m.ID}))
	run("sub request", cmd(m.Teams[0][0], "sub request", map[string]any{"match": m.ID}))
	run("sub accept", cmd(user(20), "sub accept", map[string]any{"match": m.ID}))
	run("mod disputes", admin("mod disputes", nil))
	run("mod queue ban", admin("mod queue ban", map[string]any{"player": user(30), "hours": int64(2)}))
	run("mod queue ban", admin("mod queue ban", map[string]any{"player": user(31)}))
	run("mod queue unban", admin("mod queue unban", map[string]any{"player": user(30)}))
	run("mod token create", admin("mod token create", map[string]any{"name": "site"}))
	run("mod token list", admin("mod token list", nil))
	run("mod token revoke", admin("mod token revoke", map[string]any{"name": "site"}))
	run("mod cooldown clear", admin("mod cooldown clear", map[string]any{"player": user(30)}))
	run("mod flags", admin("mod flags", map[string]any{"player": user(1)}))
	run("mod void", admin("mod void", map[string]any{"match": m.ID, "reason": "test"}))
	run("mod season end", admin("mod season end", nil))

	// The scheduled jobs' posts render in the language they are given.
	xl := i18n.For(i18n.Pseudo)
	st := ladder.SeasonStandings{Season: ladder.Season{Number: 1}, Queue: ladder.Queue{Name: "2v2"}}
	checkMarked(t, "final standings, nobody", FinalStandings(xl, st))
	for i := range 30 {
		st.Results = append(st.Results, ladder.SeasonResult{Rank: i + 1, UserID: user(i), Rating: 1500, RD: 60, Division: "Low"})
	}
	checkMarked(t, "final standings", FinalStandings(xl, st))
	for _, code := range []int{0, ladder.DiscordUnknownRole, ladder.DiscordMissingPermissions} {
		checkMarked(t, "role problem", RoleProblem(xl, ladder.RoleProblem{RoleID: "5", Code: code}))
	}
	for _, e := range sampleEvidence() {
		f := integrity.Flag{ID: 3, Kind: integrity.KindWinTrade, Subjects: []string{user(1), user(2)}, Matches: []int64{m.ID}, Evidence: e}
		checkMarked(t, "integrity flag "+e.Key, IntegrityPost(xl, f))
		if got := EvidenceText(xl, e); !pseudoMarked(got) {
			t.Errorf("EvidenceText(%s) = %q, want it from the catalogs", e.Key, got)
		}
	}
	checkMarked(t, "prediction", PredictionPost(xl, m, "2v2"))
	d := ladder.Draft{MatchID: m.ID, State: ladder.DraftPicking, Deadline: m.CreatedAt}
	for i, u := range m.Players() {
		d.Seats = append(d.Seats, ladder.DraftSeat{UserID: u, Rating: float64(1500 + i), Team: map[bool]int{true: 1 + i%2, false: 0}[i < 2]})
	}
	checkMarked(t, "draft", DraftView(xl, m, d, "2v2"))
}

// sampleEvidence is one flag's evidence of each key, as the detectors
// make them.
func sampleEvidence() []integrity.Evidence {
	return []integrity.Evidence{
		{Key: integrity.EvidenceSmurf, Counts: map[string]int{"Games": 39, "Times": 71},
			Measures: map[string]float64{"Wins": 30, "Expected": 19.9},
			Ratings:  map[string]float64{"High": 2044, "Low": 1769, "Mean": 1506, "Spread": 120, "From": 1500, "Now": 1791}},
		{Key: integrity.EvidenceSmurfReview, Counts: map[string]int{"Games": 24, "Times": 6},
			Measures: map[string]float64{"Wins": 17, "Expected": 12.2},
			Ratings:  map[string]float64{"High": 2044, "Low": 1769, "Mean": 1506, "Spread": 120, "From": 1500, "Now": 1702}},
		{Key: integrity.EvidenceBoost, Counts: map[string]int{"Wins": 9, "PlayerWins": 12, "Games": 14},
			Ratings: map[string]float64{"Mate": 1720, "Gap": 230, "From": 1490, "Now": 1610}},
		{Key: integrity.EvidenceTradeOneSided, Counts: map[string]int{"Meetings": 14, "WinsA": 13, "WinsB": 1},
			Ratings: map[string]float64{"Points": 180}, Measures: map[string]float64{"Z": 4.3}, Player: "300000000000000001"},
		{Key: integrity.EvidenceTradeAlternating, Counts: map[string]int{"Meetings": 20, "Changes": 19, "Of": 19},
			Measures: map[string]float64{"Z": 4.4}},
		{Key: integrity.EvidenceWrongVote, Counts: map[string]int{"Wrong": 2, "Votes": 5}},
		{Key: integrity.EvidenceReportAbuse, Counts: map[string]int{"Lost": 3, "Disputes": 4}},
	}
}

// TestEvidenceText: the English of each evidence reads as the API
// documents it (docs/api.md), every key has its message, and a flag
// stored before evidence was data keeps its text.
func TestEvidenceText(t *testing.T) {
	en, de := i18n.English(), i18n.For("de")
	want := map[string]string{
		integrity.EvidenceSmurf:            "new account: 30.0 wins in its first 39 games where 19.9 were expected; with each game counted by the share of its other players who are established, the results are 71 times as likely from a player rated 2044 as from one rated 1769 (the ladder's established players: 1506, spread 120); rating 1500 → 1791",
		integrity.EvidenceSmurfReview:      "new account, reviewed at its season's end: 17.0 wins in its first 24 games where 12.2 were expected; with each game counted by the share of its other players who are established, all its results together are 6 times as likely from a player rated 2044 as from one rated 1769 (the ladder's established players: 1506, spread 120); rating 1500 → 1702",
		integrity.EvidenceBoost:            "9 of 12 wins came with this partner (14 games together), rated 1720 on average: 230 above the player's 1490 when they first played together (now 1610)",
		integrity.EvidenceTradeOneSided:    "14 meetings, results 13–1, 180 rating points moved to <@300000000000000001> (4.3 standard deviations from even)",
		integrity.EvidenceTradeAlternating: "20 meetings whose results alternated 19 times of 19 (4.4 standard deviations above chance)",
		integrity.EvidenceWrongVote:        "2 of 5 reports gave the match to the other team and a moderator found the reporter's team had not lost",
		integrity.EvidenceReportAbuse:      "3 of 4 disputes were resolved as first reported",
	}
	for _, e := range sampleEvidence() {
		if got := EvidenceText(en, e); got != want[e.Key] {
			t.Errorf("EvidenceText(en, %s) = %q, want %q", e.Key, got, want[e.Key])
		}
		if got := EvidenceText(de, e); got == want[e.Key] || strings.Contains(got, "flag.evidence") {
			t.Errorf("EvidenceText(de, %s) = %q, want German", e.Key, got)
		}
		// A page names the player instead of mentioning them.
		named := EvidenceTextNamed(en, e, func(id string) string { return "name of " + id })
		if e.Player == "" && named != want[e.Key] {
			t.Errorf("EvidenceTextNamed(en, %s) = %q, want %q", e.Key, named, want[e.Key])
		}
		if e.Player != "" && named != strings.ReplaceAll(want[e.Key], "<@"+e.Player+">", "name of "+e.Player) {
			t.Errorf("EvidenceTextNamed(en, %s) = %q, want the player by name", e.Key, named)
		}
		stored := integrity.DecodeEvidence(e.Encode())
		if got := EvidenceText(de, stored); got != EvidenceText(de, e) {
			t.Errorf("EvidenceText(de, stored %s) = %q, want %q as before storing", e.Key, got, EvidenceText(de, e))
		}
	}
	old := integrity.DecodeEvidence("3 of 4 disputes were resolved as first reported")
	if got := EvidenceText(de, old); got != "3 of 4 disputes were resolved as first reported" {
		t.Errorf("EvidenceText(de, an older flag's text) = %q, want the text as stored", got)
	}
	if got := EvidenceText(de, integrity.Evidence{Key: "no-such-key", Text: "x"}); got != "x" {
		t.Errorf("EvidenceText(unknown key) = %q, want its text", got)
	}
}
