package bot

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// The hostile table of the match rooms, through the real discordgo session
// against the fake Discord: presses from outside the room or naming
// another room's match, former players, a room deleted by a moderator
// mid-match, the guild's channel limit, presses after the room closed and
// concurrent duplicates. Every refusal is private and clear, and changes
// nothing (TestHostileRooms, both backends).

func TestHostileRooms(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, r *roomEnv)
	}{
		{"presses from outside the room or naming another room", hostileRoomPresses},
		{"a substitute's predecessor loses the thread", hostileRoomSubThread},
		{"a substitute's predecessor loses the channel and voice", hostileRoomSubChannel},
		{"two takers of one seat at once", hostileRoomSeatRace},
		{"a substitute the room may not take (50013)", hostileRoomSubRefused},
		{"a substituted player in the team voice channel is taken out", hostileRoomSubVoice},
		{"a substituted player in voice without Move Members", hostileRoomSubVoiceRefused},
		{"a room channel at Discord's 1000 overwrites (30060)", hostileRoomOverwriteLimit},
		{"the thread deleted by a moderator during the ready check", hostileRoomDeletedReady},
		{"the channel deleted by a moderator after a report", hostileRoomDeletedReported},
		{"the server's 500 channels", hostileRoomChannelLimit},
		{"presses after the room closed", hostileRoomClosed},
	}
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) { sc.run(t, newRoomEnv(t, freshDSN(t, backend))) })
		}
	})
}

// hostile gives the room env the hostile tables' refuse and burst.
func (r *roomEnv) hostile() *hostileFormats { return &hostileFormats{lobbyEnv: r.lobbyEnv} }

// pressIn sends a button press with any custom ID on message, from
// channel ch, as a modified client can.
func (r *roomEnv) pressIn(ch string, u fakediscord.User, message, customID string) func() (*fakediscord.Pending, error) {
	return func() (*fakediscord.Pending, error) { return r.fake.ClickForged(in(ch, u), message, customID) }
}

// disputeIn presses Dispute with any match ID on message, from channel
// ch, and sends the form it opens.
func (r *roomEnv) disputeIn(ch string, u fakediscord.User, message string, matchID int64) func() (*fakediscord.Pending, error) {
	return func() (*fakediscord.Pending, error) {
		p, err := r.fake.ClickForged(in(ch, u), message, commands.ID("dp", matchID))
		if err != nil {
			return nil, err
		}
		if _, err := p.Result(r.ctx); err != nil {
			return nil, err
		}
		return r.fake.Submit(in(ch, u), p, map[string]string{"reason": "they cheated"})
	}
}

// second forms a second match of alice, bob, mod and owner beside the
// first and opens its room, as the matchmaking would.
func (r *roomEnv) second(t *testing.T) (ladder.Match, rooms.Room) {
	t.Helper()
	m, ch := r.openMatch([2][]string{{alice.ID, bob.ID}, {mod.ID, owner.ID}})
	if ch == r.queueCh {
		t.Fatalf("Got(second match's room) = the queue channel, want a room")
	}
	return m, r.room(m.ID)
}

func hostileRoomPresses(t *testing.T, r *roomEnv) {
	m, room := r.formRoom()
	ann := r.message(room.ChannelID, fmt.Sprintf("**Match #%d** formed", m.ID))
	// The bot records the announcement after Discord has it: wait for the
	// row too, or the snapshot below may be taken before it and count it
	// as a change made by the refused presses.
	if err := r.fake.Wait(r.ctx, "the announcement recorded", func() bool {
		_, ok, err := r.svc.AnnouncementOf(r.ctx, m.ID)
		return err == nil && ok
	}); err != nil {
		t.Fatal(err)
	}
	m2, room2 := r.second(t)
	if _, err := r.svc.EnsureGuild(r.ctx, foreignGuild); err != nil {
		t.Fatal(err)
	}
	foreign, err := r.svc.RecordResult(r.ctx, ladder.ResultInput{GuildID: foreignGuild, Team1: []string{"510000000000000011", "510000000000000012"},
		Team2: []string{"510000000000000013", "510000000000000014"}, Winner: 1, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	// The client shows neither room to the other's players.
	if _, err := r.fake.Click(in(room.ChannelID, alice), ann.ID, commands.ID("rdy", m.ID)); err == nil {
		t.Errorf("Got(another room's player clicking this room's Ready) = sent, want refused by the client")
	}
	if r.fake.CanSee(room.ChannelID, alice.ID) || r.fake.CanSee(room2.ChannelID, players[0].ID) {
		t.Errorf("Got(a player sees the other match's room) = true, want false")
	}
	p1 := userByID(m.Teams[0][0])
	carolX := fakediscord.User{ID: "400000000000000077", Name: "carol"}
	h := r.hostile()
	h.refuse(t, []hostileRow{
		{"another room's player pressing this room's Ready", r.pressIn(room.ChannelID, alice, ann.ID, commands.ID("rdy", m.ID)), "not a player"},
		{"another room's player pressing this room's Not ready", r.pressIn(room.ChannelID, alice, ann.ID, commands.ID("nrdy", m.ID)), "not a player"},
		{"another room's player voting to cancel this room's match", r.pressIn(room.ChannelID, alice, ann.ID, commands.ID("cxv", m.ID)), "not a player"},
		{"a player pressing, in their room, a Ready naming the other room's match", r.pressIn(room.ChannelID, p1, ann.ID, commands.ID("rdy", m2.ID)), "no ready check"},
		{"a player pressing, from the other room, their own Not ready on its message", r.pressIn(room2.ChannelID, p1, ann.ID, commands.ID("nrdy", m2.ID)), "no ready check"},
		{"an outsider pressing Ready in the room", r.pressIn(room.ChannelID, carolX, ann.ID, commands.ID("rdy", m.ID)), "not a player"},
		{"a report naming another guild's match", r.pressIn(room.ChannelID, p1, ann.ID, commands.ID("rep", foreign.Match.ID, "win")), "not found"},
		{"a Ready naming another guild's match", r.pressIn(room.ChannelID, p1, ann.ID, commands.ID("rdy", foreign.Match.ID)), "not found"},
		{"a Ready naming match 0", r.pressIn(room.ChannelID, p1, ann.ID, "rdy:0"), "not valid"},
		{"a Ready with a NUL in the match", r.pressIn(room.ChannelID, p1, ann.ID, fmt.Sprintf("rdy:%d\x00", m.ID)), "not valid"},
		{"a Ready of 100 characters", r.pressIn(room.ChannelID, p1, ann.ID, "rdy:"+strings.Repeat("9", 96)), "not valid"},
		{"a report during the ready check", r.pressIn(room.ChannelID, p1, ann.ID, commands.ID("rep", m.ID, "win")), "click Ready first"},
	}, nil)
	// Eight Ready presses of one player at once: ready once, the room's
	// message edited, nothing refused.
	h.burst(t, 8, r.pressIn(room.ChannelID, p1, ann.ID, commands.ID("rdy", m.ID)))
	rc, err := r.svc.ReadyCheck(r.ctx, testGuild, m.ID)
	if err != nil || len(rc.Missing()) != 3 || !rc.IsReady(p1.ID) {
		t.Errorf("Got(ready check after 8 concurrent presses) = %+v, %v, want that player ready once", rc, err)
	}
	if got := r.match(m2.ID); got.State != ladder.StateOpen {
		t.Errorf("Got(other room's match) = %s, want untouched", got.State)
	}
	// Eight "We won" presses at once: one report, one confirmation
	// message in the room.
	on := r.ready(room.ChannelID, m)
	h.burst(t, 8, r.pressIn(room.ChannelID, p1, on.ID, commands.ID("rep", m.ID, "win")))
	if got := r.match(m.ID); got.State != ladder.StateReported || got.ReportedBy != p1.ID {
		t.Errorf("Got(match after 8 concurrent reports) = %s by %s, want reported by %s", got.State, got.ReportedBy, p1.ID)
	}
	r.message(room.ChannelID, fmt.Sprintf("reported match #%d", m.ID))
	asks := 0
	for _, msg := range r.fake.ChannelMessages(room.ChannelID) {
		if strings.Contains(msg.Text(), fmt.Sprintf("reported match #%d", m.ID)) {
			asks++
		}
	}
	if asks != 1 {
		t.Errorf("Got(confirmation messages in the room) = %d, want 1", asks)
	}
}

// subIn has the second player of team 1 ask for a substitute from inside
// the room, and taker take the seat from the queue's channel. It returns
// the leaver.
func (r *roomEnv) subIn(room rooms.Room, m ladder.Match, taker fakediscord.User) fakediscord.User {
	r.t.Helper()
	leaver := userByID(m.Teams[0][1])
	ask := r.askSub(room.ChannelID, leaver)
	r.clickIn(taker, ask, "Take the seat")
	r.message(room.ChannelID, fmt.Sprintf("<@%s> takes <@%s>'s seat", taker.ID, leaver.ID))
	return leaver
}

// wantLeaverRefused checks a former player can neither see the room nor
// act in it by forged presses, and that the database is unchanged.
func (r *roomEnv) wantLeaverRefused(t *testing.T, room rooms.Room, m ladder.Match, leaver fakediscord.User, on fakediscord.Message) {
	t.Helper()
	if r.fake.CanSee(room.ChannelID, leaver.ID) {
		t.Errorf("Got(the substituted player sees the room) = true, want false")
	}
	if got := r.room(m.ID).Members; slices.Contains(got, leaver.ID) {
		t.Errorf("Got(room members) = %v, want %s gone", got, leaver.ID)
	}
	r.hostile().refuse(t, []hostileRow{
		{"the former player reporting a win", r.pressIn(room.ChannelID, leaver, on.ID, commands.ID("rep", m.ID, "win")), "not a player"},
		{"the former player voting to cancel", r.pressIn(room.ChannelID, leaver, on.ID, commands.ID("cxv", m.ID)), "not a player"},
		{"the former player asking for a substitute again", func() (*fakediscord.Pending, error) {
			return r.fake.Slash(in(room.ChannelID, leaver), "sub request", nil)
		}, "no open match"},
	}, nil)
}

func hostileRoomSubThread(t *testing.T, r *roomEnv) {
	m, room := r.formRoom()
	on := r.ready(room.ChannelID, m)
	leaver := r.subIn(room, m, alice)
	th, _ := r.fake.Channel(room.ChannelID)
	if slices.Contains(th.Members, leaver.ID) || !slices.Contains(th.Members, alice.ID) {
		t.Errorf("Got(thread members after the sub) = %v, want %s out and %s in", th.Members, leaver.ID, alice.ID)
	}
	r.wantLeaverRefused(t, room, m, leaver, on)
	// The rooms job finds nothing left to change.
	r.runRooms()
	if th, _ := r.fake.Channel(room.ChannelID); slices.Contains(th.Members, leaver.ID) {
		t.Errorf("Got(thread members after the job) = %v, want %s still out", th.Members, leaver.ID)
	}
	r.report(room.ChannelID, r.match(m.ID), on)
}

func hostileRoomSubChannel(t *testing.T, r *roomEnv) {
	category := r.fake.AddChannel(testGuild, "Matches", fakediscord.ChannelCategory)
	r.configRoom(map[string]any{"room": "channel", "room_category": category, "voice": true}, "only its players")
	m, room := r.formRoom()
	on := r.ready(room.ChannelID, m)
	leaver := r.subIn(room, m, alice)
	text, _ := r.fake.Channel(room.ChannelID)
	if !overwrite(text, alice.ID, "allow", fakediscord.PermViewChannel) {
		t.Errorf("Got(substitute's overwrite of the room) = %+v, want View Channel allowed", text.Overwrites)
	}
	for i, id := range room.VoiceIDs {
		v, _ := r.fake.Channel(id)
		if slices.ContainsFunc(v.Overwrites, func(o fakediscord.PermOverwrite) bool { return o.ID == leaver.ID }) {
			t.Errorf("Got(team %d voice overwrites) = %+v, want none of the substituted player", i+1, v.Overwrites)
		}
	}
	if v, _ := r.fake.Channel(room.VoiceIDs[0]); !overwrite(v, alice.ID, "allow", fakediscord.PermConnect) {
		t.Errorf("Got(team 1 voice overwrites) = %+v, want the substitute allowed to connect", v.Overwrites)
	}
	r.wantLeaverRefused(t, room, m, leaver, on)
	r.report(room.ChannelID, r.match(m.ID), on)
}

// hostileRoomSeatRace: two outsiders press Take the seat at the same
// moment; one gets it and is the only one let into the room.
func hostileRoomSeatRace(t *testing.T, r *roomEnv) {
	m, room := r.formRoom()
	r.ready(room.ChannelID, m)
	leaver := userByID(m.Teams[0][1])
	ask := r.askSub(room.ChannelID, leaver)
	b, _ := ask.ButtonByLabel("Take the seat")
	var wg sync.WaitGroup
	for _, u := range []fakediscord.User{alice, bob} {
		wg.Go(func() {
			p, err := r.fake.Click(in(r.queueCh, u), ask.ID, b.CustomID)
			if err != nil {
				t.Error(err)
				return
			}
			if text := r.result(p).Message.Text(); strings.Contains(text, "eference") {
				t.Errorf("Got(%s's press) = %q, want no internal error", u.Name, text)
			}
		})
	}
	wg.Wait()
	now := r.match(m.ID)
	in := 0
	for _, u := range []fakediscord.User{alice, bob} {
		playing := now.Team(u.ID) != 0
		if playing {
			in++
		}
		if got := r.fake.CanSee(room.ChannelID, u.ID); got != playing {
			t.Errorf("Got(%s sees the room) = %v, want %v (playing)", u.Name, got, playing)
		}
	}
	if in != 1 || now.Team(leaver.ID) != 0 {
		t.Fatalf("Got(takers in the match) = %d, leaver's team %d; want one taker, the leaver out", in, now.Team(leaver.ID))
	}
	if r.fake.CanSee(room.ChannelID, leaver.ID) {
		t.Errorf("Got(the leaver sees the room) = true, want false")
	}
}

// hostileRoomDeletedReady: a moderator deletes the thread while the ready
// check runs. The match goes on in the queue's channel: the players are
// told there, with the ready check's buttons, and play it to the end.
func hostileRoomDeletedReady(t *testing.T, r *roomEnv) {
	m, room := r.formRoom()
	r.message(room.ChannelID, fmt.Sprintf("**Match #%d** formed", m.ID))
	r.fake.DeleteChannel(room.ChannelID)
	r.message(r.queueCh, fmt.Sprintf("room of **match #%d** was deleted", m.ID))
	if got := r.match(m.ID); got.ChannelID != r.queueCh || got.State != ladder.StateOpen {
		t.Fatalf("Got(match after its room was deleted) = %s in %s, want open in the queue channel", got.State, got.ChannelID)
	}
	on := r.ready(r.queueCh, m)
	// The report's confirmation goes to the queue's channel too.
	r.report(r.queueCh, m, on)
	notices := 0
	for _, msg := range r.fake.ChannelMessages(r.queueCh) {
		if strings.Contains(msg.Text(), fmt.Sprintf("room of **match #%d** was deleted", m.ID)) {
			notices++
		}
	}
	if notices != 1 {
		t.Errorf("Got(notices in the queue channel) = %d, want one", notices)
	}
	// The room closes after the linger without a fuss.
	r.runRooms()
	r.clock.Add(5 * time.Minute)
	r.runRooms()
	if got := r.room(m.ID).State; got != rooms.StateClosed {
		t.Errorf("Got(room state) = %s, want closed", got)
	}
}

// hostileRoomDeletedReported: the channel room is deleted once a result
// was reported; the confirmation buttons come back in the queue's
// channel and the other team confirms there.
func hostileRoomDeletedReported(t *testing.T, r *roomEnv) {
	r.configRoom(map[string]any{"room": "channel"}, "only its players")
	m, room := r.formRoom()
	on := r.ready(room.ChannelID, m)
	wantText(t, "report", r.clickIn(userByID(m.Teams[0][0]), on, "We won"), "Reported match")
	r.message(room.ChannelID, fmt.Sprintf("reported match #%d", m.ID))
	r.fake.DeleteChannel(room.ChannelID)
	r.message(r.queueCh, fmt.Sprintf("room of **match #%d** was deleted", m.ID))
	ask := r.message(r.queueCh, fmt.Sprintf("reported match #%d", m.ID))
	// The confirmation's message is recorded where it now is, so the
	// message-closing job edits that one.
	for {
		if a, ok, err := r.svc.MatchMessage(r.ctx, m.ID, ladder.MessageReport); err != nil || (ok && a.ChannelID == r.queueCh) {
			break
		}
		if r.ctx.Err() != nil {
			t.Fatalf("the confirmation's message in the queue channel was never recorded")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A late press of the deleted room's buttons (a client that still
	// shows them) changes nothing.
	r.hostile().refuse(t, nil, []hostileRow{
		{"the reporter's report again", r.pressIn(room.ChannelID, userByID(m.Teams[0][0]), on.ID, commands.ID("rep", m.ID, "win")), ""},
	})
	r.clickIn(userByID(m.Teams[1][0]), ask, "Confirm")
	if got := r.match(m.ID); !got.State.Rated() || got.Winner != 1 {
		t.Fatalf("Got(match) = %s winner %d, want rated, team 1", got.State, got.Winner)
	}
}

// hostileRoomChannelLimit: the guild has Discord's 500 channels; the
// channel room is refused (30013), the moderators hear it once, and the
// match is played in the queue's channel.
func hostileRoomChannelLimit(t *testing.T, r *roomEnv) {
	r.configRoom(map[string]any{"room": "channel"}, "only its players")
	for n := len(r.fake.GuildChannels(testGuild)); n < fakediscord.MaxGuildChannels; n++ {
		r.fake.AddChannel(testGuild, fmt.Sprintf("filler-%d", n), fakediscord.ChannelText)
	}
	m := r.form()
	r.message(r.queueCh, fmt.Sprintf("**Match #%d** formed", m.ID))
	if got := r.room(m.ID).State; got != rooms.StateFallback {
		t.Errorf("Got(room state) = %s, want fallback", got)
	}
	r.message(r.logCh, "limit of 500 channels")
	r.play(r.queueCh, m)
}

// hostileRoomClosed: the match was rated and its thread archived; presses
// of the room's buttons replayed then are answered "already done" or
// refused, and change nothing.
func hostileRoomClosed(t *testing.T, r *roomEnv) {
	m, room := r.formRoom()
	ann := r.message(room.ChannelID, fmt.Sprintf("**Match #%d** formed", m.ID))
	r.play(room.ChannelID, m)
	r.runRooms()
	r.clock.Add(5 * time.Minute)
	r.runRooms()
	if th, _ := r.fake.Channel(room.ChannelID); !th.Archived {
		t.Fatalf("Got(thread archived) = false, want true")
	}
	a, b := userByID(m.Teams[0][0]), userByID(m.Teams[1][0])
	r.hostile().refuse(t, []hostileRow{
		{"a cancel vote on the rated match", r.pressIn(room.ChannelID, a, ann.ID, commands.ID("cxv", m.ID)), "cannot be cancelled"},
		{"a dispute of the rated match, its form sent", r.disputeIn(room.ChannelID, b, ann.ID, m.ID), "already rated"},
	}, []hostileRow{
		{"Ready after the match", r.pressIn(room.ChannelID, a, ann.ID, commands.ID("rdy", m.ID)), ""},
		{"Not ready after the match", r.pressIn(room.ChannelID, b, ann.ID, commands.ID("nrdy", m.ID)), ""},
		{"the report again", r.pressIn(room.ChannelID, a, ann.ID, commands.ID("rep", m.ID, "win")), ""},
		{"the confirmation again", r.pressIn(room.ChannelID, b, ann.ID, commands.ID("cf", m.ID)), ""},
	})
}

// hostileRoomSubRefused: the bot lost Manage Channels (Discord answers
// 50013 to the substitute's overwrite); the substitute could not see the
// room, so the match moves to the queue's channel with its buttons and is
// finished there.
func hostileRoomSubRefused(t *testing.T, r *roomEnv) {
	r.configRoom(map[string]any{"room": "channel"}, "only its players")
	m, room := r.formRoom()
	r.ready(room.ChannelID, m)
	r.fake.SetChannelPermission(testGuild, fakediscord.PermManageChannels, false)
	leaver := userByID(m.Teams[0][1])
	ask := r.askSub(room.ChannelID, leaver)
	r.clickIn(alice, ask, "Take the seat")
	r.message(r.queueCh, fmt.Sprintf("<@%s> takes <@%s>'s seat", alice.ID, leaver.ID))
	r.message(r.queueCh, fmt.Sprintf("every player of **match #%d** into its room", m.ID))
	on := r.message(r.queueCh, fmt.Sprintf("**Match #%d** is on", m.ID))
	if got := r.match(m.ID).ChannelID; got != r.queueCh {
		t.Fatalf("Got(match channel) = %s, want the queue channel %s", got, r.queueCh)
	}
	if r.fake.CanSee(room.ChannelID, alice.ID) {
		t.Fatalf("Got(substitute sees the room without the overwrite) = true; the scenario is moot")
	}
	r.report(r.queueCh, r.match(m.ID), on)
}
