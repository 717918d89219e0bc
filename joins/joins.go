package joins

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Store is the rows the join settings and rematches need; *storage.DB
// implements it.
type Store interface {
	// JoinSettings returns a queue's settings; CodeNotFound when a
	// moderator never set any.
	JoinSettings(ctx context.Context, queueID int64) (Settings, error)
	// SaveJoinSettings stores a queue's settings and the audit entry of
	// the change in one transaction.
	SaveJoinSettings(ctx context.Context, s Settings, audit ladder.AuditEntry) error
	// ScheduledQueues lists the settings of every queue with open hours.
	ScheduledQueues(ctx context.Context) ([]Settings, error)
	// RatedGames counts each of userIDs' rated matches (confirmed or
	// resolved) in a queue over every season.
	RatedGames(ctx context.Context, queueID int64, userIDs []string) (map[string]int, error)
	// VoteRematch records userID's press of a match's Rematch button (the
	// offer's row is created by the first press) and answers who pressed,
	// first first, whether this press was userID's first (added), and the
	// rematch's match ID once formed (0 before).
	VoteRematch(ctx context.Context, r Rematch, userID string, at time.Time) (voters []string, added bool, formed int64, err error)
	// RoomHome is the channel a match's room was opened from; "" when the
	// match had no room.
	RoomHome(ctx context.Context, matchID int64) (string, error)
}

// RematchTx is what a rematch records in the transaction that opens its
// match: the storage's transaction implements it.
type RematchTx interface {
	// FormRematch marks a match's rematch as formed by match newID; false
	// when it was formed already.
	FormRematch(ctx context.Context, matchID, newID int64) (bool, error)
}

// Ladder is what joins reads and asks of the ladder; *ladder.Service
// implements it.
type Ladder interface {
	Queues(ctx context.Context, guildID string) ([]ladder.Queue, error)
	CurrentStandings(ctx context.Context, guildID, queue string, userIDs []string) ([]ladder.Standing, error)
	Match(ctx context.Context, guildID string, id int64) (ladder.Match, error)
	FormGroup(ctx context.Context, req ladder.GroupRequest) (ladder.FormedMatch, error)
	ClearQueue(ctx context.Context, queueID int64) ([]ladder.Ticket, error)
	Now() time.Time
}

// Service keeps the join settings, decides entries (ladder.JoinGate) and
// plays rematches. It holds no state of its own: everything is in the
// Store.
type Service struct {
	store Store
	lad   Ladder
}

var _ ladder.JoinGate = (*Service)(nil)

// New returns a Service over store and lad. Make the ladder ask it with
// lad.SetJoinGate.
func New(store Store, lad Ladder) *Service { return &Service{store: store, lad: lad} }

// Settings returns a queue's join settings (Defaults when never set).
func (s *Service) Settings(ctx context.Context, q ladder.Queue) (Settings, error) {
	st, err := s.store.JoinSettings(ctx, q.ID)
	switch {
	case ladder.ErrorCode(err) == ladder.CodeNotFound:
		return Defaults(q), nil
	case err != nil:
		return Settings{}, fmt.Errorf("joins: settings of queue %d: %w", q.ID, err)
	}
	st.GuildID = q.GuildID
	return st, nil
}

// Configure applies named settings (Apply) to a queue and stores them,
// audited as queue.joins with the settings before and after; moderators
// only. It is what /config queue requirements, /config queue schedule
// and the token API call, so all three validate alike.
func (s *Service) Configure(ctx context.Context, actor ladder.Actor, q ladder.Queue, values map[string]string) (Settings, error) {
	if !actor.Moderator {
		return Settings{}, ladder.Errorf(ladder.CodeForbidden, "only moderators can change the settings")
	}
	old, err := s.Settings(ctx, q)
	if err != nil {
		return Settings{}, err
	}
	if len(values) == 0 {
		return old, nil
	}
	next, err := s.apply(ctx, q, old, values)
	if err != nil {
		return Settings{}, err
	}
	if next == old {
		return old, nil
	}
	a := ladder.AuditEntry{GuildID: q.GuildID, ActorID: actor.UserID, Action: "queue.joins", Target: q.Name,
		Before: jsonText(old), After: jsonText(next), At: s.lad.Now()}
	if err := s.store.SaveJoinSettings(ctx, next, a); err != nil {
		return Settings{}, fmt.Errorf("joins: save settings of queue %s: %w", q.Name, err)
	}
	return next, nil
}

// Check parses and validates named settings for a queue as Configure
// would, storing nothing: a caller that also changes other settings checks
// these first, so a bad one changes nothing.
func (s *Service) Check(ctx context.Context, q ladder.Queue, values map[string]string) error {
	old, err := s.Settings(ctx, q)
	if err != nil {
		return err
	}
	_, err = s.apply(ctx, q, old, values)
	return err
}

// apply is Apply over old, games_queue resolved among q's guild's queues.
func (s *Service) apply(ctx context.Context, q ladder.Queue, old Settings, values map[string]string) (Settings, error) {
	next := old
	err := Apply(&next, values, func(name string) (int64, error) {
		qs, err := s.lad.Queues(ctx, q.GuildID)
		if err != nil {
			return 0, err
		}
		for _, c := range qs {
			if c.Name == name {
				return c.ID, nil
			}
		}
		return 0, ladder.Errorf(ladder.CodeInvalid, "games_queue: no queue called %q", name)
	})
	return next, err
}

// QueueName is the name of a queue of the guild, "" when it is gone.
func (s *Service) QueueName(ctx context.Context, guildID string, id int64) (string, error) {
	qs, err := s.lad.Queues(ctx, guildID)
	if err != nil {
		return "", err
	}
	for _, q := range qs {
		if q.ID == id {
			return q.Name, nil
		}
	}
	return "", nil
}

// AllowJoin implements ladder.JoinGate: the queue must be open at at, and
// every one of who must meet each of its requirements. The refusal names
// the requirement and what the player has; who[0] is the one asking
// ("you"), the others are named.
func (s *Service) AllowJoin(ctx context.Context, q ladder.Queue, who []ladder.Entrant, at time.Time) error {
	st, err := s.Settings(ctx, q)
	if err != nil {
		return err
	}
	h, err := st.OpenHours()
	if err != nil {
		return err
	}
	if state := h.At(at); !state.Open {
		return closedRefusal(q.Name, h, state)
	}
	if !st.HasRequirements() {
		return nil
	}
	ids := make([]string, len(who))
	for i, e := range who {
		ids[i] = e.UserID
	}
	var ratings []ladder.Standing
	if st.MinRating != 0 || st.MaxRating != 0 {
		if ratings, err = s.lad.CurrentStandings(ctx, q.GuildID, q.Name, ids); err != nil {
			return err
		}
	}
	var games map[string]int
	var gamesQueue any = q.Name
	if st.MinGames > 0 {
		gq := st.GamesQueueID
		if gq == 0 {
			gq = q.ID
		} else if name, err := s.QueueName(ctx, q.GuildID, gq); err != nil {
			return err
		} else if name != "" {
			gamesQueue = name
		} else {
			gamesQueue = removedQueue
		}
		if games, err = s.store.RatedGames(ctx, gq, ids); err != nil {
			return err
		}
	}
	c := joinCheck{q: q, st: st, games: games, gamesQueue: gamesQueue, at: at}
	for i, e := range who {
		var rating *float64
		if ratings != nil {
			rating = &ratings[i].Rating
		}
		if err := c.refusal(e, i == 0, rating); err != nil {
			return err
		}
	}
	return nil
}

// joinCheck is what a queue's requirements are checked against.
type joinCheck struct {
	q          ladder.Queue
	st         Settings
	games      map[string]int // rated games in gamesQueue by player
	gamesQueue any            // the queue's name, or removedQueue
	at         time.Time
}

// refusal is why e may not join, nil when e meets every requirement;
// rating is e's, nil when no requirement needs it. The one asking (you)
// is told "you"; a partner is named. Each case has its two formats
// spelled out, so the catalogs translate them whole (err.joins.*).
func (c joinCheck) refusal(e ladder.Entrant, you bool, rating *float64) error {
	q, st := c.q, c.st
	if rating != nil {
		r := *rating
		if st.MinRating != 0 && r < st.MinRating {
			if you {
				return ladder.Errorf(ladder.CodeForbidden, "Queue %s needs a rating of at least %.0f (min_rating); you have %.0f.", q.Name, st.MinRating, r)
			}
			return ladder.Errorf(ladder.CodeForbidden, "Queue %s needs a rating of at least %.0f (min_rating); <@%s> has %.0f.", q.Name, st.MinRating, e.UserID, r)
		}
		if st.MaxRating != 0 && r > st.MaxRating {
			if you {
				return ladder.Errorf(ladder.CodeForbidden, "Queue %s takes ratings up to %.0f (max_rating); you have %.0f.", q.Name, st.MaxRating, r)
			}
			return ladder.Errorf(ladder.CodeForbidden, "Queue %s takes ratings up to %.0f (max_rating); <@%s> has %.0f.", q.Name, st.MaxRating, e.UserID, r)
		}
	}
	if n := c.games[e.UserID]; st.MinGames > 0 && n < st.MinGames {
		if you {
			return ladder.Errorf(ladder.CodeForbidden, "Queue %s needs %d rated games in %s (min_games); you have %d.", q.Name, st.MinGames, c.gamesQueue, n)
		}
		return ladder.Errorf(ladder.CodeForbidden, "Queue %s needs %d rated games in %s (min_games); <@%s> has %d.", q.Name, st.MinGames, c.gamesQueue, e.UserID, n)
	}
	if st.MinAccountDays > 0 {
		if days, ok := accountDays(e.UserID, c.at); ok && days < st.MinAccountDays {
			if you {
				return ladder.Errorf(ladder.CodeForbidden, "Queue %s needs a Discord account at least %d days old (min_account_days); you have one %d days old.", q.Name, st.MinAccountDays, days)
			}
			return ladder.Errorf(ladder.CodeForbidden, "Queue %s needs a Discord account at least %d days old (min_account_days); <@%s> has one %d days old.", q.Name, st.MinAccountDays, e.UserID, days)
		}
	}
	if !e.RolesKnown {
		return nil // a partner's roles are checked when they accept
	}
	if st.RequiredRole != "" && !slices.Contains(e.Roles, st.RequiredRole) {
		if you {
			return ladder.Errorf(ladder.CodeForbidden, "Queue %s needs the <@&%s> role (required_role); you do not.", q.Name, st.RequiredRole)
		}
		return ladder.Errorf(ladder.CodeForbidden, "Queue %s needs the <@&%s> role (required_role); <@%s> does not.", q.Name, st.RequiredRole, e.UserID)
	}
	if st.ExcludedRole != "" && slices.Contains(e.Roles, st.ExcludedRole) {
		if you {
			return ladder.Errorf(ladder.CodeForbidden, "Queue %s is closed to the <@&%s> role (excluded_role); you have it.", q.Name, st.ExcludedRole)
		}
		return ladder.Errorf(ladder.CodeForbidden, "Queue %s is closed to the <@&%s> role (excluded_role); <@%s> has it.", q.Name, st.ExcludedRole, e.UserID)
	}
	return nil
}

// closedRefusal is the refusal of a join outside the open hours.
func closedRefusal(queue string, h Hours, st State) error {
	if st.Next.IsZero() {
		return ladder.Errorf(ladder.CodeForbidden, "Queue %s is closed (its hours: %s, %s) and does not open within a week.", queue, h, h.Zone())
	}
	return ladder.Errorf(ladder.CodeForbidden, "Queue %s is closed now; it opens at %s (<t:%d:F>, <t:%d:R>).", queue, h.Local(st.Next), st.Next.Unix(), st.Next.Unix())
}

// queueGone names a queue of min_games that was removed since: a
// refusal's argument, an i18n.Keyed that reads in the player's language.
type queueGone string

// removedQueue is the name a refusal gives a removed games queue.
const removedQueue queueGone = "a removed queue"

// MessageID is the catalog ID of the name.
func (queueGone) MessageID() string { return "joins.removed_queue" }

// discordEpoch is the first millisecond of 2015 UTC, where snowflake
// timestamps start.
const discordEpoch = 1420070400000

// AccountCreated is when a Discord account was made, from its ID.
func AccountCreated(userID string) (time.Time, bool) {
	id, err := strconv.ParseUint(userID, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(id>>22) + discordEpoch).UTC(), true
}

// accountDays is the account's age in whole days at at.
func accountDays(userID string, at time.Time) (int, bool) {
	created, ok := AccountCreated(userID)
	if !ok {
		return 0, false
	}
	return int(at.Sub(created) / (24 * time.Hour)), true
}

// Opening is a queue's open state for its panel.
type Opening struct {
	Scheduled bool
	State     State
	Hours     Hours
}

// Opening returns whether a queue is open at at, and when that changes.
func (s *Service) Opening(ctx context.Context, q ladder.Queue, at time.Time) (Opening, error) {
	st, err := s.Settings(ctx, q)
	if err != nil {
		return Opening{}, err
	}
	h, err := st.OpenHours()
	if err != nil {
		return Opening{}, err
	}
	return Opening{Scheduled: h.Scheduled(), State: h.At(at), Hours: h}, nil
}

// Closed is a queue whose open hours ended and the tickets it dropped.
type Closed struct {
	Queue   ladder.Queue
	Tickets []ladder.Ticket
	Opening Opening
}

// CloseDue empties every queue that is outside its open hours now and
// still holds tickets, and returns those it emptied, for their notices.
// A ticket that raced the close is dropped by the next run.
func (s *Service) CloseDue(ctx context.Context) ([]Closed, error) {
	sts, err := s.store.ScheduledQueues(ctx)
	if err != nil {
		return nil, fmt.Errorf("joins: scheduled queues: %w", err)
	}
	now := s.lad.Now()
	var out []Closed
	byGuild := map[string][]ladder.Queue{}
	for _, st := range sts {
		h, err := st.OpenHours()
		if err != nil || h.At(now).Open {
			continue
		}
		qs, ok := byGuild[st.GuildID]
		if !ok {
			if qs, err = s.lad.Queues(ctx, st.GuildID); err != nil {
				return out, err
			}
			byGuild[st.GuildID] = qs
		}
		i := slices.IndexFunc(qs, func(q ladder.Queue) bool { return q.ID == st.QueueID })
		if i < 0 {
			continue
		}
		ts, err := s.lad.ClearQueue(ctx, st.QueueID)
		if err != nil {
			return out, err
		}
		if len(ts) > 0 {
			out = append(out, Closed{Queue: qs[i], Tickets: ts, Opening: Opening{Scheduled: true, State: h.At(now), Hours: h}})
		}
	}
	return out, nil
}
