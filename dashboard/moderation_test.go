package dashboard_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// players of the fixture matches in guild A.
var team1, team2 = []string{"400000000000000001", "400000000000000002"}, []string{"400000000000000003", "400000000000000004"}

// disputedMatch opens a match in guild A, reports a win for team 1 and
// has team 2 dispute it.
func disputedMatch(t *testing.T, e *env) int64 {
	t.Helper()
	ctx := context.Background()
	q, _ := lobbyOf(t, e, guildA)
	m, err := e.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guildA, QueueID: q.ID, Teams: [2][]string{team1, team2}, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Report(ctx, ladder.Actor{UserID: team1[0]}, guildA, m.ID, ladder.Win); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Dispute(ctx, ladder.Actor{UserID: team2[0]}, guildA, m.ID, "we won", ""); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

// TestDisputes: a disputed match waits on the disputes page; resolving it
// there rates it, once, audited under the web user; voiding another
// removes it.
func TestDisputes(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		id, other := disputedMatch(t, e), disputedMatch(t, e)
		b := e.browser(t)
		b.login(userRole, "/admin")
		disputes := "/admin/guilds/" + guildA + "/disputes"
		p := b.get(disputes)
		if !strings.Contains(p.body, fmt.Sprintf("Match #%d", id)) || !strings.Contains(p.body, fmt.Sprintf("Match #%d", other)) {
			t.Fatalf("Got(disputes page) lacks matches %d and %d: %.500s", id, other, p.body)
		}
		token := b.csrf(disputes)
		base := fmt.Sprintf("/admin/guilds/%s/matches/%d", guildA, id)
		p = b.post(base+"/resolve", url.Values{"csrf": {token}, "winner": {"2"}, "reason": {"replay shows team 2"}})
		if p.status != http.StatusOK || !strings.Contains(p.body, "resolved") {
			t.Fatalf("Got(resolve) = %d %.400s", p.status, p.body)
		}
		m, err := e.svc.Match(ctx, guildA, id)
		if err != nil {
			t.Fatal(err)
		}
		if m.State != ladder.StateResolved || m.Winner != 2 || m.Seq == 0 {
			t.Errorf("Got(match after resolve) = %s, winner %d, seq %d; want resolved, 2, rated", m.State, m.Winner, m.Seq)
		}
		// A second click of the same form changes nothing more.
		p = b.post(base+"/resolve", url.Values{"csrf": {token}, "winner": {"2"}})
		if !strings.Contains(p.body, "already") {
			t.Errorf("Got(second resolve) = %d %.300s, want already done", p.status, p.body)
		}
		p = b.post(fmt.Sprintf("/admin/guilds/%s/matches/%d/void", guildA, other), url.Values{"csrf": {token}, "reason": {"no show"}})
		if m, _ := e.svc.Match(ctx, guildA, other); p.status != http.StatusOK || m.State != ladder.StateVoided {
			t.Errorf("Got(void) = %d, state %s; want voided", p.status, m.State)
		}
		var actions []string
		for _, a := range webAudits(t, e, guildA) {
			if a.ActorID != "web:"+userRole {
				t.Errorf("Got(audit actor) = %q, want web:%s", a.ActorID, userRole)
			}
			actions = append(actions, a.Action)
		}
		if s := strings.Join(actions, " "); !strings.Contains(s, "match.resolve") || !strings.Contains(s, "match.void") {
			t.Errorf("Got(audit actions) = %v, want match.resolve and match.void", actions)
		}
		if p := b.get(disputes); !strings.Contains(p.body, "No disputed matches") {
			t.Errorf("Got(disputes page after) = %.400s, want none left", p.body)
		}
	})
}

// TestCorrection: a rated match's page previews a correction (whose
// ratings change and by how much) without changing anything, and Apply
// makes exactly that change.
func TestCorrection(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		res, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildA, Queue: queueName, Team1: team1, Team2: team2, Winner: 1})
		if err != nil {
			t.Fatal(err)
		}
		id := res.Match.ID
		before, err := e.svc.CurrentStandings(ctx, guildA, queueName, team1)
		if err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		path := fmt.Sprintf("/admin/guilds/%s/matches/%d", guildA, id)
		p := b.get(path + "?winner=2")
		if p.status != http.StatusOK || !strings.Contains(p.body, `id="preview-table"`) {
			t.Fatalf("Got(preview) = %d %.500s", p.status, p.body)
		}
		for _, u := range append(append([]string{}, team1...), team2...) {
			if !strings.Contains(p.body, u) {
				t.Errorf("Got(preview) does not list player %s", u)
			}
		}
		if !strings.Contains(p.body, "−") && !strings.Contains(p.body, ">-") {
			t.Errorf("Got(preview) shows no loss for the old winners: %.800s", p.body)
		}
		still, _ := e.svc.CurrentStandings(ctx, guildA, queueName, team1)
		if still[0].Rating != before[0].Rating {
			t.Fatalf("Got(rating after preview) = %g, want unchanged %g", still[0].Rating, before[0].Rating)
		}
		token := csrfRE.FindStringSubmatch(p.body)[1]
		p = b.post(path+"/correct", url.Values{"csrf": {token}, "winner": {"2"}, "reason": {"misreport"}})
		if p.status != http.StatusOK || !strings.Contains(p.body, "corrected") {
			t.Fatalf("Got(apply) = %d %.400s", p.status, p.body)
		}
		after, _ := e.svc.CurrentStandings(ctx, guildA, queueName, team1)
		if after[0].Rating >= before[0].Rating {
			t.Errorf("Got(old winner's rating after correction) = %g, want below %g", after[0].Rating, before[0].Rating)
		}
		if m, _ := e.svc.Match(ctx, guildA, id); m.Winner != 2 {
			t.Errorf("Got(winner after correction) = %d, want 2", m.Winner)
		}
	})
}

// TestConfigShowAgrees: a setting changed on the dashboard is what
// /config show then says on Discord: one source of truth.
func TestConfigShowAgrees(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	b := e.browser(t)
	b.login(userAdmin, "/admin")
	token := b.csrf(queuePath(guildA))
	if p := b.post(queuePath(guildA), url.Values{"csrf": {token}, "q_start": {"0.72"}, "q_floor": {"0.41"}, "ready_window": {"45"}}); p.status != http.StatusOK {
		t.Fatalf("Got(save) = %d %.300s", p.status, p.body)
	}
	cmd, ok := commands.New(commands.Deps{Service: e.svc}).Command("config")
	if !ok {
		t.Fatal("no /config command")
	}
	reply, err := cmd.Handle(context.Background(), commands.Request{Kind: commands.KindCommand, GuildID: guildA, UserID: userAdmin,
		Moderator: true, Permissions: 1 << 5, Command: "config show", Options: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, em := range reply.Embeds {
		for _, f := range em.Fields {
			text.WriteString(f.Value + "\n")
		}
	}
	for _, want := range []string{"quality 0.72 → 0.41", "ready check 45 s"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("Got(/config show) = %s, want %q", text.String(), want)
		}
	}
}

// applyForm returns the action and the fields of the form that applies a
// previewed result on a match page.
func applyForm(t *testing.T, body string) (string, url.Values) {
	t.Helper()
	m := applyFormRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("Got(match page) has no apply form: %.800s", body)
	}
	return html.UnescapeString(m[1]), url.Values{"csrf": {m[2]}, "winner": {m[3]}, "seen": {m[4]}}
}

var applyFormRE = regexp.MustCompile(`<form method="post" class="card" action="([^"]+)">\s*<input type="hidden" name="csrf" value="([^"]+)"><input type="hidden" name="winner" value="([^"]+)">(?:<input type="hidden" name="seen" value="([^"]*)">)?`)

// TestStaleCorrectionForm: a moderator previews a correction on a match's
// page; another moderator voids the match before they apply it. Applying
// rated the voided match again with the previewed result, undoing the
// void with changes nobody had previewed. It is refused now, and the match
// stays voided; a new preview of the voided match applies. A disputed
// match voided before it was ever rated is restored by a correction from
// its page too (a resolve refuses a voided match).
func TestStaleCorrectionForm(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		res, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildA, Queue: queueName, Team1: team1, Team2: team2, Winner: 1})
		if err != nil {
			t.Fatal(err)
		}
		id := res.Match.ID
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		path := fmt.Sprintf("/admin/guilds/%s/matches/%d", guildA, id)
		action, form := applyForm(t, b.get(path+"?winner=2").body)
		if _, err := e.svc.Void(ctx, ladder.Actor{UserID: "900000000000000009", Moderator: true}, guildA, id, "never played"); err != nil {
			t.Fatal(err)
		}
		if p := b.post(action, form); p.status < 400 || !strings.Contains(p.body, "changed since the preview") {
			t.Errorf("Got(stale apply) = %d %.400s, want refused: changed since the preview", p.status, p.body)
		}
		if m, _ := e.svc.Match(ctx, guildA, id); m.State != ladder.StateVoided {
			t.Errorf("Got(match after the stale apply) = %s, want voided still", m.State)
		}
		action, form = applyForm(t, b.get(path+"?winner=2").body)
		if p := b.post(action, form); p.status != http.StatusOK || !strings.Contains(p.body, "corrected") {
			t.Errorf("Got(apply of a new preview) = %d %.400s, want corrected", p.status, p.body)
		}
		if m, _ := e.svc.Match(ctx, guildA, id); m.State != ladder.StateResolved || m.Winner != 2 {
			t.Errorf("Got(match after the new preview's apply) = %s %d, want resolved for team 2", m.State, m.Winner)
		}
		d := disputedMatch(t, e)
		if _, err := e.svc.Void(ctx, ladder.Actor{UserID: "900000000000000009", Moderator: true}, guildA, d, "no show"); err != nil {
			t.Fatal(err)
		}
		action, form = applyForm(t, b.get(fmt.Sprintf("/admin/guilds/%s/matches/%d?winner=1", guildA, d)).body)
		if p := b.post(action, form); p.status != http.StatusOK {
			t.Errorf("Got(restoring a voided dispute) = %d %.400s, want it rated", p.status, p.body)
		}
		if m, _ := e.svc.Match(ctx, guildA, d); m.State != ladder.StateResolved || m.Winner != 1 {
			t.Errorf("Got(voided dispute after apply) = %s %d, want resolved for team 1", m.State, m.Winner)
		}
	})
}
