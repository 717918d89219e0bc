package ladder_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestQueueSettingsRoundTrip: every setting's text reads back to the same
// queue and lobby, so a form or an API client that sends back what it was
// shown changes nothing.
func TestQueueSettingsRoundTrip(t *testing.T) {
	q := ladder.NewQueue("1", "2v2", 2)
	q.ID, q.ChannelID, q.PartyMaxWeight, q.BehaviourPairing, q.SelfTune = 7, "123456789012345678", 1.5, 16, true
	l := ladder.DefaultLobby(7)
	values := map[string]string{}
	for _, s := range ladder.QueueSettings() {
		values[s.Name] = s.Value(q, l)
	}
	q2, l2 := q, l
	lobby, err := ladder.ApplyQueueSettings(&q2, &l2, values)
	if err != nil || !lobby {
		t.Fatalf("Got(ApplyQueueSettings(own values)) = %v, %v; want lobby settings applied without error", lobby, err)
	}
	if !reflect.DeepEqual(q, q2) || !reflect.DeepEqual(l, l2) {
		t.Errorf("Got(round trip) = %+v %+v, want %+v %+v", q2, l2, q, l)
	}
}

// TestApplyQueueSettingsRefuses: text that does not parse is refused with
// a message naming the setting, and an unknown name is refused before any
// setting is applied.
func TestApplyQueueSettingsRefuses(t *testing.T) {
	cases := []struct {
		name string
		in   map[string]string
		want string
	}{
		{"unknown", map[string]string{"q_start": "0.5", "colour": "red"}, `no queue setting called "colour"`},
		{"number", map[string]string{"q_floor": "half"}, "q_floor must be a number"},
		{"nan", map[string]string{"q_floor": "NaN"}, "q_floor must be a number"},
		{"whole", map[string]string{"team_size": "2.5"}, "team_size must be a whole number"},
		{"bool", map[string]string{"open": "maybe"}, "open must be true or false"},
		{"seconds", map[string]string{"ready_window": "99999999999"}, "ready_window must be from 0 to 3600 seconds"},
		{"duration", map[string]string{"abandon_after": "soon"}, "abandon_after must be a duration"},
		{"control character", map[string]string{"cooldowns": "5m\x00"}, "cooldowns"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, l := ladder.NewQueue("1", "2v2", 2), ladder.DefaultLobby(0)
			before := q
			_, err := ladder.ApplyQueueSettings(&q, &l, c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) || ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(ApplyQueueSettings(%v)) = %v, want an invalid error with %q", c.in, err, c.want)
			}
			if c.name == "unknown" && q.QStart != before.QStart {
				t.Errorf("Got(q_start after an unknown name) = %g, want unchanged", q.QStart)
			}
		})
	}
}
