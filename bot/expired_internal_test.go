package bot

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
)

// TestCreatedAt reads Discord's creation time from an interaction's ID.
func TestCreatedAt(t *testing.T) {
	cases := []struct {
		name string
		id   string
		want time.Time
		ok   bool
	}{
		// 1420070400000 + (1117839360000000000 >> 22) ms.
		{"a snowflake", "1117839360000000000", time.UnixMilli(1420070400000 + 1117839360000000000>>22), true},
		{"the epoch", "0", time.UnixMilli(1420070400000), true},
		{"empty", "", time.Time{}, false},
		{"not a number", "abc", time.Time{}, false},
		{"20 digits", "99999999999999999999", time.Time{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := createdAt(tc.id)
			if ok != tc.ok || !got.Equal(tc.want) {
				t.Errorf("Got(createdAt(%q)) = %v, %v, want %v, %v", tc.id, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestDropExpired drops a call that arrived with less than ackHeadroom of
// Discord's 3 s left, and only such a call.
func TestDropExpired(t *testing.T) {
	now := time.Date(2026, 11, 26, 21, 0, 0, 0, time.UTC)
	cases := []struct {
		name     string
		created  time.Time
		wantRun  bool
		wantDrop bool
	}{
		{"over HTTP: no creation time", time.Time{}, true, false},
		{"fresh", now.Add(-40 * time.Millisecond), true, false},
		{"a second old", now.Add(-time.Second), true, false},
		{"at the limit", now.Add(-ExpiredAge), true, false},
		{"past the limit", now.Add(-ExpiredAge - time.Millisecond), false, true},
		{"past Discord's 3 s", now.Add(-discordWait - time.Millisecond), false, true},
		{"replayed after a long outage", now.Add(-4 * time.Minute), false, true},
		{"from a clock ahead of this host's", now.Add(2 * time.Second), true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &probe{}
			var dropped []time.Duration
			h := dropExpired(func() time.Time { return now }, func(c *call, age time.Duration) { dropped = append(dropped, age) })(p.handle)
			if err := h(context.Background(), &call{id: "1", created: tc.created}); err != nil {
				t.Fatalf("Got(err) = %v, want nil", err)
			}
			if p.ran != tc.wantRun || (len(dropped) == 1) != tc.wantDrop || len(dropped) > 1 {
				t.Fatalf("Got(ran, dropped) = %v, %v, want %v, dropped %v", p.ran, dropped, tc.wantRun, tc.wantDrop)
			}
			if tc.wantDrop && dropped[0] != now.Sub(tc.created) {
				t.Errorf("Got(age) = %v, want %v", dropped[0], now.Sub(tc.created))
			}
		})
	}
}

// observed is a Metrics that remembers its observations.
type observed struct {
	mu  sync.Mutex
	got []string
}

func (o *observed) ObserveInteraction(cmd, outcome string, ack time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.got = append(o.got, cmd+"|"+outcome+"|"+ack.String())
}

// outcomes returns the observations of outcome, as "cmd|outcome|ack".
func (o *observed) outcomes(outcome string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for _, g := range o.got {
		if strings.Contains(g, "|"+outcome+"|") {
			out = append(out, g)
		}
	}
	return out
}

// TestExpiredReported: a dropped interaction is one warn line with its
// age and who made it, and one "expired" observation without an
// acknowledgement, under the command's bounded label.
func TestExpiredReported(t *testing.T) {
	cases := []struct {
		name     string
		req      commands.Request
		wantCmd  string
		wantLine string
	}{
		{"a command", commands.Request{Kind: commands.KindCommand, Command: "ping", GuildID: testGuild, UserID: alice.ID},
			"ping", `cmd=ping interaction_id=1117839360000000000`},
		{"a command the set does not have", commands.Request{Kind: commands.KindCommand, Command: "made-up", GuildID: testGuild, UserID: alice.ID},
			"unknown", `cmd=made-up`},
		{"a button", commands.Request{Kind: commands.KindComponent, CustomID: commands.CustomID{Action: "inc"}, GuildID: testGuild, UserID: alice.ID},
			"button:inc", `cmd=button:inc`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs strings.Builder
			m := &observed{}
			b := &Bot{cfg: Config{Metrics: m}, set: testSet(""), log: slog.New(slog.NewTextHandler(&logs, nil))}
			b.expired(&call{id: "1117839360000000000", req: tc.req}, 4321*time.Millisecond)
			line := logs.String()
			for _, want := range []string{`level=WARN msg="interaction expired before it arrived" age_ms=4321`, "guild_id=" + testGuild, "user_id=" + alice.ID, tc.wantLine} {
				if !strings.Contains(line, want) {
					t.Errorf("Got(log) = %q, want it to contain %q", line, want)
				}
			}
			if n := strings.Count(line, "\n"); n != 1 {
				t.Errorf("Got(log lines) = %d, want 1", n)
			}
			if want := tc.wantCmd + "|expired|-1ns"; len(m.got) != 1 || m.got[0] != want {
				t.Errorf("Got(observations) = %v, want [%s]", m.got, want)
			}
		})
	}
}
