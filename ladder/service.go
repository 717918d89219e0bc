package ladder

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"strconv"
	"strings"
	"time"
)

// Service is the ladder's application layer: every use case of the bot, the
// web API, the jobs and the command line goes through it. It holds no state
// besides its store and clock, so any number of processes may share a database.
type Service struct {
	store Store
	clock Clock
	// tokens caches successful token lookups briefly (tokenCacheTTL).
	tokens tokenCache
	// gate decides entries into queues (SetJoinGate); nil lets everyone in.
	gate JoinGate
}

// NewService returns a Service over store; a nil clock means SystemClock.
func NewService(store Store, clock Clock) *Service {
	if clock == nil {
		clock = SystemClock{}
	}
	return &Service{store: store, clock: clock}
}

// now returns the clock's time in UTC at microsecond precision, which both
// databases store exactly, so a replay sees the times the live update saw.
func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// EnsureGuild returns guild id, creating it first with the defaults, one
// 2v2 team-glicko queue and season 1 (docs/spec.md 3) if it does not exist.
func (s *Service) EnsureGuild(ctx context.Context, id string) (Guild, error) {
	if err := validateSnowflake("guild", id); err != nil {
		return Guild{}, err
	}
	g, err := s.store.Guild(ctx, id)
	if err == nil || ErrorCode(err) != CodeNotFound {
		return g, err
	}
	err = s.store.InTx(ctx, func(tx Tx) error {
		g, err = ensureGuild(ctx, tx, id, s.now())
		return err
	})
	if err != nil {
		return Guild{}, fmt.Errorf("ladder: ensure guild: %w", err)
	}
	return g, nil
}

// DefaultTeamSize is the team size of a new guild's default queue: 2v2
// (docs/spec.md 3).
const DefaultTeamSize = 2

func ensureGuild(ctx context.Context, tx Tx, id string, now time.Time) (Guild, error) {
	g := NewGuild(id, now)
	created, err := tx.CreateGuild(ctx, g)
	if err != nil {
		return Guild{}, err
	}
	if !created {
		return tx.Guild(ctx, id)
	}
	q := NewQueue(id, DefaultQueueName, DefaultTeamSize)
	q.CreatedAt = now
	if _, err := tx.CreateQueue(ctx, q); err != nil {
		return Guild{}, err
	}
	if _, err := tx.CreateSeason(ctx, Season{GuildID: id, Number: 1, StartedAt: now}); err != nil {
		return Guild{}, err
	}
	return g, nil
}

// Guild returns a guild's settings; CodeNotFound if it was never ensured.
func (s *Service) Guild(ctx context.Context, id string) (Guild, error) {
	return s.store.Guild(ctx, id)
}

// UpdateGuild validates and stores new settings of an existing guild, and
// writes the change to the audit log.
func (s *Service) UpdateGuild(ctx context.Context, actor Actor, g Guild) (Guild, error) {
	if !actor.Moderator {
		return Guild{}, Errorf(CodeForbidden, "only moderators can change the settings")
	}
	if err := g.Validate(); err != nil {
		return Guild{}, err
	}
	err := s.store.InTx(ctx, func(tx Tx) error {
		old, err := tx.Guild(ctx, g.ID)
		if err != nil {
			return err
		}
		g.CreatedAt, g.SeasonScheduleAt = old.CreatedAt, old.SeasonScheduleAt
		if strings.TrimSpace(g.SeasonSchedule) != strings.TrimSpace(old.SeasonSchedule) {
			g.SeasonScheduleAt = s.now()
		}
		if err := tx.UpdateGuild(ctx, g); err != nil {
			return err
		}
		if old.PlacementGames != g.PlacementGames {
			if err := tx.RefreshProvisional(ctx, g.ID, g.PlacementGames); err != nil {
				return err
			}
		}
		return audit(ctx, tx, AuditEntry{GuildID: g.ID, ActorID: actor.UserID, Action: "guild.update", At: s.now()}, old, g)
	})
	if err != nil {
		return Guild{}, fmt.Errorf("ladder: update guild: %w", err)
	}
	return g, nil
}

// NotePreferredLocale records the locale Discord says a guild prefers,
// which its posts follow while no language is set (Guild.Language). It is
// Discord's setting, not a moderator's change, so it is not audited.
func (s *Service) NotePreferredLocale(ctx context.Context, guildID, locale string) error {
	if len(locale) > 16 || CheckText("locale", locale) != nil {
		return Errorf(CodeInvalid, "locale %q is not a locale", locale)
	}
	if err := s.store.SetPreferredLocale(ctx, guildID, locale); err != nil {
		return fmt.Errorf("ladder: note preferred locale: %w", err)
	}
	return nil
}

// Queues returns a guild's queues, the default (oldest) first.
func (s *Service) Queues(ctx context.Context, guildID string) ([]Queue, error) {
	return s.store.Queues(ctx, guildID)
}

// CreateQueue validates and adds a queue to a guild.
func (s *Service) CreateQueue(ctx context.Context, actor Actor, q Queue) (Queue, error) {
	if !actor.Moderator {
		return Queue{}, Errorf(CodeForbidden, "only moderators can add queues")
	}
	if err := q.Validate(); err != nil {
		return Queue{}, err
	}
	q.CreatedAt = s.now()
	err := s.store.InTx(ctx, func(tx Tx) error {
		var err error
		if q, err = tx.CreateQueue(ctx, q); err != nil {
			return err
		}
		return audit(ctx, tx, AuditEntry{GuildID: q.GuildID, ActorID: actor.UserID, Action: "queue.create", Target: q.Name, At: s.now()}, nil, q)
	})
	if err != nil {
		return Queue{}, fmt.Errorf("ladder: create queue: %w", err)
	}
	return q, nil
}

// UpdateQueue validates and stores a queue's new settings. Changing the
// model or its parameters does not re-rate past matches until a moderator
// runs a correction or the next season starts; verify replays with the
// current model, so change models between seasons.
func (s *Service) UpdateQueue(ctx context.Context, actor Actor, q Queue) (Queue, error) {
	q, _, err := s.ConfigureQueue(ctx, actor, q, nil)
	return q, err
}

// ConfigureQueue is UpdateQueue and, when l is not nil, UpdateLobby of
// the same queue in one transaction: /config queue set changes both at
// once, and a bad value of either writes nothing.
func (s *Service) ConfigureQueue(ctx context.Context, actor Actor, q Queue, l *Lobby) (Queue, Lobby, error) {
	if !actor.Moderator {
		return Queue{}, Lobby{}, Errorf(CodeForbidden, "only moderators can change queues")
	}
	// The name is checked against the stored one below: only a new name
	// must follow today's rules.
	if err := q.validSettings(); err != nil {
		return Queue{}, Lobby{}, err
	}
	if l != nil {
		if err := l.Validate(); err != nil {
			return Queue{}, Lobby{}, err
		}
		if l.QueueID != q.ID {
			return Queue{}, Lobby{}, Errorf(CodeInvalid, "lobby settings of queue %d given for queue %d", l.QueueID, q.ID)
		}
	}
	var saved Lobby
	err := s.store.InTx(ctx, func(tx Tx) error {
		// New constants wait for the results in flight, as an adoption does.
		if _, err := tx.LockCalibrator(ctx, q.ID); err != nil {
			return err
		}
		old, err := tx.Queue(ctx, q.ID)
		if err != nil {
			return err
		}
		if old.GuildID != q.GuildID {
			return Errorf(CodeNotFound, "queue %d not found", q.ID)
		}
		if q.Name != old.Name {
			if err := validQueueName(q.Name); err != nil {
				return err
			}
		}
		q.CreatedAt = old.CreatedAt
		if err := tx.UpdateQueue(ctx, q); err != nil {
			return err
		}
		if err := audit(ctx, tx, AuditEntry{GuildID: q.GuildID, ActorID: actor.UserID, Action: "queue.update", Target: q.Name, At: s.now()}, old, q); err != nil {
			return err
		}
		if l == nil {
			return nil
		}
		saved = *l
		return s.saveLobbyTx(ctx, tx, actor, q, saved)
	})
	if err != nil {
		return Queue{}, Lobby{}, fmt.Errorf("ladder: update queue: %w", err)
	}
	return q, saved, nil
}

// Audit returns a guild's latest audit entries, newest first.
func (s *Service) Audit(ctx context.Context, guildID string, limit int) ([]AuditEntry, error) {
	return s.store.Audit(ctx, guildID, clampLimit(limit, 50, 500))
}

// resolveQueue finds a guild's queue by name; "" is the default queue.
func resolveQueue(ctx context.Context, tx Tx, guildID, name string) (Queue, error) {
	if name != "" {
		return tx.QueueByName(ctx, guildID, name)
	}
	qs, err := tx.Queues(ctx, guildID)
	if err != nil {
		return Queue{}, err
	}
	if len(qs) == 0 {
		return Queue{}, Errorf(CodeNotFound, "guild %s has no queue", guildID)
	}
	return qs[0], nil
}

// resolveSeason finds a guild's season by number; 0 is the current one.
func resolveSeason(ctx context.Context, tx Tx, guildID string, number int) (Season, error) {
	if number > 1<<31-1 {
		// Season numbers are 32-bit in storage; PostgreSQL refuses to even
		// compare a larger one, which would surface as an internal error.
		return Season{}, Errorf(CodeNotFound, "season %d not found", number)
	}
	if number > 0 {
		return tx.Season(ctx, guildID, number)
	}
	if number < 0 {
		return Season{}, Errorf(CodeInvalid, "season must be a positive number, not %d", number)
	}
	return tx.CurrentSeason(ctx, guildID)
}

// modelFor builds a queue's rating model.
func modelFor(q Queue) (rating.Model, error) {
	m, err := rating.NewModel(q.Model, q.Params)
	if err != nil {
		return nil, fmt.Errorf("queue %q: %w", q.Name, err)
	}
	return m, nil
}

// audit appends an audit entry with before and after as JSON.
func audit(ctx context.Context, tx Tx, e AuditEntry, before, after any) error {
	e.Before, e.After = jsonText(before), jsonText(after)
	return tx.AddAudit(ctx, e)
}

func jsonText(v any) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%q", err.Error())
	}
	return string(b)
}

// validateSnowflake checks a Discord ID: 1 to 20 decimal digits. Imports and
// the API may also use other player names, so user IDs are checked by
// validateUserID instead.
//
// A leading zero is refused: Discord never writes one, and "0123" would be
// a second spelling of guild 123 in URLs and commands.
func validateSnowflake(what, id string) error {
	if !IsSnowflake(id) {
		return Errorf(CodeInvalid, "%s ID %q is not a Discord ID", what, id)
	}
	return nil
}

// IsSnowflake reports whether id is a Discord ID as Discord writes one:
// 1 to 20 decimal digits without a leading zero, within 64 bits. It is the
// one rule for "is this a Discord user, channel or role": the other IDs a
// ladder holds (an imported history's players, a game server's, the
// dashboard's "web:<ID>" actor) are not, and must never be sent to
// Discord as mentions.
func IsSnowflake(id string) bool {
	if id == "" || len(id) > 20 || strings.Trim(id, "0123456789") != "" || (len(id) > 1 && id[0] == '0') {
		return false
	}
	_, err := strconv.ParseUint(id, 10, 64)
	return err == nil
}

// validateUserID accepts Discord IDs and, for imported histories, other
// player keys: CheckID's rule, and no commas, pipes or quotes, which the
// match CSV and custom IDs use as separators.
func validateUserID(id string) error {
	if err := CheckID("player ID", id); err != nil {
		return err
	}
	if strings.ContainsAny(id, ",|\"") {
		return Errorf(CodeInvalid, "player ID %q must be 1 to 64 characters without commas, pipes or quotes", id)
	}
	return nil
}

func clampLimit(n, def, maxN int) int {
	if n <= 0 {
		return def
	}
	return min(n, maxN)
}

// isCode reports whether err carries code.
func isCode(err error, code Code) bool {
	e, ok := asError(err)
	return ok && e.Code == code
}
