package dashboard_test

import (
	"context"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/bot"
	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// startBot runs the real bot (discordgo) against the env's fake Discord
// with the same service and database as the dashboard, and returns a
// channel of guild A to call its commands in.
func (e *env) startBot(t *testing.T) string {
	t.Helper()
	set := commands.New(commands.Deps{Service: e.svc, Rooms: rooms.New(e.db, nil, e.svc, nil)})
	b, err := bot.New(bot.Config{Token: botToken, APIBase: e.fake.URL(), DevGuildID: guildA, DrainTimeout: 5 * time.Second}, set,
		slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("bot Run() = %v", err)
		}
	})
	wctx, wcancel := context.WithTimeout(ctx, 15*time.Second)
	defer wcancel()
	if err := e.fake.WaitReady(wctx, guildA); err != nil {
		t.Fatalf("the bot never registered its commands: %v", err)
	}
	return e.fake.AddChannel(guildA, "ladder", fakediscord.ChannelText)
}

// slash calls a command through Discord as the server admin and returns
// the text of the bot's answer.
func (e *env) slash(t *testing.T, channel, path string, opts map[string]any) string {
	t.Helper()
	p, err := e.fake.Slash(fakediscord.Call{GuildID: guildA, ChannelID: channel,
		User: fakediscord.User{ID: userAdmin, Name: "ada", Permissions: commands.PermManageGuild}}, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	r, err := p.Result(ctx)
	if err != nil {
		t.Fatalf("/%s: %v", path, err)
	}
	return r.Message.Text()
}

// TestBrowserModerator is a moderator's session in real headless Chromium
// on each backend: log in through the fake Discord's OAuth2 pages (the
// consent page's Authorize button), change a queue setting and see
// /config show agree through the bot, resolve a dispute, apply a
// correction after its preview, make and revoke an API token, log out.
func TestBrowserModerator(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		channel := e.startBot(t)
		disputed := disputedMatch(t, e)
		rated, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildA, Queue: queueName, Team1: team1, Team2: team2, Winner: 1})
		if err != nil {
			t.Fatal(err)
		}
		b := e.tab(t)
		g := "/admin/guilds/" + guildA + "/"

		// Log in: consent page, Authorize, back on the page asked for.
		if body := b.login(userRole, g); !strings.Contains(body, "Log out") || !strings.Contains(body, "rolf") {
			t.Fatalf("Got(page after login) = %.300s, want logged in as rolf", body)
		}
		if st := e.fake.OAuth(); st.Consents != 1 || st.Exchanges != 1 {
			t.Errorf("Got(fake OAuth2) = %d consents, %d exchanges; want 1 and 1", st.Consents, st.Exchanges)
		}

		// A queue setting, then /config show through the bot.
		b.open(g + "queues/" + queueName)
		b.set("#f-q_start", "0.66")
		b.set("#f-ready_window", "50")
		category := e.fake.AddChannel(guildA, "Matches", fakediscord.ChannelCategory)
		b.set("#f-room", "channel")
		b.set("#f-room_category", category)
		b.set("#f-voice", "true")
		b.set("#f-sides", "true")
		if st := b.click("#save"); st != http.StatusOK || !strings.Contains(b.text("#flash"), "saved") {
			t.Fatalf("Got(save queue) = %d at %s", st, b.location())
		}
		show := e.slash(t, channel, "config show", nil)
		for _, want := range []string{"quality 0.66 →", "ready check 50 s",
			"rooms: each match gets a channel only its players and the moderators see in <#" + category + ">, with a voice channel per team"} {
			if !strings.Contains(show, want) {
				t.Errorf("Got(/config show) = %s, want %q", show, want)
			}
		}
		if sides := e.slash(t, channel, "config queue sides", map[string]any{"queue": queueName}); !strings.Contains(sides, "is sided") {
			t.Errorf("Got(/config queue sides) = %s, want sided", sides)
		}
		// A bad value: /config's message, nothing stored.
		b.open(g + "queues/" + queueName)
		b.set("#f-q_start", "1.5")
		if st := b.click("#save"); st != http.StatusBadRequest || !b.has("#error") {
			t.Errorf("Got(save q_start=1.5) = %d, error shown %v", st, b.has("#error"))
		}
		if q, _ := lobbyOf(t, e, guildA); q.QStart != 0.66 {
			t.Errorf("Got(q_start after refused save) = %g, want 0.66", q.QStart)
		}

		// Resolve the dispute.
		b.open(g + "disputes")
		b.set(fmt.Sprintf("#winner-%d", disputed), "2")
		b.set(fmt.Sprintf("#reason-%d", disputed), "replay shows team 2")
		b.click(fmt.Sprintf("#resolve-%d", disputed))
		if f := b.text("#flash"); !strings.Contains(f, "resolved") {
			t.Errorf("Got(flash after resolve) = %q", f)
		}
		if m, _ := e.svc.Match(ctx, guildA, disputed); m.State != ladder.StateResolved || m.Winner != 2 {
			t.Errorf("Got(disputed match) = %s, winner %d; want resolved, 2", m.State, m.Winner)
		}

		// Correct the rated match: preview first, which changes nothing.
		before, _ := e.svc.CurrentStandings(ctx, guildA, queueName, team1)
		b.open(fmt.Sprintf("%smatches/%d", g, rated.Match.ID))
		b.set("#new-winner", "2")
		b.click("#preview")
		if preview := b.text("#preview-table"); !strings.Contains(preview, "−") && !strings.Contains(preview, "-") {
			t.Errorf("Got(preview) = %q, want a loss for the old winners", preview)
		}
		if still, _ := e.svc.CurrentStandings(ctx, guildA, queueName, team1); still[0].Rating != before[0].Rating {
			t.Fatalf("Got(rating after preview) = %g, want unchanged %g", still[0].Rating, before[0].Rating)
		}
		b.click("#apply")
		if f := b.text("#flash"); !strings.Contains(f, "corrected") {
			t.Errorf("Got(flash after apply) = %q", f)
		}
		if after, _ := e.svc.CurrentStandings(ctx, guildA, queueName, team1); after[0].Rating >= before[0].Rating {
			t.Errorf("Got(old winner's rating after correction) = %g, want below %g", after[0].Rating, before[0].Rating)
		}

		// An API token: made here, works, revoked here, stops working.
		b.open(g + "integrations")
		b.set("#token-name", "game-server")
		b.click("#create-token")
		secret := b.text("#secret code")
		if got := apiStatus(t, e, secret); got != http.StatusOK {
			t.Fatalf("Got(API with the new token) = %d, want 200", got)
		}
		b.click("#revoke-game-server")
		if f := b.text("#flash"); !strings.Contains(f, "revoked") {
			t.Errorf("Got(flash after revoke) = %q", f)
		}
		if got := apiStatus(t, e, secret); got != http.StatusUnauthorized {
			t.Errorf("Got(API with the revoked token) = %d, want 401", got)
		}

		// Every write is audited under the web user.
		var actions []string
		for _, a := range webAudits(t, e, guildA) {
			if a.ActorID != "web:"+userRole {
				t.Errorf("Got(audit actor) = %q, want web:%s", a.ActorID, userRole)
			}
			actions = append(actions, a.Action)
		}
		for _, want := range []string{"match.resolve", "token.create", "token.revoke"} {
			if !strings.Contains(strings.Join(actions, " "), want) {
				t.Errorf("Got(audit) = %v, want %s", actions, want)
			}
		}

		// Log out: the next page asks to log in again.
		b.open("/admin/logout")
		b.click("#logout")
		b.open(g)
		if loc := b.location(); !strings.Contains(loc, "/oauth2/authorize") {
			t.Errorf("Got(guild page after logout) at %s, want Discord's log-in", loc)
		}
	})
}

// apiStatus calls the admin API with an API token.
func apiStatus(t *testing.T, e *env, secret string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/api/v1/guilds/"+guildA+"/admin/queues", nil)
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestBrowserCrossSiteForm: in real Chromium, a logged-in moderator who
// clicks a form on another site (127.0.0.2 is another site than
// 127.0.0.1) that posts to the dashboard, even with the moderator's own
// form token, changes nothing: the browser sends no SameSite=Lax cookie
// with a cross-site POST and marks it cross-site, and the dashboard
// refuses it.
func TestBrowserCrossSiteForm(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	b := e.tab(t)
	b.login(userAdmin, queuePath(guildA))
	token := csrfRE.FindStringSubmatch(b.html("body"))
	if token == nil {
		t.Fatal("no form token on the queue page")
	}
	evil := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><form method="post" action="%s%s"><input type="hidden" name="csrf" value="%s">
<input type="hidden" name="q_start" value="0.61"><button id="win" type="submit">Claim your prize</button></form>`,
			e.srv.URL, queuePath(guildA), html.EscapeString(token[1]))
	}))
	// Another loopback address is another site.
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	evil.Listener.Close()
	evil.Listener = l
	evil.Start()
	t.Cleanup(evil.Close)
	b.open(evil.URL)
	st := b.click("#win")
	if st != http.StatusForbidden && st != http.StatusUnauthorized {
		t.Errorf("Got(cross-site form post) = %d at %s, want refused", st, b.location())
	}
	if q, _ := lobbyOf(t, e, guildA); q.QStart == 0.61 {
		t.Error("Got(q_start) = 0.61: another site's form changed the queue")
	}
	// The moderator is still logged in and the dashboard's own form works.
	b.open(queuePath(guildA))
	b.set("#f-q_start", "0.61")
	if st := b.click("#save"); st != http.StatusOK {
		t.Errorf("Got(own form after) = %d", st)
	}
	if q, _ := lobbyOf(t, e, guildA); q.QStart != 0.61 {
		t.Errorf("Got(q_start after the own form) = %g, want 0.61", q.QStart)
	}
}
