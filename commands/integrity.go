package commands

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
)

// /mod integrity: the integrity flags for moderators, and dismissing one.

// integrityList is how many flags /mod integrity lists.
const integrityList = 10

func integritySub() Option {
	one, most := 1.0, float64(MaxInteger)
	return sub("integrity", "Integrity flags: win-trading, boosting, smurfs, wrong votes, report abuse",
		Option{Type: OptInteger, Name: "dismiss", Description: "dismiss this flag (its number)", Min: &one, Max: &most},
		reasonOpt(),
		Option{Type: OptBool, Name: "all", Description: "list dismissed flags too"})
}

func (h *handlers) modIntegrity(ctx context.Context, req Request) (Reply, error) {
	if h.Integrity == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "integrity flags are not available in this process")
	}
	if req.Has("dismiss") {
		id, ok := req.Int("dismiss")
		if !ok {
			return Reply{}, ladder.Errorf(ladder.CodeInvalid, "dismiss must be a flag's number")
		}
		reason, _ := req.String("reason")
		f, err := h.Integrity.Dismiss(ctx, actor(req), req.GuildID, id, reason)
		if err != nil {
			return Reply{}, err
		}
		return Whisper(userLang(req).T("reply.flag_dismissed", "ID", f.ID, "Kind", f.Kind, "Players", mentions(f.Subjects))), nil
	}
	all, _ := req.Bool("all")
	fs, err := h.Integrity.Flags(ctx, req.GuildID, all, integrityList)
	if err != nil {
		return Reply{}, err
	}
	if len(fs) == 0 {
		return Whisper(userLang(req).T("reply.no_flags")), nil
	}
	var b strings.Builder
	for _, f := range fs {
		line := flagLine(userLang(req), f) + "\n"
		if b.Len()+len(line) > 4000 {
			break
		}
		b.WriteString(line)
	}
	tr := userLang(req)
	return Reply{Ephemeral: true, Embeds: []Embed{{Title: tr.T("mod.flags_title"), Description: b.String(), Color: ColorWarn,
		Footer: tr.T("mod.flags_footer")}}}, nil
}

// flagLine is one flag as lists show it.
func flagLine(tr *i18n.Lang, f integrity.Flag) string {
	ms := make([]string, len(f.Matches))
	for i, id := range f.Matches {
		ms[i] = fmt.Sprintf("#%d", id)
	}
	s := fmt.Sprintf("**%d** · %s · %s: %s", f.ID, f.Kind, mentions(f.Subjects), f.Evidence)
	if len(ms) > 0 {
		s += " · " + tr.T("mod.flag_matches", "Matches", strings.Join(ms, " "))
	}
	if !f.Open() {
		s += " · " + tr.T("mod.flag_dismissed_by", "By", mention(f.DismissedBy))
		if f.DismissReason != "" {
			s += ": " + f.DismissReason
		}
	}
	if utf8.RuneCountInString(s) > 900 {
		s = string([]rune(s)[:900]) + "…"
	}
	return s
}

// IntegrityPost is a new flag as the log channel gets it, once. It pings
// nobody.
// It is in the guild's language l.
func IntegrityPost(l *i18n.Lang, f integrity.Flag) Reply {
	return Reply{Embeds: []Embed{{Title: l.T("post.flag_title", "ID", f.ID, "Kind", f.Kind), Description: flagLine(l, f), Color: ColorWarn,
		Footer: l.T("post.flag_footer")}}}
}
