package rooms_test

import (
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

func TestSettingsValidate(t *testing.T) {
	base := rooms.DefaultSettings(1)
	tests := []struct {
		name  string
		edit  func(*rooms.Settings)
		valid bool
	}{
		{"defaults", func(*rooms.Settings) {}, true},
		{"channel with voice and a lobby", func(s *rooms.Settings) {
			s.Mode, s.Voice, s.LobbyVoiceID, s.CategoryID = rooms.ModeChannel, true, "200000000000000001", "200000000000000002"
		}, true},
		{"no linger", func(s *rooms.Settings) { s.Linger = 0 }, true},
		{"a day of linger", func(s *rooms.Settings) { s.Linger = rooms.MaxLinger }, true},
		{"negative linger", func(s *rooms.Settings) { s.Linger = -time.Second }, false},
		{"linger past a day", func(s *rooms.Settings) { s.Linger = rooms.MaxLinger + time.Second }, false},
		{"unknown mode", func(s *rooms.Settings) { s.Mode = "forum" }, false},
		{"voice without a room", func(s *rooms.Settings) { s.Mode, s.Voice = rooms.ModeNone, true }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			tt.edit(&s)
			err := s.Validate()
			if (err == nil) != tt.valid {
				t.Fatalf("Got(Validate) = %v, want valid %v", err, tt.valid)
			}
			if err != nil && ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(code) = %s, want invalid", ladder.ErrorCode(err))
			}
		})
	}
}

func TestDefaultSettings(t *testing.T) {
	s := rooms.DefaultSettings(7)
	if s.Mode != rooms.ModeThread || s.Voice || s.Linger != 300*time.Second || s.QueueID != 7 {
		t.Errorf("Got(DefaultSettings) = %+v, want thread rooms, no voice, 300 s linger", s)
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range []string{"none", "thread", "channel"} {
		if got, err := rooms.ParseMode(m); err != nil || string(got) != m {
			t.Errorf("Got(ParseMode(%q)) = %q, %v", m, got, err)
		}
	}
	for _, m := range []string{"", "Thread", "voice"} {
		if _, err := rooms.ParseMode(m); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(ParseMode(%q)) = %v, want invalid", m, err)
		}
	}
}

func TestSplitIDs(t *testing.T) {
	for _, ids := range [][]string{nil, {"1"}, {"1", "2", "3"}} {
		got := rooms.SplitIDs(rooms.JoinIDs(ids))
		if len(got) != len(ids) {
			t.Errorf("Got(round trip of %v) = %v", ids, got)
		}
	}
}
