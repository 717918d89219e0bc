package joins_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/bot"
	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/drive"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/panel"
	"github.com/ladderbot/ladderbot/storage"
)

const (
	testGuild   = "100000000000000088"
	testChannel = "200000000000000002"
)

// start is the manual clock's start: Monday 1 March 2027, 16:00 UTC
// (17:00 in Berlin). It lies after the wall clock, so the results
// channel, which posts results rated since it was set, posts these.
var start = time.Date(2027, 3, 1, 16, 0, 0, 0, time.UTC)

var admin = fakediscord.User{ID: "400000000000000004", Name: "admin", Permissions: commands.PermManageGuild}

// player is the i-th test player; their accounts are years old.
func player(i int) fakediscord.User {
	return fakediscord.User{ID: fmt.Sprintf("3000000000000%05d", i), Name: fmt.Sprintf("p%d", i)}
}

// newAccount is a player whose Discord account was made age before at.
func newAccount(at time.Time, age time.Duration) fakediscord.User {
	id := uint64(at.Add(-age).UnixMilli()-1420070400000) << 22
	return fakediscord.User{ID: fmt.Sprint(id), Name: "newcomer"}
}

// env is the real bot with the real command set, a panel editor and the
// scheduled jobs over a real database and a manual clock, driven through
// the fake Discord, wired as `ladderbot run` wires them.
type env struct {
	t      testing.TB
	ctx    context.Context
	fake   *fakediscord.Server
	db     *storage.DB
	clock  *ladder.ManualClock
	svc    *ladder.Service
	joins  *joins.Service
	panels *panel.Service
	sched  *jobs.Scheduler
	logs   *drive.Logs
	drv    *drive.Driver
}

func newEnv(t testing.TB, backend string) *env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	db, err := storage.Open(ctx, testdb.DSN(t, backend), nil)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	fake := fakediscord.New()
	t.Cleanup(fake.Close)
	clock := ladder.NewManualClock(start)
	svc := ladder.NewService(db, clock)
	jn := joins.New(db, svc)
	svc.SetJoinGate(jn)
	e := &env{t: t, ctx: ctx, fake: fake, db: db, clock: clock, svc: svc, joins: jn, logs: &drive.Logs{}}
	e.drv = &drive.Driver{T: t, Ctx: ctx, Fake: fake, Guild: testGuild, Channel: testChannel, Logs: e.logs, Strict: true}
	log := slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var b *bot.Bot
	e.panels = panel.New(db, svc, panel.PostFunc(func(ctx context.Context, channelID string, msg commands.Reply) (string, error) {
		return b.Post(ctx, channelID, msg)
	}), log, panel.Options{Resync: 200 * time.Millisecond, Joins: jn})
	set := commands.New(commands.Deps{Service: svc, Panels: e.panels, Joins: jn})
	b, err = bot.New(bot.Config{Token: "test-token", APIBase: fake.URL(), DevGuildID: testGuild, OnResult: e.panels.Touch,
		DrainTimeout: 5 * time.Second}, set, log)
	if err != nil {
		t.Fatalf("bot.New: %v", err)
	}
	e.sched = jobs.New(svc, b, log, jobs.Options{PostBackoff: time.Millisecond, Joins: jn, OnQueue: e.panels.Touch})
	rctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); b.Run(rctx) }()
	go func() { defer wg.Done(); e.panels.Run(rctx) }()
	t.Cleanup(func() { stop(); wg.Wait() })
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", e.logs)
		}
	})
	if err := fake.WaitReady(ctx, testGuild); err != nil {
		t.Fatalf("bot never registered its commands: %v\nlog:\n%s", err, e.logs)
	}
	return e
}

func at(u fakediscord.User) fakediscord.Call {
	return fakediscord.Call{GuildID: testGuild, ChannelID: testChannel, User: u}
}

func (e *env) result(p *fakediscord.Pending, err error) fakediscord.Response {
	e.t.Helper()
	return e.drv.Result(p, err)
}

func (e *env) slash(u fakediscord.User, path string, opts map[string]any) fakediscord.Response {
	e.t.Helper()
	return e.drv.Slash(u, path, opts)
}

// click presses the button labelled label on message m.
func (e *env) click(u fakediscord.User, m fakediscord.Message, label string) fakediscord.Response {
	e.t.Helper()
	return e.drv.Click(u, m, label)
}

// message waits for a message in the test channel satisfying ok.
func (e *env) message(what string, ok func(fakediscord.Message) bool) fakediscord.Message {
	e.t.Helper()
	m, err := e.fake.WaitChannelMessage(e.ctx, testChannel, ok)
	if err != nil {
		var shown []string
		for _, m := range e.fake.ChannelMessages(testChannel) {
			shown = append(shown, fmt.Sprintf("%s: %q", m.ID, m.Text()))
		}
		e.t.Fatalf("%s never shown: %v\nchannel holds:\n%s\nlog:\n%s", what, err, strings.Join(shown, "\n"), e.logs)
	}
	return m
}

// panel waits for queue name's panel to show every one of parts.
func (e *env) panel(name string, parts ...string) fakediscord.Message {
	e.t.Helper()
	return e.message("panel of "+name+" with "+strings.Join(parts, ", "), func(m fakediscord.Message) bool {
		if len(m.Embeds) != 1 || !strings.HasPrefix(m.Embeds[0].Title, "Queue "+name+" (") {
			return false
		}
		for _, p := range parts {
			if !strings.Contains(m.Text(), p) {
				return false
			}
		}
		return true
	})
}

// queue returns the guild's queue called name.
func (e *env) queue(name string) ladder.Queue {
	e.t.Helper()
	qs, err := e.svc.Queues(e.ctx, testGuild)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, q := range qs {
		if q.Name == name {
			return q
		}
	}
	e.t.Fatalf("no queue %s", name)
	return ladder.Queue{}
}

// queued reports whether userID holds a ticket.
func (e *env) queued(userID string) bool {
	e.t.Helper()
	st, err := e.svc.QueueStatus(e.ctx, testGuild, userID)
	if err != nil {
		e.t.Fatal(err)
	}
	return st.Ticket.ID != 0
}

// audited counts the audit entries of action about target.
func (e *env) audited(action, target string) int {
	e.t.Helper()
	es, err := e.svc.Audit(e.ctx, testGuild, 500)
	if err != nil {
		e.t.Fatal(err)
	}
	n := 0
	for _, a := range es {
		if a.Action == action && a.Target == target {
			n++
		}
	}
	return n
}

// refused fails unless r is a private refusal containing every one of want.
func refused(t testing.TB, what string, r fakediscord.Response, want ...string) {
	t.Helper()
	text := r.Message.Text()
	ok := r.Ephemeral() && strings.Contains(text, "⚠️")
	for _, w := range want {
		ok = ok && strings.Contains(text, w)
	}
	if !ok {
		t.Errorf("%s: Got(answer) = %q (ephemeral %v), want a private refusal with %q", what, text, r.Ephemeral(), want)
	}
}

// private fails unless r is a private answer containing want.
func private(t testing.TB, what string, r fakediscord.Response, want string) {
	t.Helper()
	if !r.Ephemeral() || !strings.Contains(r.Message.Text(), want) || strings.Contains(r.Message.Text(), "⚠️") {
		t.Errorf("%s: Got(answer) = %q (ephemeral %v), want a private answer with %q", what, r.Message.Text(), r.Ephemeral(), want)
	}
}
