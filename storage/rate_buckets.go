package storage

import (
	"context"
	"strings"
	"time"
)

// takeTokenSQL charges one request to a shared token bucket in one
// statement. A new bucket starts full, less this request (the inserted
// tokens are burst − 1, so excluded.tokens + 1 is the burst and
// excluded.at_us is now). An existing one is refilled at the rate (the
// placeholders, per microsecond) for the time since it was last touched
// — never backwards, as replicas' clocks differ a little — up to the
// burst, and charged only when it holds a whole token; taken records
// which. Every SET expression reads the row as it was, on both backends;
// the rate is cast, or PostgreSQL would take it for a bigint like at_us.
var takeTokenSQL = strings.NewReplacer("REFILL", `(CASE
    WHEN rate_buckets.tokens + (CASE WHEN excluded.at_us > rate_buckets.at_us THEN excluded.at_us - rate_buckets.at_us ELSE 0 END) * CAST(? AS double precision) > excluded.tokens + 1
    THEN excluded.tokens + 1
    ELSE rate_buckets.tokens + (CASE WHEN excluded.at_us > rate_buckets.at_us THEN excluded.at_us - rate_buckets.at_us ELSE 0 END) * CAST(? AS double precision) END)`).
	Replace(`INSERT INTO rate_buckets (bucket, tokens, at_us, taken) VALUES (?, ?, ?, 1)
ON CONFLICT (bucket) DO UPDATE SET
  tokens = CASE WHEN REFILL >= 1 THEN REFILL - 1 ELSE REFILL END,
  taken = CASE WHEN REFILL >= 1 THEN 1 ELSE 0 END,
  at_us = CASE WHEN excluded.at_us > rate_buckets.at_us THEN excluded.at_us ELSE rate_buckets.at_us END
RETURNING tokens, taken`)

// TakeToken takes one token from the shared bucket named bucket, which
// holds at most burst tokens and refills at rate per second (takeTokenSQL).
// It reports whether a token was taken and, when not, how long until the
// bucket holds one. Every process serving the API shares the rows, so the
// limit holds across replicas.
func (t *tx) TakeToken(ctx context.Context, bucket string, rate float64, burst int, now time.Time) (bool, time.Duration, error) {
	perUS := rate / 1e6
	args := []any{bucket, float64(burst) - 1, now.UnixMicro()}
	for range 8 { // REFILL four times, two placeholders each
		args = append(args, perUS)
	}
	var row struct {
		Tokens float64
		Taken  int
	}
	if err := t.q(ctx).Raw(takeTokenSQL, args...).Scan(&row).Error; err != nil {
		return false, 0, wrap("take rate token", err, "")
	}
	if row.Taken == 1 {
		return true, 0, nil
	}
	return false, time.Duration((1 - row.Tokens) / rate * float64(time.Second)), nil
}
