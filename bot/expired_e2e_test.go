package bot

import (
	"errors"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// TestInteractionExpiredOnArrival: Discord replays on a resume the
// interactions the bot missed while its gateway was away. One made during
// a short outage (the resume held up by one silent connection, cut by the
// watchdog) is answered. One made during a long outage (every connection
// silent until more than 3 s after it was made) is past Discord's 3 s when
// it arrives: the bot neither calls back nor does its work, logs it once
// and counts it as expired, and serves on.
//
// The long outage is set by a time, not by a count of silent connections:
// discordgo can run two reconnect loops at once (its listener's and its
// heartbeat's, when both see the dropped connection), and two loops go
// through a count of silent connections faster than one loop's backoff.
func TestInteractionExpiredOnArrival(t *testing.T) {
	const gatewayTimeout = 300 * time.Millisecond
	fake := newFake(t)
	logs := &syncBuffer{}
	m := &observed{}
	startBotConfig(t, fake, testSet(""), Config{GatewayTimeout: gatewayTimeout, Metrics: m},
		slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	ctx := waitCtx(t)
	p, err := fake.Slash(at(alice), "count", nil)
	if err != nil {
		t.Fatal(err)
	}
	counter, err := p.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	inc := counter.Message.Buttons()[0].CustomID
	// outage drops the gateway (made silent by the caller beforehand),
	// sends the interactions of send while the bot is away, calls sent
	// with the time the last one was sent, and returns the interactions
	// once the session has resumed.
	resumes := 0
	var dropped time.Time
	outage := func(sent func(time.Time), send ...func() (*fakediscord.Pending, error)) []*fakediscord.Pending {
		t.Helper()
		before := fake.Gateway().Silenced
		dropped = time.Now()
		fake.Drop()
		var ps []*fakediscord.Pending
		for _, f := range send {
			p, err := f()
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		sent(ps[len(ps)-1].Snapshot().SentAt)
		resumes++
		if err := fake.WaitGateway(ctx, "a resume after silent connections", func(s fakediscord.GatewayStats) bool {
			return s.Silenced > before && s.Resumes == resumes && s.Connected == 1
		}); err != nil {
			t.Fatalf("%v\nlog:\n%s", err, logs)
		}
		return ps
	}
	ping := func() (*fakediscord.Pending, error) { return fake.Slash(at(alice), "ping", nil) }
	click := func() (*fakediscord.Pending, error) { return fake.Click(at(bob), counter.Message.ID, inc) }

	// The short outage: one silent connection, the first after the drop.
	fake.SilenceGateway(fakediscord.SilentReady)
	short := outage(func(time.Time) {}, ping)[0]
	res, err := short.Result(ctx)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, logs)
	}
	// It was replayed on the resume, which waited for the silent
	// connection, dialed after the drop, to be cut.
	if ix := short.Snapshot(); res.Message.Content != "pong alice" || ix.Delivered.Sub(dropped) < gatewayTimeout {
		t.Errorf("Got(answer after a short outage of %v) = %q, want %q replayed on the resume, at least %v after the drop",
			ix.Delivered.Sub(dropped), res.Message.Content, "pong alice", gatewayTimeout)
	}

	const longOutage = 3*time.Second + 300*time.Millisecond
	// Silent from before the drop; once the interactions are sent, until
	// longOutage after the last.
	fake.SilenceGatewayUntil(time.Now().Add(time.Hour), fakediscord.SilentReady)
	long := outage(func(sent time.Time) { fake.SilenceGatewayUntil(sent.Add(longOutage), fakediscord.SilentReady) }, ping, click)
	resumed := time.Now()
	for _, p := range long {
		if sent := p.Snapshot().SentAt; resumed.Sub(sent) <= 3*time.Second {
			t.Fatalf("Got(outage) = %v from interaction %s to the resume, want more than Discord's 3 s", resumed.Sub(sent), p.ID)
		}
	}
	for _, id := range []string{long[0].ID, long[1].ID} {
		if !logs.waitFor(ctx, "interaction_id="+id) {
			t.Fatalf("interaction %s: no log line\nlog:\n%s", id, logs)
		}
	}
	// The bot is back: a click now is answered, and counts once, so the
	// click made during the outage did nothing.
	p, err = fake.Click(at(bob), counter.Message.ID, inc)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := p.Result(ctx); err != nil || res.Message.Content != "count I" {
		t.Errorf("Got(a click after the long outage) = %q, %v, want %q: the expired click was not to count", res.Message.Content, err, "count I")
	}
	for _, p := range long {
		if _, err := p.Result(ctx); !errors.Is(err, fakediscord.ErrArrivedLate) {
			t.Errorf("Got(result of interaction %s made during the long outage) = %v, want ErrArrivedLate", p.ID, err)
		}
		if ix := p.Snapshot(); len(ix.Callbacks) != 0 || len(ix.Rejected) != 0 {
			t.Errorf("interaction %s (%s%s) made during the long outage: Got(callbacks, refused) = %v, %v, want none",
				ix.ID, ix.Command, ix.CustomID, ix.Callbacks, ix.Rejected)
		}
	}
	// One warn line each, saying who and how late.
	lines := regexp.MustCompile(`(?m)^.*interaction expired before it arrived.*$`).FindAllString(logs.String(), -1)
	if len(lines) != 2 {
		t.Fatalf("Got(expired lines) = %q, want 2", lines)
	}
	for _, want := range []struct{ id, cmd, user string }{{long[0].ID, "cmd=ping", alice.ID}, {long[1].ID, "cmd=button:inc", bob.ID}} {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "interaction_id="+want.id) })
		if i < 0 {
			t.Errorf("Got(expired lines) = %q, want one of interaction %s", lines, want.id)
			continue
		}
		l := lines[i]
		for _, w := range []string{"level=WARN", "guild_id=" + testGuild, "user_id=" + want.user, want.cmd} {
			if !strings.Contains(l, w) {
				t.Errorf("Got(expired line) = %q, want %q", l, w)
			}
		}
		if age, _ := strconv.Atoi(regexp.MustCompile(`age_ms=(\d+)`).FindStringSubmatch(l + " age_ms=0")[1]); age <= 3000 {
			t.Errorf("Got(age_ms) = %d in %q, want more than 3000", age, l)
		}
	}
	got := m.outcomes(outcomeExpired)
	slices.Sort(got)
	if want := []string{"button:inc|expired|-1ns", "ping|expired|-1ns"}; !slices.Equal(got, want) {
		t.Errorf("Got(expired observations) = %v, want %v", got, want)
	}
}
