package ladder

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// WebhookStore keeps outgoing webhooks, the outbox of their events and the
// delivery log (package storage). It is part of Tx, so a change and its
// event share one transaction.
type WebhookStore interface {
	Outbox
	// LockWebhooks holds, until the transaction ends, a lock on the
	// guild's set of webhooks: two transactions that take it one after the
	// other, so that a count of the guild's webhooks read after it stays
	// true until commit.
	LockWebhooks(ctx context.Context, guildID string) error
	// CreateWebhook inserts w and returns it with its ID.
	CreateWebhook(ctx context.Context, w Webhook) (Webhook, error)
	// Webhooks returns a guild's webhooks, oldest first.
	Webhooks(ctx context.Context, guildID string) ([]Webhook, error)
	// DeleteWebhook removes a guild's webhook with its pending deliveries
	// and log; CodeNotFound if the guild has no webhook id.
	DeleteWebhook(ctx context.Context, guildID string, id int64) error
	// RecentAttempts returns the latest limit attempts of each webhook of a
	// guild, newest first, by webhook ID.
	RecentAttempts(ctx context.Context, guildID string, limit int) (map[int64][]DeliveryAttempt, error)
	// ClaimDeliveries takes up to limit pending deliveries due at now that
	// nobody holds, holding them until now+lease: two processes never
	// claim the same delivery while its claim lasts. It is fair: at most
	// the oldest due delivery of each webhook, none of a webhook that has
	// one claimed already, and the guilds in turns.
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Delivery, error)
	// PruneEvents deletes the events from before before that no delivery
	// still waits for, with their deliveries and attempts.
	PruneEvents(ctx context.Context, before time.Time) (int64, error)
	// FinishDelivery logs attempt a of delivery d and moves d to state,
	// due again at next when state is DeliveryPending; it releases the claim.
	FinishDelivery(ctx context.Context, d Delivery, a DeliveryAttempt, state DeliveryState, next time.Time) error
}

// DeliveryState is where one event's delivery to one webhook is.
type DeliveryState string

// Delivery states: pending until a 2xx answer (delivered) or until the
// retry window runs out (failed).
const (
	DeliveryPending   DeliveryState = "pending"
	DeliveryDelivered DeliveryState = "delivered"
	DeliveryFailed    DeliveryState = "failed"
)

// Delivery is a claimed delivery: one event to one webhook.
type Delivery struct {
	ID        int64
	EventID   string
	EventType EventType
	// EventAt is when the event happened; retries stop RetryWindow after it.
	EventAt   time.Time
	WebhookID int64
	URL       string
	Secret    string
	Body      []byte
	// Attempts counts the attempts before this one.
	Attempts int
}

// DeliveryAttempt is one line of the delivery log.
type DeliveryAttempt struct {
	DeliveryID int64
	EventID    string
	EventType  EventType
	At         time.Time
	// Status is the HTTP status answered, 0 when there was no answer.
	Status   int
	Error    string
	Duration time.Duration
}

// Delivery retries: exponential backoff from RetryBase, capped
// at RetryCap, for RetryWindow after the event.
const (
	RetryBase   = 30 * time.Second
	RetryCap    = time.Hour
	RetryWindow = 24 * time.Hour
	// maxWebhooks bounds a guild's webhooks, so one token cannot make each
	// event fan out without limit.
	maxWebhooks = 10
)

// retryDelay is the wait after the n-th failed attempt (n ≥ 1): RetryBase
// doubled n−1 times, at most RetryCap.
func retryDelay(n int) time.Duration {
	d := RetryBase
	for i := 1; i < n && d < RetryCap; i++ {
		d *= 2
	}
	return min(d, RetryCap)
}

// WebhookStatus is a webhook with its latest delivery attempts.
type WebhookStatus struct {
	Webhook
	Recent []DeliveryAttempt
}

// CreateWebhook subscribes rawURL to events of a guild and returns the
// webhook with its secret, which only this answer shows.
func (s *Service) CreateWebhook(ctx context.Context, actor Actor, guildID, rawURL string, events []string, policy URLPolicy) (Webhook, error) {
	if !actor.Moderator {
		return Webhook{}, Errorf(CodeForbidden, "only moderators can add webhooks")
	}
	u, err := policy.CheckURL(rawURL)
	if err != nil {
		return Webhook{}, err
	}
	types, err := parseEventTypes(events)
	if err != nil {
		return Webhook{}, err
	}
	if _, err := s.EnsureGuild(ctx, guildID); err != nil {
		return Webhook{}, err
	}
	// The store's vault is the only cryptographic random source, so that
	// ladder stays on the standard library's pure packages.
	token, err := s.store.NewTokenSecret()
	if err != nil {
		return Webhook{}, fmt.Errorf("ladder: webhook secret: %w", err)
	}
	w := Webhook{GuildID: guildID, URL: u.String(), Events: types, Secret: "whsec_" + strings.TrimPrefix(token, TokenPrefix),
		CreatedBy: actor.UserID, CreatedAt: s.now()}
	err = s.store.InTx(ctx, func(tx Tx) error {
		// Without the lock, concurrent creates each counted the others'
		// uncommitted rows out and the guild passed its limit.
		if err := tx.LockWebhooks(ctx, guildID); err != nil {
			return err
		}
		have, err := tx.Webhooks(ctx, guildID)
		if err != nil {
			return err
		}
		if len(have) >= maxWebhooks {
			return Errorf(CodeConflict, "a guild has at most %d webhooks; delete one first", maxWebhooks)
		}
		if w, err = tx.CreateWebhook(ctx, w); err != nil {
			return err
		}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "webhook.create",
			Target: fmt.Sprint(w.ID), At: w.CreatedAt}, nil, map[string]any{"url": w.URL, "events": w.Events})
	})
	if err != nil {
		return Webhook{}, fmt.Errorf("ladder: create webhook: %w", err)
	}
	return w, nil
}

// Webhooks lists a guild's webhooks, without their secrets, each with its
// latest recent delivery attempts.
func (s *Service) Webhooks(ctx context.Context, guildID string, recent int) ([]WebhookStatus, error) {
	ws, err := s.store.Webhooks(ctx, guildID)
	if err != nil {
		return nil, fmt.Errorf("ladder: webhooks: %w", err)
	}
	attempts, err := s.store.RecentAttempts(ctx, guildID, recent)
	if err != nil {
		return nil, fmt.Errorf("ladder: webhooks: %w", err)
	}
	out := make([]WebhookStatus, len(ws))
	for i, w := range ws {
		w.Secret = ""
		out[i] = WebhookStatus{Webhook: w, Recent: attempts[w.ID]}
	}
	return out, nil
}

// DeleteWebhook removes a guild's webhook; its pending deliveries stop.
func (s *Service) DeleteWebhook(ctx context.Context, actor Actor, guildID string, id int64) error {
	if !actor.Moderator {
		return Errorf(CodeForbidden, "only moderators can delete webhooks")
	}
	err := s.store.InTx(ctx, func(tx Tx) error {
		if err := tx.DeleteWebhook(ctx, guildID, id); err != nil {
			return err
		}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "webhook.delete",
			Target: fmt.Sprint(id), At: s.now()}, map[string]any{"id": id}, nil)
	})
	if err != nil {
		return fmt.Errorf("ladder: delete webhook: %w", err)
	}
	return nil
}

// EventRetention is how long events and their delivery log are kept once
// no delivery waits for them: long enough to read a week's failures in the
// webhook list, short enough that the outbox stays small.
const EventRetention = 7 * 24 * time.Hour

// PruneEvents deletes the events older than EventRetention whose
// deliveries have all ended (the daily job calls it).
func (s *Service) PruneEvents(ctx context.Context) (int64, error) {
	n, err := s.store.PruneEvents(ctx, s.now().Add(-EventRetention))
	if err != nil {
		return 0, fmt.Errorf("ladder: prune events: %w", err)
	}
	return n, nil
}

// ClaimDeliveries takes up to limit due deliveries for this process,
// held for lease; a process that dies holding them loses them to another
// after the lease, so lease must exceed one attempt's timeout.
func (s *Service) ClaimDeliveries(ctx context.Context, lease time.Duration, limit int) ([]Delivery, error) {
	ds, err := s.store.ClaimDeliveries(ctx, s.now(), lease, limit)
	if err != nil {
		return nil, fmt.Errorf("ladder: claim deliveries: %w", err)
	}
	return ds, nil
}

// FinishDelivery records an attempt at d: a 2xx status ends it, anything
// else schedules the next attempt by retryDelay, or gives up once that
// would fall beyond RetryWindow after the event. It returns the state d
// is left in.
func (s *Service) FinishDelivery(ctx context.Context, d Delivery, status int, errText string, took time.Duration) (DeliveryState, error) {
	now := s.now()
	a := DeliveryAttempt{DeliveryID: d.ID, EventID: d.EventID, EventType: d.EventType, At: now,
		Status: status, Error: truncate(printable(errText), 500), Duration: took}
	state, next := DeliveryDelivered, time.Time{}
	if status < 200 || status > 299 {
		state, next = DeliveryPending, now.Add(retryDelay(d.Attempts+1))
		if next.After(d.EventAt.Add(RetryWindow)) {
			state, next = DeliveryFailed, time.Time{}
		}
	}
	if err := s.store.FinishDelivery(ctx, d, a, state, next); err != nil {
		return "", fmt.Errorf("ladder: finish delivery: %w", err)
	}
	return state, nil
}

// printable makes an attempt's error text safe to store and show: it
// quotes what a receiver answered (a status line's reason phrase is any
// bytes), and PostgreSQL refuses a NUL or bytes that are not UTF-8 in a
// text column, which left the attempt unrecorded and the delivery posted
// again after every lease for ever. Bytes that are not UTF-8 become
// U+FFFD, control characters a space.
func printable(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
