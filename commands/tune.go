package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// modTune is /mod tune preview and /mod tune apply: a moderator
// first sees the constants self-tuning would adopt and the adoption rule's
// verdict; apply adopts them only when the rule does.
func (h *handlers) modTune(ctx context.Context, req Request) (Reply, error) {
	queue, _ := req.String("queue")
	if req.Command == "mod tune apply" {
		p, err := h.Service.TuneApply(ctx, actor(req), req.GuildID, queue)
		if err != nil {
			return Reply{}, err
		}
		return Whisper(fmt.Sprintf("Queue **%s** now rates with the tuned constants, recorded in the rating log.\n%s", p.Queue.Name, tuneLines(p))), nil
	}
	p, err := h.Service.TunePreview(ctx, actor(req), req.GuildID, queue)
	if err != nil {
		return Reply{}, err
	}
	verdict := "The adoption rule **keeps** the current constants."
	if p.Adopt {
		verdict = "The adoption rule **adopts** them: `/mod tune apply` makes them the queue's."
	}
	return Whisper(fmt.Sprintf("Preview for queue **%s** (%s, %d rated matches). Nothing has changed yet.\n%s\n%s",
		p.Queue.Name, p.Queue.Model, p.Matches, tuneLines(p), verdict)), nil
}

// tuneLines lists each constant, current → proposed, and the gain ± SE.
func tuneLines(p ladder.TuneProposal) string {
	keys := make([]string, 0, len(p.Candidate))
	for k := range p.Candidate {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		mark := ""
		if p.Current[k] != p.Candidate[k] {
			mark = " ←"
		}
		fmt.Fprintf(&b, "`%s` %g → %g%s\n", k, p.Current[k], p.Candidate[k], mark)
	}
	fmt.Fprintf(&b, "Log loss gain %+.4f ± %.4f (one paired SE) on the %d most recent matches; adoption needs more than two SE.", p.Gain, p.SE, p.N)
	return b.String()
}
