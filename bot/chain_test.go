package bot

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/ladder"
)

const (
	testGuild   = "100000000000000001"
	testChannel = "200000000000000001"
	modRole     = "300000000000000001"
)

var (
	alice = fakediscord.User{ID: "400000000000000001", Name: "alice"}
	bob   = fakediscord.User{ID: "400000000000000002", Name: "bob"}
	mod   = fakediscord.User{ID: "400000000000000003", Name: "mod", Roles: []string{modRole}}
	owner = fakediscord.User{ID: "400000000000000004", Name: "owner", Permissions: commands.PermManageGuild}
)

func at(u fakediscord.User) fakediscord.Call {
	return fakediscord.Call{GuildID: testGuild, ChannelID: testChannel, User: u}
}

// syncBuffer is a log sink safe for the bot's concurrent handlers; waiters
// wake on every write.
type syncBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
	return s.b.Write(p)
}

// waitFor waits until the log contains substr.
func (s *syncBuffer) waitFor(ctx context.Context, substr string) bool {
	for {
		s.mu.Lock()
		if strings.Contains(s.b.String(), substr) {
			s.mu.Unlock()
			return true
		}
		if s.changed == nil {
			s.changed = make(chan struct{})
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// harness runs a real Bot against a fake Discord.
type harness struct {
	fake *fakediscord.Server
	bot  *Bot
	logs *syncBuffer
	stop func()
}

// startBot starts a bot for set against fake and waits until its commands
// are registered. It stops when the test ends.
func startBot(t testing.TB, fake *fakediscord.Server, set *commands.Set) *harness {
	t.Helper()
	logs := &syncBuffer{}
	h := startBotLog(t, fake, set, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	h.logs = logs
	return h
}

// startBotLog is startBot logging to log.
func startBotLog(t testing.TB, fake *fakediscord.Server, set *commands.Set, log *slog.Logger) *harness {
	t.Helper()
	return startBotConfig(t, fake, set, Config{}, log)
}

// startBotConfig is startBotLog with cfg's settings beside the test's
// token, fake Discord and guild.
func startBotConfig(t testing.TB, fake *fakediscord.Server, set *commands.Set, cfg Config, log *slog.Logger) *harness {
	t.Helper()
	logs := &syncBuffer{}
	cfg.Token, cfg.APIBase, cfg.DevGuildID, cfg.DrainTimeout = "test-token", fake.URL(), testGuild, 5*time.Second
	b, err := New(cfg, set, log)
	if err != nil {
		t.Fatalf("New() error = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	h := &harness{fake: fake, bot: b, logs: logs}
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			// A Run stuck (in a gateway connect, say) fails the test
			// instead of hanging it.
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run() error = %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Errorf("Run() did not return 30 s after its context ended")
			}
		})
	}
	t.Cleanup(h.stop)
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := fake.WaitReady(wctx, testGuild); err != nil {
		t.Fatalf("bot never registered its commands: %v\nlog:\n%s", err, logs)
	}
	return h
}

// newFake starts a fake Discord that closes after the bots of the test stop.
func newFake(t testing.TB) *fakediscord.Server {
	f := fakediscord.New()
	t.Cleanup(f.Close)
	return f
}

// waitCtx is a test's budget for everything it waits on: one context for
// a whole scenario, so it bounds the sum of its waits, not each one. A
// room scenario takes 2.5–4.3 s under -race on a quiet machine, and
// snapshots every table of the database twice per hostile row; at a load
// of 13–15 (CI beside other suites) one ran out of a 15-s budget while
// digesting the tables, with nothing stuck. A hang still fails, after a
// minute.
func waitCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// testSet is a small command set exercising every step of the chain.
func testSet(modRoleID string) *commands.Set {
	var mu sync.Mutex
	counter := 0
	cmds := []commands.Command{
		{Name: "ping", Description: "answers at once", Instant: true, Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			return commands.Say("pong " + req.UserName), nil
		}},
		{Name: "count", Description: "a deferred public answer with a button", Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			return commands.Reply{Content: "count 0", Buttons: [][]commands.Button{{{Label: "+1", Style: commands.Primary, CustomID: commands.ID("inc", 7)}}}}, nil
		}},
		{Name: "boom", Description: "panics", Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			panic("kaboom")
		}},
		{Name: "broken", Description: "fails inside", Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			return commands.Reply{}, errors.New("storage: connection refused to 10.0.0.1")
		}},
		{Name: "invalid", Description: "refuses the input", Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			return commands.Reply{}, ladder.Errorf(ladder.CodeInvalid, "team size must be from 1 to 8")
		}},
		{Name: "modonly", Description: "for moderators", Access: commands.Moderators, Ephemeral: true, Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			return commands.Whisper("moderated"), nil
		}},
		{Name: "adminonly", Description: "for admins", Access: commands.Admins, Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			return commands.Say("configured"), nil
		}},
		{Name: "echo", Description: "echoes options", Options: []commands.Option{
			{Type: commands.OptSubcommand, Name: "it", Description: "echo it", Options: []commands.Option{
				{Type: commands.OptString, Name: "text", Description: "text", Required: true, Autocomplete: true},
				{Type: commands.OptInteger, Name: "n", Description: "a number"},
				{Type: commands.OptUser, Name: "who", Description: "a user"},
			}},
		}, Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			text, _ := req.String("text")
			n, _ := req.Int("n")
			who, _ := req.String("who")
			return commands.Say(req.Command + "|" + text + "|" + strings.Repeat("x", int(n)) + "|" + who), nil
		}, Autocomplete: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			typed, _ := req.String(req.Focused)
			return commands.Reply{Choices: []commands.Choice{{Name: typed + "-one", Value: typed + "1"}, {Name: typed + "-two", Value: typed + "2"}}}, nil
		}},
		{Name: "slow", Description: "sleeps past the 3-second rule", Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			select {
			case <-time.After(3500 * time.Millisecond):
			case <-ctx.Done():
				return commands.Reply{}, ctx.Err()
			}
			return commands.Say("done slowly"), nil
		}},
		{Name: "form", Description: "opens a form", Instant: true, Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			return commands.Reply{Content: "form below", Buttons: [][]commands.Button{{{Label: "Open", CustomID: commands.ID("open", 1)}}}}, nil
		}},
	}
	comps := []commands.Component{
		{Action: "inc", Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			mu.Lock()
			counter++
			n := counter
			mu.Unlock()
			return commands.Reply{Update: true, Content: "count " + strings.Repeat("I", n), Buttons: [][]commands.Button{{{Label: "+1", CustomID: commands.ID("inc", req.CustomID.ID)}}}}, nil
		}},
		{Action: "open", Instant: true, Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			return commands.Reply{Modal: &commands.Modal{CustomID: commands.ID("form", req.CustomID.ID), Title: "Tell us", Fields: []commands.TextField{
				{ID: "reason", Label: "Reason", Long: true, Required: true},
				{ID: "link", Label: "Link"},
			}}}, nil
		}},
		{Action: "form", Handle: func(ctx context.Context, req commands.Request) (commands.Reply, error) {
			return commands.Reply{Update: true, Content: "reason=" + req.Values["reason"] + " link=" + req.Values["link"]}, nil
		}},
	}
	return commands.NewSet(func(ctx context.Context, guildID string) (string, error) { return modRoleID, nil }, cmds, comps)
}

func TestChain(t *testing.T) {
	fake := newFake(t)
	h := startBot(t, fake, testSet(modRole))
	ctx := waitCtx(t)

	tests := []struct {
		name      string
		user      fakediscord.User
		cmd       string
		opts      map[string]any
		callback  int
		want      string
		ephemeral bool
		logWant   string
	}{
		{name: "instant", user: alice, cmd: "ping", callback: fakediscord.CallbackMessage, want: "pong alice"},
		{name: "deferred", user: alice, cmd: "count", callback: fakediscord.CallbackDeferMessage, want: "count 0"},
		{name: "options", user: alice, cmd: "echo it", opts: map[string]any{"text": "hi", "n": 3, "who": bob.ID}, callback: fakediscord.CallbackDeferMessage, want: "echo it|hi|xxx|" + bob.ID},
		{name: "panic", user: alice, cmd: "boom", callback: fakediscord.CallbackDeferMessage, want: "reference", ephemeral: true, logWant: "kaboom"},
		{name: "internal error", user: alice, cmd: "broken", callback: fakediscord.CallbackDeferMessage, want: "Something went wrong on our side (reference", ephemeral: true, logWant: "connection refused"},
		{name: "coded error", user: alice, cmd: "invalid", callback: fakediscord.CallbackDeferMessage, want: "team size must be from 1 to 8", ephemeral: true},
		{name: "moderator by role", user: mod, cmd: "modonly", callback: fakediscord.CallbackDeferMessage, want: "moderated", ephemeral: true},
		{name: "moderator by permission", user: owner, cmd: "modonly", callback: fakediscord.CallbackDeferMessage, want: "moderated", ephemeral: true},
		{name: "non-moderator refused", user: alice, cmd: "modonly", callback: fakediscord.CallbackDeferMessage, want: "not allowed", ephemeral: true},
		{name: "mod role is not admin", user: mod, cmd: "adminonly", callback: fakediscord.CallbackDeferMessage, want: "Manage Server", ephemeral: true},
		{name: "admin", user: owner, cmd: "adminonly", callback: fakediscord.CallbackDeferMessage, want: "configured"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := fake.Slash(at(tc.user), tc.cmd, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Result(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Callback != tc.callback {
				t.Errorf("Got(callback) = %d, want %d", res.Callback, tc.callback)
			}
			if !strings.Contains(res.Message.Text(), tc.want) {
				t.Errorf("Got(text) = %q, want it to contain %q", res.Message.Text(), tc.want)
			}
			if res.Ephemeral() != tc.ephemeral {
				t.Errorf("Got(ephemeral) = %v, want %v", res.Ephemeral(), tc.ephemeral)
			}
			if snap := p.Snapshot(); len(snap.Rejected) > 0 {
				t.Errorf("Got(rejected calls) = %v, want none", snap.Rejected)
			}
			if tc.logWant != "" && !h.logs.waitFor(ctx, tc.logWant) {
				t.Errorf("log lacks %q:\n%s", tc.logWant, h.logs)
			}
			if tc.logWant != "" && strings.Contains(res.Message.Text(), tc.logWant) {
				t.Errorf("Got(text) = %q: internal detail %q shown to the user", res.Message.Text(), tc.logWant)
			}
		})
	}
	if u := fake.Unhandled(); len(u) > 0 {
		t.Errorf("Got(unhandled REST calls) = %v, want none", u)
	}
	for _, want := range []string{"guild_id=" + testGuild, "user_id=" + alice.ID, "cmd=ping", "duration_ms=", "cmd=\"echo it\""} {
		if !h.logs.waitFor(ctx, want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

func TestButtonsAndModal(t *testing.T) {
	fake := newFake(t)
	startBot(t, fake, testSet(""))
	ctx := waitCtx(t)

	p, err := fake.Slash(at(alice), "count", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	msg := res.Message
	for i, want := range []string{"count I", "count II"} {
		click, err := fake.Click(at(bob), msg.ID, commands.ID("inc", 7))
		if err != nil {
			t.Fatal(err)
		}
		r, err := click.Result(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r.Callback != fakediscord.CallbackDeferUpdate || r.Message.ID != msg.ID || r.Message.Content != want {
			t.Errorf("click %d: Got(callback, message, content) = (%d, %s, %q), want (6, %s, %q)", i, r.Callback, r.Message.ID, r.Message.Content, msg.ID, want)
		}
	}

	// A forged or garbled custom ID is refused with a message, never a panic.
	for _, forged := range []string{"inc", "inc:x", "nope:1", "inc:1:" + strings.Repeat("a", 99), "inc:-4", "in c:1"} {
		click, err := fake.ClickForged(at(bob), msg.ID, forged)
		if err != nil {
			t.Fatal(err)
		}
		r, err := click.Result(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Ephemeral() || !strings.Contains(r.Message.Content, "not valid") {
			t.Errorf("forged %q: Got(answer) = %q (ephemeral %v), want an ephemeral 'not valid'", forged, r.Message.Content, r.Ephemeral())
		}
	}
	if got, _ := fake.Message(msg.ID); got.Content != "count II" {
		t.Errorf("Got(message after forged clicks) = %q, want %q", got.Content, "count II")
	}

	// Button → modal → submit updates the message.
	form, err := fake.Slash(at(alice), "form", nil)
	if err != nil {
		t.Fatal(err)
	}
	fres, err := form.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	open, err := fake.Click(at(alice), fres.Message.ID, commands.ID("open", 1))
	if err != nil {
		t.Fatal(err)
	}
	ores, err := open.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ores.Callback != fakediscord.CallbackModal || ores.Modal == nil || len(ores.Modal.Fields) != 2 {
		t.Fatalf("Got(open) = %+v, want a modal with 2 fields", ores)
	}
	sub, err := fake.Submit(at(alice), open, map[string]string{"reason": "lag", "link": "https://x.invalid/1"})
	if err != nil {
		t.Fatal(err)
	}
	sres, err := sub.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := "reason=lag link=https://x.invalid/1"; sres.Message.Content != want || sres.Message.ID != fres.Message.ID {
		t.Errorf("Got(after submit) = %q on %s, want %q on %s", sres.Message.Content, sres.Message.ID, want, fres.Message.ID)
	}
}

func TestAutocomplete(t *testing.T) {
	fake := newFake(t)
	startBot(t, fake, testSet(""))
	ctx := waitCtx(t)
	p, err := fake.Autocomplete(at(alice), "echo it", map[string]any{"text": "ab"}, "text")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Callback != fakediscord.CallbackAutocomplete || len(res.Choices) != 2 || res.Choices[0].Name != "ab-one" {
		t.Errorf("Got(autocomplete) = %d %v, want 8 [ab-one ab-two]", res.Callback, res.Choices)
	}
}

func TestSlowHandlerStillAcknowledged(t *testing.T) {
	fake := newFake(t)
	startBot(t, fake, testSet(""))
	ctx := waitCtx(t)
	p, err := fake.Slash(at(alice), "slow", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	snap := p.Snapshot()
	if snap.AckLatency() < 0 || snap.AckLatency() > 3*time.Second || res.Message.Content != "done slowly" {
		t.Errorf("Got(ack latency, answer) = (%v, %q), want an ack within 3 s and %q", snap.AckLatency(), res.Message.Content, "done slowly")
	}
}

func TestResumeAfterDrop(t *testing.T) {
	fake := newFake(t)
	startBot(t, fake, testSet(""))
	ctx := waitCtx(t)
	fake.Drop()
	// An interaction made while the bot is disconnected is replayed on resume.
	p, err := fake.Slash(at(alice), "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := fake.WaitGateway(ctx, "a resume", func(s fakediscord.GatewayStats) bool { return s.Resumes == 1 && s.Connected == 1 }); err != nil {
		t.Fatal(err)
	}
	res, err := p.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Message.Content != "pong alice" {
		t.Errorf("Got(answer after resume) = %q, want %q", res.Message.Content, "pong alice")
	}
	if st := fake.Gateway(); st.Identifies != 1 {
		t.Errorf("Got(identifies) = %d, want 1 (resumed, not re-identified)", st.Identifies)
	}
}

func TestTwoSessionsTwoFakes(t *testing.T) {
	a, b := newFake(t), newFake(t)
	startBot(t, a, testSet(""))
	startBot(t, b, testSet(""))
	ctx := waitCtx(t)
	for _, f := range []*fakediscord.Server{a, b} {
		p, err := f.Slash(at(alice), "ping", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Result(ctx); err != nil {
			t.Fatal(err)
		}
		if len(f.Overwrites()) != 1 {
			t.Errorf("Got(overwrites) = %d, want 1 on each fake", len(f.Overwrites()))
		}
	}
}

func TestDuplicateNamePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("NewSet with a name twice did not panic")
		}
	}()
	h := func(ctx context.Context, req commands.Request) (commands.Reply, error) { return commands.Reply{}, nil }
	commands.NewSet(nil, []commands.Command{{Name: "a", Description: "a", Handle: h}, {Name: "a", Description: "b", Handle: h}}, nil)
}

func TestRetriesTransientFailures(t *testing.T) {
	fake := newFake(t)
	// Gateway discovery and command registration fail before they work.
	fake.FailNext("/gateway", 503, 2)
	fake.FailNext("/commands", 500, 1)
	startBot(t, fake, testSet(""))
	ctx := waitCtx(t)
	p, err := fake.Slash(at(alice), "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := p.Result(ctx); err != nil || res.Message.Content != "pong alice" {
		t.Fatalf("Got(answer after retries) = %q, %v, want pong alice", res.Message.Content, err)
	}
	// A transient failure of an answer is retried by discordgo (502).
	fake.FailNext("/callback", 502, 1)
	p, err = fake.Slash(at(alice), "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := p.Result(ctx); err != nil || res.Message.Content != "pong alice" {
		t.Errorf("Got(answer after a 502) = %q, %v, want pong alice", res.Message.Content, err)
	}
	// Other 5xx on the acknowledgement and on the edit are retried by the bot.
	fake.FailNext("/callback", 500, 1)
	fake.FailNext("/messages/@original", 503, 2)
	p, err = fake.Slash(at(alice), "count", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := p.Result(ctx); err != nil || res.Message.Content != "count 0" {
		t.Errorf("Got(answer after 5xx) = %q, %v, want count 0", res.Message.Content, err)
	}
}

func TestReidentifiesAfterInvalidSession(t *testing.T) {
	fake := newFake(t)
	startBot(t, fake, testSet(""))
	// discordgo retries a failed reconnect after 1, 2, 4… s, so under a
	// loaded CI machine (-race, the e2e processes beside it) the re-identify
	// alone can take most of waitCtx's 15 s: each phase gets its own
	// deadline, and the log says how long each took when it fails.
	//
	// When the gateway drops, discordgo's reader and heartbeat may both
	// see it and each close the session and reconnect; the later close can
	// land on the connection the earlier reconnect just opened, so the
	// client may go round a few times (each a new identify, since the
	// forgotten session cannot resume) before it stays connected. What a
	// guild relies on is that it ends connected under a new session and
	// answers, not how many identifies that took.
	reconnect, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	fake.ForgetSessions()
	fake.Drop()
	if err := fake.WaitGateway(reconnect, "a new identify", func(s fakediscord.GatewayStats) bool { return s.Identifies >= 2 && s.Connected == 1 }); err != nil {
		t.Fatalf("%v (gateway %+v)", err, fake.Gateway())
	}
	t.Logf("re-identified after %v (gateway %+v)", time.Since(start), fake.Gateway())
	p, err := fake.Slash(at(alice), "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if res, err := p.Result(waitCtx(t)); err != nil || res.Message.Content != "pong alice" {
		t.Errorf("Got(answer after re-identify, %v after the dispatch) = %q, %v, want pong alice", time.Since(start), res.Message.Content, err)
	}
}

// TestDuplicateShardProcess runs two processes as the same shard, as a
// rolling deploy does for a moment: Discord delivers each interaction to
// both, one answers, the other stands down without an error.
func TestDuplicateShardProcess(t *testing.T) {
	fake := newFake(t)
	fake.SetFanOut(true)
	a := startBot(t, fake, testSet(""))
	b := startBot(t, fake, testSet(""))
	ctx := waitCtx(t)
	if err := fake.WaitGateway(ctx, "two sessions", func(s fakediscord.GatewayStats) bool { return s.Connected == 2 }); err != nil {
		t.Fatal(err)
	}
	const n = 10
	for i := range n {
		cmd := "ping"
		if i%2 == 1 {
			cmd = "count"
		}
		p, err := fake.Slash(at(alice), cmd, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Result(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if snap := p.Snapshot(); len(snap.Callbacks) != 1 || strings.Contains(res.Message.Text(), "⚠️") {
			t.Errorf("interaction %d: Got(callbacks, answer) = (%d, %q), want one callback and no error", i, len(snap.Callbacks), res.Message.Text())
		}
	}
	if !a.logs.waitFor(ctx, "duplicate") && !b.logs.waitFor(ctx, "duplicate") {
		t.Errorf("no process logged a duplicate")
	}
	for _, h := range []*harness{a, b} {
		if strings.Contains(h.logs.String(), "level=ERROR") || strings.Contains(h.logs.String(), "level=WARN") {
			t.Errorf("a process logged a warning or error for a duplicate delivery:\n%s", h.logs)
		}
	}
}

// TestShardsAndGlobalRegistration runs shard 0 and shard 1 of 2 with
// global commands: only shard 0 registers, and each guild's interactions
// reach the shard Discord routes them to.
func TestShardsAndGlobalRegistration(t *testing.T) {
	fake := newFake(t)
	ctx := waitCtx(t)
	var bots []*Bot
	for shard := range 2 {
		b, err := New(Config{Token: "test-token", APIBase: fake.URL(), ShardID: shard, ShardCount: 2}, testSet(""), slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		bctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- b.Run(bctx) }()
		t.Cleanup(func() { cancel(); <-done })
		bots = append(bots, b)
	}
	if err := fake.WaitReady(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if err := fake.WaitGateway(ctx, "both shards", func(s fakediscord.GatewayStats) bool { return s.Connected == 2 }); err != nil {
		t.Fatal(err)
	}
	// Guild IDs whose (id >> 22) % 2 picks shard 0 and shard 1.
	for shard, guild := range []string{"8388608", "4194304"} {
		if got := fakediscord.ShardOf(guild, 2); got != shard {
			t.Fatalf("ShardOf(%s) = %d, want %d", guild, got, shard)
		}
		p, err := fake.Slash(fakediscord.Call{GuildID: guild, ChannelID: testChannel, User: alice}, "ping", nil)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := p.Result(ctx); err != nil || res.Message.Content != "pong alice" {
			t.Errorf("shard %d: Got(answer) = %q, %v, want pong alice", shard, res.Message.Content, err)
		}
	}
	if ow := fake.Overwrites(); len(ow) != 1 || ow[0].GuildID != "" {
		t.Errorf("Got(overwrites) = %+v, want one global overwrite (by shard 0)", ow)
	}
	if bots[1].Registered() {
		t.Errorf("shard 1 registered commands; only shard 0 should")
	}
}
