package integrity

import (
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// Entry is one rated match of a ladder's log, in log (seq) order, with what
// the detectors read of it.
type Entry struct {
	MatchID int64
	Seq     int64
	At      time.Time
	Teams   [2][]string
	// Winner is 1, 2 or 0 (a draw).
	Winner int
	// PTeam1 is the chance of team 1 the match showed before it was played.
	PTeam1 float64
	// Before is each player's rating before the match, Delta its change
	// and Games the rated games the player had on the ladder before it.
	Before map[string]float64
	Delta  map[string]float64
	Games  map[string]int
	// Carried are the players whose first game of the season this is and
	// who were rated on the queue in an earlier season: their rating is a
	// carry-over (they come with the time of their last game), so they
	// are no new account, though their games restart at 0.
	Carried map[string]bool
	// ReportedBy and ReportedWinner are the first report (NoResult when
	// nobody reported); DisputedBy the player who disputed it ("" none);
	// ResolvedBy the moderator who settled or corrected it ("" none).
	ReportedBy     string
	ReportedWinner int
	DisputedBy     string
	ResolvedBy     string
}

// teamOf is the team (1 or 2) of u in e, 0 when u did not play.
func (e Entry) teamOf(u string) int {
	for t := range 2 {
		if slices.Contains(e.Teams[t], u) {
			return t + 1
		}
	}
	return 0
}

// Counter is one row of a ladder's integrity counters. Which fields a
// counter uses depends on its key's kind (see the key functions); the rest
// stay zero. Every field is a sum, count or short list folded match by
// match, so the state after a log is the same whether it was folded in one
// pass or in batches.
type Counter struct {
	// Pair of opponents a < b: meetings, wins of each, result changes
	// between consecutive decided meetings, the last decided winner
	// (1 = a, 2 = b) and the rating a gained in the meetings.
	N       int     `json:"n,omitempty"`
	WinsA   int     `json:"wins_a,omitempty"`
	WinsB   int     `json:"wins_b,omitempty"`
	Changes int     `json:"changes,omitempty"`
	Decided int     `json:"decided,omitempty"`
	Last    int     `json:"last,omitempty"`
	NetA    float64 `json:"net_a,omitempty"`
	// Partner (a's partner b): games together, wins together, the sum of
	// b's rating before each (Mate) and a's rating before the first (From).
	Mate float64 `json:"mate,omitempty"`
	From float64 `json:"from,omitempty"`
	// Player: rated games and wins; for a player whose first rated game
	// is in the log (New), the first games' count, observed and expected
	// wins, and the sequential test's log-likelihood ratio (smurf.go);
	// the rating before the first.
	Games  int     `json:"games,omitempty"`
	Wins   int     `json:"wins,omitempty"`
	New    bool    `json:"new,omitempty"`
	Early  int     `json:"early,omitempty"`
	EarlyO float64 `json:"early_o,omitempty"`
	EarlyP float64 `json:"early_p,omitempty"`
	LLR    float64 `json:"llr,omitempty"`
	Start  float64 `json:"start,omitempty"`
	// Sum is the test's sum without its floor, and Now the account's
	// rating after its latest early game: what the review at the season's
	// end judges (review.go).
	Sum float64 `json:"sum,omitempty"`
	Now float64 `json:"now,omitempty"`
	// Ladder: the ratings its established players play at, weighted
	// towards the latest games (smurf.go): how many games were counted,
	// their mean and variance.
	PopN    int     `json:"pop_n,omitempty"`
	PopMean float64 `json:"pop_mean,omitempty"`
	PopVar  float64 `json:"pop_var,omitempty"`
	Votes   int     `json:"votes,omitempty"`
	Wrong   int     `json:"wrong,omitempty"`
	Disputs int     `json:"disputes,omitempty"`
	Lost    int     `json:"lost,omitempty"`
	// Matches are the latest matches that moved the counter (at most
	// keepMatches), the evidence a flag shows.
	Matches []int64 `json:"matches,omitempty"`
	// Bad are the matches of the wrong votes and lost disputes.
	Bad []int64 `json:"bad,omitempty"`
}

// keepMatches is how many match IDs a counter keeps as evidence.
const keepMatches = 10

func (c *Counter) note(list *[]int64, id int64) {
	*list = append(*list, id)
	if len(*list) > keepMatches {
		*list = (*list)[len(*list)-keepMatches:]
	}
}

// Counter keys: "o:a:b" opponents (a < b), "p:a:b" a's partner b, "u:a"
// the player a.
func pairKey(a, b string) string    { return "o:" + a + ":" + b }
func partnerKey(a, b string) string { return "p:" + a + ":" + b }
func playerKey(a string) string     { return "u:" + a }

// ladderKey is the ladder's own counter: the matches folded and the
// ratings of its established players.
const ladderKey = "l"

// Keys returns the counter keys folding e touches, sorted: a batch loads
// exactly these rows.
func Keys(e Entry) []string {
	ks := []string{ladderKey}
	for t := range 2 {
		for _, u := range e.Teams[t] {
			ks = append(ks, playerKey(u))
			for _, v := range e.Teams[t] {
				if v != u {
					ks = append(ks, partnerKey(u, v))
				}
			}
			if t == 0 {
				for _, v := range e.Teams[1] {
					a, b := u, v
					if b < a {
						a, b = b, a
					}
					ks = append(ks, pairKey(a, b))
				}
			}
		}
	}
	for _, u := range []string{e.ReportedBy, e.DisputedBy} {
		if u != "" && e.teamOf(u) == 0 {
			ks = append(ks, playerKey(u))
		}
	}
	sort.Strings(ks)
	return slices.Compact(ks)
}

// State is a ladder's counters folded over its log, keyed as Keys says.
// The job holds the rows of one batch; a replay holds all.
type State map[string]*Counter

func (s State) get(k string) *Counter {
	c, ok := s[k]
	if !ok {
		c = &Counter{}
		s[k] = c
	}
	return c
}

// Fold applies one rated match to the counters and returns the flags whose
// threshold the match crossed (a flag may be returned again by a later
// match; the store keeps the first).
func (s State) Fold(e Entry, th Thresholds) []Flag {
	var flags []Flag
	l := s.get(ladderKey)
	for t := range 2 {
		for _, u := range e.Teams[t] {
			if f, ok := s.foldPlayer(e, u, t+1, l, th); ok {
				flags = append(flags, f)
			}
		}
	}
	for t := range 2 {
		for _, u := range e.Teams[t] {
			for _, v := range e.Teams[t] {
				if v == u {
					continue
				}
				if f, ok := s.foldPartner(e, u, v, t+1, th); ok {
					flags = append(flags, f)
				}
			}
		}
	}
	for _, u := range e.Teams[0] {
		for _, v := range e.Teams[1] {
			if f, ok := s.foldPair(e, u, v, th); ok {
				flags = append(flags, f)
			}
		}
	}
	flags = append(flags, s.foldVotes(e, th)...)
	l.Games++
	l.foldPopulation(e, th)
	return flags
}

// outcome is u's team's result: 1 win, 0.5 draw, 0 loss.
func outcome(e Entry, team int) float64 {
	switch e.Winner {
	case team:
		return 1
	case 0:
		return 0.5
	}
	return 0
}

// chance is the shown chance of team.
func chance(e Entry, team int) float64 {
	if team == 1 {
		return e.PTeam1
	}
	return 1 - e.PTeam1
}

// foldPlayer counts u's game; l is the ladder's counter before this
// match. An account is new when its first rated game comes on an
// established ladder (SmurfAfter matches or more): the players who found
// a ladder all start at the default rating together. A player of an
// earlier season who plays the new one late is not new: the test would
// judge a known player, whose carried rating lags its play as a new
// account's does, as a stranger.
func (s State) foldPlayer(e Entry, u string, team int, l *Counter, th Thresholds) (Flag, bool) {
	c := s.get(playerKey(u))
	if c.Games == 0 && e.Games[u] == 0 && !e.Carried[u] && l.Games >= th.SmurfAfter {
		c.New, c.Start = true, e.Before[u]
	}
	c.Games++
	if e.Winner == team {
		c.Wins++
	}
	if !c.New || c.Early >= th.SmurfGames {
		return Flag{}, false
	}
	return c.foldSmurf(e, u, team, l, th)
}

// foldPartner counts u's game with partner v. The gap that marks a boost
// is the partner's average rating against u's rating when they first
// played together: a boost lifts the boosted account's rating towards its
// partner's, so the gap at each game shrinks as the boost works, while
// the gap to where the account stood before stays. A boost also needs a
// booster: the partner was rated BoostLead above u already when they
// first played together (v's counter of the partnership keeps v's rating
// then). Without it, two players who start alike and win together would
// each be flagged as the other's booster, since both climb and each one's
// average partner is above where the other began: a fixed team that is
// simply good, as a premade pair of newcomers or a doubles partnership of
// a real history is. The lead is small, since a booster's rating may not
// have caught up with its play yet when the boost begins: simulated
// boosters who had played before were 52 to 270 points above their new
// accounts, fixed teams of newcomers 0 (docs/commands.md, "The booster's
// lead").
func (s State) foldPartner(e Entry, u, v string, team int, th Thresholds) (Flag, bool) {
	c := s.get(partnerKey(u, v))
	if c.N == 0 {
		c.From = e.Before[u]
	}
	c.N++
	if e.Winner == team {
		c.Wins++
	}
	c.Mate += e.Before[v]
	c.note(&c.Matches, e.MatchID)
	pl := s[playerKey(u)]
	if c.N < th.BoostGames || pl == nil || pl.Wins == 0 {
		return Flag{}, false
	}
	share := float64(c.Wins) / float64(pl.Wins)
	mate := c.Mate / float64(c.N)
	gap := mate - c.From
	// v's rating when they first played together: v's counter of the
	// partnership, folded with this one from their first game on (at
	// that game itself, when v's fold comes after u's, v's rating now).
	mateFrom := e.Before[v]
	if r := s[partnerKey(v, u)]; r != nil && r.N > 0 {
		mateFrom = r.From
	}
	if share < th.BoostShare || gap < th.BoostGap || mateFrom-c.From < th.BoostLead {
		return Flag{}, false
	}
	return Flag{Kind: KindBoost, Subjects: []string{u, v}, Matches: slices.Clone(c.Matches),
		Evidence: Evidence{Key: EvidenceBoost, Counts: map[string]int{"Wins": c.Wins, "PlayerWins": pl.Wins, "Games": c.N},
			Ratings: map[string]float64{"Mate": mate, "Gap": gap, "From": c.From, "Now": e.Before[u] + e.Delta[u]}},
		Score: share * gap}, true
}

func (s State) foldPair(e Entry, u, v string, th Thresholds) (Flag, bool) {
	a, b := u, v
	if b < a {
		a, b = b, a
	}
	c := s.get(pairKey(a, b))
	ta := e.teamOf(a)
	c.N++
	c.NetA += e.Delta[a]
	c.note(&c.Matches, e.MatchID)
	w := 0
	switch e.Winner {
	case 0:
	case ta:
		w = 1
		c.WinsA++
	default:
		w = 2
		c.WinsB++
	}
	if w != 0 {
		if c.Last != 0 && c.Last != w {
			c.Changes++
		}
		c.Last = w
		c.Decided++
	}
	if c.Decided < th.TradeMeetings {
		return Flag{}, false
	}
	n := float64(c.Decided)
	// Against matched (even) games: the sign test of the one-sided
	// results and the runs test of the alternating ones.
	oneSided := (math.Abs(float64(c.WinsA-c.WinsB)) / 2) / math.Sqrt(n/4)
	alt := (float64(c.Changes) - (n-1)/2) / math.Sqrt((n-1)/4)
	z := max(oneSided, alt)
	if z < th.TradeZ {
		return Flag{}, false
	}
	how := Evidence{Key: EvidenceTradeOneSided, Counts: map[string]int{"Meetings": c.N, "WinsA": c.WinsA, "WinsB": c.WinsB},
		Ratings: map[string]float64{"Points": math.Abs(c.NetA)}, Measures: map[string]float64{"Z": oneSided}, Player: leader(a, b, c.NetA)}
	if alt > oneSided {
		how = Evidence{Key: EvidenceTradeAlternating, Counts: map[string]int{"Meetings": c.N, "Changes": c.Changes, "Of": c.Decided - 1},
			Measures: map[string]float64{"Z": alt}}
	}
	return Flag{Kind: KindWinTrade, Subjects: []string{a, b}, Matches: slices.Clone(c.Matches), Evidence: how, Score: z}, true
}

// leader is the one of a pair the rating points moved to.
func leader(a, b string, netA float64) string {
	if netA >= 0 {
		return a
	}
	return b
}

// foldVotes counts reports that a moderator overturned against the
// reporter's own team and disputes a moderator settled as reported.
func (s State) foldVotes(e Entry, th Thresholds) []Flag {
	var flags []Flag
	if e.ReportedBy != "" && e.ReportedWinner >= 0 {
		c := s.get(playerKey(e.ReportedBy))
		c.Votes++
		own := e.teamOf(e.ReportedBy)
		// Reported their own team beaten, and a moderator found otherwise.
		if own != 0 && e.ResolvedBy != "" && e.ReportedWinner != own && e.ReportedWinner != e.Winner {
			c.Wrong++
			c.note(&c.Bad, e.MatchID)
			if c.Wrong >= th.WrongVotes {
				flags = append(flags, Flag{Kind: KindWrongVote, Subjects: []string{e.ReportedBy}, Matches: slices.Clone(c.Bad),
					Evidence: Evidence{Key: EvidenceWrongVote, Counts: map[string]int{"Wrong": c.Wrong, "Votes": c.Votes}},
					Score:    float64(c.Wrong)})
			}
		}
	}
	if e.DisputedBy != "" && e.ResolvedBy != "" {
		c := s.get(playerKey(e.DisputedBy))
		c.Disputs++
		if e.ReportedWinner == e.Winner {
			c.Lost++
			c.note(&c.Bad, e.MatchID)
			if c.Lost >= th.AbuseLost && float64(c.Lost) >= th.AbuseShare*float64(c.Disputs) {
				flags = append(flags, Flag{Kind: KindReportAbuse, Subjects: []string{e.DisputedBy}, Matches: slices.Clone(c.Bad),
					Evidence: Evidence{Key: EvidenceReportAbuse, Counts: map[string]int{"Lost": c.Lost, "Disputes": c.Disputs}},
					Score:    float64(c.Lost)})
			}
		}
	}
	return flags
}

// Subject is a flag's subjects joined, the key a flag is raised once under.
func Subject(users []string) string { return strings.Join(users, ",") }
