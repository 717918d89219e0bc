package commands

import (
	"context"
	"fmt"
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
	return Whisper(fmt.Sprintf("You flagged %s in match #%d for %s. Moderators can see it; flags from one player count once per player per week.",
		mention(f.ToUser), f.MatchID, f.Reason)), nil
}

// behaviourText is the /profile value: the score out of 100.
func behaviourText(b ladder.Behaviour) string {
	s := fmt.Sprintf("%.0f/100", b.Score)
	if b.Low() {
		s += " (low)"
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
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s · behaviour %s\n", mention(user), behaviourText(b))
	if len(b.Flags) == 0 && len(b.Cooldowns) == 0 {
		sb.WriteString("No flags or cooldowns in the last 12 weeks.")
		return Whisper(sb.String()), nil
	}
	for i, f := range b.Flags {
		if i == 15 {
			fmt.Fprintf(&sb, "… and %d older flags\n", len(b.Flags)-15)
			break
		}
		note := ""
		if !f.Counted {
			note = " (repeat within a week, not counted)"
		}
		fmt.Fprintf(&sb, "%s · match #%d · %s by %s%s\n", f.CreatedAt.UTC().Format("2006-01-02 15:04"), f.MatchID, f.Reason, mention(f.FromUser), note)
	}
	if n := len(b.Cooldowns); n > 0 {
		fmt.Fprintf(&sb, "%d lobby cooldown(s) (missed ready checks or no-shows)\n", n)
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
