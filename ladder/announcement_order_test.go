package ladder_test

import (
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestLateRecordKeepsNewerMessage: a match's message is recorded once
// posted; when the record of an older post arrives after a newer one's
// (the room's post, recorded after the room was deleted and the message
// posted again in the queue's channel), the newer message stays recorded,
// for the announcement as for the other kinds. Message IDs are compared
// as the numbers they are, a shorter one being older.
func TestLateRecordKeepsNewerMessage(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		m := open2v2(t, e, users[0], users[1], users[2], users[3])
		const room, queue = "300000000000000001", "300000000000000002"
		for _, kind := range []string{"", ladder.MessageReport} {
			get := func() ladder.Announcement {
				t.Helper()
				var a ladder.Announcement
				var ok bool
				var err error
				if kind == "" {
					a, ok, err = e.svc.AnnouncementOf(e.ctx, m.ID)
				} else {
					a, ok, err = e.svc.MatchMessage(e.ctx, m.ID, kind)
				}
				if err != nil || !ok {
					t.Fatalf("kind %q: recorded message = %+v, %v, %v", kind, a, ok, err)
				}
				return a
			}
			steps := []struct {
				channel, message string
				want             string // the message recorded after the step
			}{
				{room, "999999999999999990", "999999999999999990"},
				{queue, "1000000000000000005", "1000000000000000005"}, // newer: one digit more
				{room, "999999999999999990", "1000000000000000005"},   // the room's record, late
				{room, "1000000000000000004", "1000000000000000005"},  // older, same length
				{queue, "1000000000000000005", "1000000000000000005"}, // the same again
				{queue, "1000000000000000011", "1000000000000000011"}, // a repost
			}
			for i, s := range steps {
				if err := e.svc.RecordAnnouncement(e.ctx, ladder.Announcement{MatchID: m.ID, Kind: kind, ChannelID: s.channel, MessageID: s.message}); err != nil {
					t.Fatalf("kind %q step %d: RecordAnnouncement() = %v", kind, i, err)
				}
				if a := get(); a.MessageID != s.want || a.ChannelID != queue && s.want != "999999999999999990" {
					t.Fatalf("kind %q step %d: recorded %s in %s, want %s", kind, i, a.MessageID, a.ChannelID, s.want)
				}
			}
		}
	})
}
