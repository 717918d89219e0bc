package ladder

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// LeaderboardQuery selects a leaderboard page (docs/spec.md 6, 7).
type LeaderboardQuery struct {
	GuildID string
	// Queue is a queue name; "" is the default queue.
	Queue string
	// Season is a season number; 0 is the current season.
	Season int
	// Division restricts to one division by name; "" is all.
	Division string
	// Limit is the page size: default 50, at most 200.
	Limit int
	// After is the Next cursor of the previous page; "" is the first page.
	After string
}

// LeaderboardPage is one page of listed players; provisional and stale
// players are not listed (docs/spec.md 4).
type LeaderboardPage struct {
	Guild     Guild
	Queue     Queue
	Season    Season
	Standings []Standing
	// Next is the cursor of the next page, "" on the last page.
	Next string
}

// Leaderboard returns one page of a ladder's standings by displayed rating,
// paged by keyset (the cursor carries the rank, so every page costs the same).
func (s *Service) Leaderboard(ctx context.Context, q LeaderboardQuery) (LeaderboardPage, error) {
	g, err := s.store.Guild(ctx, q.GuildID)
	if err != nil {
		return LeaderboardPage{}, err
	}
	queue, err := resolveQueue(ctx, s.store, q.GuildID, q.Queue)
	if err != nil {
		return LeaderboardPage{}, err
	}
	season, err := resolveSeason(ctx, s.store, q.GuildID, q.Season)
	if err != nil {
		return LeaderboardPage{}, err
	}
	// One model per page: every row's GXE is the queue model's (ModelGXE).
	model, err := modelFor(queue)
	if err != nil {
		return LeaderboardPage{}, err
	}
	bq := BoardQuery{Key: Key{QueueID: queue.ID, SeasonID: season.ID}, Min: -1e308, Max: 1e308, Limit: clampLimit(q.Limit, 50, 200)}
	if q.Division != "" {
		lo, hi, ok := DivisionRange(g.Divisions, q.Division)
		if !ok {
			return LeaderboardPage{}, Errorf(CodeInvalid, "no division called %q", q.Division)
		}
		bq.Min, bq.Max = lo, hi
	}
	rank := 0
	if q.After != "" {
		c, err := parseCursor(q.After)
		if err != nil {
			return LeaderboardPage{}, err
		}
		bq.HasAfter, bq.AfterDisplay, bq.AfterUser, rank = true, c.display, c.user, c.rank
	} else if q.Division != "" {
		// Ranks are overall ranks; a division's first page counts who is above it.
		if rank, err = s.store.CountAbove(ctx, BoardQuery{Key: bq.Key, Min: -1e308, Max: 1e308}, bq.Max, ""); err != nil {
			return LeaderboardPage{}, err
		}
	}
	// One row more than the page shows says whether another page follows:
	// a page that ends on the last player gets no Next, which would lead
	// to an empty page.
	limit := bq.Limit
	bq.Limit++
	rows, err := s.store.Board(ctx, bq)
	if err != nil {
		return LeaderboardPage{}, err
	}
	more := len(rows) > limit
	rows = rows[:min(len(rows), limit)]
	page := LeaderboardPage{Guild: g, Queue: queue, Season: season, Standings: make([]Standing, 0, len(rows))}
	for _, r := range rows {
		rank++
		st := standingOf(g, model, r.Rating)
		st.Rank, st.Name = rank, r.Name
		page.Standings = append(page.Standings, st)
	}
	if more {
		last := rows[len(rows)-1]
		page.Next = boardCursor{rank: rank, display: last.Display, user: last.UserID}.String()
	}
	return page, nil
}

// boardCursor is the keyset position after a leaderboard row.
type boardCursor struct {
	rank    int
	display float64
	user    string
}

func (c boardCursor) String() string {
	raw := strconv.Itoa(c.rank) + "|" + strconv.FormatFloat(c.display, 'g', -1, 64) + "|" + c.user
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// maxCursorRank bounds the rank a cursor may carry: far more players than
// any ladder has, and small enough that counting on from it never
// overflows.
const maxCursorRank = 10_000_000

// parseCursor reads an after cursor. Cursors are not signed, so a client
// can forge one; it is refused unless it is exactly what String would
// write for a sane position: rank 1..maxCursorRank, a finite display within
// ±1e9 and a valid player ID (a forged rank once printed
// "rank": -9223372036854775808, and NaN was accepted). A forged cursor that
// passes only moves the caller's own page.
func parseCursor(s string) (boardCursor, error) {
	bad := Errorf(CodeInvalid, "malformed page cursor %q; use the \"next\" value of the previous page", s)
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return boardCursor{}, bad
	}
	parts := strings.SplitN(string(raw), "|", 3)
	if len(parts) != 3 {
		return boardCursor{}, bad
	}
	rank, err1 := strconv.Atoi(parts[0])
	display, err2 := strconv.ParseFloat(parts[1], 64)
	if err1 != nil || err2 != nil || rank < 1 || rank > maxCursorRank ||
		math.IsNaN(display) || math.IsInf(display, 0) || math.Abs(display) > 1e9 || validateUserID(parts[2]) != nil {
		return boardCursor{}, bad
	}
	c := boardCursor{rank: rank, display: display, user: parts[2]}
	if c.String() != s {
		return boardCursor{}, bad
	}
	return c, nil
}

// ProfileQuery selects a player's profile.
type ProfileQuery struct {
	GuildID string
	UserID  string
	Queue   string
	Season  int
	// History is how many latest history points to return: default 50, at most 1000.
	History int
	// Recent is how many latest matches to return: default 5, at most 50.
	Recent int
}

// Profile returns a player's standing in a ladder, with rank when listed,
// rating history and recent matches. A known player without games in the
// ladder gets the model's new-player rating, provisional. A user the guild
// has never seen gives CodeNotFound.
func (s *Service) Profile(ctx context.Context, q ProfileQuery) (Profile, error) {
	g, err := s.store.Guild(ctx, q.GuildID)
	if err != nil {
		return Profile{}, err
	}
	p, err := s.store.Player(ctx, q.GuildID, q.UserID)
	if err != nil {
		return Profile{}, err
	}
	queue, err := resolveQueue(ctx, s.store, q.GuildID, q.Queue)
	if err != nil {
		return Profile{}, err
	}
	season, err := resolveSeason(ctx, s.store, q.GuildID, q.Season)
	if err != nil {
		return Profile{}, err
	}
	model, err := modelFor(queue)
	if err != nil {
		return Profile{}, err
	}
	k := Key{QueueID: queue.ID, SeasonID: season.ID}
	rs, err := s.store.Ratings(ctx, k, []string{q.UserID})
	if err != nil {
		return Profile{}, err
	}
	r := Rating{QueueID: queue.ID, SeasonID: season.ID, UserID: q.UserID, State: model.New()}
	refresh(&r, model, g.PlacementGames)
	if len(rs) == 1 {
		r = rs[0]
	}
	st := standingOf(g, model, r)
	st.Name = p.Name
	if !r.Provisional && !r.Stale {
		above, err := s.store.CountAbove(ctx, BoardQuery{Key: k, Min: -1e308, Max: 1e308}, r.Display, r.UserID)
		if err != nil {
			return Profile{}, err
		}
		st.Rank = above + 1
	}
	cs, err := s.store.PlayerChanges(ctx, k, q.UserID, clampLimit(q.History, 50, 1000))
	if err != nil {
		return Profile{}, err
	}
	prof := Profile{GuildID: g.ID, Queue: queue, Season: season, Standing: st,
		Placement: min(r.State.Games, g.PlacementGames), PlacementGames: g.PlacementGames,
		Listing: listingOf(g, queue, model, r, s.now())}
	for _, c := range cs {
		before, _ := model.Display(c.Before)
		after, dev := model.Display(c.After)
		prof.History = append(prof.History, HistoryPoint{MatchID: c.MatchID, At: c.At, Rating: after, RD: dev, Delta: after - before})
	}
	if prof.Recent, err = s.store.Matches(ctx, MatchFilter{GuildID: g.ID, UserID: q.UserID, QueueID: queue.ID, SeasonID: season.ID, Limit: clampLimit(q.Recent, 5, 50)}); err != nil {
		return Profile{}, fmt.Errorf("ladder: profile: %w", err)
	}
	return prof, nil
}
