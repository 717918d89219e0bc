package matchmaking

import (
	"github.com/ladderbot/ladderbot/ladder/rating"
	"math"
	"time"
)

// Settings are a queue's matchmaking knobs (docs/spec.md 3).
type Settings struct {
	// TeamSize is k: players per team, 1..rating.MaxTeamSize.
	TeamSize int
	// QStart is the minimum match quality while the anchor has just joined;
	// QFloor is where the minimum ends after the last bucket. QFloor 0 is
	// seed 000's "match immediately with any available session" mode, the
	// baseline its clustering improves on: the anchor plays with the oldest
	// entries that fit, without RD or rating ordering, and is accepted at
	// once whatever the quality (the split is still the most even one).
	QStart, QFloor float64
	// Buckets is how many steps q_min takes from QStart to QFloor; Bucket is
	// the length of the first one (bucket j ends at Bucket·(j+1)², seed 003).
	Buckets int
	Bucket  time.Duration
	// Boost and RDMax define the certainty boost b(RD) = Boost·(RDMax − RD) of
	// seed 000, used for effective ratings.
	Boost, RDMax float64
	// PartyMaxWeight, PartyMedianWeight and OrdinalDeviations are seed
	// 003's musigma party rating (see PartyRating). Both weights 0, the
	// default, turn it off; the seed's values are 2, 1 and 3.
	PartyMaxWeight, PartyMedianWeight, OrdinalDeviations float64
}

// DefaultSettings returns docs/spec.md 3's defaults: 2v2, q_min from 0.80 down to
// 0.50 in 5 buckets of 30 s·(j+1)², boost 0.5 and RD_max 350.
func DefaultSettings() Settings {
	return Settings{TeamSize: 2, QStart: 0.80, QFloor: 0.50, Buckets: 5, Bucket: 30 * time.Second, Boost: 0.5, RDMax: 350}
}

// Validate returns a invalid-input error (*Error) naming the first bad setting.
func (s Settings) Validate() error {
	switch {
	case s.TeamSize < 1 || s.TeamSize > rating.MaxTeamSize:
		return invalidf("team size must be from 1 to %d, not %d", rating.MaxTeamSize, s.TeamSize)
	case !(s.QFloor >= 0 && s.QFloor <= s.QStart && s.QStart <= 1):
		return invalidf("quality thresholds need 0 ≤ q_floor ≤ q_start ≤ 1, not %g and %g", s.QFloor, s.QStart)
	case s.Buckets < 1:
		return invalidf("buckets must be at least 1, not %d", s.Buckets)
	case s.Bucket <= 0:
		return invalidf("bucket must be positive, not %s", s.Bucket)
	case !(s.Boost >= 0 && !math.IsInf(s.Boost, 0)):
		return invalidf("boost must be a finite number ≥ 0, not %g", s.Boost)
	case !(s.RDMax > 0 && !math.IsInf(s.RDMax, 0)):
		return invalidf("rd_max must be a finite number above 0, not %g", s.RDMax)
	}
	return s.validParty()
}

// QMin is the minimum quality accepted for an anchor that has waited wait
// (docs/spec.md 3 step 5, after seed 003's buckets): bucket j covers waits up to
// Bucket·(j+1)², q_min falls linearly from QStart in bucket 0 to QFloor in
// bucket Buckets−1 and stays there. With one bucket q_min is QFloor, and
// QFloor 0 means "match immediately": QMin is then 0 at any wait.
func (s Settings) QMin(wait time.Duration) float64 {
	if s.QFloor <= 0 {
		return 0
	}
	last := s.Buckets - 1
	j := 0
	for j < last && wait >= s.Bucket*time.Duration((j+1)*(j+1)) {
		j++
	}
	if j >= last {
		return s.QFloor
	}
	return s.QStart - (s.QStart-s.QFloor)*float64(j)/float64(last)
}

// boost is seed 000's certainty boost b(RD) = Boost·(RDMax − RD).
func (s Settings) boost(rd float64) float64 { return s.Boost * (s.RDMax - rd) }

// EffectiveRating is a player's R_eff = R + b(RD) (docs/spec.md 3 step 3).
func (s Settings) EffectiveRating(m Member) float64 { return m.Rating + s.boost(m.RD) }

// Member is one player waiting in a queue, with the rating and (inactivity
// grown) deviation the queue's model shows for them.
type Member struct {
	UserID     string
	Rating, RD float64
}

// Entry is one queue ticket: a solo player or a premade party of up to
// TeamSize members, who always play on the same team.
type Entry struct {
	ID       int64
	Members  []Member
	JoinedAt time.Time
}

// Proposal is a match FormMatches suggests, with what explains it: the
// quality Q, the effective rating gap Δ_eff, each team's effective rating
// R_eff_T, and the q_min it passed with the anchor's wait. Team 0 holds the
// anchor (the oldest entry of the proposal, EntryIDs[0]).
type Proposal struct {
	EntryIDs []int64
	Teams    [2][]string
	Quality  float64
	DeltaEff float64
	REff     [2]float64
	// QMin is the threshold Quality passed; AnchorWait is the anchor's wait.
	QMin       float64
	AnchorWait time.Duration
}

// Evaluation explains one split: docs/spec.md 3 steps 3 and 4.
type Evaluation struct {
	// REff is each team's R_eff_T = mean R + b(RD_T), RD_T = √(ΣRD²/n).
	REff [2]float64
	// RD is each team's RD_T.
	RD [2]float64
	// DeltaEff is |REff[0] − REff[1]|.
	DeltaEff float64
	// Quality is Q = 1/(1 + (Δ_eff/400)² + (RD_comb/400)²), RD_comb = √(RD_A² + RD_B²).
	Quality float64
}

// Evaluate computes the effective team ratings and the quality of a match
// between teams a and b (docs/spec.md 3 steps 3 and 4). Empty teams give a zero
// Evaluation.
func (s Settings) Evaluate(a, b []Member) Evaluation {
	if len(a) == 0 || len(b) == 0 {
		return Evaluation{}
	}
	var sum [2]float64
	var sq [2]float64
	for t, team := range [2][]Member{a, b} {
		for _, m := range team {
			sum[t] += m.Rating
			sq[t] += m.RD * m.RD
		}
	}
	var ev Evaluation
	ev.RD[0] = math.Sqrt(sq[0] / float64(len(a)))
	ev.RD[1] = math.Sqrt(sq[1] / float64(len(b)))
	ev.REff[0] = sum[0]/float64(len(a)) + s.boost(ev.RD[0])
	ev.REff[1] = sum[1]/float64(len(b)) + s.boost(ev.RD[1])
	ev.DeltaEff = math.Abs(ev.REff[0] - ev.REff[1])
	ev.Quality = quality(ev.DeltaEff, ev.RD[0]*ev.RD[0]+ev.RD[1]*ev.RD[1])
	return ev
}

// quality is docs/spec.md 3 step 4 with rdComb2 = RD_A² + RD_B².
func quality(delta, rdComb2 float64) float64 {
	return 1 / (1 + (delta/400)*(delta/400) + rdComb2/(400*400))
}

// FormMatches runs one matchmaking pass over a queue (docs/spec.md 3, seed 000's
// clustering) and returns the matches to form, oldest anchor first. It is
// pure: the caller removes each proposal's entries from the queue atomically
// and computes the win probability with the queue's rating model.
//
// Entries that can never play (no members, or a party larger than the team
// size) are ignored, as is everything when s is not valid. See Matcher for
// the details of the pass.
func FormMatches(entries []Entry, s Settings, now time.Time) []Proposal {
	var m Matcher
	return m.Form(entries, s, now)
}
