package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// TestHTTPRoomLost: a `ladderbot run` process answering interactions over
// HTTP (DISCORD_TRANSPORT=http: no gateway, so no CHANNEL_DELETE reaches
// it) plays a match in its thread room, which a moderator deletes. The
// process learns it from Discord's 10003 to the next post to the room (the
// report's request to confirm): the match goes on in the queue's channel,
// where its players are told once and the request to confirm is posted
// once, with its buttons; the other team confirms there and the match is
// rated. The gateway transport's CHANNEL_DELETE path is TestHostileRooms'
// (package bot).
func TestHTTPRoomLost(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := testCtx(t, 3*time.Minute)
		dsn := freshDSN(t, backend)
		fake := startFake(t)
		procs, _ := startHTTPProcs(t, ctx, dsn, fake, 1)
		l := newLoad(t, fake, dsn, 1, 4, 1)
		g := l.guilds[0]
		g.channel = fake.AddChannel(g.id, "ranked", fakediscord.ChannelText)
		must := func(a answer, want string) {
			t.Helper()
			if a.class != classOK || !strings.Contains(a.text, want) {
				t.Fatalf("Got(answer) = %s %q, want %q\n%s", a.class, a.text, want, procs[0].tail(20))
			}
		}
		message := func(ch, text string) fakediscord.Message {
			t.Helper()
			m, err := fake.WaitChannelMessage(ctx, ch, func(m fakediscord.Message) bool { return strings.Contains(m.Text(), text) })
			if err != nil {
				t.Fatalf("%v\n%s", err, procs[0].tail(20))
			}
			return m
		}
		q, _, err := l.svc.Lobby(ctx, g.id, "")
		if err != nil {
			t.Fatal(err)
		}
		must(l.slash(ctx, g, g.owner, "config queue room", map[string]any{"queue": q.Name, "room": "thread"}), "private thread")
		for _, u := range g.players {
			must(l.slash(ctx, g, u, "queue join", nil), "")
		}
		ms := l.matches(ctx, g, ladder.StateOpen)
		if len(ms) != 1 {
			t.Fatalf("Got(open matches) = %d, want 1", len(ms))
		}
		m := ms[0]
		// The room opens as the announcement is posted, after the last
		// join's answer; the queue's channel gets the link line.
		message(g.channel, fmt.Sprintf("**Match #%d**", m.ID))
		room, err := l.db.Room(ctx, m.ID)
		if err != nil || room.State != rooms.StateOpen || room.HomeChannelID != g.channel {
			t.Fatalf("Got(room) = %+v, %v, want an open room of the queue's channel", room, err)
		}
		if th, ok := fake.Channel(room.ChannelID); !ok || th.Type != fakediscord.ChannelPrivateThread {
			t.Fatalf("Got(room channel) = %+v, want a private thread", th)
		}
		message(room.ChannelID, fmt.Sprintf("**Match #%d** is ready", m.ID))

		fake.DeleteChannel(room.ChannelID)
		must(l.slash(ctx, g, g.user(m.Teams[0][0]), "report", map[string]any{"outcome": "win"}), "Reported match")
		message(g.channel, fmt.Sprintf("room of **match #%d** was deleted", m.ID))
		ask := message(g.channel, fmt.Sprintf("reported match #%d", m.ID))
		// The request to confirm is recorded where it now is, so the
		// message-closing job edits that one.
		for {
			a, ok, err := l.svc.MatchMessage(ctx, m.ID, ladder.MessageReport)
			if err == nil && ok && a.ChannelID == g.channel {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("Got(the request to confirm recorded) = %+v, %v, %v, want it in the queue's channel", a, ok, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if got, _ := l.svc.Match(ctx, g.id, m.ID); got.ChannelID != g.channel || got.State != ladder.StateReported {
			t.Errorf("Got(match) = %s in %s, want reported in the queue's channel %s", got.State, got.ChannelID, g.channel)
		}
		// Let the posts of the report finish, then count: one notice, one
		// request to confirm.
		waitQuiet(ctx, fake)
		count := func(text string) int {
			n := 0
			for _, msg := range fake.ChannelMessages(g.channel) {
				if strings.Contains(msg.Text(), text) {
					n++
				}
			}
			return n
		}
		if n := count(fmt.Sprintf("room of **match #%d** was deleted", m.ID)); n != 1 {
			t.Errorf("Got(notices in the queue's channel) = %d, want 1", n)
		}
		if n := count(fmt.Sprintf("reported match #%d", m.ID)); n != 1 {
			t.Errorf("Got(requests to confirm in the queue's channel) = %d, want 1", n)
		}
		must(l.click(ctx, g, g.user(m.Teams[1][0]), ask.ID, commands.ID("cf", m.ID)), fmt.Sprintf("Match #%d confirmed", m.ID))
		if got, _ := l.svc.Match(ctx, g.id, m.ID); !got.State.Rated() || got.Winner != 1 {
			t.Errorf("Got(match) = %s winner %d, want rated, team 1", got.State, got.Winner)
		}
		if st := fake.Gateway(); st.Identifies != 0 {
			t.Errorf("Got(gateway identifies) = %d, want 0: the room's loss was learnt over REST", st.Identifies)
		}
		procs[0].stop()
		checkCallbacks(t, fake, false)
	})
}

// waitQuiet waits until the fake has seen no REST call for 300 ms: the
// process's posts after an answer are done.
func waitQuiet(ctx context.Context, fake *fakediscord.Server) {
	last := -1
	for ctx.Err() == nil {
		n := len(fake.Requests())
		if n == last {
			return
		}
		last = n
		select {
		case <-ctx.Done():
		case <-time.After(300 * time.Millisecond):
		}
	}
}
