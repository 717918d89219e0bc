package community

import (
	"context"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// LastMeetings is how many of two players' latest meetings a comparison lists.
const LastMeetings = 5

// Side is one player of a comparison on the compared ladder.
type Side struct {
	UserID string
	Name   string
	// Rated is false when the player has no rating on this ladder yet; the
	// rating shown is then a new player's.
	Rated  bool
	Rating float64
	RD     float64
	Games  int
	Record Record
	Streak int
}

// Comparison is two players side by side on one ladder.
type Comparison struct {
	Ladder
	A, B Side
	// Together is their record as partners (on the same team).
	Together Record
	// Against is A's record against B (on opposite teams).
	Against Record
	// Last are their latest meetings on opposite teams, newest first, at
	// most LastMeetings (ResultFor with TeamA gives A's result).
	Last []Meeting
	// PAWins is the queue model's chance that A beats B one on one with
	// their current states.
	PAWins float64
}

// Compare compares players a and b on a guild's queue (by name, "" the
// first) and season (0 the current one).
func (s *Service) Compare(ctx context.Context, guildID, a, b, queue string, season int) (Comparison, error) {
	if a == b {
		if err := checkSnowflake("player", a); err != nil {
			return Comparison{}, err
		}
		return Comparison{}, ladder.Errorf(ladder.CodeInvalid, "pick two different players to compare")
	}
	l, err := s.resolve(ctx, guildID, queue, season)
	if err != nil {
		return Comparison{}, err
	}
	names, err := s.known(ctx, guildID, a, b)
	if err != nil {
		return Comparison{}, err
	}
	m, err := rating.NewModel(l.Queue.Model, l.Queue.Params)
	if err != nil {
		return Comparison{}, err
	}
	rows, err := s.store.CommunityRatings(ctx, guildID, l.Queue.ID, l.Season.ID, []string{a, b})
	if err != nil {
		return Comparison{}, err
	}
	side := func(id string) (Side, rating.State) {
		out := Side{UserID: id, Name: names[id]}
		r, ok := rows[id]
		if !ok {
			st := m.New()
			out.Rating, out.RD = m.Display(st)
			return out, st
		}
		out.Rated, out.Rating, out.RD, out.Games, out.Record, out.Streak = true, r.Display, r.RD, r.State.Games, r.Record, r.Streak
		return out, r.State
	}
	c := Comparison{Ladder: l}
	var sa, sb rating.State
	c.A, sa = side(a)
	c.B, sb = side(b)
	c.PAWins = m.Predict([]rating.State{sa}, []rating.State{sb}, s.now().UTC())
	ms, err := s.store.CommunityMeetings(ctx, guildID, l.Queue.ID, l.Season.ID, a, b)
	if err != nil {
		return Comparison{}, err
	}
	for _, mt := range ms {
		if mt.TeamA == mt.TeamB {
			c.Together.add(mt.Winner, mt.TeamA)
			continue
		}
		c.Against.add(mt.Winner, mt.TeamA)
		if len(c.Last) < LastMeetings {
			c.Last = append(c.Last, mt)
		}
	}
	return c, nil
}

// ResultFor is a meeting's result for the player on team: "win", "loss"
// or "draw".
func ResultFor(winner, team int) string {
	switch winner {
	case ladder.Draw:
		return "draw"
	case team:
		return "win"
	}
	return "loss"
}
