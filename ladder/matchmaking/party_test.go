package matchmaking

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestPartyRating(t *testing.T) {
	seed := DefaultSettings()
	seed.PartyMaxWeight, seed.PartyMedianWeight, seed.OrdinalDeviations = 2, 1, 3
	off := DefaultSettings()
	off.OrdinalDeviations = 3 // without weights the deviations alone change nothing
	tests := []struct {
		name    string
		s       Settings
		members []Member
		want    float64
	}{
		{"off: the mean", off, []Member{{"a", 2000, 50}, {"b", 1400, 90}}, 1700},
		{"seed: best twice, median once, minus 3 mean RD", seed,
			[]Member{{"a", 1600, 50}, {"b", 2000, 50}, {"c", 1500, 50}}, (2*2000+1600)/3.0 - 150},
		{"seed: an even party's median is the mean of the middle two", seed,
			[]Member{{"a", 1300, 40}, {"b", 2000, 60}, {"c", 1500, 80}, {"d", 1400, 20}}, (2*2000+1450)/3.0 - 150},
		{"seed: a solo is R − 3 RD", seed, []Member{{"a", 1500, 100}}, 1200},
		{"median only", Settings{PartyMedianWeight: 1}, []Member{{"a", 1000, 0}, {"b", 1200, 0}, {"c", 2000, 0}}, 1200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.PartyRating(tc.members); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("Got(PartyRating) = %g, want %g", got, tc.want)
			}
		})
	}
}

// TestPartyWeightsInMatcher shows the weights deciding a match: a party of
// 2000 and 1400 is a 1700 team by the mean but a 1900 one by the seed's
// weights (best twice, median once), so it matches two 1700 solos only with
// the weights off and two 1900 solos only with them on (Δ_eff 200 puts Q
// below q_start 0.80 at once).
func TestPartyWeightsInMatcher(t *testing.T) {
	off := DefaultSettings()
	on := DefaultSettings()
	on.PartyMaxWeight, on.PartyMedianWeight = 2, 1
	party := Entry{ID: 1, JoinedAt: mmT0, Members: []Member{{"a", 2000, 50}, {"b", 1400, 50}}}
	queue := func(r float64) []Entry {
		solo := func(id int64) Entry {
			return Entry{ID: id, JoinedAt: mmT0.Add(time.Duration(id)), Members: []Member{{UserID: fmt.Sprint("p", id), Rating: r, RD: 50}}}
		}
		return []Entry{party, solo(2), solo(3)}
	}
	tests := []struct {
		name  string
		s     Settings
		solos float64
		want  bool
	}{
		{"off, 1700 solos", off, 1700, true},
		{"off, 1900 solos", off, 1900, false},
		{"on, 1700 solos", on, 1700, false},
		{"on, 1900 solos", on, 1900, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := FormMatches(queue(tc.solos), tc.s, mmT0)
			if got := len(ps) == 1; got != tc.want {
				t.Fatalf("Got(matched) = %v (%+v), want %v", got, ps, tc.want)
			}
			if tc.want && ps[0].DeltaEff > 1e-9 {
				t.Errorf("Got(DeltaEff) = %g, want 0 on the party-rating scale", ps[0].DeltaEff)
			}
		})
	}
}

// TestPartyDefaultKeepsToday checks "off" is exact: on random queues with
// parties, the default settings and the default with ordinal_deviations set
// (weights still 0) form the same matches as settings that never heard of
// party rating.
func TestPartyDefaultKeepsToday(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 3))
	base := DefaultSettings()
	withDev := base
	withDev.OrdinalDeviations = 3
	for i := range 50 {
		q := randomQueue(rng, 24, 2)
		now := mmT0.Add(time.Duration(rng.IntN(600)) * time.Second)
		a := fmt.Sprintf("%+v", FormMatches(q, base, now))
		b := fmt.Sprintf("%+v", FormMatches(q, withDev, now))
		if a != b {
			t.Fatalf("queue %d: Got(with ordinal_deviations only) = %s, want %s", i, b, a)
		}
	}
}

func TestPartySettingsValidate(t *testing.T) {
	for _, s := range []Settings{
		{PartyMaxWeight: -1}, {PartyMedianWeight: math.Inf(1)}, {OrdinalDeviations: math.NaN()},
	} {
		d := DefaultSettings()
		d.PartyMaxWeight, d.PartyMedianWeight, d.OrdinalDeviations = s.PartyMaxWeight, s.PartyMedianWeight, s.OrdinalDeviations
		if d.Validate() == nil {
			t.Errorf("Got(Validate(%+v)) = nil, want an error", s)
		}
	}
}
