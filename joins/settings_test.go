package joins_test

import (
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

func queueIDs(name string) (int64, error) {
	if name == "1v1" {
		return 7, nil
	}
	return 0, ladder.Errorf(ladder.CodeInvalid, "games_queue: no queue called %q", name)
}

// TestApplyRoundTrip: the settings' text reads back to the same settings,
// so a form or an API client that sends back what it was shown changes
// nothing.
func TestApplyRoundTrip(t *testing.T) {
	s := joins.Settings{QueueID: 3, MinRating: 1400.5, MaxRating: 1900, MinGames: 10, GamesQueueID: 7,
		RequiredRole: "700000000000000001", ExcludedRole: "700000000000000002", MinAccountDays: 30,
		Hours: "mon-fri 18:00-23:00", TimeZone: "Europe/Berlin", Rematch: joins.RematchRebalance}
	got := joins.Settings{QueueID: 3, TimeZone: "UTC", Rematch: joins.RematchOff}
	if err := joins.Apply(&got, s.Values("1v1"), queueIDs); err != nil {
		t.Fatalf("Got(Apply(own values)) = %v", err)
	}
	if got != s {
		t.Errorf("Got(round trip) = %+v, want %+v", got, s)
	}
}

// TestApplyRefuses: a value that does not parse or breaks a rule is
// refused naming the setting, and the settings stay as they were.
func TestApplyRefuses(t *testing.T) {
	cases := []struct {
		name string
		in   map[string]string
		want string
	}{
		{"unknown", map[string]string{"colour": "red"}, `no join setting called "colour"`},
		{"number", map[string]string{"min_rating": "lots"}, "min_rating must be a number"},
		{"nan", map[string]string{"max_rating": "NaN"}, "max_rating must be a number"},
		{"negative", map[string]string{"min_rating": "-5"}, "min_rating must be from 0 (off)"},
		{"whole", map[string]string{"min_games": "2.5"}, "min_games must be a whole number"},
		{"range order", map[string]string{"min_rating": "1600", "max_rating": "1500"}, "must not be below min_rating"},
		{"games bound", map[string]string{"min_games": "100000"}, "min_games must be from 0 (off) to 10000"},
		{"days bound", map[string]string{"min_account_days": "4000"}, "min_account_days must be from 0 (off) to 3650"},
		{"role", map[string]string{"required_role": "admins"}, "required_role must be a Discord role"},
		{"same role", map[string]string{"required_role": "700000000000000001", "excluded_role": "700000000000000001"}, "cannot be the same role"},
		{"games queue", map[string]string{"games_queue": "5v5"}, `no queue called "5v5"`},
		{"hours", map[string]string{"hours": "mon 9-5"}, "not a time of day"},
		{"zone", map[string]string{"timezone": "Atlantis/City"}, "timezone must be"},
		{"rematch", map[string]string{"rematch": "sometimes"}, "rematch must be off, same or rebalance"},
		{"control character", map[string]string{"hours": "mon 18:00-20:00\x00"}, "hours"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := joins.Settings{QueueID: 1, TimeZone: "UTC", Rematch: joins.RematchOff, MinRating: 1000}
			before := s
			err := joins.Apply(&s, c.in, queueIDs)
			if err == nil || !strings.Contains(err.Error(), c.want) || ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(Apply(%v)) = %v, want an invalid error with %q", c.in, err, c.want)
			}
			if s != before {
				t.Errorf("Got(settings after a refusal) = %+v, want %+v", s, before)
			}
		})
	}
}
