package commands

import (
	"context"
	"fmt"
)

// sidesSub is /config queue sides: whether the team order of a queue's
// matches means something (home and away, attack and defence). Only then
// does the shown win chance learn an edge for team 1; by default the order
// is the matchmaker's and the chance is symmetric.
func sidesSub() Option {
	return sub("sides", "Whether team 1 and team 2 mean something in this queue (home/away); off: the chance is symmetric",
		Option{Type: OptString, Name: "queue", Description: "queue name", Required: true, Autocomplete: true, MaxLength: 32},
		opt(OptBool, "sided", "true when the sides mean something; omit to see the setting", false))
}

func (h *handlers) configSides(ctx context.Context, req Request) (Reply, error) {
	name, _ := req.String("queue")
	sided, set := req.Bool("sided")
	if set {
		if err := h.Service.SetQueueSides(ctx, actor(req), req.GuildID, name, sided); err != nil {
			return Reply{}, err
		}
	}
	cur, err := h.Service.QueueSided(ctx, req.GuildID, name)
	if err != nil {
		return Reply{}, err
	}
	text := fmt.Sprintf("Queue %s: team order means nothing; the win chance shown is symmetric (P(A beats B) = 1 − P(B beats A)).", name)
	if cur {
		text = fmt.Sprintf("Queue %s is sided: team 1 and team 2 mean something, and the win chance shown learns team 1's edge.", name)
	}
	if set {
		text += " The calibration was refolded from the queue's log in this mode."
	}
	return Whisper(text), nil
}
