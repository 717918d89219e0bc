package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// modTune is /mod tune preview and /mod tune apply: a moderator
// first sees the constants self-tuning would adopt and the adoption rule's
// verdict; apply adopts them only when the rule does.
func (h *handlers) modTune(ctx context.Context, req Request) (Reply, error) {
	queue, _ := req.String("queue")
	tr := userLang(req)
	if req.Command == "mod tune apply" {
		p, err := h.Service.TuneApply(ctx, actor(req), req.GuildID, queue)
		if err != nil {
			return Reply{}, err
		}
		return Whisper(tr.T("mod.tune_applied", "Queue", p.Queue.Name) + "\n" + tuneLines(tr, p)), nil
	}
	p, err := h.Service.TunePreview(ctx, actor(req), req.GuildID, queue)
	if err != nil {
		return Reply{}, err
	}
	verdict := tr.T("mod.tune_keeps")
	if p.Adopt {
		verdict = tr.T("mod.tune_adopts")
	}
	return Whisper(tr.N("mod.tune_preview", p.Matches, "Queue", p.Queue.Name, "Model", p.Queue.Model) + "\n" + tuneLines(tr, p) + "\n" + verdict), nil
}

// tuneLines lists each constant, current → proposed, and the gain ± SE.
func tuneLines(tr *i18n.Lang, p ladder.TuneProposal) string {
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
	gain := tr.Number(p.Gain, 4)
	if p.Gain >= 0 {
		gain = "+" + gain
	}
	b.WriteString(tr.N("mod.tune_gain", p.N, "Gain", gain, "SE", tr.Number(p.SE, 4)))
	return b.String()
}
