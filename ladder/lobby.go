package ladder

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// Lobby is a queue's settings for what happens between "match formed" and
// "result reported" (docs/spec.md 10): the ready check, the
// cooldowns that punish missing it, the cancel vote and the abandonment of
// matches nobody reports.
type Lobby struct {
	QueueID int64
	// ReadyWindow is how long the players of a formed match have to click
	// Ready; 0 turns the ready check off.
	ReadyWindow time.Duration
	// Cooldowns escalate within 24 h: the first penalty of a day gives
	// Cooldowns[0], the second Cooldowns[1], and so on, the last repeating.
	Cooldowns []time.Duration
	// AbandonAfter is how long an open match may go without a report
	// before a job cancels it.
	AbandonAfter time.Duration
	// CancelShare is the share of a match's players that a cancel vote
	// must exceed: 0.5 is a strict majority.
	CancelShare float64
	// RatingPenalty is taken off the rating (in the model's own units) of
	// each penalised player, as a logged adjustment that replays and
	// verify keep; 0, the default, takes nothing.
	RatingPenalty float64
	// PickMode is how the formed group becomes two teams: the matcher's
	// balanced split, or a draft by two captains.
	PickMode PickMode
	// PickWindow is how long a captain has for each pick before the best
	// rated player left is picked for them.
	PickWindow time.Duration
}

// PenaltyWindow is how far back penalties count towards the next,
// longer cooldown.
const PenaltyWindow = 24 * time.Hour

// DefaultLobby returns the lobby settings a queue has until a moderator
// changes them: defaults a new community can leave alone.
func DefaultLobby(queueID int64) Lobby {
	return Lobby{QueueID: queueID, ReadyWindow: 120 * time.Second,
		Cooldowns:    []time.Duration{5 * time.Minute, 30 * time.Minute, 2 * time.Hour},
		AbandonAfter: 3 * time.Hour, CancelShare: 0.5, PickMode: PickBalanced, PickWindow: 60 * time.Second}
}

// Validate checks the settings and names the first bad one.
func (l Lobby) Validate() error {
	switch {
	case l.ReadyWindow < 0 || l.ReadyWindow > time.Hour:
		return Errorf(CodeInvalid, "ready_window must be from 0 (off) to 3600 seconds")
	case l.ReadyWindow > 0 && l.ReadyWindow < 10*time.Second:
		return Errorf(CodeInvalid, "ready_window must be at least 10 seconds, or 0 to turn the ready check off")
	case len(l.Cooldowns) == 0 || len(l.Cooldowns) > 10:
		return Errorf(CodeInvalid, "cooldowns must list 1 to 10 durations")
	case l.AbandonAfter < minAbandonAfter || l.AbandonAfter > 7*24*time.Hour:
		return Errorf(CodeInvalid, "abandon_after must be from 10m to 168h")
	case !(l.CancelShare >= 0 && l.CancelShare < 1):
		return Errorf(CodeInvalid, "the cancel vote share must be from 0 to below 1")
	case !(l.RatingPenalty >= 0 && l.RatingPenalty <= 500):
		return Errorf(CodeInvalid, "rating_penalty must be from 0 (off) to 500")
	case l.PickMode != PickBalanced && l.PickMode != PickCaptains:
		return Errorf(CodeInvalid, "pick_mode must be balanced or captains, not %q", l.PickMode)
	case l.PickWindow < 10*time.Second || l.PickWindow > 10*time.Minute:
		return Errorf(CodeInvalid, "pick_window must be from 10 to 600 seconds")
	}
	for _, d := range l.Cooldowns {
		if d < 0 || d > 30*24*time.Hour {
			return Errorf(CodeInvalid, "each cooldown must be from 0 to 720h, not %s", d)
		}
	}
	return nil
}

// ParseCooldowns reads a cooldown list such as "5m,30m,2h".
func ParseCooldowns(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, part := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil {
			return nil, Errorf(CodeInvalid, "cooldowns must be durations separated by commas, like 5m,30m,2h; %q is not one", strings.TrimSpace(part))
		}
		out = append(out, d)
	}
	return out, nil
}

// FormatCooldowns writes a list ParseCooldowns reads back.
func FormatCooldowns(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = shortDuration(d)
	}
	return strings.Join(parts, ",")
}

// shortDuration drops Go's zero units: 5m rather than 5m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// cooldownFor is the cooldown of a player's next penalty, given how many
// penalties they had in the last PenaltyWindow.
func (l Lobby) cooldownFor(recent int) time.Duration {
	return l.Cooldowns[min(recent, len(l.Cooldowns)-1)]
}

// ReadyState is where a ready check is: it moves once, from pending to
// passed or failed.
type ReadyState string

// Ready check states.
const (
	ReadyPending ReadyState = "pending"
	ReadyPassed  ReadyState = "passed"
	ReadyFailed  ReadyState = "failed"
)

// ReadyCheck is a formed match waiting for its players to say they are
// there. It is a row with a deadline, so a job catches up on it after
// downtime, and the buttons carry only the match ID, so they work after a
// restart.
type ReadyCheck struct {
	MatchID  int64
	GuildID  string
	QueueID  int64
	Deadline time.Time
	State    ReadyState
	Seats    []Seat
}

// Seat is one player of a ready check, with what is needed to put them back
// in the queue as they were.
type Seat struct {
	UserID string
	// Ticket numbers the queue tickets of the formed match: players who
	// queued as a party share it.
	Ticket    int
	JoinedAt  time.Time
	ChannelID string
	// ReadyAt is when the player clicked Ready; zero while not ready.
	ReadyAt time.Time
}

// IsReady reports whether userID has clicked Ready.
func (rc ReadyCheck) IsReady(userID string) bool {
	for _, s := range rc.Seats {
		if s.UserID == userID {
			return !s.ReadyAt.IsZero()
		}
	}
	return false
}

// Seated reports whether userID is a player of the check.
func (rc ReadyCheck) Seated(userID string) bool {
	return slices.ContainsFunc(rc.Seats, func(s Seat) bool { return s.UserID == userID })
}

// Missing returns the players who are not ready yet.
func (rc ReadyCheck) Missing() []string {
	var out []string
	for _, s := range rc.Seats {
		if s.ReadyAt.IsZero() {
			out = append(out, s.UserID)
		}
	}
	return out
}

// Cooldown is a penalty: the player may not queue in the guild until
// Until, unless a moderator clears it (ClearedAt set).
type Cooldown struct {
	ID      int64
	GuildID string
	UserID  string
	MatchID int64
	Reason  string
	// ReasonCode is the code of Reason (Reason.Code).
	ReasonCode string
	CreatedAt  time.Time
	Until      time.Time
	ClearedAt  time.Time
}

// LobbyStore is the lobby's persistence, one of the concerns of Tx.
type LobbyStore interface {
	// Lobby returns a queue's lobby settings, DefaultLobby when none are stored.
	Lobby(ctx context.Context, queueID int64) (Lobby, error)
	// SaveLobby inserts or replaces a queue's lobby settings.
	SaveLobby(ctx context.Context, l Lobby) error

	// AddReadyCheck stores a pending check with its seats.
	AddReadyCheck(ctx context.Context, rc ReadyCheck) error
	// ReadyCheck returns a match's check; CodeNotFound when it has none.
	ReadyCheck(ctx context.Context, matchID int64) (ReadyCheck, error)
	// SetReady marks a seat ready.
	SetReady(ctx context.Context, matchID int64, userID string, at time.Time) error
	// SetReadyState moves a pending check to state and answers false when
	// it was not pending any more (a conditional update: one outcome).
	SetReadyState(ctx context.Context, matchID int64, state ReadyState) (bool, error)
	// DueReadyChecks returns up to limit pending checks whose deadline is
	// not after t, oldest deadline first.
	DueReadyChecks(ctx context.Context, t time.Time, limit int) ([]int64, error)

	// AddCooldown stores a penalty.
	AddCooldown(ctx context.Context, c Cooldown) (Cooldown, error)
	// Cooldowns returns a player's penalties created at or after since,
	// newest first, cleared ones included.
	Cooldowns(ctx context.Context, guildID, userID string, since time.Time) ([]Cooldown, error)
	// ClearCooldowns sets ClearedAt on the player's running cooldowns and
	// returns how many it cleared.
	ClearCooldowns(ctx context.Context, guildID, userID string, at time.Time) (int, error)

	// AddCancelVote records a vote and answers false when it was already there.
	AddCancelVote(ctx context.Context, matchID int64, userID string, at time.Time) (bool, error)
	// CancelVotes returns the voters of a match, by user ID.
	CancelVotes(ctx context.Context, matchID int64) ([]string, error)
	// OpenMatchesBefore returns up to limit open matches created before t,
	// oldest first.
	OpenMatchesBefore(ctx context.Context, t time.Time, limit int) ([]Match, error)
}

// Lobby returns a queue's lobby settings (by name; "" the default queue).
func (s *Service) Lobby(ctx context.Context, guildID, queue string) (Queue, Lobby, error) {
	var q Queue
	var l Lobby
	err := s.store.InTx(ctx, func(lt Tx) error {
		var err error
		if q, err = resolveQueue(ctx, lt, guildID, queue); err != nil {
			return err
		}
		l, err = lt.Lobby(ctx, q.ID)
		return err
	})
	if err != nil {
		return Queue{}, Lobby{}, fmt.Errorf("ladder: lobby: %w", err)
	}
	return q, l, nil
}

// UpdateLobby validates and stores a queue's lobby settings (moderators
// only, audited). Running ready checks keep the deadline they started with.
func (s *Service) UpdateLobby(ctx context.Context, actor Actor, guildID string, l Lobby) (Lobby, error) {
	if !actor.Moderator {
		return Lobby{}, Errorf(CodeForbidden, "only moderators can change queues")
	}
	if err := l.Validate(); err != nil {
		return Lobby{}, err
	}
	err := s.store.InTx(ctx, func(lt Tx) error {
		q, err := lt.Queue(ctx, l.QueueID)
		if err != nil {
			return err
		}
		if q.GuildID != guildID {
			return Errorf(CodeNotFound, "queue %d not found", l.QueueID)
		}
		return s.saveLobbyTx(ctx, lt, actor, q, l)
	})
	if err != nil {
		return Lobby{}, fmt.Errorf("ladder: update lobby: %w", err)
	}
	return l, nil
}

// saveLobbyTx stores queue q's validated lobby settings in tx, audited
// with what they were.
func (s *Service) saveLobbyTx(ctx context.Context, tx Tx, actor Actor, q Queue, l Lobby) error {
	old, err := tx.Lobby(ctx, q.ID)
	if err != nil {
		return err
	}
	if err := tx.SaveLobby(ctx, l); err != nil {
		return err
	}
	return audit(ctx, tx, AuditEntry{GuildID: q.GuildID, ActorID: actor.UserID, Action: "queue.lobby", Target: q.Name, At: s.now()}, lobbyAudit(old), lobbyAudit(l))
}

func lobbyAudit(l Lobby) map[string]any {
	return map[string]any{"ready_window_s": l.ReadyWindow.Seconds(), "cooldowns": FormatCooldowns(l.Cooldowns),
		"abandon_after": shortDuration(l.AbandonAfter), "cancel_share": l.CancelShare, "rating_penalty": l.RatingPenalty,
		"pick_mode": l.PickMode, "pick_window_s": l.PickWindow.Seconds()}
}

// cooldownCheck refuses a player who is on a running cooldown, saying how
// long is left, so they know when to come back.
func cooldownCheck(ctx context.Context, tx Tx, guildID, userID string, now time.Time) error {
	cs, err := tx.Cooldowns(ctx, guildID, userID, now.Add(-30*24*time.Hour))
	if err != nil {
		return err
	}
	var until time.Time
	for _, c := range cs {
		if c.ClearedAt.IsZero() && c.Until.After(until) {
			until = c.Until
		}
	}
	if until.After(now) {
		return Errorf(CodeForbidden, "<@%s> is on a queue cooldown for missing a ready check: %s left", userID, TimeLeft(until.Sub(now)))
	}
	return nil
}

// TimeLeft is the time left on a cooldown, as a refusal's argument. Its
// String is the English text players of the JSON API and the logs read:
// "4 min 30 s", "1 h 5 min", "45 s"; the edges word it in the reader's
// language from Span (i18n.Span). It rounds up to a second, so "0 s" never
// shows while time is left.
type TimeLeft time.Duration

// Span is the time left, rounded to the second and at least one second.
func (t TimeLeft) Span() time.Duration {
	d := time.Duration(t).Round(time.Second)
	if d <= 0 {
		d = time.Second
	}
	return d
}

// String is the time left in English.
func (t TimeLeft) String() string {
	d := t.Span()
	h, m, sec := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	var parts []string
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%d h", h))
	}
	if m > 0 {
		parts = append(parts, fmt.Sprintf("%d min", m))
	}
	if sec > 0 && h == 0 {
		parts = append(parts, fmt.Sprintf("%d s", sec))
	}
	return strings.Join(parts, " ")
}

// penalise gives each of users the next cooldown of the escalation and
// writes it to the audit log.
func (s *Service) penalise(ctx context.Context, lt Tx, l Lobby, m Match, users []string, reason Reason, now time.Time) ([]Cooldown, error) {
	var out []Cooldown
	for _, u := range users {
		recent, err := lt.Cooldowns(ctx, m.GuildID, u, now.Add(-PenaltyWindow))
		if err != nil {
			return nil, err
		}
		c, err := lt.AddCooldown(ctx, Cooldown{GuildID: m.GuildID, UserID: u, MatchID: m.ID, Reason: reason.Text(),
			ReasonCode: reason.Code(), CreatedAt: now, Until: now.Add(l.cooldownFor(len(recent)))})
		if err != nil {
			return nil, err
		}
		err = audit(ctx, lt, AuditEntry{GuildID: m.GuildID, ActorID: System.UserID, Action: "penalty.cooldown", MatchID: m.ID,
			Target: u, At: now}.because(reason), nil, map[string]any{"until": c.Until, "penalties_24h": len(recent) + 1})
		if err != nil {
			return nil, err
		}
		if err := s.ratingPenalty(ctx, lt, l, m, u, reason); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// ClearCooldown lifts a player's running cooldowns (moderators only,
// audited). Clearing when none runs answers alreadyDone.
func (s *Service) ClearCooldown(ctx context.Context, actor Actor, guildID, userID string) (alreadyDone bool, err error) {
	if !actor.Moderator {
		return false, Errorf(CodeForbidden, "only moderators can clear a cooldown")
	}
	if err := validateSnowflake("user", userID); err != nil {
		return false, err
	}
	now := s.now()
	err = s.store.InTx(ctx, func(lt Tx) error {
		n, err := lt.ClearCooldowns(ctx, guildID, userID, now)
		if err != nil || n == 0 {
			alreadyDone = n == 0
			return err
		}
		return audit(ctx, lt, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "penalty.clear", Target: userID, At: now}, map[string]any{"cooldowns": n}, nil)
	})
	if err != nil {
		return false, fmt.Errorf("ladder: clear cooldown: %w", err)
	}
	return alreadyDone, nil
}

// ratingPenalty takes the queue's rating penalty off a penalised player as
// a "set" row of the rating log, the kind a moderator's adjustment is, so
// replays and verify keep it, audited as penalty.rating beside the
// rating.set entry the adjustment writes.
func (s *Service) ratingPenalty(ctx context.Context, tx Tx, l Lobby, m Match, userID string, reason Reason) error {
	if l.RatingPenalty == 0 {
		return nil
	}
	q, err := tx.Queue(ctx, m.QueueID)
	if err != nil {
		return err
	}
	r, err := s.adjustTx(ctx, tx, System, m.GuildID, q.Name, userID, reason.Text(), reason.Code(), "set", func(_ rating.Model, cur rating.State) (float64, float64, error) {
		return cur.Rating - l.RatingPenalty, cur.Dev, nil
	})
	if err != nil {
		return err
	}
	return audit(ctx, tx, AuditEntry{GuildID: m.GuildID, ActorID: System.UserID, Action: "penalty.rating", MatchID: m.ID, Target: userID,
		At: s.now()}.because(reason), r.Before, r.After)
}
