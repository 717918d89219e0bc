package community

import (
	"context"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// MinPartnerGames is how many rated matches two players must play on the
// same team before their partnership is ranked.
const MinPartnerGames = 5

// Stats are a ladder's server statistics.
type Stats struct {
	Ladder
	// Active are the players with the most rated matches this season.
	Active []PlayerCount
	// Streaks are the longest current win streaks; BestStreaks the
	// longest runs of wins of the season, ended or not.
	Streaks     []PlayerCount
	BestStreaks []PlayerCount
	// Upsets are the won matches whose winners had the lowest pre-match
	// chance; Chance is that chance.
	Upsets []Upset
	// Partnerships are the best records of pairs with at least
	// MinPartnerGames together.
	Partnerships []Partnership
	// Predictors are the season's best predictors (queues with
	// predictions), MVPs the players with the most MVP titles (queues
	// with the MVP vote).
	Predictors []PredictorRow
	MVPs       []MVPRow
	// Improved are the players whose rating rose most over the last
	// ImprovedWindow.
	Improved []Improvement
	// Hours are the season's rated matches by weekday and hour (UTC).
	Hours Hours
}

// ImprovedWindow is the window of "most improved".
const ImprovedWindow = 30 * 24 * time.Hour

// Upset is a match its winners were expected to lose.
type Upset struct {
	MatchSummary
	Chance float64
}

// Stats returns the statistics of a guild's queue (by name, "" the first)
// and season (0 the current one), at most limit entries per list.
func (s *Service) Stats(ctx context.Context, guildID, queue string, season, limit int) (Stats, error) {
	if limit < 1 || limit > MaxPage {
		return Stats{}, ladder.Errorf(ladder.CodeInvalid, "limit must be from 1 to %d, not %d", MaxPage, limit)
	}
	l, err := s.resolve(ctx, guildID, queue, season)
	if err != nil {
		return Stats{}, err
	}
	st := Stats{Ladder: l}
	q, se := l.Queue.ID, l.Season.ID
	if st.Active, err = s.store.CommunityActive(ctx, guildID, q, se, limit); err != nil {
		return Stats{}, err
	}
	if st.Streaks, err = s.store.CommunityStreaks(ctx, guildID, q, se, limit); err != nil {
		return Stats{}, err
	}
	if st.BestStreaks, err = s.store.CommunityBestStreaks(ctx, guildID, q, se, limit); err != nil {
		return Stats{}, err
	}
	ups, err := s.store.CommunityUpsets(ctx, guildID, q, se, limit)
	if err != nil {
		return Stats{}, err
	}
	for _, m := range ups {
		c := m.PTeam1
		if m.Winner == 2 {
			c = 1 - c
		}
		st.Upsets = append(st.Upsets, Upset{MatchSummary: m, Chance: c})
	}
	if st.Partnerships, err = s.store.CommunityPartnerships(ctx, guildID, q, se, MinPartnerGames, limit); err != nil {
		return Stats{}, err
	}
	if st.Predictors, err = s.social.Predictors(ctx, guildID, q, se, limit); err != nil {
		return Stats{}, err
	}
	if st.MVPs, err = s.social.MVPs(ctx, guildID, q, se, "", limit); err != nil {
		return Stats{}, err
	}
	if st.Improved, err = s.store.CommunityImproved(ctx, guildID, q, se, s.now().Add(-ImprovedWindow), limit); err != nil {
		return Stats{}, err
	}
	if st.Hours, err = s.store.CommunityHours(ctx, guildID, q, se); err != nil {
		return Stats{}, err
	}
	return st, nil
}
