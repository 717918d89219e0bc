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
	// TopPair are the two best-listed players of the ladder other than A
	// and B, and PTogetherWins the model's chance that A and B as partners
	// beat them (the queue's team size allowing pairs); both empty when
	// the ladder lists fewer than two others or its teams are 1v1.
	TopPair       []Side
	PTogetherWins float64
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
	if err := s.againstTopPair(ctx, &c, m, sa, sb); err != nil {
		return Comparison{}, err
	}
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

// againstTopPair sets the chance of A and B as partners against the
// ladder's top pair: the two best-listed players who are neither.
func (s *Service) againstTopPair(ctx context.Context, c *Comparison, m rating.Model, sa, sb rating.State) error {
	if c.Queue.TeamSize < 2 {
		return nil
	}
	page, err := s.ladder.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: c.Queue.GuildID, Queue: c.Queue.Name, Season: c.Season.Number, Limit: 4})
	if err != nil {
		return err
	}
	var ids []string
	for _, st := range page.Standings {
		if st.UserID != c.A.UserID && st.UserID != c.B.UserID && len(ids) < 2 {
			ids = append(ids, st.UserID)
		}
	}
	if len(ids) < 2 {
		return nil
	}
	rows, err := s.store.CommunityRatings(ctx, c.Queue.GuildID, c.Queue.ID, c.Season.ID, ids)
	if err != nil {
		return err
	}
	names, err := s.store.PlayerNames(ctx, c.Queue.GuildID, ids)
	if err != nil {
		return err
	}
	var top []rating.State
	for _, id := range ids {
		r, ok := rows[id]
		if !ok {
			return nil
		}
		c.TopPair = append(c.TopPair, Side{UserID: id, Name: names[id], Rated: true, Rating: r.Display, RD: r.RD, Games: r.State.Games, Record: r.Record, Streak: r.Streak})
		top = append(top, r.State)
	}
	c.PTogetherWins = m.Predict([]rating.State{sa, sb}, top, s.now().UTC())
	return nil
}
