package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord waits discordWait for an interaction's first response, counted
// from when it created the interaction (the time in the interaction's ID,
// a snowflake), and refuses a later callback: 404, code 10062 "Unknown
// interaction", while the user reads "This interaction failed". After a
// gateway outage Discord replays on the resume the INTERACTION_CREATEs the
// bot missed, some of them already older than that. Calling back for them
// is in vain, a burst of doomed callbacks on the shared rate-limit bucket
// just as the bot catches up, and doing their work would change the ladder
// for users who were told it failed. So a gateway interaction that arrives with too little of its
// time left is dropped before the chain does or shows anything: one warn
// line ("interaction expired before it arrived") and the metrics' outcome
// "expired".
//
// The age is this host's clock against the time Discord wrote in the ID,
// so the rule relies on the host clock being NTP-synced: a clock ahead by
// more than the margin (ExpiredAge, less the gateway's delivery time)
// would drop interactions that could still be answered; one behind lets
// expired ones through, to be refused as before.
//
// HTTP interactions are not checked: Discord sends each one as a POST it
// holds open for its 3 s and replays none after an outage, so the POST's
// own deadline (firstAnswerBudget) already bounds its answer, without a
// clock.
const (
	// discordWait is how long Discord waits for an interaction's first
	// response.
	discordWait = 3 * time.Second
	// ackHeadroom is what the acknowledgement needs to reach Discord (the
	// headroom instantBudget also keeps): an interaction arriving with
	// less than this left cannot be answered in time, and answering it is
	// a late callback Discord refuses.
	ackHeadroom = 500 * time.Millisecond
	// ExpiredAge is the age at arrival past which an interaction is dropped
	// (the soak test reads it to check the drops it sees).
	ExpiredAge = discordWait - ackHeadroom
)

// createdAt is when Discord created the interaction with ID id, read from
// the snowflake; false when id is not one.
func createdAt(id string) (time.Time, bool) {
	t, err := discordgo.SnowflakeTimestamp(id)
	if err != nil || id == "" {
		return time.Time{}, false
	}
	return t, true
}

// dropExpired stops a call that arrived more than ExpiredAge after Discord
// created it (call.created, by now's clock), before it is acknowledged,
// routed to its handler or logged as an interaction; drop is told of it
// with its age. A call without a creation time (HTTP) goes on.
func dropExpired(now func() time.Time, drop func(c *call, age time.Duration)) step {
	return func(next handler) handler {
		return func(ctx context.Context, c *call) error {
			if !c.created.IsZero() {
				if age := now().Sub(c.created); age > ExpiredAge {
					drop(c, age)
					return nil
				}
			}
			return next(ctx, c)
		}
	}
}

// expired writes the one line of an interaction dropped by dropExpired and
// counts it in the metrics with the outcome "expired" (no response, so a
// negative ack).
func (b *Bot) expired(c *call, age time.Duration) {
	var rt route
	if c.reqErr == nil {
		rt, _ = b.route(c.req)
	}
	cmd, _ := interactionLabels(rt, nil)
	b.log.LogAttrs(context.Background(), slog.LevelWarn, "interaction expired before it arrived",
		slog.Int64("age_ms", age.Milliseconds()),
		slog.String("guild_id", c.req.GuildID),
		slog.String("user_id", c.req.UserID),
		slog.String("cmd", rt.name),
		slog.String("interaction_id", c.id))
	if b.cfg.Metrics != nil {
		b.cfg.Metrics.ObserveInteraction(cmd, outcomeExpired, -1)
	}
}
