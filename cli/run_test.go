package cli

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// lockedBuffer is a log sink safe for concurrent writers; waiters wake on
// every write.
type lockedBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{}
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
	return l.b.Write(p)
}

// waitFor waits until the log contains substr or ctx ends.
func (l *lockedBuffer) waitFor(ctx context.Context, substr string) bool {
	for {
		l.mu.Lock()
		if strings.Contains(l.b.String(), substr) {
			l.mu.Unlock()
			return true
		}
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startRun runs `ladderbot run` in-process with the bot on fake (commands
// registered on guild), a SQLite database, the web server on addr and env
// besides, and returns its log. The run stops when the test ends and must exit cleanly.
func startRun(t *testing.T, fake *fakediscord.Server, guild, addr string, env ...string) *lockedBuffer {
	t.Helper()
	cfg, err := LoadConfig(append([]string{
		"DISCORD_TOKEN=test-token",
		"DISCORD_API_BASE=" + fake.URL(),
		"DEV_GUILD_ID=" + guild,
		"DATABASE_URL=sqlite:" + filepath.Join(t.TempDir(), "ladder.db"),
		"HTTP_ADDR=" + addr,
	}, env...))
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	e := invocation{name: "run", cfg: cfg, log: slog.New(slog.NewTextHandler(logs, nil)), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runRun(ctx, e, nil) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("runRun() = %v, want nil after the context ends", err)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("runRun did not stop within 20 s of its context ending")
		}
	})
	return logs
}

// TestRunServesDiscordAndStops runs `ladderbot run` in-process against a
// fake Discord: the bot registers its commands, answers an interaction,
// and the whole run shuts down cleanly when its context ends.
func TestRunServesDiscordAndStops(t *testing.T) {
	fake := fakediscord.New()
	t.Cleanup(fake.Close)
	const guild, channel = "100000000000000077", "200000000000000077"
	logs := startRun(t, fake, guild, "127.0.0.1:0")

	wait, stop := context.WithTimeout(context.Background(), 15*time.Second)
	defer stop()
	if err := fake.WaitReady(wait, guild); err != nil {
		t.Fatalf("%v\nlog:\n%s", err, logs)
	}
	p, err := fake.Slash(fakediscord.Call{GuildID: guild, ChannelID: channel, User: fakediscord.User{ID: "400000000000000077", Name: "zed"}}, "queue status", nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Result(wait)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, logs)
	}
	if !strings.Contains(r.Message.Text(), "You are not queued") {
		t.Errorf("Got(/queue status) = %q, want the queue status", r.Message.Text())
	}
	if !logs.waitFor(wait, `cmd="queue status"`) {
		t.Errorf("log lacks the interaction line:\n%s", logs)
	}
}

// TestRunCutsASilentGateway: DISCORD_GATEWAY_TIMEOUT reaches the bot. Its
// first gateway connection gets no Hello; with the variable at 1 s the bot
// cuts it and connects again well within the wait, where the default
// 60 s would not.
func TestRunCutsASilentGateway(t *testing.T) {
	fake := fakediscord.New()
	t.Cleanup(fake.Close)
	fake.SilenceGateway(fakediscord.SilentHello)
	const guild = "100000000000000078"
	logs := startRun(t, fake, guild, "127.0.0.1:0", "DISCORD_GATEWAY_TIMEOUT=1s")
	wait, stop := context.WithTimeout(context.Background(), 15*time.Second)
	defer stop()
	if err := fake.WaitReady(wait, guild); err != nil {
		t.Fatalf("%v\nlog:\n%s", err, logs)
	}
	if st := fake.Gateway(); st.Silenced != 1 || st.Identifies != 1 {
		t.Errorf("Got(gateway) = %+v, want the silent connection taken and one identify after it", st)
	}
	if !strings.Contains(logs.String(), "gateway connection silent; cutting it to connect again") {
		t.Errorf("log lacks the watchdog's line:\n%s", logs)
	}
}

func TestRunComponentFailureStopsTheOthers(t *testing.T) {
	boom := errors.New("listen: address in use")
	stopped := make(chan struct{})
	err := runComponents(context.Background(), slog.New(slog.DiscardHandler), []component{
		{"bot", func(ctx context.Context) error { <-ctx.Done(); close(stopped); return nil }},
		{"web", func(ctx context.Context) error { return boom }},
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "web:") {
		t.Errorf("runComponents() = %v, want the web failure", err)
	}
	select {
	case <-stopped:
	default:
		t.Errorf("the bot component was not stopped by the web failure")
	}
}
