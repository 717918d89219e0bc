package fakediscord

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSnowflakes checks the IDs the fake mints: Discord's snowflakes,
// whose top bits are the milliseconds since 2015 when they were made (an
// interaction's is its SentAt), strictly increasing whatever the clock.
func TestSnowflakes(t *testing.T) {
	s := New()
	t.Cleanup(s.Close)
	register(t, s)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"type":4,"data":{"content":"pong"}}`)
	}))
	t.Cleanup(srv.Close)
	s.SetInteractionsEndpoint(srv.URL)
	call := Call{GuildID: "100000000000000001", ChannelID: "200000000000000001", User: User{ID: "300000000000000001"}}

	t.Run("an interaction's ID is when it was sent", func(t *testing.T) {
		var last int64
		for i := range 50 {
			p, err := s.Slash(call, "ping", nil)
			if err != nil {
				t.Fatal(err)
			}
			ix := p.Snapshot()
			at, ok := idTime(ix.ID)
			if !ok || at.UnixMilli() != ix.SentAt.UnixMilli() {
				t.Fatalf("interaction %d: Got(time of ID %s) = %v, want its SentAt %v to the millisecond", i, ix.ID, at, ix.SentAt)
			}
			n, _ := strconv.ParseInt(ix.ID, 10, 64)
			if n <= last {
				t.Fatalf("interaction %d: Got(ID) = %d after %d, want it larger", i, n, last)
			}
			last = n
		}
	})

	t.Run("a message's ID is when it was posted", func(t *testing.T) {
		before := time.Now().Truncate(time.Millisecond)
		resp, err := http.Post(s.URL()+"/api/v10/channels/200000000000000001/messages", "application/json", strings.NewReader(`{"content":"hi"}`))
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ ID string }
		json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		after := time.Now()
		if at, ok := idTime(m.ID); !ok || at.Before(before) || at.After(after) {
			t.Errorf("Got(time of message ID %q) = %v, want from %v to %v", m.ID, at, before, after)
		}
	})

	t.Run("IDs increase whatever the clock", func(t *testing.T) {
		now := time.Now()
		cases := []struct {
			name string
			at   time.Time
		}{
			{"now", now},
			{"the same millisecond", now},
			{"the same millisecond again", now},
			{"a millisecond later", now.Add(time.Millisecond)},
			{"an hour earlier (the clock stepped back)", now.Add(-time.Hour)},
			{"a minute later", now.Add(time.Minute)},
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		last := s.lastID
		for _, tc := range cases {
			id := s.newIDAt(tc.at)
			n, err := strconv.ParseInt(id, 10, 64)
			if err != nil || n <= last {
				t.Errorf("%s: Got(newIDAt) = %s, want a number above %d", tc.name, id, last)
			}
			if at, _ := idTime(id); at.Before(tc.at.Truncate(time.Millisecond)) {
				t.Errorf("%s: Got(time of ID) = %v, want %v or after", tc.name, at, tc.at)
			}
			last = n
		}
	})
}
