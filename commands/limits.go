package commands

import (
	"strings"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/i18n"
)

// Discord's limits on what a reply shows, and the helpers that keep lists
// within them: a list that would pass a limit shows the lines that fit
// whole and counts the rest, rather than have Discord's clip cut a line
// (or the line that matters) off at the end.

// Discord's embed limits: 25 fields of at most 1,024 characters each, and
// 6,000 characters over all of a message's embeds.
const (
	embedFields     = 25
	embedFieldValue = 1024
	embedTotal      = 6000
)

// listedReason is how much of a reason a list's line shows, in
// characters; listedChars bounds a list's lines in bytes (at least the
// characters Discord counts), within an embed description's 4,096 and
// room for the line that counts the rest.
const (
	listedReason = 200
	listedChars  = 3800
	// listedContent bounds a list sent as a message's content, within
	// Discord's 2,000 characters.
	listedContent = 1900
	// replayedChars bounds each of a correction's two lists of rating
	// changes, which share a message's content with a few lines more.
	replayedChars = 700
)

// clipText cuts s to at most n characters, ending in "…" when cut.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	return string(r[:n-1]) + "…"
}

// fitLines joins lines with line breaks within limit characters: the
// lines that fit whole, then "…and N more" for the rest.
func fitLines(tr *i18n.Lang, lines []string, limit int) string {
	return fitLinesOf(tr, lines, limit, len(lines))
}

// fitLinesOf is fitLines of the first lines of a list of total: the
// count covers the lines that do not fit and those not given.
func fitLinesOf(tr *i18n.Lang, lines []string, limit, total int) string {
	var b strings.Builder
	used := 0
	for i, line := range lines {
		n := utf8.RuneCountInString(line) + 1
		more := tr.T("mod.more", "Count", tr.Int(total-i-1))
		// Keep room for the count unless this is the last line of all.
		if room := limit - used - n; room < 0 || (i < total-1 && room < utf8.RuneCountInString(more)) {
			b.WriteString(tr.T("mod.more", "Count", tr.Int(total-i)))
			return b.String()
		}
		b.WriteString(line + "\n")
		used += n
	}
	if total > len(lines) {
		b.WriteString(tr.T("mod.more", "Count", tr.Int(total-len(lines))))
	}
	return strings.TrimRight(b.String(), "\n")
}
