// Package community answers the questions players ask about each other and
// their server from the ladder's stored log: head-to-head comparisons,
// paged match history and server statistics. It only reads; every answer
// is computed from the matches, match_players, ratings and players rows
// through the narrow Store below, so it adds nothing to the match path.
package community

import (
	"context"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// Store is what the community reads need from the database. Every method
// is scoped to one guild or to a queue and season of one guild, so a
// request naming another guild's IDs finds nothing.
type Store interface {
	SocialStore
	// PlayerNames returns the names of the guild's known players among
	// userIDs; unknown players are absent.
	PlayerNames(ctx context.Context, guildID string, userIDs []string) (map[string]string, error)
	// CommunityRatings returns the rating rows of userIDs on one ladder
	// (queue and season of guildID); players without one are absent.
	CommunityRatings(ctx context.Context, guildID string, queueID, seasonID int64, userIDs []string) (map[string]RatingRow, error)
	// CommunityMeetings returns the rated matches of one ladder that both
	// a and b played, newest first, with the team of each.
	CommunityMeetings(ctx context.Context, guildID string, queueID, seasonID int64, a, b string) ([]Meeting, error)
	// CommunityMatches returns one page of a guild's rated matches, newest
	// first, with their teams (see MatchFilter).
	CommunityMatches(ctx context.Context, f MatchFilter) ([]MatchSummary, error)
	// CommunityActive returns the players of a ladder with the most rated
	// matches (wins + losses + draws), most first.
	CommunityActive(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]PlayerCount, error)
	// CommunityStreaks returns the players of a ladder on the longest
	// current win streaks (streak > 0), longest first.
	CommunityStreaks(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]PlayerCount, error)
	// CommunityBestStreaks returns the players of a ladder with the
	// longest runs of wins this season, a run still going included,
	// longest first.
	CommunityBestStreaks(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]PlayerCount, error)
	// CommunityUpsets returns a ladder's won matches whose winning side had
	// the lowest pre-match win chance, lowest first, with their teams.
	CommunityUpsets(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]MatchSummary, error)
	// CommunityPartnerships returns the pairs of players of a ladder that
	// played at least minGames rated matches on the same team, best win
	// rate first (then most games).
	CommunityPartnerships(ctx context.Context, guildID string, queueID, seasonID int64, minGames, limit int) ([]Partnership, error)
	// CommunityImproved returns the players of a ladder whose rating rose
	// most over their rated matches since since (the last rating minus
	// the rating before the first), most first, risers only.
	CommunityImproved(ctx context.Context, guildID string, queueID, seasonID int64, since time.Time, limit int) ([]Improvement, error)
	// CommunityHours counts a ladder's rated matches by weekday (0 is
	// Sunday) and hour of play, UTC.
	CommunityHours(ctx context.Context, guildID string, queueID, seasonID int64) (Hours, error)
}

// Improvement is a player's rating change over a window.
type Improvement struct {
	UserID   string
	Name     string
	From, To float64
	Games    int
}

// Gain is the rating gained.
func (i Improvement) Gain() float64 { return i.To - i.From }

// Hours counts matches by weekday (0 Sunday … 6 Saturday) and UTC hour.
type Hours [7][24]int

// RatingRow is the part of a stored rating row the comparisons read.
type RatingRow struct {
	State   rating.State
	Display float64
	RD      float64
	Record  Record
	Streak  int
}

// Record counts results from one player's (or one pair's) side.
type Record struct {
	Wins, Losses, Draws int
}

// Games is the number of results in the record.
func (r Record) Games() int { return r.Wins + r.Losses + r.Draws }

// add counts a result: winner is the match's winner value, team the side
// counted.
func (r *Record) add(winner, team int) {
	switch winner {
	case ladder.Draw:
		r.Draws++
	case team:
		r.Wins++
	default:
		r.Losses++
	}
}

// Meeting is a rated match two players both played.
type Meeting struct {
	MatchID int64
	At      time.Time
	Winner  int
	// TeamA and TeamB are the teams (1 or 2) of the two players.
	TeamA, TeamB int
}

// MatchFilter selects a page of a guild's rated matches. Zero fields do not
// filter. Before pages to older matches (IDs below it) and After to newer
// ones (IDs above it); the page is newest first either way.
type MatchFilter struct {
	GuildID  string
	UserID   string
	QueueID  int64
	SeasonID int64
	Before   int64
	After    int64
	// From and To, when set, keep matches played (else created) at or after From and
	// before To.
	From, To time.Time
	Limit    int
}

// MatchSummary is one rated match as lists show it.
type MatchSummary struct {
	ID       int64
	QueueID  int64
	SeasonID int64
	State    string
	Winner   int
	// PTeam1 is the pre-match chance that team 1 wins.
	PTeam1 float64
	At     time.Time
	Team1  []string
	Team2  []string
}

// PlayerCount is a player with one number: matches played or a streak.
type PlayerCount struct {
	UserID string
	Name   string
	Count  int
}

// Partnership is two players' record on the same team.
type Partnership struct {
	A, B         string
	NameA, NameB string
	Record
}

// Service answers the community reads. The ladder service resolves queues
// and seasons exactly as the rest of the bot does.
type Service struct {
	store  Store
	social SocialStore
	ladder *ladder.Service
	now    func() time.Time
}

// New returns a Service reading store, resolving names through svc.
func New(store Store, svc *ladder.Service) *Service {
	return &Service{store: store, social: store, ladder: svc, now: svc.Now}
}

// Ladder is a resolved queue and season.
type Ladder struct {
	Queue  ladder.Queue
	Season ladder.Season
}

// resolve finds a guild's queue by name ("" is the first queue) and season
// by number (0 is the running one, or the latest when none runs).
func (s *Service) resolve(ctx context.Context, guildID, queue string, season int) (Ladder, error) {
	if err := checkSnowflake("guild", guildID); err != nil {
		return Ladder{}, err
	}
	if season < 0 {
		return Ladder{}, ladder.Errorf(ladder.CodeInvalid, "season must be a positive number, not %d", season)
	}
	qs, err := s.ladder.Queues(ctx, guildID)
	if err != nil {
		return Ladder{}, err
	}
	var l Ladder
	for _, q := range qs {
		if (queue == "" && l.Queue.ID == 0) || strings.EqualFold(q.Name, queue) {
			l.Queue = q
		}
	}
	if l.Queue.ID == 0 {
		if queue == "" {
			return Ladder{}, ladder.Errorf(ladder.CodeNotFound, "this server has no queue")
		}
		return Ladder{}, ladder.Errorf(ladder.CodeNotFound, "queue %q not found", queue)
	}
	ss, err := s.ladder.Seasons(ctx, guildID)
	if err != nil {
		return Ladder{}, err
	}
	for _, se := range ss {
		if se.Number == season || (season == 0 && se.Running()) {
			l.Season = se
		}
	}
	if season == 0 && l.Season.ID == 0 && len(ss) > 0 {
		l.Season = ss[len(ss)-1] // no season runs: the latest
	}
	if l.Season.ID == 0 {
		if season == 0 {
			return Ladder{}, ladder.Errorf(ladder.CodeNotFound, "this server has no season")
		}
		return Ladder{}, ladder.Errorf(ladder.CodeNotFound, "season %d not found", season)
	}
	return l, nil
}

// checkSnowflake refuses anything but a Discord ID (1 to 20 digits).
func checkSnowflake(what, id string) error {
	ok := len(id) >= 1 && len(id) <= 20
	for _, c := range id {
		ok = ok && c >= '0' && c <= '9'
	}
	if !ok {
		return ladder.Errorf(ladder.CodeInvalid, "%s must be a Discord ID (digits only), not %q", what, clip(id))
	}
	return nil
}

// known refuses a player the guild has never seen, naming them.
func (s *Service) known(ctx context.Context, guildID string, ids ...string) (map[string]string, error) {
	for _, id := range ids {
		if err := checkSnowflake("player", id); err != nil {
			return nil, err
		}
	}
	names, err := s.store.PlayerNames(ctx, guildID, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := names[id]; !ok {
			return nil, ladder.Errorf(ladder.CodeNotFound, "player %s has not played on this server", id)
		}
	}
	return names, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
