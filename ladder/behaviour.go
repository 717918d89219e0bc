package ladder

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder/matchmaking"
)

// Behaviour score (seed 002, "Behaviour score which decrease in function of
// teammate reports pair toxic players with each other"): after a
// match each player may flag one other player of it, once per match, for
// one of FlagReasons; the score starts at 100, each counted flag takes
// FlagPenalty and each cooldown (a missed ready check or a confirmed
// no-show) CooldownPenalty, and every penalty halves each
// BehaviourHalfLife, so a score decays back to 100 by itself.
const (
	// FlagPenalty is what one counted flag takes from the score.
	FlagPenalty = 10.0
	// CooldownPenalty is what one lobby cooldown takes from the score.
	CooldownPenalty = 15.0
	// BehaviourHalfLife is how fast a penalty fades.
	BehaviourHalfLife = 14 * 24 * time.Hour
	// BehaviourWindow is how far back the score reads; older penalties
	// weigh less than 1/64 of their size.
	BehaviourWindow = 6 * BehaviourHalfLife
	// FlagRepeat is the abuse rule: flags from one player count once per
	// target per week, however many matches they shared.
	FlagRepeat = 7 * 24 * time.Hour
	// LowBehaviour is the score below which a queue with behaviour pairing
	// on matches a player only with other low scores.
	LowBehaviour = 70.0
	// flagAfter is how long after a match ends it may be flagged.
	flagAfter = 48 * time.Hour
)

// FlagReasons are the reasons a flag may give.
var FlagReasons = []string{"toxic", "afk", "griefing", "cheating"}

// BehaviourFlag is one player's flag of another after a match.
type BehaviourFlag struct {
	ID        int64
	GuildID   string
	MatchID   int64
	FromUser  string
	ToUser    string
	Reason    string
	CreatedAt time.Time
	// Counted is false for a repeat inside FlagRepeat (set by Behaviour).
	Counted bool
}

// BehaviourStore keeps the flags, one of the concerns of Tx.
type BehaviourStore interface {
	// AddBehaviourFlag stores a flag; a second flag by the same player for
	// the same match is CodeConflict.
	AddBehaviourFlag(ctx context.Context, f BehaviourFlag) (BehaviourFlag, error)
	// BehaviourFlags returns the flags against the given players created at
	// or after since, oldest first.
	BehaviourFlags(ctx context.Context, guildID string, toUsers []string, since time.Time) ([]BehaviourFlag, error)
}

// Behaviour is a player's behaviour score and what made it.
type Behaviour struct {
	UserID string
	// Score is 100 minus the faded penalties, never below 0.
	Score float64
	// Flags are the flags of the window, newest first, Counted set.
	Flags []BehaviourFlag
	// Cooldowns are the lobby penalties of the window, newest first.
	Cooldowns []Cooldown
}

// Low reports whether the score is below LowBehaviour.
func (b Behaviour) Low() bool { return b.Score < LowBehaviour }

// fade is the weight of a penalty of age d: 2^(−d/half-life).
func fade(d time.Duration) float64 {
	if d < 0 {
		d = 0
	}
	return math.Exp2(-d.Hours() / BehaviourHalfLife.Hours())
}

// countFlags marks which flags count: per (from, to), a flag counts when
// it comes FlagRepeat or more after the last counted one. flags are oldest
// first.
func countFlags(flags []BehaviourFlag) {
	last := map[[2]string]time.Time{}
	for i := range flags {
		k := [2]string{flags[i].FromUser, flags[i].ToUser}
		t, seen := last[k]
		if !seen || flags[i].CreatedAt.Sub(t) >= FlagRepeat {
			flags[i].Counted = true
			last[k] = flags[i].CreatedAt
		}
	}
}

// BehaviourScore is the score of one player from their flags (oldest
// first, Counted set) and cooldowns at now.
func BehaviourScore(flags []BehaviourFlag, cooldowns []Cooldown, now time.Time) float64 {
	penalty := 0.0
	for _, f := range flags {
		if f.Counted {
			penalty += FlagPenalty * fade(now.Sub(f.CreatedAt))
		}
	}
	for _, c := range cooldowns {
		penalty += CooldownPenalty * fade(now.Sub(c.CreatedAt))
	}
	return math.Max(0, 100-penalty)
}

// FlagPlayer records actor's flag of target after match matchID: both
// must have played it, it must be over (rated, cancelled or voided) for
// at most 48 hours, the reason one of FlagReasons, and actor may flag
// one player per match.
func (s *Service) FlagPlayer(ctx context.Context, actor Actor, guildID string, matchID int64, target, reason string) (BehaviourFlag, error) {
	reason = strings.ToLower(strings.TrimSpace(reason))
	if !slices.Contains(FlagReasons, reason) {
		return BehaviourFlag{}, Errorf(CodeInvalid, "the reason must be one of %s, not %q", strings.Join(FlagReasons, ", "), reason)
	}
	if target == actor.UserID {
		return BehaviourFlag{}, Errorf(CodeInvalid, "you cannot flag yourself")
	}
	m, err := s.Match(ctx, guildID, matchID)
	if err != nil {
		return BehaviourFlag{}, err
	}
	switch {
	case m.Team(actor.UserID) == 0:
		return BehaviourFlag{}, Errorf(CodeForbidden, "only a player of match #%d can flag its players", m.ID)
	case m.Team(target) == 0:
		return BehaviourFlag{}, Errorf(CodeInvalid, "<@%s> did not play match #%d", target, m.ID)
	case m.State.Active() || m.State == StateDisputed:
		return BehaviourFlag{}, Errorf(CodeConflict, "match #%d is not over yet; flag after it ends", m.ID)
	}
	now := s.now()
	ended := m.CreatedAt
	for _, t := range []time.Time{m.PlayedAt, m.RatedAt} {
		if t.After(ended) {
			ended = t
		}
	}
	if now.Sub(ended) > flagAfter {
		return BehaviourFlag{}, Errorf(CodeConflict, "match #%d ended more than 48 hours ago; flags are for recent matches", m.ID)
	}
	f, err := s.store.AddBehaviourFlag(ctx, BehaviourFlag{GuildID: guildID, MatchID: m.ID, FromUser: actor.UserID,
		ToUser: target, Reason: reason, CreatedAt: now})
	if ErrorCode(err) == CodeConflict {
		return BehaviourFlag{}, Errorf(CodeConflict, "you have already flagged a player of match #%d", m.ID)
	}
	if err != nil {
		return BehaviourFlag{}, fmt.Errorf("ladder: flag player: %w", err)
	}
	return f, nil
}

// Behaviours returns the behaviour of each of userIDs at now.
func (s *Service) Behaviours(ctx context.Context, guildID string, userIDs []string) (map[string]Behaviour, error) {
	return behaviours(ctx, s.store, guildID, userIDs, s.now())
}

// Behaviour returns one player's behaviour score with its flags and
// cooldowns (what /profile shows and moderators read).
func (s *Service) Behaviour(ctx context.Context, guildID, userID string) (Behaviour, error) {
	bs, err := s.Behaviours(ctx, guildID, []string{userID})
	if err != nil {
		return Behaviour{}, err
	}
	return bs[userID], nil
}

// behaviourReader is what computing scores reads.
type behaviourReader interface {
	BehaviourFlags(ctx context.Context, guildID string, toUsers []string, since time.Time) ([]BehaviourFlag, error)
	Cooldowns(ctx context.Context, guildID, userID string, since time.Time) ([]Cooldown, error)
}

func behaviours(ctx context.Context, st behaviourReader, guildID string, userIDs []string, now time.Time) (map[string]Behaviour, error) {
	since := now.Add(-BehaviourWindow)
	// Flags older than the window still decide whether a later one is a
	// repeat, so read one FlagRepeat further back.
	flags, err := st.BehaviourFlags(ctx, guildID, userIDs, since.Add(-FlagRepeat))
	if err != nil {
		return nil, fmt.Errorf("ladder: behaviour: %w", err)
	}
	countFlags(flags)
	by := make(map[string][]BehaviourFlag, len(userIDs))
	for _, f := range flags {
		if !f.CreatedAt.Before(since) {
			by[f.ToUser] = append(by[f.ToUser], f)
		}
	}
	out := make(map[string]Behaviour, len(userIDs))
	for _, u := range userIDs {
		cs, err := st.Cooldowns(ctx, guildID, u, since)
		if err != nil {
			return nil, fmt.Errorf("ladder: behaviour: %w", err)
		}
		fs := by[u]
		b := Behaviour{UserID: u, Score: BehaviourScore(fs, cs, now), Cooldowns: cs}
		b.Flags = slices.Clone(fs)
		slices.Reverse(b.Flags)
		out[u] = b
	}
	return out, nil
}

// formMatches is the queue's matchmaking pass with behaviour pairing
// (seed 002: "pair toxic players with each other"): when the queue has it
// on and at least q.BehaviourPairing players wait, the entries with a
// member of low behaviour score are matched among themselves and the rest
// among themselves; otherwise, and always while the queue is shallower,
// everyone is matched together so nobody waits longer for it.
func (s *Service) formMatches(ctx context.Context, qt Tx, q Queue, entries []matchmaking.Entry, now time.Time) ([]matchmaking.Proposal, error) {
	players := 0
	for _, e := range entries {
		players += len(e.Members)
	}
	if q.BehaviourPairing <= 0 || players < q.BehaviourPairing {
		return matchmaking.FormMatches(entries, q.Matchmaking(), now), nil
	}
	var users []string
	for _, e := range entries {
		for _, m := range e.Members {
			users = append(users, m.UserID)
		}
	}
	bs, err := behaviours(ctx, qt, q.GuildID, users, now)
	if err != nil {
		return nil, err
	}
	var low, rest []matchmaking.Entry
	for _, e := range entries {
		if slices.ContainsFunc(e.Members, func(m matchmaking.Member) bool { return bs[m.UserID].Low() }) {
			low = append(low, e)
		} else {
			rest = append(rest, e)
		}
	}
	out := matchmaking.FormMatches(rest, q.Matchmaking(), now)
	return append(out, matchmaking.FormMatches(low, q.Matchmaking(), now)...), nil
}
