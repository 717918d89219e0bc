package formats

import (
	"math/rand/v2"
	"slices"
	"time"
)

// State is where a map pick is.
type State string

// Pick states: picking while votes or bans are taken, done once the map
// is chosen.
const (
	StatePicking State = "picking"
	StateDone    State = "done"
)

// Pick is the map pick of one game of a match (game 1 for a single game).
type Pick struct {
	MatchID int64
	Game    int
	GuildID string
	QueueID int64
	// Mode is vote, ban, random or loser (a queue picking by loser draws
	// its first game's map at random; a later game's is picked by Team).
	Mode  Mode
	State State
	// Pool is the queue's pool when the pick started, in pool order: an
	// admin's edit of the pool does not change a running pick.
	Pool []string
	// Banners are the players who ban for team 1 and team 2 (ban).
	Banners [2]string
	// Team is the team that lost the game before, for a later game of a
	// series: it picks the map (loser) or bans first (ban). 0 for the
	// first game, where team 1 bans first.
	Team int
	// Deadline is when the vote closes, or when the current ban is made
	// for its banner; zero once done.
	Deadline time.Time
	// Seed settles a tied vote, a timed-out ban and a random draw.
	Seed int64
	// Chosen is the map, once done.
	Chosen    string
	CreatedAt time.Time
	// ChannelID and MessageID are the message showing the pick, once
	// posted.
	ChannelID, MessageID string
	Votes                []Vote
	// Bans are in turn order.
	Bans []Ban
}

// Vote is one player's vote; a player who votes again changes it.
type Vote struct {
	UserID string
	Map    string
	At     time.Time
}

// Ban is one ban of a ban pick.
type Ban struct {
	// Turn numbers the bans from 0.
	Turn   int
	Team   int
	UserID string
	Map    string
	// Auto marks a ban the deadline made for its banner.
	Auto bool
	At   time.Time
}

// Left is the pool without the banned maps, in pool order.
func (p Pick) Left() []string {
	out := make([]string, 0, len(p.Pool))
	for _, name := range p.Pool {
		if !slices.ContainsFunc(p.Bans, func(b Ban) bool { return b.Map == name }) {
			out = append(out, name)
		}
	}
	return out
}

// Turn is the team that makes the next ban: team 1 first (the team that
// lost the game before, for a later game of a series), then alternately.
func (p Pick) Turn() int {
	first := 1
	if p.Team == 2 {
		first = 2
	}
	return (len(p.Bans)+first-1)%2 + 1
}

// Counts are the votes per map of the pool, in pool order.
func (p Pick) Counts() []int {
	out := make([]int, len(p.Pool))
	for _, v := range p.Votes {
		if i := slices.Index(p.Pool, v.Map); i >= 0 {
			out[i]++
		}
	}
	return out
}

// VoteOf is the map userID voted for, "" when none.
func (p Pick) VoteOf(userID string) string {
	for _, v := range p.Votes {
		if v.UserID == userID {
			return v.Map
		}
	}
	return ""
}

// rng is the pick's source of chance for draw number n: the seed, the
// game and n fix it, so a replay of the audit log draws the same.
func (p Pick) rng(n int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(p.Seed), uint64(p.Game)<<32|uint64(n)))
}

// Tally counts the votes: the map with the most wins; maps tied for the
// most (every map when nobody voted) are settled by the seed. It answers
// the winner and the tied maps (one when there was no tie).
func (p Pick) Tally() (string, []string) {
	counts := p.Counts()
	best := slices.Max(counts)
	var tied []string
	for i, n := range counts {
		if n == best {
			tied = append(tied, p.Pool[i])
		}
	}
	if len(tied) == 1 {
		return tied[0], tied
	}
	return tied[p.rng(0).IntN(len(tied))], tied
}

// Draw draws a map from the pool by the seed (random).
func (p Pick) Draw() string { return p.Pool[p.rng(0).IntN(len(p.Pool))] }

// AutoBan is the map banned for a banner whose time ran out: drawn from
// the maps left by the seed and the turn.
func (p Pick) AutoBan() string {
	left := p.Left()
	return left[p.rng(1+len(p.Bans)).IntN(len(left))]
}
