package ladder

import (
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"slices"
)

// Reads the web pages and the HTTP API need besides the ones the bot shares.

// Seasons returns a guild's seasons, by number ascending.
func (s *Service) Seasons(ctx context.Context, guildID string) ([]Season, error) {
	ss, err := s.store.Seasons(ctx, guildID)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ss, func(a, b Season) int { return a.Number - b.Number })
	return ss, nil
}

// PlayerNames returns the display names of the guild's known players among
// userIDs; unknown players are absent from the map.
func (s *Service) PlayerNames(ctx context.Context, guildID string, userIDs []string) (map[string]string, error) {
	names, err := s.store.PlayerNames(ctx, guildID, userIDs)
	if err != nil {
		return nil, fmt.Errorf("ladder: player names: %w", err)
	}
	return names, nil
}

// CurrentStandings returns the displayed rating of each of userIDs in a
// queue's ("" is the default) current season, in the order given; players
// without a rating row get the model's new-player rating. It is what
// balancing a lobby by player IDs needs.
func (s *Service) CurrentStandings(ctx context.Context, guildID, queue string, userIDs []string) ([]Standing, error) {
	for _, u := range userIDs {
		if err := validateUserID(u); err != nil {
			return nil, err
		}
	}
	g, err := s.store.Guild(ctx, guildID)
	if err != nil {
		return nil, err
	}
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return nil, err
	}
	season, err := s.store.CurrentSeason(ctx, guildID)
	if err != nil {
		return nil, err
	}
	model, err := modelFor(q)
	if err != nil {
		return nil, err
	}
	if len(userIDs) == 0 {
		return []Standing{}, nil // the guild and queue exist: that was the question
	}
	sorted := slices.Clone(userIDs)
	slices.Sort(sorted)
	rs, err := s.store.Ratings(ctx, Key{QueueID: q.ID, SeasonID: season.ID}, slices.Compact(sorted))
	if err != nil {
		return nil, fmt.Errorf("ladder: current standings: %w", err)
	}
	by := make(map[string]Rating, len(rs))
	for _, r := range rs {
		by[r.UserID] = r
	}
	out := make([]Standing, len(userIDs))
	for i, u := range userIDs {
		r, ok := by[u]
		if !ok {
			r = Rating{QueueID: q.ID, SeasonID: season.ID, UserID: u, State: model.New()}
			refresh(&r, model, g.PlacementGames)
		}
		out[i] = standingOf(g, model, r)
	}
	return out, nil
}

// PoolHealth is how well a ladder's predictions matched its results (seed
// 001 F6): the Brier score of the pre-match P(team 1 wins) of its latest
// rated matches. 0.25 means every match was a coin flip that the ratings
// called as one; lower means confident and right, higher confident and wrong.
type PoolHealth struct {
	Queue  string
	Season int
	// Matches is how many rated matches were scored (at most the limit asked).
	Matches int
	// Brier is mean((p − o)²), o ∈ {0, 0.5, 1}; 0 when Matches is 0.
	Brier float64
	// MeanAbsEdge is mean |p − 0.5|: how lopsided the matches were predicted to be.
	MeanAbsEdge float64
	// Accuracy is the share of decided matches whose favourite won (p = 0.5 counts half).
	Accuracy float64
}

// PoolHealth scores the latest limit (default 100, at most 5000) rated
// matches of a queue's ("" is the default) current season.
func (s *Service) PoolHealth(ctx context.Context, guildID, queue string, limit int) (PoolHealth, error) {
	if _, err := s.store.Guild(ctx, guildID); err != nil {
		return PoolHealth{}, err
	}
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return PoolHealth{}, err
	}
	season, err := s.store.CurrentSeason(ctx, guildID)
	if err != nil {
		return PoolHealth{}, err
	}
	ms, err := s.store.Matches(ctx, MatchFilter{GuildID: guildID, QueueID: q.ID, SeasonID: season.ID,
		States: []MatchState{StateConfirmed, StateResolved}, Limit: clampLimit(limit, 100, 5000)})
	if err != nil {
		return PoolHealth{}, fmt.Errorf("ladder: pool health: %w", err)
	}
	h := PoolHealth{Queue: q.Name, Season: season.Number}
	decided := 0
	for _, m := range ms {
		if m.Winner == NoResult {
			continue
		}
		o, p := Score(m.Winner), m.PTeam1
		h.Matches++
		h.Brier += (p - o) * (p - o)
		h.MeanAbsEdge += max(p-0.5, 0.5-p)
		if m.Winner != Draw {
			decided++
			switch {
			case p == 0.5:
				h.Accuracy += 0.5
			case (p > 0.5) == (m.Winner == 1):
				h.Accuracy++
			}
		}
	}
	if h.Matches > 0 {
		h.Brier /= float64(h.Matches)
		h.MeanAbsEdge /= float64(h.Matches)
	}
	if decided > 0 {
		h.Accuracy /= float64(decided)
	}
	return h, nil
}

// Partner is a teammate's record with a player.
type Partner struct {
	UserID string
	Games  int
	Wins   int
	Losses int
	Draws  int
}

// Partners returns whom a player teamed up with in the latest limit (default
// 200, at most 1000) rated matches of a queue and season (0: current),
// most games first, then most wins.
func (s *Service) Partners(ctx context.Context, guildID, queue string, season int, userID string, limit int) ([]Partner, error) {
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return nil, err
	}
	se, err := resolveSeason(ctx, s.store, guildID, season)
	if err != nil {
		return nil, err
	}
	ms, err := s.store.Matches(ctx, MatchFilter{GuildID: guildID, QueueID: q.ID, SeasonID: se.ID, UserID: userID,
		States: []MatchState{StateConfirmed, StateResolved}, Limit: clampLimit(limit, 200, 1000)})
	if err != nil {
		return nil, fmt.Errorf("ladder: partners: %w", err)
	}
	by := map[string]*Partner{}
	var out []*Partner
	for _, m := range ms {
		t := m.Team(userID)
		if t == 0 || m.Winner == NoResult {
			continue
		}
		for _, u := range m.Teams[t-1] {
			if u == userID {
				continue
			}
			p := by[u]
			if p == nil {
				p = &Partner{UserID: u}
				by[u] = p
				out = append(out, p)
			}
			p.Games++
			switch {
			case m.Winner == Draw:
				p.Draws++
			case m.Winner == t:
				p.Wins++
			default:
				p.Losses++
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *Partner) int {
		if a.Games != b.Games {
			return b.Games - a.Games
		}
		return b.Wins - a.Wins
	})
	res := make([]Partner, len(out))
	for i, p := range out {
		res[i] = *p
	}
	return res, nil
}

// logScore is the score a match's row carries in the match log: its
// series score when its winner leads it, as the format reads it back. A
// queue rating each game rates its series' row as the last game, whose
// winner need not lead the series once a moderator corrected an earlier
// game: that row goes as the one game it was rated as, without a score.
func logScore(m Match) string {
	a, b, ok := rating.ParseSeriesScore(m.Score)
	if !ok || (m.Winner == 1) != (a > b) || (m.Winner == 2) != (b > a) {
		return ""
	}
	return m.Score
}

// MatchLog returns the rated matches of a guild's queue ("" is the default)
// as match CSV records (docs/spec.md 2.3) in replay order, numbered from 0: one
// season when season > 0, every season oldest first when it is 0.
func (s *Service) MatchLog(ctx context.Context, guildID, queue string, season int) ([]rating.MatchRecord, error) {
	if _, err := s.store.Guild(ctx, guildID); err != nil {
		return nil, err
	}
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return nil, err
	}
	seasons, err := s.Seasons(ctx, guildID)
	if err != nil {
		return nil, err
	}
	if season > 0 {
		i := slices.IndexFunc(seasons, func(se Season) bool { return se.Number == season })
		if i < 0 {
			return nil, Errorf(CodeNotFound, "season %d not found", season)
		}
		seasons = seasons[i : i+1]
	}
	var out []rating.MatchRecord
	for _, se := range seasons {
		ms, err := s.store.RatedMatches(ctx, Key{QueueID: q.ID, SeasonID: se.ID}, 0)
		if err != nil {
			return nil, fmt.Errorf("ladder: match log: %w", err)
		}
		maps, err := s.seriesMaps(ctx, ms)
		if err != nil {
			return nil, fmt.Errorf("ladder: match log: %w", err)
		}
		for _, m := range ms {
			out = append(out, rating.MatchRecord{Seq: len(out), Date: m.PlayedAt, Team1: m.Teams[0], Team2: m.Teams[1], Winner: m.Winner, Map: m.Map,
				SeriesScore: logScore(m), Maps: maps[m.ID]})
		}
	}
	// Names go along so that an export imports elsewhere with them.
	var ids []string
	for _, r := range out {
		ids = append(ids, r.Team1...)
		ids = append(ids, r.Team2...)
	}
	slices.Sort(ids)
	names, err := s.PlayerNames(ctx, guildID, slices.Compact(ids))
	if err != nil {
		return nil, fmt.Errorf("ladder: match log: %w", err)
	}
	for i, r := range out {
		for _, u := range append(slices.Clone(r.Team1), r.Team2...) {
			if n := names[u]; n != "" {
				if out[i].Names == nil {
					out[i].Names = map[string]string{}
				}
				out[i].Names[u] = n
			}
		}
	}
	return out, nil
}
