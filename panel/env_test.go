package panel_test

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
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/panel"
	"github.com/ladderbot/ladderbot/storage"
)

const (
	testGuild   = "100000000000000077"
	testChannel = "200000000000000001"
)

var admin = fakediscord.User{ID: "400000000000000004", Name: "admin", Permissions: commands.PermManageGuild}

// player is the i-th test player.
func player(i int) fakediscord.User {
	return fakediscord.User{ID: fmt.Sprintf("3000000000000%05d", i), Name: fmt.Sprintf("p%d", i)}
}

// env is the real bot with the real command set and a panel editor over a
// real database, driven through the fake Discord, as `ladderbot run`
// wires them.
type env struct {
	t      testing.TB
	ctx    context.Context
	fake   *fakediscord.Server
	db     *storage.DB
	svc    *ladder.Service
	opt    panel.Options
	panels *panel.Service
	bot    *bot.Bot
	logs   *drive.Logs
	drv    *drive.Driver
	stop   func()
	// stopPanels stops the panel editor alone (a process that dies).
	stopPanels func()
}

// newEnv starts a bot and a panel editor with opt on a fresh database of
// backend.
func newEnv(t testing.TB, backend string, opt panel.Options) *env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	db, err := storage.Open(ctx, testdb.DSN(t, backend), nil)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	fake := fakediscord.New()
	t.Cleanup(fake.Close)
	e := &env{t: t, ctx: ctx, fake: fake, db: db, svc: ladder.NewService(db, nil), opt: opt, logs: &drive.Logs{}}
	e.drv = &drive.Driver{T: t, Ctx: ctx, Fake: fake, Guild: testGuild, Channel: testChannel, Logs: e.logs}
	e.start()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", e.logs)
		}
	})
	return e
}

// start starts the bot and the editor (again, after stop: a restart).
func (e *env) start() {
	t := e.t
	t.Helper()
	log := slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var b *bot.Bot
	opt := e.opt
	opt.Delete = func(ctx context.Context, channelID, messageID string) error {
		return b.DeleteMessage(ctx, channelID, messageID)
	}
	e.panels = panel.New(e.db, e.svc, panel.PostFunc(func(ctx context.Context, channelID string, msg commands.Reply) (string, error) {
		return b.Post(ctx, channelID, msg)
	}), log, opt)
	set := commands.New(commands.Deps{Service: e.svc, Panels: e.panels,
		EnsureChannel: func(ctx context.Context, guildID, name string) (string, error) {
			return b.EnsureChannel(ctx, guildID, name)
		},
		EnsureRole: func(ctx context.Context, guildID, name string) (string, error) {
			return b.EnsureRole(ctx, guildID, name)
		},
	})
	var err error
	b, err = bot.New(bot.Config{Token: "test-token", APIBase: e.fake.URL(), DevGuildID: testGuild, OnResult: e.panels.Touch,
		DrainTimeout: 5 * time.Second}, set, log)
	if err != nil {
		t.Fatalf("bot.New: %v", err)
	}
	e.bot = b
	ctx, cancel := context.WithCancel(context.Background())
	pctx, pcancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); b.Run(ctx) }()
	go func() { defer wg.Done(); e.panels.Run(pctx) }()
	var once sync.Once
	e.stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	e.stopPanels = pcancel
	t.Cleanup(e.stop)
	if err := e.fake.WaitReady(e.ctx, testGuild); err != nil {
		t.Fatalf("bot never registered its commands: %v\nlog:\n%s", err, e.logs)
	}
}

// restart stops the bot and the editor and starts new ones on the same
// database and fake Discord.
func (e *env) restart() {
	e.stop()
	e.start()
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

// panelIn waits for the panel of queue name in channel to satisfy ok and
// returns it.
func (e *env) panelIn(channel, name string, ok func(fakediscord.Message) bool) fakediscord.Message {
	e.t.Helper()
	title := fmt.Sprintf("Queue %s (", name)
	m, err := e.fake.WaitChannelMessage(e.ctx, channel, func(m fakediscord.Message) bool {
		return len(m.Embeds) == 1 && strings.HasPrefix(m.Embeds[0].Title, title) && ok(m)
	})
	if err != nil {
		var shown []string
		for _, m := range e.fake.ChannelMessages(channel) {
			shown = append(shown, fmt.Sprintf("%s deleted=%v: %q", m.ID, m.Deleted, m.Text()))
		}
		e.t.Fatalf("panel of %s never as wanted: %v\nchannel %s holds:\n%s\nlog:\n%s", name, err, channel, strings.Join(shown, "\n"), e.logs)
	}
	return m
}

// shows says a panel's text contains every one of parts.
func shows(parts ...string) func(fakediscord.Message) bool {
	return func(m fakediscord.Message) bool {
		for _, p := range parts {
			if !strings.Contains(m.Text(), p) {
				return false
			}
		}
		return true
	}
}

// addQueue adds a queue with the given team size and its panel in
// testChannel, and returns the queue and the panel's first message.
func (e *env) addQueue(name string, k int) (ladder.Queue, fakediscord.Message) {
	e.t.Helper()
	e.slash(admin, "config queue add", map[string]any{"name": name, "team_size": k})
	r := e.slash(admin, "config queue panel", map[string]any{"queue": name, "channel": testChannel})
	if !r.Ephemeral() || !strings.Contains(r.Message.Text(), "<#"+testChannel+">") {
		e.t.Fatalf("Got(/config queue panel) = %q (ephemeral %v), want a private answer naming the channel", r.Message.Text(), r.Ephemeral())
	}
	qs, err := e.svc.Queues(e.ctx, testGuild)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, q := range qs {
		if q.Name == name {
			return q, e.panelIn(testChannel, name, shows("Nobody is waiting", "0 players", "Open"))
		}
	}
	e.t.Fatalf("queue %s not created", name)
	return ladder.Queue{}, fakediscord.Message{}
}

// livePanels are the panel messages of channel not deleted.
func (e *env) livePanels(channel string) []fakediscord.Message {
	var out []fakediscord.Message
	for _, m := range e.fake.ChannelMessages(channel) {
		if !m.Deleted && len(m.Embeds) == 1 && strings.HasPrefix(m.Embeds[0].Title, "Queue ") {
			out = append(out, m)
		}
	}
	return out
}

// recorded waits until the row of queueID's panel holds messageID,
// released: the editor has finished with it.
func (e *env) recorded(queueID int64, messageID string) {
	e.t.Helper()
	for {
		ps, err := e.db.Panels(e.ctx, testGuild)
		if err != nil {
			e.t.Fatal(err)
		}
		for _, p := range ps {
			if p.QueueID == queueID && p.MessageID == messageID && !p.EditedAt.IsZero() {
				return
			}
		}
		select {
		case <-e.ctx.Done():
			e.t.Fatalf("panel of queue %d never recorded message %s: %+v\nlog:\n%s", queueID, messageID, ps, e.logs)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
