package bot

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// TestGatewayWatchdog: a gateway that accepts the connection and then
// says nothing holds discordgo's Open, and the bot's connection, forever.
// The bot cuts such a connection and dials again: at its first connect
// (one connection without Hello, then one that ignores the identify) and
// on the reconnect after a drop (one that ignores the resume). It then
// serves as before: an interaction made while it was away is replayed on
// the resume and answered, and the session is the first one, resumed.
func TestGatewayWatchdog(t *testing.T) {
	fake := newFake(t)
	fake.SilenceGateway(fakediscord.SilentHello, fakediscord.SilentReady)
	logs := &syncBuffer{}
	h := startBotConfig(t, fake, testSet(""), Config{GatewayTimeout: 300 * time.Millisecond},
		slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	ctx := waitCtx(t)
	if st, cut := fake.Gateway(), h.bot.watch.cut.Load(); st.Silenced != 2 || cut != 2 || st.Identifies != 1 || st.Connected != 1 {
		t.Fatalf("Got(gateway after connecting) = %+v, %d cut; want 2 silenced and cut, 1 identify, connected", st, cut)
	}
	if n := strings.Count(logs.String(), "gateway connection silent"); n != 2 {
		t.Errorf("Got(warnings) = %d, want 2; log:\n%s", n, logs)
	}
	fake.SilenceGateway(fakediscord.SilentReady)
	fake.Drop()
	p, err := fake.Slash(at(alice), "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := fake.WaitGateway(ctx, "a resume after a silent connection", func(s fakediscord.GatewayStats) bool {
		return s.Silenced == 3 && s.Resumes == 1 && s.Connected == 1
	}); err != nil {
		t.Fatalf("%v\nlog:\n%s", err, logs)
	}
	res, err := p.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Message.Content != "pong alice" {
		t.Errorf("Got(answer after the resume) = %q, want %q", res.Message.Content, "pong alice")
	}
	if st, cut := fake.Gateway(), h.bot.watch.cut.Load(); cut != 3 || st.Identifies != 1 {
		t.Errorf("Got(gateway after the resume) = %+v, %d cut; want 3 cut, still 1 identify", st, cut)
	}
}

// TestStopWhileGatewaySilent: a bot asked to stop while its first gateway
// connection waits on a silent gateway stops at once, not after the
// watchdog's timeout (here a minute).
func TestStopWhileGatewaySilent(t *testing.T) {
	fake := newFake(t)
	fake.SilenceGateway(fakediscord.SilentHello)
	b, err := New(Config{Token: "test-token", APIBase: fake.URL(), DevGuildID: testGuild, GatewayTimeout: time.Minute}, testSet(""), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	if err := fake.WaitGateway(waitCtx(t), "the silent connection", func(s fakediscord.GatewayStats) bool { return s.Silenced == 1 }); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // Open is reading by now
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run() = %v, want nil", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Run() returned %v after its context ended, want at once", d)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run() did not return 30 s after its context ended")
	}
}
