package commands

import "github.com/ladderbot/ladderbot/ladder"

// Metrics receives what the commands observe; *web.Metrics implements it.
// A nil Deps.Metrics records nothing.
type Metrics interface {
	// MatchesFormed counts n matches formed in a guild's queue.
	MatchesFormed(guildID, queue string, n int)
}

// countFormed reports the matches a queue join or party acceptance formed.
func (h *handlers) countFormed(formed []ladder.FormedMatch) {
	if h.Metrics == nil {
		return
	}
	for _, f := range formed {
		h.Metrics.MatchesFormed(f.Match.GuildID, f.Queue.Name, 1)
	}
}
