package commands

import (
	"context"
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
	tr := userLang(req)
	text := tr.T("cfg.sides_symmetric", "Queue", name)
	if cur {
		text = tr.T("cfg.sides_sided", "Queue", name)
	}
	if set {
		text += " " + tr.T("cfg.sides_refolded")
	}
	return Whisper(text), nil
}
