package storage_test

import (
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// TestRoomStore exercises the match-room rows on both databases: the
// defaults, the insert that decides between two openers, the writes that
// are conditional on the state, the walk over live rooms and the warnings
// told once.
func TestRoomStore(t *testing.T) {
	suite(t, map[string]func(t *testing.T, b string){
		"rooms": func(t *testing.T, b string) {
			e := newEnv(t, b)
			ctx := e.ctx
			qs, err := e.svc.Queues(ctx, guild)
			if err != nil || len(qs) == 0 {
				t.Fatalf("Queues() = %v, %v", qs, err)
			}
			q := qs[0]
			if s, err := e.db.RoomSettings(ctx, q.ID); err != nil || s != rooms.DefaultSettings(q.ID) {
				t.Errorf("Got(RoomSettings before any) = %+v, %v, want the defaults", s, err)
			}
			set := rooms.Settings{QueueID: q.ID, Mode: rooms.ModeChannel, CategoryID: "200000000000000009", Voice: true,
				LobbyVoiceID: "200000000000000008", Linger: 90 * time.Second}
			if err := e.db.SaveRoomSettings(ctx, set, nil); err != nil {
				t.Fatal(err)
			}
			if s, err := e.db.RoomSettings(ctx, q.ID); err != nil || s != set {
				t.Errorf("Got(RoomSettings) = %+v, %v, want %+v", s, err, set)
			}

			var ids []int64
			for i := range 5 {
				m, err := e.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: q.ID, Source: "test", ChannelID: "200000000000000001",
					Teams: [2][]string{{user(4*i + 1), user(4*i + 2)}, {user(4*i + 3), user(4*i + 4)}}})
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, m.ID)
			}
			now := e.clock.Now()
			r := rooms.Room{MatchID: ids[0], GuildID: guild, QueueID: q.ID, Mode: rooms.ModeThread, HomeChannelID: "200000000000000001",
				State: rooms.StateCreating, CreatedAt: now}
			if ok, err := e.db.BeginRoom(ctx, r); err != nil || !ok {
				t.Fatalf("BeginRoom() = %v, %v, want the first", ok, err)
			}
			if ok, err := e.db.BeginRoom(ctx, r); err != nil || ok {
				t.Errorf("BeginRoom(again) = %v, %v, want false", ok, err)
			}
			r.ChannelID, r.VoiceIDs, r.Moved, r.Members = "300000000000000001", [2]string{"300000000000000002", ""}, []string{user(1)}, []string{user(1), user(2)}
			r.State, r.EndedAt, r.CloseAt = rooms.StateOpen, now.Add(time.Minute), now.Add(2*time.Minute)
			if ok, err := e.db.UpdateRoom(ctx, r, rooms.StateCreating); err != nil || !ok {
				t.Fatalf("UpdateRoom(from creating) = %v, %v", ok, err)
			}
			if ok, err := e.db.UpdateRoom(ctx, r, rooms.StateCreating); err != nil || ok {
				t.Errorf("UpdateRoom(from a state it left) = %v, %v, want false", ok, err)
			}
			got, err := e.db.Room(ctx, ids[0])
			if err != nil || got.ChannelID != r.ChannelID || got.VoiceIDs != r.VoiceIDs || len(got.Moved) != 1 || len(got.Members) != 2 ||
				!got.EndedAt.Equal(r.EndedAt) || !got.CloseAt.Equal(r.CloseAt) || !got.CreatedAt.Equal(now) || got.State != rooms.StateOpen {
				t.Errorf("Got(Room) = %+v, %v, want %+v", got, err, r)
			}
			if _, err := e.db.Room(ctx, ids[1]); ladder.ErrorCode(err) != ladder.CodeNotFound {
				t.Errorf("Got(Room of a match without one) = %v, want not found", err)
			}
			// The open room of a channel, and the match moved out of it once.
			if got, err := e.db.OpenRoomByChannel(ctx, r.ChannelID); err != nil || got.MatchID != ids[0] {
				t.Errorf("Got(OpenRoomByChannel) = %+v, %v, want match %d's", got, err, ids[0])
			}
			for _, ch := range []string{"", "300000000000000009", r.VoiceIDs[0]} {
				if _, err := e.db.OpenRoomByChannel(ctx, ch); ladder.ErrorCode(err) != ladder.CodeNotFound {
					t.Errorf("Got(OpenRoomByChannel(%q)) = %v, want not found", ch, err)
				}
			}
			if err := e.db.SetMatchChannel(ctx, ids[0], r.ChannelID); err != nil {
				t.Fatal(err)
			}
			for i, want := range []bool{true, false} {
				if ok, err := e.db.MoveMatchChannel(ctx, ids[0], r.ChannelID, r.HomeChannelID); err != nil || ok != want {
					t.Errorf("Got(MoveMatchChannel #%d) = %v, %v, want %v", i+1, ok, err, want)
				}
			}
			if m, err := e.svc.Match(ctx, guild, ids[0]); err != nil || m.ChannelID != r.HomeChannelID {
				t.Errorf("Got(match channel) = %q, %v, want %s", m.ChannelID, err, r.HomeChannelID)
			}
			if ok, err := e.db.MoveRoomState(ctx, ids[0], rooms.StateOpen, rooms.StateClosing); err != nil || !ok {
				t.Errorf("MoveRoomState(open → closing) = %v, %v", ok, err)
			}
			if ok, err := e.db.MoveRoomState(ctx, ids[0], rooms.StateOpen, rooms.StateClosing); err != nil || ok {
				t.Errorf("MoveRoomState(again) = %v, %v, want false", ok, err)
			}

			// The walk: four more rooms, one closed; pages of two by match.
			for i, id := range ids[1:] {
				st := rooms.StateOpen
				if i == 1 {
					st = rooms.StateClosed
				}
				if _, err := e.db.BeginRoom(ctx, rooms.Room{MatchID: id, GuildID: guild, QueueID: q.ID, Mode: rooms.ModeThread,
					HomeChannelID: "200000000000000001", State: st, CreatedAt: now}); err != nil {
					t.Fatal(err)
				}
			}
			var walked []int64
			for after := int64(0); ; {
				page, err := e.db.LiveRooms(ctx, after, 2)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range page {
					walked = append(walked, r.MatchID)
					after = r.MatchID
				}
				if len(page) < 2 {
					break
				}
			}
			want := []int64{ids[0], ids[1], ids[3], ids[4]}
			if len(walked) != len(want) {
				t.Errorf("Got(live rooms walked) = %v, want %v", walked, want)
			}
			for i := range min(len(walked), len(want)) {
				if walked[i] != want[i] {
					t.Errorf("Got(live rooms walked) = %v, want %v", walked, want)
					break
				}
			}

			if err := e.db.SetMatchChannel(ctx, ids[0], "300000000000000001"); err != nil {
				t.Fatal(err)
			}
			if m, err := e.svc.Match(ctx, guild, ids[0]); err != nil || m.ChannelID != "300000000000000001" || m.State != ladder.StateOpen {
				t.Errorf("Got(match after SetMatchChannel) = %s in %s, %v", m.State, m.ChannelID, err)
			}

			for i, want := range []bool{true, false} {
				if ok, err := e.db.AddRoomWarning(ctx, guild, "manage_channels", now); err != nil || ok != want {
					t.Errorf("AddRoomWarning(#%d) = %v, %v, want %v", i+1, ok, err, want)
				}
			}
			if err := e.db.ClearRoomWarning(ctx, guild, "manage_channels"); err != nil {
				t.Fatal(err)
			}
			if ok, err := e.db.AddRoomWarning(ctx, guild, "manage_channels", now); err != nil || !ok {
				t.Errorf("AddRoomWarning(after clear) = %v, %v, want true", ok, err)
			}
		},
	})
}
