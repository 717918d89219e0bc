package bot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// The rooms scenarios where something goes wrong: a crash, a lost answer,
// missing permissions, a rush, two processes at once (TestRoomsEndToEnd).

// testRoomCrash leaves what a process that died between creating a room's
// thread and storing its ID leaves: the row in creating without the ID,
// and the thread on Discord. The next process cleans it up once the
// creation lease has run out, and the match goes on in the queue channel.
func testRoomCrash(t *testing.T, r *roomEnv) {
	r.configRoom(map[string]any{"room": "none"}, "queue's channel")
	m := r.form()
	on := r.ready(r.queueCh, m)
	ok, err := r.db.BeginRoom(r.ctx, rooms.Room{MatchID: m.ID, GuildID: testGuild, QueueID: m.QueueID, Mode: rooms.ModeThread,
		HomeChannelID: r.queueCh, State: rooms.StateCreating, CreatedAt: r.clock.Now()})
	if err != nil || !ok {
		t.Fatalf("BeginRoom = %v, %v", ok, err)
	}
	orphan, err := r.h.bot.CreateThread(r.ctx, r.queueCh, fmt.Sprintf("match-%d", m.ID))
	if err != nil {
		t.Fatal(err)
	}
	r.restart()
	r.clock.Add(rooms.CreatingLease - time.Second)
	r.runRooms()
	if c, _ := r.fake.Channel(orphan); c.Archived || r.room(m.ID).State != rooms.StateCreating {
		t.Fatalf("Got(room within the creation lease) = archived %v, %s; want left alone", c.Archived, r.room(m.ID).State)
	}
	r.clock.Add(time.Second)
	r.runRooms()
	if c, _ := r.fake.Channel(orphan); !c.Archived {
		t.Errorf("Got(orphan thread archived) = false, want true")
	}
	if got := r.room(m.ID).State; got != rooms.StateClosed {
		t.Errorf("Got(room state) = %s, want closed", got)
	}
	// The match is untouched and plays on in the queue channel.
	if got := r.match(m.ID); got.State != ladder.StateOpen || got.ChannelID != r.queueCh {
		t.Errorf("Got(match) = %s in %s, want open in the queue channel", got.State, got.ChannelID)
	}
	r.report(r.queueCh, m, on)
}

func testRoomFallback(t *testing.T, r *roomEnv) {
	r.fake.SetChannelPermission(testGuild, fakediscord.PermCreatePrivateThreads, false)
	m := r.form()
	// Announced in the queue channel, as without rooms, and playable there.
	r.message(r.queueCh, fmt.Sprintf("**Match #%d** formed", m.ID))
	if got := r.room(m.ID).State; got != rooms.StateFallback {
		t.Errorf("Got(room state) = %s, want fallback", got)
	}
	warn := r.message(r.logCh, "Create Private Threads")
	if !strings.Contains(warn.Text(), fmt.Sprintf("match #%d", m.ID)) {
		t.Errorf("Got(warning) = %q, want it to name match #%d", warn.Text(), m.ID)
	}
	r.play(r.queueCh, m)

	// A second match with the permission still missing: no second warning.
	if _, got := r.openMatch([2][]string{{alice.ID, bob.ID}, {mod.ID, owner.ID}}); got != r.queueCh {
		t.Errorf("Got(second room) = %s, want the queue channel", got)
	}
	if n := len(r.fake.ChannelMessages(r.logCh)); n != 1 {
		t.Errorf("Got(log channel messages) = %d, want the one warning", n)
	}
	// Granted again: the next match gets its thread, and a later loss is
	// told again.
	r.fake.SetChannelPermission(testGuild, fakediscord.PermCreatePrivateThreads, true)
	if _, got := r.openMatch([2][]string{{players[0].ID, players[1].ID}, {players[2].ID, players[3].ID}}); got == r.queueCh {
		t.Errorf("Got(room with the permission back) = the queue channel, want a thread")
	}
	r.fake.SetChannelPermission(testGuild, fakediscord.PermManageChannels, false)
	r.configRoom(map[string]any{"room": "channel"}, "only its players")
	if _, got := r.openMatch([2][]string{{"600000000000000001", "600000000000000002"}, {"600000000000000003", "600000000000000004"}}); got != r.queueCh {
		t.Errorf("Got(channel room without Manage Channels) = %s, want the queue channel", got)
	}
	r.message(r.logCh, "Manage Channels")
}

// testRoomRush opens the rooms of 20 matches at once, as a busy evening's
// matchmaking pass would, with the fake's channel buckets at 10 requests a
// second: every room opens, and discordgo's pacing gets no 429.
func testRoomRush(t *testing.T, r *roomEnv) {
	const n = 20
	r.fake.SetChannelRateLimit(10)
	var formed []ladder.FormedMatch
	for i := range n {
		id := func(k int) string { return fmt.Sprintf("7%017d", 4*i+k+1) }
		formed = append(formed, r.newMatch([2][]string{{id(0), id(1)}, {id(2), id(3)}}, "test"))
	}
	start := time.Now()
	got := make([]string, n)
	done := make(chan int)
	for i, f := range formed {
		go func() { got[i] = r.env.rooms.Open(r.ctx, f, r.queueCh); done <- i }()
	}
	for range n {
		<-done
	}
	took := time.Since(start)
	for i, f := range formed {
		if got[i] == r.queueCh || r.room(f.Match.ID).State != rooms.StateOpen {
			t.Errorf("Got(room of match %d) = %s, %s; want an open thread", f.Match.ID, got[i], r.room(f.Match.ID).State)
		}
	}
	calls, n429 := r.fake.ChannelRequests()
	if n429 != 0 {
		t.Errorf("Got(429s of %d channel calls) = %d, want 0", calls, n429)
	}
	t.Logf("%d rooms (%d channel calls) in %s at 10 requests/s per bucket", n, calls, took.Round(time.Millisecond))
}

// testRoomTwoProcesses runs the rooms job of two processes at the same
// moment over an ended channel room with voice: one closes it, the other
// finds nothing left to do, and neither fails.
func testRoomTwoProcesses(t *testing.T, r *roomEnv) {
	category := r.fake.AddChannel(testGuild, "Matches", fakediscord.ChannelCategory)
	r.configRoom(map[string]any{"room": "channel", "room_category": category, "voice": true, "room_linger": 0}, "rooms close 0 seconds")
	m, room := r.formRoom()
	r.play(room.ChannelID, m)
	other := rooms.New(r.db, r.late, r.svc, nil)
	var stats [2]rooms.TickStats
	var errs [2]error
	done := make(chan struct{})
	for i, mgr := range []*rooms.Manager{r.env.rooms, other} {
		go func() { stats[i], errs[i] = mgr.Tick(r.ctx); done <- struct{}{} }()
	}
	<-done
	<-done
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("Got(Tick errors) = %v, %v, want none", errs[0], errs[1])
	}
	if n := stats[0].Closed + stats[1].Closed; n != 1 {
		t.Errorf("Got(rooms closed by the two processes) = %d (%+v, %+v), want 1", n, stats[0], stats[1])
	}
	// Whatever one run left (a voice channel the other was reading) the
	// next run finishes.
	r.runRooms()
	for _, id := range []string{room.ChannelID, room.VoiceIDs[0], room.VoiceIDs[1]} {
		if c, _ := r.fake.Channel(id); !c.Deleted {
			t.Errorf("Got(channel %s deleted) = false, want true", id)
		}
	}
	if got := r.room(m.ID).State; got != rooms.StateClosed {
		t.Errorf("Got(room state) = %s, want closed", got)
	}
}

// testRoomNoMove: without Move Members the room and its voice channels
// are made, the players stay where they are, and the moderators hear it
// once.
func testRoomNoMove(t *testing.T, r *roomEnv) {
	lobby := r.fake.AddChannel(testGuild, "Lobby", fakediscord.ChannelVoice)
	r.configRoom(map[string]any{"voice": true, "lobby_voice": lobby}, "moved in and back")
	r.fake.SetChannelPermission(testGuild, fakediscord.PermMoveMembers, false)
	for _, p := range players {
		r.fake.SetVoice(testGuild, p.ID, lobby)
	}
	m, room := r.formRoom()
	if room.State != rooms.StateOpen || room.VoiceIDs[0] == "" || room.VoiceIDs[1] == "" || len(room.Moved) != 0 {
		t.Fatalf("Got(room) = %+v, want open with voice channels and nobody moved", room)
	}
	for _, p := range players {
		if got := r.fake.VoiceChannel(testGuild, p.ID); got != lobby {
			t.Errorf("Got(voice of %s) = %q, want still the lobby", p.Name, got)
		}
	}
	r.message(r.logCh, "Move Members")
	r.play(room.ChannelID, m)
	r.runRooms()
	if n := len(r.fake.ChannelMessages(r.logCh)); n != 1 {
		t.Errorf("Got(log channel messages) = %d, want the one warning", n)
	}
	for _, id := range room.VoiceIDs {
		if c, _ := r.fake.Channel(id); !c.Deleted {
			t.Errorf("Got(empty voice channel %s deleted at the end) = false, want true", id)
		}
	}
}

// testRoomLostAnswer: Discord makes the thread but its answer never
// arrives (the connection drops). The match is announced in the queue's
// channel at once; the room row stays in creating, and once its lease ran
// out the rooms job finds the thread by name and archives it.
func testRoomLostAnswer(t *testing.T, r *roomEnv) {
	r.fake.LoseResponses("/threads", 1)
	m := r.form()
	on := r.ready(r.queueCh, m)
	th, ok := r.channelNamed(fmt.Sprintf("match-%d", m.ID))
	if !ok {
		t.Fatalf("Got(thread made on Discord) = none, want one")
	}
	if got := r.room(m.ID); got.State != rooms.StateCreating || got.ChannelID != "" {
		t.Fatalf("Got(room) = %s with channel %q, want creating without the ID", got.State, got.ChannelID)
	}
	r.clock.Add(rooms.CreatingLease)
	r.runRooms()
	if c, _ := r.fake.Channel(th.ID); !c.Archived {
		t.Errorf("Got(orphan thread archived) = false, want true")
	}
	if got := r.room(m.ID).State; got != rooms.StateClosed {
		t.Errorf("Got(room state) = %s, want closed", got)
	}
	r.report(r.queueCh, m, on)
}

// testRoomBadCategory: a text channel given as room_category makes
// Discord refuse the room (50035); the moderators hear why, and the match
// is played in the queue's channel.
func testRoomBadCategory(t *testing.T, r *roomEnv) {
	r.configRoom(map[string]any{"room": "channel", "room_category": r.logCh}, "only its players")
	m := r.form()
	r.message(r.queueCh, fmt.Sprintf("**Match #%d** formed", m.ID))
	if got := r.room(m.ID).State; got != rooms.StateFallback {
		t.Errorf("Got(room state) = %s, want fallback", got)
	}
	r.message(r.logCh, "room_category a category channel")
	r.play(r.queueCh, m)
}

// testRoomCleanupRefused: the bot lost Manage Channels while the match
// was played; at the end of the linger the room is given up (closed, the
// moderators told once) rather than retried every tick.
func testRoomCleanupRefused(t *testing.T, r *roomEnv) {
	r.configRoom(map[string]any{"room": "channel", "room_linger": 0}, "only its players")
	m, room := r.formRoom()
	r.play(room.ChannelID, m)
	r.fake.SetChannelPermission(testGuild, fakediscord.PermManageChannels, false)
	r.runRooms()
	r.runRooms()
	if got := r.room(m.ID).State; got != rooms.StateClosed {
		t.Errorf("Got(room state) = %s, want closed", got)
	}
	if c, _ := r.fake.Channel(room.ChannelID); c.Deleted {
		t.Errorf("Got(room deleted without Manage Channels) = true, want it left")
	}
	r.message(r.logCh, "remove it by hand")
	if n := len(r.fake.ChannelMessages(r.logCh)); n != 1 {
		t.Errorf("Got(log channel messages) = %d, want the one warning", n)
	}
}

// testRoomLostVoice: the answer to a voice channel's create is lost. The
// room falls back (the thread archived at once) and stays in creating;
// after the lease the job finds the voice channel by its name and deletes
// it, so no channel is left behind.
func testRoomLostVoice(t *testing.T, r *roomEnv) {
	r.configRoom(map[string]any{"voice": true}, "voice channel per team")
	r.fake.LoseResponses("/guilds/"+testGuild+"/channels", 1)
	m := r.form()
	on := r.ready(r.queueCh, m)
	voice, ok := r.channelNamed(fmt.Sprintf("match-%d-team-1", m.ID))
	if !ok {
		t.Fatalf("Got(voice channel made on Discord) = none, want one")
	}
	if th, ok := r.channelNamed(fmt.Sprintf("match-%d", m.ID)); ok && !th.Archived {
		t.Errorf("Got(thread of the failed room) = live, want archived")
	}
	if got := r.room(m.ID).State; got != rooms.StateCreating {
		t.Fatalf("Got(room) = %s, want creating", got)
	}
	r.clock.Add(rooms.CreatingLease)
	r.runRooms()
	if c, _ := r.fake.Channel(voice.ID); !c.Deleted {
		t.Errorf("Got(orphan voice channel deleted) = false, want true")
	}
	if got := r.room(m.ID).State; got != rooms.StateClosed {
		t.Errorf("Got(room state) = %s, want closed", got)
	}
	r.report(r.queueCh, m, on)
}
