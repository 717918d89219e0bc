// Package integrity flags patterns in a ladder's log that moderators should
// look at: win-trading, boosting, smurfs, wrong votes and report abuse.
//
// The flags come from counters folded match by match over the rated log
// (fold.go): pairs of opponents, partners and players. The rated write
// folds each match itself (Service.Rated, called by storage inside the
// write's transaction), so the counters, the flags and the fold's place in
// the log commit with the result. A moderator's correction rewrites a
// ladder's log: in the same transaction the ladder is handed to the job
// (Service.Rewritten), which rebuilds its counters from the log in bounded
// steps (Service.Rebuild) and hands it back. Verify refolds the log from
// scratch and proves the stored counters equal. Nothing here punishes
// anyone: a flag is evidence for a moderator, who may dismiss it.
package integrity

import (
	"encoding/json"
	"math"
	"strings"
	"time"
)

// Kinds of flag.
const (
	KindWinTrade    = "win-trade"
	KindBoost       = "boost"
	KindSmurf       = "smurf"
	KindWrongVote   = "wrong-vote"
	KindReportAbuse = "report-abuse"
)

// Kinds lists the kinds of flag in the order lists show them.
var Kinds = []string{KindWinTrade, KindBoost, KindSmurf, KindWrongVote, KindReportAbuse}

// Flag is one pattern found in a ladder's log.
type Flag struct {
	ID       int64
	GuildID  string
	QueueID  int64
	SeasonID int64
	Kind     string
	// Subjects are the players flagged: one, or the pair (win-trading's
	// two opponents, boosting's player and partner).
	Subjects []string
	// Matches are the latest matches of the evidence.
	Matches  []int64
	Evidence Evidence
	// Score is the strength of the evidence (standard deviations, counts).
	Score float64
	// Seq is the log position of the match that raised it.
	Seq      int64
	RaisedAt time.Time
	// Posted is whether the log channel has been told.
	Posted bool
	// DismissedBy is the moderator who dismissed it ("" open), with when
	// and why.
	DismissedBy   string
	DismissedAt   time.Time
	DismissReason string
}

// Keys of evidence: what a flag's numbers mean. A win-trade is flagged
// for one-sided or for alternating results.
const (
	EvidenceSmurf            = "smurf"
	EvidenceSmurfReview      = "smurf-review"
	EvidenceBoost            = "boost"
	EvidenceTradeOneSided    = "win-trade"
	EvidenceTradeAlternating = "win-trade-alternating"
	EvidenceWrongVote        = "wrong-vote"
	EvidenceReportAbuse      = "report-abuse"
)

// Evidence is what a flag found, as data: which pattern (Key) and its
// numbers by name. The layer that shows a flag renders it in a language
// (commands.EvidenceText); the JSON API's evidence field is its English.
type Evidence struct {
	Key string `json:"key"`
	// Counts are whole numbers: games, wins, meetings, reports.
	Counts map[string]int `json:"counts,omitempty"`
	// Ratings are rating points, shown without a fraction.
	Ratings map[string]float64 `json:"ratings,omitempty"`
	// Measures are shown with one decimal: standard deviations, wins
	// against expected wins (a draw counts half).
	Measures map[string]float64 `json:"measures,omitempty"`
	// Player is the player a win-trade moved the rating points to.
	Player string `json:"player,omitempty"`
	// Text is the evidence of a flag stored as English text, before
	// evidence was data; Key is then "".
	Text string `json:"-"`
}

// Encode is the evidence as stored: JSON, or the old text as it was.
func (e Evidence) Encode() string {
	if e.Key == "" {
		return e.Text
	}
	b, err := json.Marshal(e)
	if err != nil {
		return e.Text // maps of numbers and strings always marshal
	}
	return string(b)
}

// DecodeEvidence reads evidence as Encode stored it; anything that is not
// its JSON is the English text of an older flag.
func DecodeEvidence(s string) Evidence {
	var e Evidence
	if strings.HasPrefix(s, "{") && json.Unmarshal([]byte(s), &e) == nil && e.Key != "" {
		return e
	}
	return Evidence{Text: s}
}

// Open is whether no moderator has dismissed the flag.
func (f Flag) Open() bool { return f.DismissedBy == "" }

// Thresholds are where counters become flags. DefaultThresholds were tuned
// on simulated seasons with injected cheaters (docs/commands.md#integrity
// flags says which seeds tuned them and which measured them).
type Thresholds struct {
	// Win-trading: opponents with at least TradeMeetings decided meetings
	// whose results are TradeZ standard deviations one-sided or
	// alternating, against the even games matchmaking forms.
	TradeMeetings int
	TradeZ        float64
	// Boosting: a player with at least BoostGames with one partner, who
	// gave at least BoostShare of the player's wins, was rated BoostGap
	// above the player's rating at the partnership's start on average, and
	// BoostLead above it already at that start.
	BoostGames int
	BoostShare float64
	BoostGap   float64
	BoostLead  float64
	// Smurfs (smurf.go): a new account (first rated game after the
	// ladder's first SmurfAfter matches) whose first SmurfGames games make
	// a true rating SmurfHigh spreads above the mean of the ladder's
	// established players (SmurfEstablished rated games or more) more
	// likely than one SmurfLow spreads above, by a log-likelihood ratio of
	// SmurfLLR or more from its SmurfMinGames-th game on, each game
	// weighed by the share of its other players who are established; the
	// ratio is kept from falling below SmurfFloor.
	SmurfAfter       int
	SmurfGames       int
	SmurfMinGames    int
	SmurfEstablished int
	SmurfLow         float64
	SmurfHigh        float64
	SmurfFloor       float64
	SmurfLLR         float64
	// At the season's end (review.go), a new account with SmurfMinGames
	// early games or more is flagged when the sum of its games' ratios,
	// without the floor, is SmurfReview or more (0: no review).
	SmurfReview float64
	// Wrong votes: reports of their own team's loss that a moderator
	// overturned.
	WrongVotes int
	// Report abuse: at least AbuseLost disputes settled as first reported,
	// AbuseShare of the player's settled disputes or more.
	AbuseLost  int
	AbuseShare float64
}

// DefaultThresholds are the thresholds the bot runs with.
func DefaultThresholds() Thresholds {
	return Thresholds{
		TradeMeetings: 12, TradeZ: 4,
		BoostGames: 10, BoostShare: 0.6, BoostGap: 100, BoostLead: 25,
		SmurfAfter: 100, SmurfGames: 100, SmurfMinGames: 10, SmurfEstablished: 20,
		SmurfLow: 2, SmurfHigh: 5.5, SmurfFloor: -2, SmurfLLR: math.Log(100), SmurfReview: math.Log(5),
		WrongVotes: 2,
		AbuseLost:  3, AbuseShare: 0.75,
	}
}
