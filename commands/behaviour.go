package commands

import (
	"context"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// flagSub is /match flag: flag one other player of a finished match for
// behaviour (seed 002's behaviour score).
func flagSub() Option {
	reasons := make([]Choice, len(ladder.FlagReasons))
	for i, r := range ladder.FlagReasons {
		reasons[i] = Choice{Name: r, Value: r}
	}
	return sub("flag", "Flag one other player of a finished match for behaviour (once per match)",
		matchOpt(true), opt(OptUser, "player", "the player", true),
		Option{Type: OptString, Name: "reason", Description: "why", Required: true, Choices: reasons})
}

// doFlag answers /match flag privately: who flagged is never shown to the
// flagged player, only to moderators.
func (h *handlers) doFlag(ctx context.Context, req Request) (Reply, error) {
	id, _ := req.Int("match")
	target, _ := req.String("player")
	if !snowflake(target) {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "player must be a Discord user")
	}
	reason, _ := req.String("reason")
	f, err := h.Service.FlagPlayer(ctx, actor(req), req.GuildID, id, target, reason)
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	return Whisper(tr.T("flag.done", "Player", mention(f.ToUser), "ID", f.MatchID, "Reason", tr.Registration(i18n.SectionChoice, f.Reason))), nil
}

// behaviourIn is the /profile and /mod flags value in language tr: the
// score out of 100.
func behaviourIn(tr *i18n.Lang, b ladder.Behaviour) string {
	s := tr.Rating(b.Score) + "/100"
	if b.Low() {
		s += " " + tr.T("mod.behaviour_low")
	}
	return s
}

// modFlags is /mod flags: a player's behaviour score with the flags and
// cooldowns behind it.
func (h *handlers) modFlags(ctx context.Context, req Request) (Reply, error) {
	user, _ := req.String("player")
	b, err := h.Service.Behaviour(ctx, req.GuildID, user)
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	var sb strings.Builder
	sb.WriteString(tr.T("mod.flags_head", "Player", mention(user), "Score", behaviourIn(tr, b)) + "\n")
	if len(b.Flags) == 0 && len(b.Cooldowns) == 0 {
		sb.WriteString(tr.T("mod.flags_none"))
		return Whisper(sb.String()), nil
	}
	for i, f := range b.Flags {
		if i == 15 {
			sb.WriteString(tr.N("mod.flags_older", len(b.Flags)-15) + "\n")
			break
		}
		note := ""
		if !f.Counted {
			note = " " + tr.T("mod.flags_repeat")
		}
		sb.WriteString(tr.T("mod.flag_line", "When", tr.DateTime(f.CreatedAt), "ID", f.MatchID, "Reason", tr.Registration(i18n.SectionChoice, f.Reason), "By", mention(f.FromUser)) + note + "\n")
	}
	if n := len(b.Cooldowns); n > 0 {
		sb.WriteString(tr.N("mod.flags_cooldowns", n) + "\n")
	}
	return Whisper(sb.String()), nil
}

// setBehaviourPairing applies /config queue set's behaviour_pairing.
func setBehaviourPairing(req Request, q *ladder.Queue) {
	if n, ok := req.Int("behaviour_pairing"); ok {
		q.BehaviourPairing = int(n)
	}
}

// behaviourPairingText is the queue line's note, "" while it is off.
func behaviourPairingText(tr *i18n.Lang, q ladder.Queue) string {
	if q.BehaviourPairing <= 0 {
		return ""
	}
	return " · " + tr.T("cfg.behaviour_pairing", "N", q.BehaviourPairing)
}
