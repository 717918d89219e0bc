// Package drive is what the end-to-end tests of the packages that run the
// real bot against the fake Discord (joins, panel) share: a log buffer
// the bot writes to, and a driver that sends a user's commands and clicks
// and waits for their answers, failing the test with the bot's log when
// one never comes. It holds no test logic of its own.
package drive

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// Logs collects the logs of a test's bot and services, safe for their
// goroutines, for the messages of a failed test.
type Logs struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Driver acts as users of one guild's channel.
type Driver struct {
	T       testing.TB
	Ctx     context.Context
	Fake    *fakediscord.Server
	Guild   string
	Channel string
	Logs    *Logs
	// Strict fails the test when the bot made a call the fake refused
	// while answering an interaction.
	Strict bool
}

// At is user u acting in the driver's channel.
func (d *Driver) At(u fakediscord.User) fakediscord.Call {
	return fakediscord.Call{GuildID: d.Guild, ChannelID: d.Channel, User: u}
}

// Result waits for the answer to interaction p (sent with err).
func (d *Driver) Result(p *fakediscord.Pending, err error) fakediscord.Response {
	d.T.Helper()
	if err != nil {
		d.T.Fatal(err)
	}
	r, err := p.Result(d.Ctx)
	if err != nil {
		d.T.Fatalf("%v\nlog:\n%s", err, d.Logs)
	}
	if snap := p.Snapshot(); d.Strict && len(snap.Rejected) > 0 {
		d.T.Errorf("Got(calls the fake refused) = %v, want none", snap.Rejected)
	}
	return r
}

// Slash runs the slash command path with opts as u.
func (d *Driver) Slash(u fakediscord.User, path string, opts map[string]any) fakediscord.Response {
	d.T.Helper()
	return d.Result(d.Fake.Slash(d.At(u), path, opts))
}

// Click presses the button labelled label on message m as u.
func (d *Driver) Click(u fakediscord.User, m fakediscord.Message, label string) fakediscord.Response {
	d.T.Helper()
	b, ok := m.ButtonByLabel(label)
	if !ok {
		d.T.Fatalf("message %q has no button %q (buttons %+v)", m.Text(), label, m.Buttons())
	}
	return d.Result(d.Fake.Click(d.At(u), m.ID, b.CustomID))
}
