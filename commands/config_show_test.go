package commands

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// TestConfigShowManyQueues: /config show gives each queue a field of its
// own, after the server's settings, so that no queue's settings are cut
// off by Discord's 1,024 characters a field (all queues shared one field
// before, and from the fourth or so a queue's lines were clipped away
// with "…"). A server with more queues than fit Discord's 25 fields and
// 6,000 characters sees as many whole queues as fit and a last field
// naming the rest, in English and in German.
func TestConfigShowManyQueues(t *testing.T) {
	f := newFixture(t)
	fieldsOf := func(r Reply) (names []string, total int) {
		e := r.Embeds[0]
		total = utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description) + utf8.RuneCountInString(e.Footer)
		for _, fl := range e.Fields {
			if n := utf8.RuneCountInString(fl.Value); n == 0 || n > embedFieldValue {
				t.Errorf("Got(field %q) of %d characters, want 1 to %d", fl.Name, n, embedFieldValue)
			}
			total += utf8.RuneCountInString(fl.Name) + utf8.RuneCountInString(fl.Value)
			names = append(names, fl.Name)
		}
		if len(e.Fields) > embedFields || total > embedTotal {
			t.Errorf("Got(%d fields, %d characters), want at most %d and %d", len(e.Fields), total, embedFields, embedTotal)
		}
		return names, total
	}
	for i := 1; i <= 3; i++ {
		f.ok(admin("config queue add", map[string]any{"name": fmt.Sprintf("queue-number-%d", i), "team_size": int64(1 + i%4)}))
	}
	r := f.ok(admin("config show", nil))
	names, _ := fieldsOf(r)
	for _, q := range []string{"2v2", "queue-number-1", "queue-number-2", "queue-number-3"} {
		var field *Field
		for i := range r.Embeds[0].Fields {
			if r.Embeds[0].Fields[i].Name == "Queue "+q {
				field = &r.Embeds[0].Fields[i]
			}
		}
		if field == nil || !strings.Contains(field.Value, "lobby: ready check 2 minutes") {
			t.Errorf("Got(fields %q), want a field \"Queue %s\" with its lobby line", names, q)
		}
	}
	if strings.Contains(strings.Join(names, "|"), "more queue") {
		t.Errorf("Got(fields %q), want every queue shown and none left over", names)
	}

	for i := 4; i <= 40; i++ {
		f.ok(admin("config queue add", map[string]any{"name": fmt.Sprintf("queue-number-%d", i), "team_size": int64(1 + i%4)}))
	}
	for _, lang := range []string{"en", "de"} {
		req := admin("config show", nil)
		req.Locale = lang
		r := f.ok(req)
		names, _ := fieldsOf(r)
		tr := i18n.For(lang)
		last := r.Embeds[0].Fields[len(r.Embeds[0].Fields)-1]
		shown := 0
		for _, n := range names {
			if strings.HasPrefix(n, strings.TrimSuffix(tr.T("cfg.queue_field", "Queue", ""), " ")) {
				shown++
			}
		}
		if want := tr.N("cfg.more_queues", 41-shown); last.Name != want {
			t.Errorf("%s: Got(last field) = %q, want %q after %d whole queues", lang, last.Name, want, shown)
		}
		// The rest are named from the first not shown, whole, until the
		// list is clipped.
		var rest []string
		for i := shown; i <= 40; i++ {
			rest = append(rest, fmt.Sprintf("queue-number-%d", i))
		}
		list := strings.Join(rest, ", ")
		if shown < 10 || !(last.Value == list || strings.HasSuffix(last.Value, "…") && strings.HasPrefix(list, strings.TrimSuffix(last.Value, "…"))) {
			t.Errorf("%s: Got(%d queues shown, the rest named %q), want the others named from queue-number-%d on", lang, shown, last.Value, shown)
		}
	}
}

// TestSeasonEndManyQueues: /mod season end posts each queue's final table
// as a message of its own, as the season job does (the top 25 and, past
// them, the whole table as a CSV file). It put every queue's embed in one
// message before: the 11th queue on was left out (Discord's 10 embeds a
// message), and from about the 8th Discord's 6,000 characters a message
// refused the whole post.
func TestSeasonEndManyQueues(t *testing.T) {
	f := newFixture(t)
	for i := 1; i <= 11; i++ {
		f.ok(admin("config queue add", map[string]any{"name": fmt.Sprintf("queue-number-%d", i), "team_size": int64(1 + i%4)}))
	}
	// Ranked players in 2v2, so that its table has rows.
	f.ok(admin("config thresholds", map[string]any{"placement_games": int64(0)}))
	for i := range 3 {
		if _, err := f.svc.RecordResult(t.Context(), ladder.ResultInput{GuildID: guild, Queue: "2v2", Team1: []string{user(1), user(2)}, Team2: []string{user(3), user(4)}, Winner: 1 + i%2}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= 4; i++ {
		f.ok(admin("mod rating set", map[string]any{"player": user(i), "rating": 1500.0 + float64(10*i), "rd": 60.0}))
	}
	end := f.ok(admin("mod season end", nil))
	// The posts are the tables as stored: what SeasonStandingsOf reads
	// back renders the same.
	stored, err := f.svc.SeasonStandingsOf(t.Context(), guild, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := FinalStandings(i18n.English(), stored[0]); len(end.Posts) == 0 || fmt.Sprint(end.Posts[0].Message.Embeds) != fmt.Sprint(want.Embeds) || len(stored[0].Results) == 0 {
		t.Errorf("Got(2v2 table) = %+v, want %+v as stored, with rows", end.Posts[0].Message.Embeds, want.Embeds)
	}
	if len(end.Posts) != 12 || !strings.Contains(end.Posts[0].Message.Content, "Season 1 is over") {
		t.Fatalf("Got(%d posts, first %q), want 12, one a queue, the first saying the season is over", len(end.Posts), end.Posts[0].Message.Content)
	}
	for i, p := range end.Posts {
		want := "Season 1 final standings · 2v2"
		if i > 0 {
			want = fmt.Sprintf("Season 1 final standings · queue-number-%d", i)
		}
		m := p.Message
		total := 0
		for _, e := range m.Embeds {
			total += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description) + utf8.RuneCountInString(e.Footer)
			for _, fl := range e.Fields {
				total += utf8.RuneCountInString(fl.Name) + utf8.RuneCountInString(fl.Value)
			}
		}
		if len(m.Embeds) != 1 || m.Embeds[0].Title != want || total > embedTotal || m.Mentions == nil || len(m.Mentions) != 0 {
			t.Errorf("Got(post %d) = %d embeds, %d characters, mentions %v, first %+v; want one embed %q within %d characters, pinging nobody", i, len(m.Embeds), total, m.Mentions, m.Embeds, want, embedTotal)
		}
	}
}

// TestDisputeListsWithinLimits: thirty disputes whose reasons run to
// 1,000 characters over two lines, with 400-character evidence links.
// /mod disputes listed up to 20 in one description that Discord cuts at
// 4,096 characters, so most were lost mid-line without a word, and a
// reason's line break split its line; /match show put the evidence link
// after the whole reason, where Discord's 1,024 characters a field cut it
// off. The list now keeps one whole line a dispute within the limit and
// counts the rest; /match show keeps the link whole.
func TestDisputeListsWithinLimits(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	g, err := f.svc.EnsureGuild(ctx, guild)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := f.svc.Queues(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	reason := strings.Repeat("they left early ", 30) + "\n" + strings.Repeat("x", 1000-481)
	evidence := "https://clips.example/" + strings.Repeat("v", 378)
	var last int64
	for i := range 30 {
		a, b, c, d := user(4*i+1), user(4*i+2), user(4*i+3), user(4*i+4)
		m, err := f.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, Teams: [2][]string{{a, b}, {c, d}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Report(ctx, ladder.Actor{UserID: a}, guild, m.ID, ladder.Win); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Dispute(ctx, ladder.Actor{UserID: c}, guild, m.ID, reason, evidence); err != nil {
			t.Fatal(err)
		}
		last = m.ID
	}
	r := f.ok(admin("mod disputes", nil))
	d := r.Embeds[0].Description
	lines := strings.Split(d, "\n")
	more := lines[len(lines)-1]
	if n := utf8.RuneCountInString(d); n > 4096 || len(lines) < 5 || more != i18n.English().T("mod.disputes_more", "Count", i18n.English().Int(31-len(lines))) {
		t.Errorf("Got(/mod disputes) = %d characters in %d lines, last %q; want at most 4,096, whole lines, then the count of the rest", n, len(lines), more)
	}
	for _, line := range lines[:len(lines)-1] {
		if !strings.HasPrefix(line, "**#") || !strings.HasSuffix(line, " · "+evidence) {
			t.Errorf("Got(line) = %q, want one dispute on one line ending in its whole evidence link", line)
		}
	}
	show := f.ok(admin("match show", map[string]any{"match": last}))
	found := false
	for _, fl := range show.Embeds[0].Fields {
		if fl.Name != "Dispute" {
			continue
		}
		found = true
		if n := utf8.RuneCountInString(fl.Value); n > embedFieldValue || !strings.HasSuffix(fl.Value, "\nEvidence: "+evidence) {
			t.Errorf("Got(/match show dispute field of %d characters) ends %q, want at most %d ending in the whole link", n, fl.Value[max(0, len(fl.Value)-60):], embedFieldValue)
		}
	}
	if !found {
		t.Errorf("Got(/match show fields %+v), want a Dispute field", show.Embeds[0].Fields)
	}
}

// TestTokenListWithinLimits: revoked tokens stay listed for the record, so
// a server that rotates its tokens collects them; forty names of 32
// characters came to over 2,000 characters, the live tokens (the newest,
// listed last) were cut off by Discord's limit. Live tokens now come
// first, the revoked newest first, and the list counts what does not fit.
func TestTokenListWithinLimits(t *testing.T) {
	f := newFixture(t)
	for i := range 40 {
		name := fmt.Sprintf("overlay-rotation-%015d", i)
		f.ok(admin("mod token create", map[string]any{"name": name}))
		if i < 37 {
			f.ok(admin("mod token revoke", map[string]any{"name": name}))
		}
	}
	r := f.ok(admin("mod token list", nil))
	lines := strings.Split(r.Content, "\n")
	if n := utf8.RuneCountInString(r.Content); n > 2000 || len(lines) < 10 {
		t.Fatalf("Got(token list) of %d characters in %d lines, want at most 2,000 and most of the list", n, len(lines))
	}
	for i, want := range []string{"overlay-rotation-000000000000037", "overlay-rotation-000000000000038", "overlay-rotation-000000000000039", "overlay-rotation-000000000000036", "overlay-rotation-000000000000035"} {
		if !strings.Contains(lines[i], want) || (i < 3) != strings.Contains(lines[i], "live") {
			t.Errorf("Got(line %d) = %q, want %s (the live ones first, then the newest revoked)", i, lines[i], want)
		}
	}
	if want := i18n.English().T("mod.more", "Count", i18n.English().Int(41-len(lines))); lines[len(lines)-1] != want {
		t.Errorf("Got(last line) = %q, want %q", lines[len(lines)-1], want)
	}
}

// TestRoleLinesWithinField: with 25 divisions of 32-character names and
// the badges mapped, the rank roles came to over 1,500 characters, and
// Discord's 1,024 a field cut off their end, where the warnings that roles
// cannot be given were listed. The warnings now come first, and the lines
// that do not fit are counted.
func TestRoleLinesWithinField(t *testing.T) {
	g := ladder.NewGuild(guild, time.Now())
	g.Divisions = nil
	rc := ladder.RoleConfig{Mapping: map[string]string{}, Badges: map[string]string{"top3": "300000000000000001", "top30": "300000000000000002", "top100": "300000000000000003"},
		Problems: []ladder.RoleProblem{{RoleID: "300000000000000099", Code: ladder.DiscordMissingPermissions}}}
	for i := range 25 {
		name := fmt.Sprintf("%02d-%s", i, strings.Repeat("d", 29))
		g.Divisions = append(g.Divisions, ladder.Division{Name: name, Min: float64(100 * i)})
		rc.Mapping[name] = fmt.Sprintf("3000000000000001%02d", i)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	tr := i18n.English()
	v := roleLines(tr, g, rc)
	lines := strings.Split(v, "\n")
	if n := utf8.RuneCountInString(v); n > embedFieldValue || !strings.HasPrefix(lines[0], "⚠ ") ||
		lines[len(lines)-1] != tr.T("mod.more", "Count", tr.Int(30-len(lines))) || len(lines) < 10 {
		t.Errorf("Got(rank roles) = %d characters in %d lines, first %q, last %q; want at most %d, the warning first, the rest counted",
			n, len(lines), lines[0], lines[len(lines)-1], embedFieldValue)
	}
	// A short mapping is listed whole, warning first.
	small := ladder.RoleConfig{Mapping: map[string]string{g.Divisions[0].Name: "300000000000000100"}, Problems: rc.Problems}
	if got := roleLines(tr, g, small); strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "⚠ ") || strings.Contains(got, "more") {
		t.Errorf("Got(short rank roles) = %q, want the warning and the one role", got)
	}
}

// TestMapPoolListWithinContent: a pool of 25 maps with image links as
// Discord's attachments spell them (about 200 characters) passed Discord's
// 2,000 characters a message, and the last maps were cut off. The maps
// that fit are listed whole; the rest are counted.
func TestMapPoolListWithinContent(t *testing.T) {
	f := newFixture(t)
	img := func(i int) string {
		return fmt.Sprintf("https://cdn.discordapp.com/attachments/1234567890123456789/1234567890123456789/map_%02d.png?ex=6791a2b3&is=67905133&hm=%s", i, strings.Repeat("0123456789abcdef", 4))
	}
	var r Reply
	for i := 1; i <= 25; i++ {
		r = f.ok(admin("config maps add", map[string]any{"queue": "2v2", "name": fmt.Sprintf("Map number %02d", i), "image": img(i)}))
	}
	for _, got := range []string{r.Content, f.ok(admin("config maps list", map[string]any{"queue": "2v2"})).Content} {
		lines := strings.Split(got, "\n")
		last := lines[len(lines)-1]
		shown := 0
		for _, line := range lines {
			if strings.HasSuffix(line, ".png?ex=6791a2b3&is=67905133&hm="+strings.Repeat("0123456789abcdef", 4)+">") {
				shown++
			}
		}
		if n := utf8.RuneCountInString(got); n > 2000 || shown < 5 || last != i18n.English().T("mod.more", "Count", i18n.English().Int(25-shown)) {
			t.Errorf("Got(pool list) = %d characters, %d maps whole, last %q; want at most 2,000, whole lines, the rest counted", n, shown, last)
		}
	}
}

// TestDisputeListsTogetherWithinTotal: /mod disputes answers with two
// embeds when both matches and series games are disputed, and Discord
// refuses a message whose embeds pass 6,000 characters in all; each list
// alone kept within 4,096, so together they came to over 7,000 and the
// conversion cut the series games' list off in the middle of a line.
// The second list now takes only the room the first leaves, and counts
// the rest.
func TestDisputeListsTogetherWithinTotal(t *testing.T) {
	ctx := t.Context()
	db, err := storage.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "ladder.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, nil)
	fm := formats.New(db, svc)
	f := &fixture{t: t, svc: svc, set: New(Deps{Service: svc, Formats: fm})}
	if _, err := svc.EnsureGuild(ctx, guild); err != nil {
		t.Fatal(err)
	}
	qs, err := svc.Queues(ctx, guild)
	if err != nil {
		t.Fatal(err)
	}
	bo3, err := svc.CreateQueue(ctx, ladder.System, ladder.NewQueue(guild, "bo3", 2))
	if err != nil {
		t.Fatal(err)
	}
	if err := fm.SaveSettings(ctx, ladder.System, bo3, formats.Settings{MapPick: formats.ModeNone, BestOf: 3, SeriesRating: formats.RateSeries}); err != nil {
		t.Fatal(err)
	}
	reason := strings.Repeat("they left early ", 11)
	for i := range 60 {
		a, b, c, d := user(4*i+1), user(4*i+2), user(4*i+3), user(4*i+4)
		q := qs[0]
		if i >= 20 {
			q = bo3
		}
		m, err := svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: q.ID, Teams: [2][]string{{a, b}, {c, d}}})
		if err != nil {
			t.Fatal(err)
		}
		if i < 20 {
			if _, err := svc.Report(ctx, ladder.Actor{UserID: a}, guild, m.ID, ladder.Win); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Dispute(ctx, ladder.Actor{UserID: c}, guild, m.ID, reason, ""); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := fm.ReportGame(ctx, ladder.Actor{UserID: a}, guild, m.ID, 1, true); err != nil {
			t.Fatal(err)
		}
		if _, err := fm.DisputeGame(ctx, ladder.Actor{UserID: c}, guild, m.ID, 1, reason); err != nil {
			t.Fatal(err)
		}
	}
	r := f.ok(admin("mod disputes", nil))
	if len(r.Embeds) != 2 {
		t.Fatalf("Got(/mod disputes) = %d embeds, want the matches' and the series games'", len(r.Embeds))
	}
	total := 0
	for _, e := range r.Embeds {
		total += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description) + utf8.RuneCountInString(e.Footer)
	}
	games := strings.Split(r.Embeds[1].Description, "\n")
	more := games[len(games)-1]
	if total > embedTotal || len(games) < 2 || more != i18n.English().T("mod.disputes_more", "Count", i18n.English().Int(41-len(games))) {
		t.Errorf("Got(/mod disputes) = %d characters in all, the games' list %d lines ending %q; want at most %d, whole lines and the count of the rest", total, len(games), more, embedTotal)
	}
	for _, line := range games[:len(games)-1] {
		if !strings.HasSuffix(line, strings.TrimSpace(reason)) {
			t.Errorf("Got(game line) = %q, want one whole dispute", line)
		}
	}
}

// TestQueueStatusManyQueues: /queue status lists every queue and then
// the player's own state; a server of 120 queues with 32-character names
// came to over 6,000 characters, and Discord's 4,096 a description cut
// off the part the player asked for (whether and where they wait, and
// their invitation). The queues that fit are listed, the rest counted,
// and the player's state is always there.
func TestQueueStatusManyQueues(t *testing.T) {
	f := newFixture(t)
	for i := 1; i <= 120; i++ {
		f.ok(admin("config queue add", map[string]any{"name": fmt.Sprintf("late-night-queue-number-%08d", i), "team_size": int64(2)}))
	}
	last := fmt.Sprintf("late-night-queue-number-%08d", 120)
	f.ok(cmd(user(1), "queue join", map[string]any{"queue": last}))
	for _, lang := range []string{"en", "de"} {
		req := cmd(user(1), "queue status", nil)
		req.Locale = lang
		d := f.ok(req).Embeds[0].Description
		lines := strings.Split(d, "\n")
		tr := i18n.For(lang)
		queues := len(lines) - 2
		if n := utf8.RuneCountInString(d); n > 4096 || queues < 20 || !strings.Contains(lines[len(lines)-1], last) ||
			lines[len(lines)-2] != tr.T("mod.more", "Count", tr.Int(121-queues)) {
			t.Errorf("%s: Got(/queue status) = %d characters in %d lines, ending %q; want at most 4,096, the queues that fit, the count of the rest and where the player waits",
				lang, n, len(lines), lines[max(0, len(lines)-2):])
		}
	}
}

// TestMapRatesWithinField: a map's name runs to 100 characters, and ten
// such maps' win rates came to over 1,200 characters in /profile's one
// field, which Discord's 1,024 cut in the middle of a line. The lines
// that fit are shown whole and the rest counted.
func TestMapRatesWithinField(t *testing.T) {
	var rs []formats.MapRecord
	for i := range 12 {
		rs = append(rs, formats.MapRecord{Map: fmt.Sprintf("%02d ", i) + strings.Repeat("Ruins of the Old Harbour ", 4)[:97], Games: 20, Wins: 11})
	}
	for _, lang := range []string{"en", "de"} {
		tr := i18n.For(lang)
		got := MapRates(tr, rs)
		lines := strings.Split(got, "\n")
		if n := utf8.RuneCountInString(got); n > embedFieldValue || len(lines) < 5 || lines[len(lines)-1] != tr.T("mod.more", "Count", tr.Int(11-len(lines))) {
			t.Errorf("%s: Got(MapRates) = %d characters in %d lines ending %q; want at most %d, whole lines and the count of the rest of the ten", lang, n, len(lines), lines[len(lines)-1], embedFieldValue)
		}
	}
	if got := MapRates(i18n.English(), rs[:2]); strings.Count(got, "\n") != 1 || strings.Contains(got, "more") {
		t.Errorf("Got(MapRates of two maps) = %q, want two lines", got)
	}
	if got := MapRates(i18n.English(), nil); got != "" {
		t.Errorf("Got(MapRates of none) = %q, want none", got)
	}
}

// TestFlagListWithinLimits: /mod integrity listed the newest ten flags
// and dropped, without a word, the lines past 4,000 bytes and every flag
// past the tenth; ten dismissed flags with their matches and reasons
// (about 560 characters each) showed seven, and a moderator could not
// tell more were there. The list now counts what it leaves out.
func TestFlagListWithinLimits(t *testing.T) {
	flag := func(i int) integrity.Flag {
		return integrity.Flag{ID: int64(i + 1), Kind: "win-trade", Subjects: []string{user(2 * i), user(2*i + 1)},
			Matches:     []int64{100001, 100002, 100003, 100004, 100005, 100006, 100007, 100008, 100009, 100010},
			Evidence:    integrity.Evidence{Text: strings.Repeat("lopsided results against one opponent ", 5)},
			DismissedBy: user(999), DismissReason: strings.TrimSpace(strings.Repeat("talked to both, they are flatmates ", 5))}
	}
	var fs []integrity.Flag
	for i := range 14 {
		fs = append(fs, flag(i))
	}
	for _, lang := range []string{"en", "de"} {
		tr := i18n.For(lang)
		for _, n := range []int{14, 10, 3} {
			got := flagList(tr, fs[:n])
			lines := strings.Split(got, "\n")
			shown := len(lines)
			if n > 3 {
				shown--
				if want := tr.T("mod.more", "Count", tr.Int(n-shown)); lines[len(lines)-1] != want {
					t.Errorf("%s, %d flags: Got(last line) = %q, want %q", lang, n, lines[len(lines)-1], want)
				}
			}
			if c := utf8.RuneCountInString(got); c > 4096 || shown < 3 || shown > 10 {
				t.Errorf("%s, %d flags: Got(list) = %d characters, %d flags shown; want at most 4,096 and whole flags", lang, n, c, shown)
			}
			for _, line := range lines[:shown] {
				if !strings.HasSuffix(line, fs[0].DismissReason) {
					t.Errorf("%s: Got(line) = %q, want a whole flag", lang, line)
				}
			}
		}
	}
}

// TestCorrectionWithinContent: a correction's reply and its post in the
// match's channel list the rating changes it made and those it carried
// into later seasons, twenty lines each; with both full the post came to
// 2,024 to 2,069 bytes (2,069 in French, about 1,950 characters: a few
// longer numbers short of Discord's 2,000), past what the fake Discord
// allows a message. Each list now fits its share and counts the rest.
func TestCorrectionWithinContent(t *testing.T) {
	var rs []ladder.Replayed
	for i := range 40 {
		rs = append(rs, ladder.Replayed{UserID: user(i), Before: ladder.Standing{Rating: 1523.4}, After: ladder.Standing{Rating: 2999.2 - float64(i)*150}})
	}
	c := ladder.Correction{Match: ladder.Match{ID: 123456, State: ladder.StateConfirmed, Winner: 1, Teams: [2][]string{{user(1)}, {user(2)}}},
		Changed: rs, Refrozen: []int{11, 12, 13}, Carried: rs}
	for _, lang := range []string{"en", "de", "fr", "es", "pt-BR"} {
		l := i18n.For(lang)
		r := correctionReply(l, l, c, Request{UserID: user(999), ChannelID: "1"})
		for what, text := range map[string]string{"reply": r.Content, "post": r.Posts[0].Message.Content} {
			if len(text) > 2000 || !strings.Contains(text, l.T("mod.carried")) || strings.Count(text, l.T("mod.more", "Count", l.Int(40-strings.Count(text, "→")/2))) != 2 {
				t.Errorf("%s: Got(%s) = %d bytes:\n%s\nwant at most 2,000, both lists with the rest counted", lang, what, len(text), text)
			}
		}
	}
	one := correctionLines(i18n.English(), ladder.Correction{Changed: rs[:2]})
	if strings.Count(one, "→") != 2 || strings.Contains(one, "more") {
		t.Errorf("Got(two changes) = %q, want both listed", one)
	}
}

// TestActorsOutsideDiscordNamed: the dashboard acts as "web:<user ID>",
// an API token as "api:<name>", and imported players' IDs are not
// Discord's: written as mentions they showed in Discord as the raw text
// "<@web:300000000000000001>" (a token made on the dashboard, a flag
// dismissed there). A dashboard user is mentioned as the Discord user
// they are; any other ID that is not Discord's is written as it is.
func TestActorsOutsideDiscordNamed(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.svc.EnsureGuild(ctx, guild); err != nil {
		t.Fatal(err)
	}
	for _, by := range []string{"web:300000000000000001", "api:overlay", "system"} {
		if _, _, err := f.svc.CreateToken(ctx, ladder.Actor{UserID: by, Moderator: true}, guild, "made-by-"+strings.ReplaceAll(by, ":", "-")); err != nil {
			t.Fatal(err)
		}
	}
	got := f.ok(admin("mod token list", nil)).Content
	for _, want := range []string{"by <@300000000000000001>", "by api:overlay", "by system"} {
		if !strings.Contains(got, want) {
			t.Errorf("Got(/mod token list) = %q, want %q", got, want)
		}
	}
	if strings.Contains(got, "<@web:") || strings.Contains(got, "<@api:") || strings.Contains(got, "<@system>") {
		t.Errorf("Got(/mod token list) = %q, want no mention of an ID that is not Discord's", got)
	}
	for id, want := range map[string]string{"700000000000000001": "<@700000000000000001>", "web:300000000000000001": "<@300000000000000001>",
		"api:overlay": "api:overlay", "Bob Bryan": "Bob Bryan", "web:nope": "web:nope", "": "", "**x_y**<@1>": `\*\*x\_y\*\*\<@1\>`} {
		if got := mention(id); got != want {
			t.Errorf("Got(mention(%q)) = %q, want %q", id, got, want)
		}
	}
}
