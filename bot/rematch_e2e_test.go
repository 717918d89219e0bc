package bot

import (
	"fmt"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestRematchInRooms: a rematch of a match played in a thread room is
// offered in that room and, once every player pressed Rematch, opens in
// a new room of the queue's channel (the old room closes soon after its
// match), with its ready check there.
func TestRematchInRooms(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		r := newRoomEnv(t, freshDSN(t, backend))
		r.env.joins = joins.New(r.db, r.svc)
		r.svc.SetJoinGate(r.env.joins)
		r.restart()
		wantText(t, "rematch on", r.slash(owner, "config queue rematch", map[string]any{"queue": "2v2", "rematch": "same"}), "same teams")
		// No announcement channel: matches are announced where their
		// players joined, so the rematch must find the room's home.
		q := r.queue()
		q.ChannelID = ""
		if _, err := r.svc.UpdateQueue(r.ctx, ladder.Actor{UserID: owner.ID, Moderator: true}, q); err != nil {
			t.Fatal(err)
		}

		m := r.form()
		old := r.room(m.ID)
		r.play(old.ChannelID, m)
		offer := r.message(old.ChannelID, fmt.Sprintf("players of match #%d press **Rematch**", m.ID))
		for _, u := range m.Players() {
			r.clickIn(userByID(u), offer, "Rematch")
		}
		m2 := r.waitOpen("the rematch")
		if m2.Source != "rematch" {
			t.Errorf("Got(new match source) = %q, want rematch", m2.Source)
		}
		// The room opens as the announcement is posted; the queue's
		// channel then gets the link line.
		r.message(r.queueCh, fmt.Sprintf("**Match #%d**", m2.ID))
		room := r.room(m2.ID)
		th, ok := r.fake.Channel(room.ChannelID)
		if room.HomeChannelID != r.queueCh || room.ChannelID == old.ChannelID || !ok || th.Type != fakediscord.ChannelPrivateThread || th.ParentID != r.queueCh {
			t.Fatalf("Got(rematch room) = %+v (thread %+v), want a new thread of the queue channel %s", room, th, r.queueCh)
		}
		r.message(room.ChannelID, fmt.Sprintf("**Match #%d** formed", m2.ID))
	})
}
