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

// integrityList is how many flags /mod integrity lists; it reads up to
// integrityCounted to count the rest.
const (
	integrityList    = 10
	integrityCounted = 100
)

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
		l := userLang(req)
		return Whisper(l.T("reply.flag_dismissed", "ID", f.ID, "Kind", FlagKind(l, f.Kind), "Players", mentions(f.Subjects))), nil
	}
	all, _ := req.Bool("all")
	fs, err := h.Integrity.Flags(ctx, req.GuildID, all, integrityCounted)
	if err != nil {
		return Reply{}, err
	}
	if len(fs) == 0 {
		return Whisper(userLang(req).T("reply.no_flags")), nil
	}
	tr := userLang(req)
	return Reply{Ephemeral: true, Embeds: []Embed{{Title: tr.T("mod.flags_title"), Description: flagList(tr, fs), Color: ColorWarn,
		Footer: tr.T("mod.flags_footer")}}}, nil
}

// flagList is the newest integrityList flags of fs that fit an embed's
// description, whole, and a count of the rest: a flag's line runs to 900
// characters (its matches, evidence and a dismissal's reason), so ten
// could pass Discord's 4,096.
func flagList(tr *i18n.Lang, fs []integrity.Flag) string {
	lines := make([]string, 0, integrityList)
	for _, f := range fs[:min(len(fs), integrityList)] {
		lines = append(lines, flagLine(tr, f))
	}
	return fitLinesOf(tr, lines, listedChars, len(fs))
}

// flagLine is one flag as lists show it.
func flagLine(tr *i18n.Lang, f integrity.Flag) string {
	ms := make([]string, len(f.Matches))
	for i, id := range f.Matches {
		ms[i] = fmt.Sprintf("#%d", id)
	}
	s := fmt.Sprintf("**%d** · %s · %s: %s", f.ID, FlagKind(tr, f.Kind), mentions(f.Subjects), EvidenceText(tr, f.Evidence))
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
	return Reply{Embeds: []Embed{{Title: l.T("post.flag_title", "ID", f.ID, "Kind", FlagKind(l, f.Kind)), Description: flagLine(l, f), Color: ColorWarn,
		Footer: l.T("post.flag_footer")}}}
}

// FlagKind is a kind of flag (integrity.Kinds) as l names it; a kind
// without a name in the catalogs shows as stored.
func FlagKind(l *i18n.Lang, kind string) string {
	id := "flag.kind." + strings.ReplaceAll(kind, "-", "_")
	if !i18n.English().Has(id) {
		return kind
	}
	return l.T(id)
}

// EvidenceText is a flag's evidence in l: the catalogs' flag.evidence.*
// message of its key, with counts, ratings and measures written the
// language's way. A flag stored before evidence was data keeps its
// English text. The JSON API shows it in English.
func EvidenceText(l *i18n.Lang, e integrity.Evidence) string {
	return EvidenceTextNamed(l, e, mention)
}

// EvidenceTextNamed is EvidenceText with the player the evidence names
// (a win-trade's receiver) written by name(userID) instead of as a
// Discord mention, for pages that are not Discord messages.
func EvidenceTextNamed(l *i18n.Lang, e integrity.Evidence, name func(userID string) string) string {
	id := "flag.evidence." + strings.ReplaceAll(e.Key, "-", "_")
	if e.Key == "" || !i18n.English().Has(id) {
		return e.Text
	}
	kv := make([]any, 0, 2*(len(e.Counts)+len(e.Ratings)+len(e.Measures)+1))
	for k, n := range e.Counts {
		kv = append(kv, k, l.Int(n))
	}
	for k, x := range e.Ratings {
		kv = append(kv, k, l.Rating(x))
	}
	for k, x := range e.Measures {
		kv = append(kv, k, l.Number(x, 1))
	}
	if e.Player != "" {
		kv = append(kv, "Player", name(e.Player))
	}
	return l.T(id, kv...)
}
