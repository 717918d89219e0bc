package i18n

import (
	"strings"
	"unicode/utf8"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
)

// accents maps ASCII letters to accented look-alikes, so a pseudo-locale
// text is readable yet visibly not English.
var accents = map[rune]rune{
	'a': 'á', 'b': 'ƀ', 'c': 'ç', 'd': 'ď', 'e': 'é', 'f': 'ƒ', 'g': 'ĝ', 'h': 'ĥ', 'i': 'í', 'j': 'ĵ',
	'k': 'ķ', 'l': 'ĺ', 'm': 'ḿ', 'n': 'ñ', 'o': 'ó', 'p': 'ṕ', 'q': 'ʠ', 'r': 'ŕ', 's': 'š', 't': 'ť',
	'u': 'ú', 'v': 'ṽ', 'w': 'ŵ', 'x': 'ẋ', 'y': 'ý', 'z': 'ž',
	'A': 'Á', 'B': 'Ɓ', 'C': 'Ç', 'D': 'Ď', 'E': 'É', 'F': 'Ƒ', 'G': 'Ĝ', 'H': 'Ĥ', 'I': 'Í', 'J': 'Ĵ',
	'K': 'Ķ', 'L': 'Ĺ', 'M': 'Ḿ', 'N': 'Ñ', 'O': 'Ó', 'P': 'Ṕ', 'Q': 'Ǫ', 'R': 'Ŕ', 'S': 'Š', 'T': 'Ť',
	'U': 'Ú', 'V': 'Ṽ', 'W': 'Ŵ', 'X': 'Ẋ', 'Y': 'Ý', 'Z': 'Ž',
}

// pseudoMessage returns the pseudo-locale form of an English message.
// Formats (meta.*, format.*) stay as they are: they are data, not text.
func pseudoMessage(m *goi18n.Message) *goi18n.Message {
	p := *m
	if strings.HasPrefix(m.ID, "meta.") || strings.HasPrefix(m.ID, "format.") {
		return &p
	}
	name := strings.HasPrefix(m.ID, "name.")
	for _, s := range []*string{&p.Zero, &p.One, &p.Two, &p.Few, &p.Many, &p.Other} {
		if *s != "" {
			*s = PseudoText(*s, name)
		}
	}
	return &p
}

// PseudoText accents the letters of s outside template actions ({{…}}),
// printf verbs and Discord markup (<…>), and pads it to 40% more
// characters. A command or option name (name) is padded with "-" and kept
// lowercase; other texts are wrapped in ⟦ ⟧ so a cut shows.
func PseudoText(s string, name bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "{{"):
			j := strings.Index(s[i:], "}}")
			if j < 0 {
				b.WriteString(s[i:])
				i = len(s)
				continue
			}
			b.WriteString(s[i : i+j+2])
			i += j + 2
		case s[i] == '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				b.WriteByte('<')
				i++
				continue
			}
			b.WriteString(s[i : i+j+1])
			i += j + 1
		case s[i] == '%':
			j := i + 1
			for j < len(s) && strings.IndexByte("[]0123456789.+-# ", s[j]) >= 0 {
				j++
			}
			if j < len(s) {
				j++
			}
			b.WriteString(s[i:j])
			i = j
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if a, ok := accents[r]; ok {
				r = a
			}
			b.WriteRune(r)
			i += size
		}
	}
	out := b.String()
	n := utf8.RuneCountInString(s)
	grow := (n*4 + 9) / 10
	if name {
		if n+grow > 32 {
			grow = max(32-n, 0) // Discord's limit for names
		}
		return out + strings.Repeat("-", grow)
	}
	if grow < 2 {
		grow = 2
	}
	return "⟦" + out + strings.Repeat("·", grow-2) + "⟧"
}
