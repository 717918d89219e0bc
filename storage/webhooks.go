package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/ladderbot/ladderbot/ladder"
)

// Outgoing webhooks: the webhooks, the outbox of events written
// in the transaction of their change, one delivery row per event and
// subscribed webhook, and the log of attempts.

type webhookRow struct {
	ID        int64 `gorm:"primaryKey"`
	GuildID   string
	URL       string
	Events    string
	Secret    string
	CreatedBy string
	CreatedAt time.Time
}

func (webhookRow) TableName() string { return "webhooks" }

func (r webhookRow) webhook() ladder.Webhook {
	var evs []ladder.EventType
	for _, e := range strings.Split(strings.Trim(r.Events, ","), ",") {
		if e != "" {
			evs = append(evs, ladder.EventType(e))
		}
	}
	return ladder.Webhook{ID: r.ID, GuildID: r.GuildID, URL: r.URL, Events: evs, Secret: r.Secret,
		CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt.UTC()}
}

// eventsColumn wraps the types in commas, so that "LIKE %,type,%" finds a
// subscriber in the one statement that fans an event out.
func eventsColumn(ts []ladder.EventType) string {
	var b strings.Builder
	b.WriteString(",")
	for _, t := range ts {
		b.WriteString(string(t))
		b.WriteString(",")
	}
	return b.String()
}

// webhookLockClass is the first key of a guild's webhooks' PostgreSQL
// advisory lock ("WH"); the second is a hash of the guild ID.
const webhookLockClass = 0x5748

// LockWebhooks implements ladder.Tx: pg_advisory_xact_lock on PostgreSQL,
// released when the transaction ends; nothing on SQLite, whose immediate
// transactions already hold the database's write lock.
func (t *tx) LockWebhooks(ctx context.Context, guildID string) error {
	if t.dialect != Postgres {
		return nil
	}
	return wrap("lock webhooks", t.q(ctx).Exec("SELECT pg_advisory_xact_lock(?, hashtext(?))", webhookLockClass, guildID).Error, "")
}

// CreateWebhook implements ladder.Tx.
func (t *tx) CreateWebhook(ctx context.Context, w ladder.Webhook) (ladder.Webhook, error) {
	r := webhookRow{GuildID: w.GuildID, URL: w.URL, Events: eventsColumn(w.Events), Secret: w.Secret,
		CreatedBy: w.CreatedBy, CreatedAt: w.CreatedAt.UTC()}
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return ladder.Webhook{}, wrap("create webhook", err, "webhook exists")
	}
	return r.webhook(), nil
}

// Webhooks implements ladder.Tx.
func (t *tx) Webhooks(ctx context.Context, guildID string) ([]ladder.Webhook, error) {
	var rows []webhookRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Order("id").Find(&rows).Error; err != nil {
		return nil, wrap("webhooks", err, "")
	}
	out := make([]ladder.Webhook, len(rows))
	for i, r := range rows {
		out[i] = r.webhook()
	}
	return out, nil
}

// DeleteWebhook implements ladder.Tx. Deliveries and attempts go with it
// (ON DELETE CASCADE); the events stay, as the record of what happened.
func (t *tx) DeleteWebhook(ctx context.Context, guildID string, id int64) error {
	res := t.q(ctx).Where("guild_id = ? AND id = ?", guildID, id).Delete(&webhookRow{})
	return wrap("delete webhook", found(res), "no webhook %d in this guild", id)
}

// AddEvent implements ladder.Tx: the event row, then one pending delivery
// per subscribed webhook of the guild, due at once.
func (t *tx) AddEvent(ctx context.Context, e ladder.Event) error {
	at := e.At.UTC()
	err := t.q(ctx).Exec("INSERT INTO webhook_events (id, guild_id, type, at, body) VALUES (?, ?, ?, ?, ?)",
		e.ID, e.GuildID, string(e.Type), at, string(e.Body)).Error
	if err != nil {
		return wrap("add event", err, "event exists")
	}
	err = t.q(ctx).Exec(`INSERT INTO webhook_deliveries (event_id, webhook_id, state, attempts, next_at, created_at)
SELECT ?, id, ?, 0, ?, ? FROM webhooks WHERE guild_id = ? AND `+t.contains("events"),
		e.ID, string(ladder.DeliveryPending), at, at, e.GuildID, ","+string(e.Type)+",").Error
	return wrap("add event deliveries", err, "")
}

// RecentAttempts implements ladder.Tx.
func (t *tx) RecentAttempts(ctx context.Context, guildID string, limit int) (map[int64][]ladder.DeliveryAttempt, error) {
	type row struct {
		WebhookID  int64
		DeliveryID int64
		EventID    string
		Type       string
		At         time.Time
		Status     int
		Error      string
		DurationMS int64
	}
	var rows []row
	// A window per webhook keeps the answer bounded however long the log.
	err := t.q(ctx).Raw(`SELECT * FROM (
  SELECT d.webhook_id, a.delivery_id, d.event_id, e.type, a.at, a.status, a.error, a.duration_ms,
         row_number() OVER (PARTITION BY d.webhook_id ORDER BY a.id DESC) AS n
  FROM webhook_attempts a
  JOIN webhook_deliveries d ON d.id = a.delivery_id
  JOIN webhook_events e ON e.id = d.event_id
  JOIN webhooks w ON w.id = d.webhook_id
  WHERE w.guild_id = ?) x
WHERE n <= ? ORDER BY webhook_id, n`, guildID, limit).Scan(&rows).Error
	if err != nil {
		return nil, wrap("recent attempts", err, "")
	}
	out := map[int64][]ladder.DeliveryAttempt{}
	for _, r := range rows {
		out[r.WebhookID] = append(out[r.WebhookID], ladder.DeliveryAttempt{DeliveryID: r.DeliveryID,
			EventID: r.EventID, EventType: ladder.EventType(r.Type), At: r.At.UTC(), Status: r.Status,
			Error: r.Error, Duration: time.Duration(r.DurationMS) * time.Millisecond})
	}
	return out, nil
}

// claimDeliveriesSQL picks the deliveries a claim takes, fairly: only the
// oldest due delivery of each webhook, and none of a webhook that already
// has one claimed (by any process), so a receiver that hangs holds one
// delivery for one timeout and never the slots of other endpoints; then
// the guilds take turns — every guild's first webhook before any guild's
// second — so one guild's backlog cannot fill a batch. Placeholders: now
// three times, then the limit.
const claimDeliveriesSQL = `SELECT id FROM (
  SELECT id, next_at, ROW_NUMBER() OVER (PARTITION BY guild_id ORDER BY next_at, id) AS turn
  FROM (
    SELECT d.id, d.next_at, w.guild_id, ROW_NUMBER() OVER (PARTITION BY d.webhook_id ORDER BY d.next_at, d.id) AS nth
    FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
    WHERE d.state = 'pending' AND d.next_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until <= ?)
      AND d.webhook_id NOT IN (SELECT c.webhook_id FROM webhook_deliveries c
                               WHERE c.state = 'pending' AND c.claimed_until > ?)
  ) oldest WHERE nth = 1
) fair ORDER BY turn, next_at, id LIMIT ?`

// ClaimDeliveries implements ladder.Tx in one statement, choosing the
// rows by claimDeliveriesSQL. On PostgreSQL the chosen rows are locked
// with FOR UPDATE SKIP LOCKED, so concurrent claimers pass over each
// other's rows instead of waiting for them, and a row claimed and
// committed meanwhile is re-checked against claimed_until and left out;
// SQLite runs one writer at a time, so the conditional update is atomic
// on its own.
func (t *tx) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]ladder.Delivery, error) {
	now = now.UTC()
	var ids []int64
	var err error
	if t.dialect == Postgres {
		// The rows are picked and locked once, in a materialized CTE: as
		// "id IN (… FOR UPDATE SKIP LOCKED)" the planner, told by the
		// statistics that few deliveries are pending, ran the locking
		// pick again for every pending row. The claimed webhooks are one
		// hashed set (NOT IN) for the same reason: a correlated NOT EXISTS
		// was scanned in full per pending row. Either made a claim cost
		// the square of the backlog (BenchmarkGuildScale).
		err = t.q(ctx).Raw(`WITH pick AS MATERIALIZED (SELECT id FROM webhook_deliveries WHERE id IN (`+claimDeliveriesSQL+`) FOR UPDATE SKIP LOCKED)
UPDATE webhook_deliveries SET claimed_until = ?
WHERE id IN (SELECT id FROM pick) AND state = 'pending' AND (claimed_until IS NULL OR claimed_until <= ?) RETURNING id`,
			now, now, now, limit, now.Add(lease), now).Scan(&ids).Error
	} else {
		err = t.q(ctx).Raw(`UPDATE webhook_deliveries SET claimed_until = ?
WHERE id IN (`+claimDeliveriesSQL+`) AND state = 'pending' AND (claimed_until IS NULL OR claimed_until <= ?) RETURNING id`,
			now.Add(lease), now, now, now, limit, now).Scan(&ids).Error
	}
	if err != nil {
		return nil, wrap("claim deliveries", err, "")
	}
	if len(ids) == 0 {
		return nil, nil
	}
	type row struct {
		ID        int64
		EventID   string
		Type      string
		At        time.Time
		WebhookID int64
		URL       string
		Secret    string
		Body      string
		Attempts  int
	}
	var rows []row
	err = t.q(ctx).Raw(`SELECT d.id, d.event_id, e.type, e.at, d.webhook_id, w.url, w.secret, e.body, d.attempts
FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id
WHERE d.id IN ? ORDER BY d.id`, ids).Scan(&rows).Error
	if err != nil {
		return nil, wrap("claim deliveries", err, "")
	}
	out := make([]ladder.Delivery, len(rows))
	for i, r := range rows {
		out[i] = ladder.Delivery{ID: r.ID, EventID: r.EventID, EventType: ladder.EventType(r.Type), EventAt: r.At.UTC(),
			WebhookID: r.WebhookID, URL: r.URL, Secret: r.Secret, Body: []byte(r.Body), Attempts: r.Attempts}
	}
	return out, nil
}

// FinishDelivery implements ladder.Tx: the attempt and the new state in
// one transaction, so the log never disagrees with the state.
func (t *tx) FinishDelivery(ctx context.Context, d ladder.Delivery, a ladder.DeliveryAttempt, state ladder.DeliveryState, next time.Time) error {
	run := func(g *gorm.DB) error {
		// The attempt is logged only while its delivery exists: a webhook
		// deleted during the attempt took its deliveries and log with it,
		// and there is nothing left to record.
		err := g.Exec(`INSERT INTO webhook_attempts (delivery_id, at, status, error, duration_ms)
SELECT id, ?, ?, ?, ? FROM webhook_deliveries WHERE id = ?`,
			a.At.UTC(), a.Status, a.Error, a.Duration.Milliseconds(), d.ID).Error
		if err != nil {
			return err
		}
		set := map[string]any{"state": string(state), "attempts": gorm.Expr("attempts + 1"), "claimed_until": nil}
		if state == ladder.DeliveryPending {
			set["next_at"] = next.UTC()
		} else {
			set["done_at"] = a.At.UTC()
		}
		return g.Table("webhook_deliveries").Where("id = ? AND state = ?", d.ID, string(ladder.DeliveryPending)).Updates(set).Error
	}
	var err error
	if t.pg != nil {
		err = run(t.q(ctx))
	} else {
		err = t.q(ctx).Transaction(run)
	}
	return wrap("finish delivery", err, "")
}

// matchIDMarker is how a match event built before its match has an ID
// begins its data (ladder.MatchEvent with ID 0); eventCTE puts the ID in
// its place. User text inside the body is JSON-escaped, so the marker,
// with its bare quotes, occurs only there.
const matchIDMarker = `"data":{"match_id":0,`

// eventCTE adds to saveRatedPG's statement the event of w and its
// deliveries, so the event costs no extra round trip and commits with the
// match. The match ID comes from the CTE m; the foreign key from the
// deliveries to the event is checked at the end of the statement, when
// both rows exist.
func eventCTE(b *sqlBuilder, w ladder.RatedWrite) error {
	m := w.Match
	m.ID = 0
	e, err := ladder.MatchEvent(w.Event, m, w.At)
	if err != nil {
		return err
	}
	body := string(e.Body)
	if strings.Count(body, matchIDMarker) != 1 {
		return fmt.Errorf("storage: match event body lacks its match ID marker")
	}
	at := e.At.UTC()
	b.sql(`, ev AS (INSERT INTO webhook_events (id, guild_id, type, at, body)
 SELECT ?, ?, ?, ?, replace(?::text, ?::text, '"data":{"match_id":' || m.id || ',') FROM m)`,
		e.ID, e.GuildID, string(e.Type), at, body, matchIDMarker)
	b.sql(`, evd AS (INSERT INTO webhook_deliveries (event_id, webhook_id, state, attempts, next_at, created_at)
 SELECT ?, id, ?, 0, ?, ? FROM webhooks WHERE guild_id = ? AND events LIKE ?)`,
		e.ID, string(ladder.DeliveryPending), at, at, e.GuildID, "%,"+string(e.Type)+",%")
	return nil
}

// PruneEvents implements ladder.Tx.
func (t *tx) PruneEvents(ctx context.Context, before time.Time) (int64, error) {
	res := t.q(ctx).Exec(`DELETE FROM webhook_events WHERE at < ? AND NOT EXISTS
 (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.state = ?)`,
		before.UTC(), string(ladder.DeliveryPending))
	return res.RowsAffected, wrap("prune events", res.Error, "")
}
