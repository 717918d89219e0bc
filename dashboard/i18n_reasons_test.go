package dashboard_test

import (
	"context"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// TestReasonsAndHelpInLanguage: in German and Portuguese the disputes page
// words the dispute the bot opened for conflicting reports, the audit log
// its actions and the reasons the ladder wrote, and the settings forms
// their help texts, all from the catalogs, with none of the English left.
func TestReasonsAndHelpInLanguage(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ladderReasons(t, e)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		g := "/admin/guilds/" + guildA + "/"
		for _, code := range []string{"de", "pt-BR"} {
			l := i18n.For(code)
			check := func(path string, want []string, english ...string) {
				t.Helper()
				p := b.get(path + "?lang=" + code)
				body := html.UnescapeString(p.body)
				for _, w := range want {
					if !strings.Contains(body, w) {
						t.Errorf("%s %s: Got(page) lacks %q (status %d)", code, path, w, p.status)
					}
				}
				for _, en := range english {
					if strings.Contains(body, en) {
						t.Errorf("%s %s: Got(page) has the English %q", code, path, en)
					}
				}
			}
			check(g+"disputes", []string{l.T("reason.conflicting_reports", "Player", team2[0], "Outcome", l.T("outcome.win"))}, "conflicting reports", " says ")
			check(g+"audit", []string{l.T("audit.match.cancel_vote"), l.N("reason.cancel_vote", 3, "Players", l.Int(4)), "match.cancel_vote"},
				"voted to cancel", "Cancel vote")
			check(g+"settings", []string{l.T("help.channel ID for moderator actions"), l.T("help.season schedule: 5-field cron (UTC), or off")},
				"channel ID for moderator actions", "season schedule:")
			check(g+"queues/"+queueName, []string{l.T("help.open hours, e.g. mon-fri 18:00-23:00; sat,sun 12:00-02:00 (empty: always open)"),
				l.T("help.seconds a room stays after its match ends (0-86400)")}, "open hours, e.g.", "seconds a room stays")
		}
	})
}

// ladderReasons gives guildA the reasons the ladder writes itself: a
// match whose teams both claim the win, which the ladder disputes (m), and
// one three of four players voted to cancel (m2).
func ladderReasons(t *testing.T, e *env) (m, m2 ladder.Match) {
	t.Helper()
	ctx := context.Background()
	q, _ := lobbyOf(t, e, guildA)
	open := func() ladder.Match {
		m, err := e.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guildA, QueueID: q.ID, Teams: [2][]string{team1, team2}, Source: "test"})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m = open()
	for _, u := range []string{team1[0], team2[0]} {
		if _, err := e.svc.Report(ctx, ladder.Actor{UserID: u}, guildA, m.ID, ladder.Win); err != nil {
			t.Fatal(err)
		}
	}
	m2 = open()
	for _, u := range []string{team1[0], team1[1], team2[0]} {
		if _, err := e.svc.CancelVote(ctx, ladder.Actor{UserID: u}, guildA, m2.ID); err != nil {
			t.Fatal(err)
		}
	}
	return m, m2
}

// TestDeliveryFailuresInLanguage: the integrations page describes each
// failed webhook delivery in German and Portuguese from dash.delivery.*,
// with the text the receiver or the network gave kept beneath it.
func TestDeliveryFailuresInLanguage(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		if _, err := e.svc.CreateWebhook(ctx, ladder.System, guildA, "https://hooks.example.com/a", []string{"match.confirmed"}, ladder.URLPolicy{}); err != nil {
			t.Fatal(err)
		}
		failures := []struct {
			status     int
			text, kind string
		}{
			{503, "receiver answered 503 Service Unavailable", "status"},
			{0, `Post "https://hooks.example.com/a": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, "timeout"},
			{0, `Post "https://hooks.example.com/a": dial tcp 93.184.215.14:443: connect: connection refused`, "refused"},
			{0, `Post "https://hooks.example.com/a": dial tcp: lookup hooks.example.com on 127.0.0.53:53: no such host`, "dns"},
			{0, "webhook address 10.0.0.1 is private", "policy"},
			{0, "refused: the URL's host resolves to an address, or names a port, that webhooks are not allowed to reach (only public addresses on an allowed port)", "policy"},
			{0, "the host name hooks.example.com could not be resolved: no such host", "dns"},
		}
		for i := range failures {
			if _, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildA, Team1: team1, Team2: team2, Winner: 1 + i%2, Source: "test"}); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range failures {
			ds, err := e.svc.ClaimDeliveries(ctx, time.Minute, 1)
			if err != nil || len(ds) != 1 {
				t.Fatalf("Got(ClaimDeliveries) = %v, %v, want one delivery", ds, err)
			}
			if _, err := e.svc.FinishDelivery(ctx, ds[0], f.status, f.text, time.Second); err != nil {
				t.Fatal(err)
			}
		}
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		path := "/admin/guilds/" + guildA + "/integrations"
		for _, code := range []string{"de", "pt-BR"} {
			l := i18n.For(code)
			p := b.get(path + "?lang=" + code)
			body := html.UnescapeString(p.body)
			for _, f := range failures {
				want := l.T("dash.delivery."+f.kind, "Status", f.status)
				if !strings.Contains(body, want) || !strings.Contains(body, f.text) {
					t.Errorf("%s: Got(integrations page) lacks %q above %q (status %d)", code, want, f.text, p.status)
				}
				if en := i18n.English().T("dash.delivery."+f.kind, "Status", f.status); strings.Contains(body, en) {
					t.Errorf("%s: Got(integrations page) has the English %q", code, en)
				}
			}
		}
	})
}

// TestReasonCodesOnAuditPage: the audit page words the reasons the ladder
// wrote from their codes: a moderator's own words that read like one (a
// queue ban "no-show") stay as written, and a row stored before codes
// were (NULL) is read from its text, in German and Portuguese.
func TestReasonCodesOnAuditPage(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		ladderReasons(t, e)
		mod := ladder.Actor{UserID: userAdmin, Moderator: true}
		if err := e.svc.BanFromQueue(ctx, mod, guildA, team1[0], time.Time{}, "no-show"); err != nil {
			t.Fatal(err)
		}
		insert := `INSERT INTO audit_log (guild_id, actor_id, action, target, reason, before, after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
		if e.db.Dialect() == storage.Postgres {
			insert = `INSERT INTO audit_log (guild_id, actor_id, action, target, reason, before, after, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`
		}
		if _, err := e.db.SQL().ExecContext(ctx, insert, guildA, ladder.System.UserID, "match.abandon", "", "no report within 3h", "", "", time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		for _, code := range []string{"de", "pt-BR"} {
			l := i18n.For(code)
			p := b.get("/admin/guilds/" + guildA + "/audit?lang=" + code)
			body := html.UnescapeString(p.body)
			if !strings.Contains(body, `<td class="wide">no-show</td>`) || strings.Contains(body, l.T("reason.no_show")) {
				t.Errorf("%s: Got(audit page) words the moderator's %q as the ladder's %q (status %d)", code, "no-show", l.T("reason.no_show"), p.status)
			}
			if want := l.T("reason.no_report", "After", l.Duration(3*time.Hour)); !strings.Contains(body, want) || strings.Contains(body, "no report within") {
				t.Errorf("%s: Got(audit page) lacks the older row's reason %q", code, want)
			}
			if want := l.N("reason.cancel_vote", 3, "Players", l.Int(4)); !strings.Contains(body, want) {
				t.Errorf("%s: Got(audit page) lacks the cancel vote's reason %q", code, want)
			}
		}
	})
}

// TestAuditChangesInLanguage: the audit page shows an entry's recorded
// change as labelled fields in German and Portuguese (audit.field.*, a
// match's state from state.*), a queue's number with the language's
// decimal mark, and the recorded JSON in the cell's title.
func TestAuditChangesInLanguage(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ladderReasons(t, e)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		token := b.csrf(queuePath(guildA))
		b.post(queuePath(guildA), url.Values{"csrf": {token}, "q_start": {"0.77"}})
		for _, code := range []string{"de", "pt-BR"} {
			l := i18n.For(code)
			p := b.get("/admin/guilds/" + guildA + "/audit?lang=" + code)
			body := html.UnescapeString(p.body)
			for _, want := range []string{
				"<b>" + l.T("audit.field.state") + `</b> <span class="rec">` + l.T("state.cancelled") + "</span>",
				"<b>" + l.T("audit.field.teams") + "</b> ",
				"<b>" + l.T("audit.field.qstart") + `</b> <span class="rec">` + l.Float(0.77) + "</span>",
				"<b>" + l.T("audit.field.name") + `</b> <span class="rec">` + queueName + "</span>",
				`"state":"cancelled"`,
			} {
				if !strings.Contains(body, want) {
					t.Errorf("%s: Got(audit page) lacks %q (status %d)", code, want, p.status)
				}
			}
			for _, en := range []string{"<b>state</b>", "<b>teams</b>", "<b>winner</b>", ">QStart<"} {
				if strings.Contains(body, en) {
					t.Errorf("%s: Got(audit page) has the English label %q", code, en)
				}
			}
		}
	})
}

// titleAttr matches an HTML title attribute, where the audit page keeps
// the recorded JSON.
var titleAttr = regexp.MustCompile(` title="[^"]*"`)

// TestAuditSettingsInLanguage: a server settings change, a queue
// settings change and a lobby change made through the service read on
// the audit page in German and Portuguese: every field labelled from audit.field.*, a
// duration in words, divisions as names and floors, an unset channel as
// not set, a yes or no, a time per format.datetime and numbers with the
// language's decimal mark, while the cell's title keeps the recorded JSON.
func TestAuditSettingsInLanguage(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		mod := ladder.Actor{UserID: userAdmin, Moderator: true}
		g, err := e.svc.Guild(ctx, guildA)
		if err != nil {
			t.Fatal(err)
		}
		g.ModeratorRoleID = "100000000000000001"
		g.AnnounceChannelID = ""
		g.ConfirmWindow = 45 * time.Minute
		g.QueueTimeout = 2 * time.Hour
		g.SeasonCarry = 0.25
		g.StaleDays = 21
		g.Divisions = []ladder.Division{{Name: "Bronze", Min: 0}, {Name: "Silber", Min: 1400}}
		g.WeeklyTop = true
		if g, err = e.svc.UpdateGuild(ctx, mod, g); err != nil {
			t.Fatal(err)
		}
		q, lob := lobbyOf(t, e, guildA)
		lob.ReadyWindow, lob.CancelShare = 90*time.Second, 0.75
		if _, err := e.svc.UpdateLobby(ctx, mod, guildA, lob); err != nil {
			t.Fatal(err)
		}
		q.QFloor, q.Bucket, q.Boost, q.Disabled = 0.45, 90*time.Second, 1.5, true
		if _, err := e.svc.UpdateQueue(ctx, mod, q); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		for _, code := range []string{"de", "pt-BR"} {
			l := i18n.For(code)
			p := b.get("/admin/guilds/" + guildA + "/audit?lang=" + code)
			body := html.UnescapeString(p.body)
			field := func(key, value string) string {
				return "<b>" + l.T("audit.field."+key) + `</b> <span class="rec">` + value + "</span>"
			}
			for _, want := range []string{
				field("moderatorroleid", "100000000000000001"),
				field("announcechannelid", l.T("cfg.not_set")),
				field("confirmwindow", l.Duration(45*time.Minute)),
				field("queuetimeout", l.Duration(2*time.Hour)),
				field("staledays", l.N("unit.day", 21)),
				field("seasoncarry", l.Float(0.25)),
				field("divisions", "Bronze 0, Silber 1400"),
				field("weeklytop", l.T("dash.yes")),
				field("createdat", l.DateTime(g.CreatedAt)),
				field("qfloor", l.Float(0.45)),
				field("bucket", l.Duration(90*time.Second)),
				field("boost", l.Float(1.5)),
				field("disabled", l.T("dash.yes")),
				field("ready_window_s", l.Duration(90*time.Second)),
				field("cancel_share", l.Float(0.75)),
				`"ConfirmWindow":2700000000000`, // the recorded JSON, in the title
			} {
				if !strings.Contains(body, want) {
					t.Errorf("%s: Got(audit page) lacks %q (status %d)", code, want, p.status)
				}
			}
			shown := html.UnescapeString(titleAttr.ReplaceAllString(p.body, ""))
			for _, raw := range []string{">ConfirmWindow<", ">QFloor<", ">ready_window_s<", "2700000000000", `{"name":"Bronze"`} {
				if strings.Contains(shown, raw) {
					t.Errorf("%s: Got(audit page) shows the recorded %q outside the title", code, raw)
				}
			}
		}
	})
}
