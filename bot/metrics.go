package bot

import (
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// Metrics receives one observation per interaction; *web.Metrics
// implements it. A nil Config.Metrics records nothing.
type Metrics interface {
	// ObserveInteraction counts one interaction of cmd (the route's name,
	// such as "queue join", "button:confirm", "autocomplete:report", or
	// "unknown") with its outcome: "ok", "duplicate" (another process
	// answered it), "expired" (it arrived too late to be answered and was
	// dropped, expired.go), "error" for an internal error, or the error
	// code (invalid, not_found, conflict, forbidden, unavailable). ack is the
	// time from receiving the interaction to its first response to Discord
	// (reply or deferral), negative when Discord never got one from us.
	ObserveInteraction(cmd, outcome string, ack time.Duration)
}

// outcomeExpired is the outcome of an interaction that arrived too late
// to be answered (expired.go).
const outcomeExpired = "expired"

// duplicateSuffix marks, in a route's log name, an interaction another
// process had already acknowledged.
const duplicateSuffix = " (duplicate)"

// observe reports a finished interaction to Config.Metrics, and its guild
// to Config.OnResult when it succeeded and touched storage (it may have
// recorded or confirmed a result or changed a rating).
func (b *Bot) observe(c *call, err error) {
	cmd, outcome := interactionLabels(c.route, err)
	// OnResult first: once the interaction is counted, its guild's cached
	// pages are gone.
	if b.cfg.OnResult != nil && outcome == "ok" && !c.route.instant &&
		c.req.Kind != commands.KindAutocomplete && c.req.GuildID != "" {
		b.cfg.OnResult(c.req.GuildID)
	}
	if b.cfg.Metrics != nil {
		ack := time.Duration(-1)
		if acked := c.resp.Acked(); !acked.IsZero() {
			ack = acked.Sub(c.start)
		}
		b.cfg.Metrics.ObserveInteraction(cmd, outcome, ack)
	}
}

// interactionLabels names an interaction's command and outcome for the
// metrics. Commands Discord sent that the set does not have are "unknown",
// so a stale or forged command name cannot grow the label set.
func interactionLabels(rt route, err error) (cmd, outcome string) {
	cmd, outcome = rt.name, "ok"
	if c, dup := strings.CutSuffix(cmd, duplicateSuffix); dup {
		cmd, outcome = c, "duplicate"
	}
	if err != nil {
		switch code := ladder.ErrorCode(err); code {
		case ladder.CodeInternal:
			outcome = "error"
		default:
			outcome = string(code)
		}
	}
	// Only a route that was not found (or an interaction that could not be
	// read) has no handler under a bare command name; buttons, modals and
	// autocompletes carry their own bounded names ("button:unknown").
	if rt.handle == nil && !strings.Contains(cmd, ":") {
		cmd = "unknown"
	}
	return cmd, outcome
}
