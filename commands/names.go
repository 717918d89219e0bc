package commands

import "strings"

// neutralName is a member's display name as the bot keeps and shows it:
// without the bidirectional overrides, embeddings and isolates (U+202A–
// U+202E, U+2066–U+2069) that Discord allows in names. Kept, they would
// reverse or reorder the text around the name wherever it is shown (an
// embed, a web page, a CSV cell); the one identifier rule (ladder.CheckText)
// refuses them everywhere else, so the name is neutralised here, once,
// rather than the player refused.
func neutralName(s string) string {
	return strings.Map(func(r rune) rune {
		if (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return -1
		}
		return r
	}, s)
}
