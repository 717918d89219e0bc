package ladder

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// The board lists only some players (docs/spec.md 4). An operator who imports a
// history of 1,800 players and sees 136 needs to know why the others are
// missing, and a player marked "unranked" needs to know what lists them;
// this file answers both from the same rules the board applies.

// Unlisted counts a ladder's rated players by whether the board lists them
// and, if not, by the first rule that hides them: placement games, then
// deviation, then inactivity. The counts add up to Players.
type Unlisted struct {
	// Players is how many players have a rating row in the ladder.
	Players int
	// Listed are on the board.
	Listed int
	// Placement have fewer than PlacementGames rated matches.
	Placement int
	// HighRD have played their placement games but their deviation is
	// above ProvisionalRD.
	HighRD int
	// Stale are flagged inactive by the daily job (StaleDays without a match).
	Stale int
	// StaleDue are listed now but their last match is more than StaleDays
	// old, so the next stale run (at `ladderbot run` start and then daily)
	// hides them: an imported history's usual fate. Zero for ended seasons.
	StaleDue int
	// The guild's rules, for sentences that name them.
	PlacementGames int
	StaleDays      int
}

// Hidden is how many players the board does not list.
func (u Unlisted) Hidden() int { return u.Placement + u.HighRD + u.Stale }

// String says how many players are hidden and why, e.g. "12 players
// hidden: 9 in placement (fewer than 5 games), 2 with RD above 100, 1
// inactive for 30+ days"; "" when nobody is hidden.
func (u Unlisted) String() string {
	if u.Hidden() == 0 {
		return ""
	}
	var why []string
	if u.Placement > 0 {
		why = append(why, fmt.Sprintf("%d in placement (fewer than %d games)", u.Placement, u.PlacementGames))
	}
	if u.HighRD > 0 {
		why = append(why, fmt.Sprintf("%d with RD above %d", u.HighRD, ProvisionalRD))
	}
	if u.Stale > 0 {
		why = append(why, fmt.Sprintf("%d inactive for %d+ days", u.Stale, u.StaleDays))
	}
	return fmt.Sprintf("%s hidden: %s", plural(u.Hidden(), "player"), strings.Join(why, ", "))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Unlisted counts the players of a queue's ("" the default) season (0 the
// current) by why the board lists them or not. It reads every rating row of
// the ladder, so callers cache it with the board.
func (s *Service) Unlisted(ctx context.Context, guildID, queue string, season int) (Unlisted, error) {
	g, err := s.store.Guild(ctx, guildID)
	if err != nil {
		return Unlisted{}, err
	}
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return Unlisted{}, err
	}
	se, err := resolveSeason(ctx, s.store, guildID, season)
	if err != nil {
		return Unlisted{}, err
	}
	rows, err := s.store.Ratings(ctx, Key{QueueID: q.ID, SeasonID: se.ID}, nil)
	if err != nil {
		return Unlisted{}, fmt.Errorf("ladder: unlisted: %w", err)
	}
	u := Unlisted{Players: len(rows), PlacementGames: g.PlacementGames, StaleDays: g.StaleDays}
	// MarkStale's own cutoff, so that StaleDue predicts it exactly.
	cutoff := s.now().Add(-time.Duration(g.StaleDays) * 24 * time.Hour)
	var due []string
	for _, r := range rows {
		switch {
		case r.State.Games < g.PlacementGames:
			u.Placement++
		case r.Provisional:
			u.HighRD++
		case r.Stale:
			u.Stale++
		default:
			u.Listed++
			if se.Running() && r.State.Last.Before(cutoff) {
				due = append(due, r.UserID)
			}
		}
	}
	if len(due) > 0 {
		// As MarkStale: a player whose Last a late-rated match moved back
		// but who has played since is not due.
		played, err := s.store.PlayedSince(ctx, Key{QueueID: q.ID, SeasonID: se.ID}, due, cutoff)
		if err != nil {
			return Unlisted{}, fmt.Errorf("ladder: unlisted: %w", err)
		}
		u.StaleDue = len(due) - len(played)
	}
	return u, nil
}

// Listing says whether the board lists a player and, when not, why and how
// many rated matches would list them.
type Listing struct {
	Listed bool
	// Reason is "placement", "rd" or "stale" when not listed.
	Reason         string
	Games          int
	PlacementGames int
	RD             float64
	StaleDays      int
	// MatchesToList is how many more rated matches, each an even draw
	// against players rated like this one, would list the player: what the
	// placement count and the model's deviation need. 0 when listed, and
	// when more than maxMatchesToList would be needed.
	MatchesToList int
}

// maxMatchesToList bounds the look-ahead of MatchesToList; a player further
// away is told "rated matches list you" without a number.
const maxMatchesToList = 50

// String is the sentence a profile shows under "unranked", e.g. "RD 105 is
// above 100: one rated match lists you"; "" when listed.
func (l Listing) String() string {
	var why string
	switch l.Reason {
	case "placement":
		why = fmt.Sprintf("%d of %d placement games played", l.Games, l.PlacementGames)
	case "rd":
		why = fmt.Sprintf("RD %.0f is above %d", l.RD, ProvisionalRD)
	case "stale":
		why = fmt.Sprintf("no rated match for %d+ days", l.StaleDays)
	default:
		return ""
	}
	switch n := l.MatchesToList; {
	case n == 1:
		return why + ": one rated match lists you"
	case n > 1:
		return fmt.Sprintf("%s: %d more rated matches list you", why, n)
	}
	return why + ": rated matches that bring it to 100 list you"
}

// listingOf explains r's place on the board of guild g; now is when the
// next match would be played, since deviations grow while a player idles.
func listingOf(g Guild, q Queue, model rating.Model, r Rating, now time.Time) Listing {
	l := Listing{Games: r.State.Games, PlacementGames: g.PlacementGames, RD: r.DisplayDev, StaleDays: g.StaleDays}
	switch {
	case r.State.Games < g.PlacementGames:
		l.Reason = "placement"
	case r.Provisional:
		l.Reason = "rd"
	case r.Stale:
		l.Reason = "stale"
	default:
		l.Listed = true
		return l
	}
	l.MatchesToList = matchesToList(g, q, model, r.State, now)
	return l
}

// matchesToList plays draws of the player's state with copies of itself as
// partners and opponents until the placement rule (IsProvisional) passes:
// the model's own answer, since deviation shrinkage differs by model and
// by how long the player has idled.
func matchesToList(g Guild, q Queue, model rating.Model, st rating.State, now time.Time) int {
	size := max(q.TeamSize, 1)
	at := now
	if st.Last.After(at) {
		at = st.Last
	}
	a, b := make([]rating.State, size), make([]rating.State, size)
	for n := 1; n <= maxMatchesToList; n++ {
		for i := range size {
			a[i], b[i] = st, st
		}
		model.Update(a, b, 0.5, at)
		st = a[0]
		_, dev := model.Display(st)
		if !IsProvisional(st.Games, g.PlacementGames, dev) {
			return n
		}
	}
	return 0
}

// GuildBoard is a guild and how many players its default board lists.
type GuildBoard struct {
	Guild  Guild
	Listed int
}

// GuildBoards returns up to limit guilds with the number of players their
// default queue's current board lists, for the web start page, which would
// otherwise leave a visitor guessing an 18-digit guild ID. It reads the
// database twice however many guilds there are (it used to read each
// guild's queues, season and every rating row: four statements a guild).
func (s *Service) GuildBoards(ctx context.Context, limit int) ([]GuildBoard, error) {
	gs, err := s.store.Guilds(ctx)
	if err != nil {
		return nil, fmt.Errorf("ladder: guild boards: %w", err)
	}
	gs = gs[:min(len(gs), max(limit, 0))]
	ids := make([]string, len(gs))
	for i, g := range gs {
		ids[i] = g.ID
	}
	listed := map[string]int{}
	if len(ids) > 0 {
		if listed, err = s.store.ListedCounts(ctx, ids); err != nil {
			return nil, fmt.Errorf("ladder: guild boards: %w", err)
		}
	}
	out := make([]GuildBoard, len(gs))
	for i, g := range gs {
		out[i] = GuildBoard{Guild: g, Listed: listed[g.ID]}
	}
	return out, nil
}
