package community

import (
	"context"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// History page sizes: the default and the largest a request may ask for.
const (
	DefaultPage = 10
	MaxPage     = 100
)

// HistoryQuery selects a page of a guild's rated matches. Player, Queue
// and Season filter when set (Season 0: every season). Before pages to
// older matches, After to newer ones; at most one of them is set.
type HistoryQuery struct {
	GuildID string
	Player  string
	Queue   string
	Season  int
	Before  int64
	After   int64
	// From and To, when set, keep matches played (else created) at or after From and
	// before To (the web page's dates).
	From, To time.Time
	Limit    int
}

// HistoryMatch is a listed match with its queue's name and season number.
type HistoryMatch struct {
	MatchSummary
	Queue  string
	Season int
}

// HistoryPage is one page of matches, newest first. Older is the Before
// cursor of the next (older) page and Newer the After cursor of the
// previous (newer) page; 0 when there is no such page.
type HistoryPage struct {
	Matches []HistoryMatch
	Older   int64
	Newer   int64
	// QueueID is the filtered queue's ID, 0 for every queue.
	QueueID int64
}

// History returns one page of a guild's rated matches.
func (s *Service) History(ctx context.Context, q HistoryQuery) (HistoryPage, error) {
	if err := checkSnowflake("guild", q.GuildID); err != nil {
		return HistoryPage{}, err
	}
	switch {
	case q.Limit == 0:
		q.Limit = DefaultPage
	case q.Limit < 1 || q.Limit > MaxPage:
		return HistoryPage{}, ladder.Errorf(ladder.CodeInvalid, "limit must be from 1 to %d, not %d", MaxPage, q.Limit)
	}
	if q.Before < 0 || q.After < 0 || (q.Before > 0 && q.After > 0) {
		return HistoryPage{}, ladder.Errorf(ladder.CodeInvalid, "page with one positive match ID: before or after, not both")
	}
	if q.Season < 0 {
		return HistoryPage{}, ladder.Errorf(ladder.CodeInvalid, "season must be a positive number, not %d", q.Season)
	}
	if !q.From.IsZero() && !q.To.IsZero() && !q.To.After(q.From) {
		return HistoryPage{}, ladder.Errorf(ladder.CodeInvalid, "the end date must be after the start date")
	}
	f := MatchFilter{GuildID: q.GuildID, Before: q.Before, After: q.After, From: q.From, To: q.To, Limit: q.Limit + 1}
	qs, err := s.ladder.Queues(ctx, q.GuildID)
	if err != nil {
		return HistoryPage{}, err
	}
	queueNames := map[int64]string{}
	for _, qu := range qs {
		queueNames[qu.ID] = qu.Name
	}
	if q.Queue != "" {
		l, err := s.resolve(ctx, q.GuildID, q.Queue, 0)
		if err != nil {
			return HistoryPage{}, err
		}
		f.QueueID = l.Queue.ID
	}
	ss, err := s.ladder.Seasons(ctx, q.GuildID)
	if err != nil {
		return HistoryPage{}, err
	}
	seasonNumbers := map[int64]int{}
	for _, se := range ss {
		seasonNumbers[se.ID] = se.Number
		if se.Number == q.Season {
			f.SeasonID = se.ID
		}
	}
	if q.Season > 0 && f.SeasonID == 0 {
		return HistoryPage{}, ladder.Errorf(ladder.CodeNotFound, "season %d not found", q.Season)
	}
	if q.Player != "" {
		if _, err := s.known(ctx, q.GuildID, q.Player); err != nil {
			return HistoryPage{}, err
		}
		f.UserID = q.Player
	}
	ms, err := s.store.CommunityMatches(ctx, f)
	if err != nil {
		return HistoryPage{}, err
	}
	p := HistoryPage{QueueID: f.QueueID}
	more := len(ms) > q.Limit
	if more {
		if q.After > 0 {
			ms = ms[1:] // newest first: the extra one is the newest
		} else {
			ms = ms[:q.Limit]
		}
	}
	for _, m := range ms {
		p.Matches = append(p.Matches, HistoryMatch{MatchSummary: m, Queue: queueNames[m.QueueID], Season: seasonNumbers[m.SeasonID]})
	}
	if len(ms) == 0 {
		return p, nil
	}
	// The extra match read tells whether a page lies further in the
	// direction of travel; one more read of a single match tells whether
	// one lies the other way.
	newest, oldest := ms[0].ID, ms[len(ms)-1].ID
	if (q.After == 0 && more) || (q.After > 0 && s.exists(ctx, f, oldest, 0)) {
		p.Older = oldest
	}
	if (q.After > 0 && more) || (q.After == 0 && s.exists(ctx, f, 0, newest)) {
		p.Newer = newest
	}
	return p, nil
}

// exists reports whether a match of the filter lies below before or above
// after. A failed read answers false: the page is still right, only its
// button is missing.
func (s *Service) exists(ctx context.Context, f MatchFilter, before, after int64) bool {
	f.Before, f.After, f.Limit = before, after, 1
	ms, err := s.store.CommunityMatches(ctx, f)
	return err == nil && len(ms) > 0
}
