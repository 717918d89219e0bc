package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

const guild = "100000000000000009"

func TestParseCustomID(t *testing.T) {
	tests := []struct {
		in   string
		want CustomID
		ok   bool
	}{
		{in: "cf:42", want: CustomID{Action: "cf", ID: 42, Args: []string{}}, ok: true},
		{in: "rep:7:win", want: CustomID{Action: "rep", ID: 7, Args: []string{"win"}}, ok: true},
		{in: "lb:3:2:1:all", want: CustomID{Action: "lb", ID: 3, Args: []string{"2", "1", "all"}}, ok: true},
		{in: ""},
		{in: "cf"},
		{in: "cf:"},
		{in: "cf:x"},
		{in: "cf:-1"},
		{in: "CF:1"},
		{in: "cf:1::"},
		{in: "cf:1:a b"},
		{in: "cf:1:a:b:c:d:e"},
		{in: "cf:99999999999999999999"},
		{in: "cf:1:" + strings.Repeat("a", 41)},
		{in: strings.Repeat("a", 101)},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseCustomID(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("Got(ParseCustomID(%q) error) = %v, want ok %v", tc.in, err, tc.ok)
			}
			if !tc.ok {
				if ladder.ErrorCode(err) != ladder.CodeInvalid {
					t.Errorf("Got(code) = %s, want invalid", ladder.ErrorCode(err))
				}
				return
			}
			if got.String() != tc.in || got.Action != tc.want.Action || got.ID != tc.want.ID || len(got.Args) != len(tc.want.Args) {
				t.Errorf("Got(ParseCustomID(%q)) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

func TestIDPanicsOnBadArgument(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("ID with a space in an argument did not panic")
		}
	}()
	ID("cf", 1, "a b")
}

func TestParseDivisions(t *testing.T) {
	tests := []struct {
		in   string
		want []ladder.Division
		ok   bool
	}{
		{in: "Bronze:0, Silver:1400,Gold:1550", want: []ladder.Division{{Name: "Bronze"}, {Name: "Silver", Min: 1400}, {Name: "Gold", Min: 1550}}, ok: true},
		{in: "Only:-5", want: []ladder.Division{{Name: "Only", Min: -5}}, ok: true},
		{in: "Bronze"},
		{in: "Bronze:x"},
		{in: ":100"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseDivisions(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("Got(parseDivisions(%q) error) = %v, want ok %v", tc.in, err, tc.ok)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Got(parseDivisions(%q)) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

// fixture is the real command set over a real service on embedded SQLite.
type fixture struct {
	t   *testing.T
	svc *ladder.Service
	set *Set
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, err := storage.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "ladder.db"), nil)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, nil)
	return &fixture{t: t, svc: svc, set: New(Deps{Service: svc, Community: community.New(db, svc), Formats: formats.New(db, svc)})}
}

// call runs a request through the permission check and the handler, as
// the bot's chain does.
func (f *fixture) call(req Request) (Reply, error) {
	f.t.Helper()
	ctx := context.Background()
	req.GuildID = guild
	if req.ChannelID == "" {
		req.ChannelID = "200000000000000009"
	}
	var h Handler
	var access Access
	if req.Kind == KindComponent || req.Kind == KindModal {
		c, ok := f.set.Component(req.CustomID.Action)
		if !ok {
			f.t.Fatalf("no component %q", req.CustomID.Action)
		}
		h, access = c.Handle, c.Access
	} else {
		root, _, _ := strings.Cut(req.Command, " ")
		c, ok := f.set.Command(root)
		if !ok {
			f.t.Fatalf("no command %q", root)
		}
		h, access = c.Handle, c.Access
	}
	if err := f.set.Authorize(ctx, &req, access); err != nil {
		return Reply{}, err
	}
	return h(ctx, req)
}

func (f *fixture) ok(req Request) Reply {
	f.t.Helper()
	r, err := f.call(req)
	if err != nil {
		f.t.Fatalf("%s %v: %v", req.Command, req.CustomID, err)
	}
	return r
}

func user(i int) string { return fmt.Sprintf("70000000000000%04d", i) }

func cmd(userID, path string, opts map[string]any) Request {
	if opts == nil {
		opts = map[string]any{}
	}
	return Request{Kind: KindCommand, UserID: userID, UserName: "n" + userID[len(userID)-2:], Command: path, Options: opts}
}

func admin(path string, opts map[string]any) Request {
	r := cmd(user(9999), path, opts)
	r.Permissions = PermManageGuild
	return r
}

func click(userID, customID string) Request {
	id, err := ParseCustomID(customID)
	if err != nil {
		panic(err)
	}
	return Request{Kind: KindComponent, UserID: userID, CustomID: id}
}

func TestPartyInvitation(t *testing.T) {
	f := newFixture(t)
	a, b, c := user(1), user(2), user(3)
	r := f.ok(cmd(a, "queue join", map[string]any{"partner": b}))
	if len(r.Posts) != 1 || len(r.Posts[0].Message.Buttons) != 1 {
		t.Fatalf("Got(posts) = %+v, want one invitation with buttons", r.Posts)
	}
	inv := r.Posts[0].Message
	if !strings.Contains(inv.Content, "<@"+b+">") || len(inv.Mentions) != 1 || inv.Mentions[0] != b {
		t.Errorf("Got(invitation) = %q mentions %v, want it to ping %s only", inv.Content, inv.Mentions, b)
	}
	accept := inv.Buttons[0][0].CustomID

	// Someone else cannot accept it.
	if _, err := f.call(click(c, accept)); ladder.ErrorCode(err) != ladder.CodeNotFound && ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("Got(third player accepts) error = %v, want forbidden or not found", err)
	}
	ok := f.ok(click(b, accept))
	if !ok.Update || !strings.Contains(ok.Content, "accepted") {
		t.Errorf("Got(accept) = %+v, want an update saying accepted", ok)
	}
	st := f.ok(cmd(b, "queue status", nil))
	if !strings.Contains(st.Embeds[0].Description, "<@"+a+">") {
		t.Errorf("Got(status) = %q, want the party listed", st.Embeds[0].Description)
	}
	again := f.ok(click(b, accept))
	if again.Update || !strings.Contains(again.Content, "already done") {
		t.Errorf("Got(second accept) = %+v, want a private 'already done'", again)
	}
	left := f.ok(cmd(a, "queue leave", nil))
	if !strings.Contains(left.Content, "party left") {
		t.Errorf("Got(leave) = %q, want the party to leave", left.Content)
	}
	if r := f.ok(cmd(a, "queue leave", nil)); !strings.Contains(r.Content, "already done") {
		t.Errorf("Got(second leave) = %q, want 'already done'", r.Content)
	}
}

func TestLeaderboardPaging(t *testing.T) {
	f := newFixture(t)
	f.ok(admin("config thresholds", map[string]any{"placement_games": int64(0)}))
	for i := range 25 {
		f.ok(admin("mod rating set", map[string]any{"player": user(i), "rating": 1400.0 + float64(10*i), "rd": 50.0}))
	}
	first := f.ok(cmd(user(100), "leaderboard", nil))
	if n := strings.Count(first.Embeds[0].Description, "\n"); n != 10 {
		t.Errorf("Got(rows on page 1) = %d, want 10", n)
	}
	if !strings.Contains(first.Embeds[0].Description, "`#1` **<@"+user(24)+">**") {
		t.Errorf("Got(page 1) = %q, want %s first", first.Embeds[0].Description, user(24))
	}
	prev, next := first.Buttons[0][0], first.Buttons[0][1]
	if !prev.Disabled || next.Disabled {
		t.Errorf("Got(page 1 buttons disabled) = %v, %v, want true, false", prev.Disabled, next.Disabled)
	}
	second := f.ok(click(user(100), next.CustomID))
	if !second.Update || !strings.Contains(second.Embeds[0].Description, "`#11`") || strings.Contains(second.Embeds[0].Description, "`#10`") {
		t.Errorf("Got(page 2) = %q, want ranks from 11", second.Embeds[0].Description)
	}
	third := f.ok(click(user(100), second.Buttons[0][1].CustomID))
	if n := strings.Count(third.Embeds[0].Description, "\n"); n != 5 || !third.Buttons[0][1].Disabled {
		t.Errorf("Got(page 3) = %d rows, next disabled %v, want 5 rows and no next", n, third.Buttons[0][1].Disabled)
	}
	back := f.ok(click(user(100), third.Buttons[0][0].CustomID))
	if !strings.Contains(back.Embeds[0].Description, "`#11`") {
		t.Errorf("Got(previous from page 3) = %q, want page 2", back.Embeds[0].Description)
	}
	if _, err := f.call(cmd(user(100), "leaderboard", map[string]any{"page": int64(9)})); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(page 9) error = %v, want invalid", err)
	}
	gold := f.ok(cmd(user(100), "leaderboard", map[string]any{"division": "Gold"}))
	if !strings.Contains(gold.Embeds[0].Title, "Gold") || strings.Contains(gold.Embeds[0].Description, "Silver") {
		t.Errorf("Got(gold) = %q %q, want only Gold players", gold.Embeds[0].Title, gold.Embeds[0].Description)
	}
	if _, err := f.call(click(user(100), "lb:999:1:1:all")); ladder.ErrorCode(err) != ladder.CodeNotFound {
		t.Errorf("Got(forged queue) error = %v, want not found", err)
	}
}

// TestLeaderboardLastFullPage lists exactly two pages of players: the
// second page's Next button must be off, not lead to a page that is not
// there ("there is no page 3").
func TestLeaderboardLastFullPage(t *testing.T) {
	f := newFixture(t)
	f.ok(admin("config thresholds", map[string]any{"placement_games": int64(0)}))
	for i := range 20 {
		f.ok(admin("mod rating set", map[string]any{"player": user(i), "rating": 1400.0 + float64(10*i), "rd": 50.0}))
	}
	first := f.ok(cmd(user(100), "leaderboard", nil))
	second := f.ok(click(user(100), first.Buttons[0][1].CustomID))
	if n := strings.Count(second.Embeds[0].Description, "\n"); n != 10 || !second.Buttons[0][1].Disabled {
		t.Errorf("Got(page 2 of 20 players) = %d rows, next disabled %v, want 10 rows and no next", n, second.Buttons[0][1].Disabled)
	}
}

func TestModAndConfig(t *testing.T) {
	f := newFixture(t)
	member := cmd(user(1), "mod disputes", nil)
	if _, err := f.call(member); ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("Got(member /mod) error = %v, want forbidden", err)
	}
	if _, err := f.call(cmd(user(1), "config show", nil)); ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("Got(member /config) error = %v, want forbidden", err)
	}
	f.ok(admin("config moderator", map[string]any{"role": "300000000000000009"}))
	member.Roles = []string{"300000000000000009"}
	if r := f.ok(member); !strings.Contains(r.Content, "No open disputes") {
		t.Errorf("Got(moderator /mod disputes) = %q", r.Content)
	}
	// A moderator by role is not an admin.
	asMod := cmd(user(1), "config show", nil)
	asMod.Roles = member.Roles
	if _, err := f.call(asMod); ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("Got(moderator /config) error = %v, want forbidden", err)
	}

	tok := f.ok(admin("mod token create", map[string]any{"name": "server1"}))
	if !strings.Contains(tok.Content, "```") || !tok.Ephemeral {
		t.Errorf("Got(token create) = %+v, want the secret once, privately", tok)
	}
	if r := f.ok(admin("mod token list", nil)); !strings.Contains(r.Content, "server1") || !strings.Contains(r.Content, "live") {
		t.Errorf("Got(token list) = %q", r.Content)
	}
	f.ok(admin("mod token revoke", map[string]any{"name": "server1"}))
	if r := f.ok(admin("mod token revoke", map[string]any{"name": "server1"})); !strings.Contains(r.Content, "already done") {
		t.Errorf("Got(second revoke) = %q, want 'already done'", r.Content)
	}

	f.ok(admin("config queue add", map[string]any{"name": "3v3", "team_size": int64(3), "model": "elo"}))
	set := f.ok(admin("config queue set", map[string]any{"queue": "3v3", "q_floor": 0.0, "open": false}))
	if !strings.Contains(set.Content, "closed") || !strings.Contains(set.Content, "0.80 → 0.00") {
		t.Errorf("Got(queue set) = %q", set.Content)
	}
	if _, err := f.call(cmd(user(2), "queue join", map[string]any{"queue": "3v3"})); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(join a closed queue) error = %v, want invalid", err)
	}
	if _, err := f.call(admin("config queue set", map[string]any{"queue": "3v3", "q_start": 0.1, "q_floor": 0.5})); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(q_floor above q_start) error = %v, want invalid", err)
	}
	if _, err := f.call(admin("config divisions", map[string]any{"list": "Gold"})); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(bad divisions) error = %v, want invalid", err)
	}
	show := f.ok(admin("config divisions", map[string]any{"list": "Low:0, High:1600"}))
	if !strings.Contains(fmt.Sprint(show.Embeds), "Low:0, High:1600") {
		t.Errorf("Got(settings after divisions) = %v", show.Embeds)
	}

	end := f.ok(admin("mod season end", nil))
	// One post a queue, as the season job posts them, the first saying the
	// season is over.
	if len(end.Posts) != 2 || !strings.Contains(end.Posts[0].Message.Content, "Season 1 is over") ||
		end.Posts[0].Message.Embeds[0].Title != "Season 1 final standings · 2v2" || end.Posts[1].Message.Embeds[0].Title != "Season 1 final standings · 3v3" {
		t.Errorf("Got(season end posts) = %+v, want the final standings of 2v2 and 3v3", end.Posts)
	}
	if _, err := f.call(cmd(user(3), "balance", map[string]any{"p1": user(1), "p2": user(1)})); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(balance with a duplicate) error = %v, want invalid", err)
	}
	bal := f.ok(cmd(user(3), "balance", map[string]any{"p1": user(1), "p2": user(2), "p3": user(3)}))
	if !strings.Contains(fmt.Sprint(bal.Embeds), "Sitting out") {
		t.Errorf("Got(balance of 3) = %v, want one sitting out", bal.Embeds)
	}
	if _, err := f.call(cmd(user(3), "match", nil)); ladder.ErrorCode(err) != ladder.CodeNotFound {
		t.Errorf("Got(/match without matches) error = %v, want not found", err)
	}
}

// TestCorrectClosedSeason shows a moderator, before and after, that
// correcting a match of a closed season freezes its standings again and
// moves ratings of the season after it.
func TestCorrectClosedSeason(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	p := []string{user(1), user(2), user(3), user(4)}
	r, err := f.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guild, Team1: p[:2], Team2: p[2:], Winner: 1})
	if err != nil {
		t.Fatal(err)
	}
	f.ok(admin("mod season end", nil))
	if _, err := f.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guild, Team1: p[:2], Team2: p[2:], Winner: 2}); err != nil {
		t.Fatal(err)
	}
	opts := map[string]any{"match": r.Match.ID, "winner": int64(2)}
	pre := f.ok(admin("mod correct", opts))
	if !strings.Contains(pre.Content, "Final standings of season 1 frozen again") || !strings.Contains(pre.Content, "Carried into later seasons") {
		t.Errorf("Got(preview) = %q, want the re-frozen season and carried changes", pre.Content)
	}
	done := f.ok(admin("mod correct", opts))
	if len(done.Buttons) == 0 {
		t.Fatalf("Got(preview) = %+v, want an apply button", done)
	}
	apply := click(user(9999), done.Buttons[0][0].CustomID)
	apply.Permissions = PermManageGuild
	applied := f.ok(apply)
	if !strings.Contains(applied.Content, "frozen again") {
		t.Errorf("Got(apply) = %q, want the re-frozen season", applied.Content)
	}
}
