package storage

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm/clause"
)

type auditRow struct {
	ID      int64 `gorm:"primaryKey"`
	GuildID string
	ActorID string
	Action  string
	MatchID *int64
	Target  string
	Reason  string
	// ReasonCode is NULL in rows written before reason codes were
	// (reasonCode).
	ReasonCode *string
	Before     string
	After      string
	At         time.Time
}

// reasonCode is a row's reason code: the stored one, or for a row written
// before codes were (NULL) the code of the reason the ladder wrote as its
// text, "" for a person's own words.
func reasonCode(code *string, text string) string {
	if code == nil {
		return ladder.ReasonCodeOf(text)
	}
	return *code
}

func (auditRow) TableName() string { return "audit_log" }

// AddAudit implements ladder.Tx.
func (t *tx) AddAudit(ctx context.Context, e ladder.AuditEntry) error {
	r := auditRow{GuildID: e.GuildID, ActorID: e.ActorID, Action: e.Action, Target: e.Target, Reason: e.Reason, ReasonCode: &e.ReasonCode, Before: e.Before, After: e.After, At: e.At.UTC()}
	if e.MatchID != 0 {
		id := e.MatchID
		r.MatchID = &id
	}
	return wrap("audit", t.q(ctx).Create(&r).Error, "")
}

// Audit implements ladder.Tx.
func (t *tx) Audit(ctx context.Context, guildID string, limit int) ([]ladder.AuditEntry, error) {
	var rows []auditRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Order("id DESC").Limit(max(limit, 1)).Find(&rows).Error; err != nil {
		return nil, wrap("audit", err, "")
	}
	out := make([]ladder.AuditEntry, len(rows))
	for i, r := range rows {
		out[i] = ladder.AuditEntry{ID: r.ID, GuildID: r.GuildID, ActorID: r.ActorID, Action: r.Action, Target: r.Target,
			Reason: r.Reason, ReasonCode: reasonCode(r.ReasonCode, r.Reason), Before: r.Before, After: r.After, At: r.At.UTC()}
		if r.MatchID != nil {
			out[i].MatchID = *r.MatchID
		}
	}
	return out, nil
}

type idempotencyRow struct {
	GuildID   string
	Key       string
	MatchID   int64
	CreatedAt time.Time
}

func (idempotencyRow) TableName() string { return "idempotency_keys" }

// IdempotentMatch implements ladder.Tx.
func (t *tx) IdempotentMatch(ctx context.Context, guildID, key string) (int64, error) {
	if t.pg != nil {
		// With BEGIN in one round trip (IdempotentMatches).
		used, err := t.IdempotentMatches(ctx, guildID, []string{key})
		if err != nil {
			return 0, err
		}
		id, ok := used[key]
		if !ok {
			return 0, ladder.Errorf(ladder.CodeNotFound, "idempotency key not used yet")
		}
		return id, nil
	}
	var r idempotencyRow
	if err := t.q(ctx).Where("guild_id = ? AND key = ?", guildID, key).Take(&r).Error; err != nil {
		return 0, wrap("idempotency key", err, "idempotency key not used yet")
	}
	return r.MatchID, nil
}

// idempotencyPG reads a batch's keys on PostgreSQL with one probe of the
// primary key per key, in the round trip that carries BEGIN. Written as
// `key IN (…)`, the prepared statement's generic plan, made while a guild
// had few keys, read every key of the guild and filtered them (5 ms a
// batch at 8,000 keys, growing with the guild's history); LIMIT 1 keeps
// the probe from being flattened into such a join.
const idempotencyPG = `SELECT i.key, i.match_id FROM unnest($1::text[]) AS k(key)
 CROSS JOIN LATERAL (SELECT key, match_id FROM idempotency_keys WHERE guild_id = $2 AND key = k.key LIMIT 1) i`

// IdempotentMatches implements ladder.Tx.
func (t *tx) IdempotentMatches(ctx context.Context, guildID string, keys []string) (map[string]int64, error) {
	out := map[string]int64{}
	if len(keys) == 0 {
		return out, nil
	}
	if t.pg != nil {
		err := t.pg.batch(ctx, func(b *pgx.Batch) { b.Queue(idempotencyPG, keys, guildID) }, func(br pgx.BatchResults) error {
			rows, err := br.Query()
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var key string
				var id int64
				if err := rows.Scan(&key, &id); err != nil {
					return err
				}
				out[key] = id
			}
			return rows.Err()
		})
		if err != nil {
			return nil, wrap("idempotency keys", err, "")
		}
		return out, nil
	}
	var rs []idempotencyRow
	if err := t.q(ctx).Where("guild_id = ? AND key IN ?", guildID, keys).Find(&rs).Error; err != nil {
		return nil, wrap("idempotency keys", err, "")
	}
	for _, r := range rs {
		out[r.Key] = r.MatchID
	}
	return out, nil
}

// SaveIdempotency implements ladder.Tx. A key claimed by a concurrent
// transaction waits for it and then answers CodeConflict.
func (t *tx) SaveIdempotency(ctx context.Context, guildID, key string, matchID int64, at time.Time) error {
	r := idempotencyRow{GuildID: guildID, Key: key, MatchID: matchID, CreatedAt: at.UTC()}
	res := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&r)
	if res.Error != nil {
		return wrap("idempotency key", res.Error, "idempotency key already used")
	}
	if res.RowsAffected == 0 {
		return ladder.Errorf(ladder.CodeConflict, "idempotency key already used")
	}
	return nil
}

type tokenRow struct {
	ID        int64 `gorm:"primaryKey"`
	GuildID   string
	Name      string
	Hash      []byte
	CreatedBy string
	CreatedAt time.Time
	RevokedAt *time.Time
}

func (tokenRow) TableName() string { return "api_tokens" }

func (r tokenRow) token() ladder.Token {
	return ladder.Token{ID: r.ID, GuildID: r.GuildID, Name: r.Name, Hash: r.Hash, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt.UTC(), RevokedAt: tv(r.RevokedAt)}
}

// CreateToken implements ladder.Tx.
func (t *tx) CreateToken(ctx context.Context, tok ladder.Token) (ladder.Token, error) {
	r := tokenRow{GuildID: tok.GuildID, Name: tok.Name, Hash: tok.Hash, CreatedBy: tok.CreatedBy, CreatedAt: tok.CreatedAt.UTC()}
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return ladder.Token{}, wrap("create token", err, "a live token called %q exists", tok.Name)
	}
	return r.token(), nil
}

// Tokens implements ladder.Tx.
func (t *tx) Tokens(ctx context.Context, guildID string) ([]ladder.Token, error) {
	var rows []tokenRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Order("id").Find(&rows).Error; err != nil {
		return nil, wrap("tokens", err, "")
	}
	out := make([]ladder.Token, len(rows))
	for i, r := range rows {
		out[i] = r.token()
	}
	return out, nil
}

// TokenByHash implements ladder.Tx.
func (t *tx) TokenByHash(ctx context.Context, hash []byte) (ladder.Token, error) {
	var r tokenRow
	if err := t.q(ctx).Where("hash = ?", hash).Take(&r).Error; err != nil {
		return ladder.Token{}, wrap("token", err, "token not found")
	}
	return r.token(), nil
}

// RevokeToken implements ladder.Tx.
func (t *tx) RevokeToken(ctx context.Context, guildID, name string, at time.Time) error {
	res := t.q(ctx).Model(&tokenRow{}).Where("guild_id = ? AND name = ? AND revoked_at IS NULL", guildID, name).Update("revoked_at", at.UTC())
	return wrap("revoke token", found(res), "no live token called %q", name)
}

type jobRunRow struct {
	Job        string
	Period     string
	StartedAt  time.Time
	FinishedAt *time.Time
	Error      string
}

func (jobRunRow) TableName() string { return "job_runs" }

// ClaimJob implements ladder.Tx.
func (t *tx) ClaimJob(ctx context.Context, job, period string, at time.Time) (bool, error) {
	res := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&jobRunRow{Job: job, Period: period, StartedAt: at.UTC()})
	if res.Error != nil {
		return false, wrap("claim job", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// FinishJob implements ladder.Tx.
func (t *tx) FinishJob(ctx context.Context, job, period, errText string, at time.Time) error {
	res := t.q(ctx).Model(&jobRunRow{}).Where("job = ? AND period = ?", job, period).
		Updates(map[string]any{"finished_at": at.UTC(), "error": errText})
	return wrap("finish job", found(res), "job run %s/%s not claimed", job, period)
}
