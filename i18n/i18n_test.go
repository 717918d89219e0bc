package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
)

var (
	templateField = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)
	printfVerb    = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)
)

// placeholders lists what a text substitutes: its template fields and its
// printf verbs (numbered verbs by number), sorted.
func placeholders(s string) []string {
	var out []string
	for _, m := range templateField.FindAllStringSubmatch(s, -1) {
		out = append(out, "{{."+m[1]+"}}")
	}
	n := 0
	for _, m := range printfVerb.FindAllStringSubmatch(s, -1) {
		v := m[0]
		if v == "%%" {
			continue
		}
		verb := v[len(v)-1:]
		if m[1] != "" {
			out = append(out, "%"+m[1]+verb)
		} else {
			n++
			out = append(out, "%["+itoa(n)+"]"+verb)
		}
	}
	sort.Strings(out)
	return out
}

func itoa(n int) string {
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}

func forms(m *goi18n.Message) map[string]string {
	out := map[string]string{}
	for k, v := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

// TestCatalogsComplete fails when a language misses a key of English, has
// a key English lacks, or a text whose placeholders differ from English.
func TestCatalogsComplete(t *testing.T) {
	c := Default()
	if got := c.Languages(); !slices.Equal(got, []string{"en", "de", "es", "fr", "pt-BR"}) {
		t.Fatalf("Languages() = %v, want en, de, es, fr, pt-BR", got)
	}
	en := c.messages["en"]
	for _, code := range c.Languages()[1:] {
		msgs := c.messages[code]
		for id := range en {
			if _, ok := msgs[id]; !ok {
				t.Errorf("%s: missing %q", code, id)
			}
		}
		for id, m := range msgs {
			e, ok := en[id]
			if !ok {
				t.Errorf("%s: %q is not in English", code, id)
				continue
			}
			want := placeholders(e.Other)
			for form, text := range forms(m) {
				got := placeholders(text)
				if form == "other" || form == "many" {
					if !slices.Equal(got, want) {
						t.Errorf("%s: %q (%s): placeholders %v, want %v as in English", code, id, form, got, want)
					}
				} else if !isSubset(got, want) {
					t.Errorf("%s: %q (%s): placeholders %v not among English's %v", code, id, form, got, want)
				}
			}
			if strings.TrimSpace(m.Other) == "" {
				t.Errorf("%s: %q is empty", code, id)
			}
		}
	}
}

func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// TestPluralsRender renders every plural message for counts that hit each
// CLDR category of every language: a form a language needs and its file
// lacks is an error from go-i18n, not a silent fallback.
func TestPluralsRender(t *testing.T) {
	c := Default()
	for _, code := range append(c.Languages(), Pseudo) {
		l, _ := c.Lang(code)
		for id, m := range c.messages["en"] {
			if m.One == "" {
				continue
			}
			for _, n := range []int{0, 1, 2, 3, 5, 11, 21, 100, 1000000} {
				_, err := l.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: map[string]any{"Count": n}})
				if err != nil {
					t.Errorf("%s: %s with %d: %v", code, id, n, err)
				}
			}
		}
	}
}

func TestMatch(t *testing.T) {
	c := Default()
	for _, tc := range []struct{ in, want string }{
		{"", "en"}, {"en-US", "en"}, {"en-GB", "en"}, {"de", "de"}, {"fr", "fr"}, {"es-ES", "es"}, {"es-419", "es"},
		{"pt-BR", "pt-BR"}, {"pt-PT", "pt-BR"}, {"ja", "en"}, {"nonsense!!", "en"},
		{"de-CH,de;q=0.9,en;q=0.5", "de"}, {"ja,fr;q=0.8", "fr"}, {Pseudo, Pseudo},
	} {
		if got := c.Match(tc.in).Code(); got != tc.want {
			t.Errorf("Match(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestFormats(t *testing.T) {
	c := Default()
	at := time.Date(2026, 3, 7, 14, 5, 0, 0, time.UTC)
	for _, tc := range []struct {
		code                               string
		number, percent, date, rating, dur string
	}{
		{"en", "1,234.5", "53%", "2026-03-07", "1512", "2 hours 5 minutes"},
		{"de", "1.234,5", "53\u00a0%", "07.03.2026", "1512", "2 Stunden 5 Minuten"},
		{"fr", "1\u00a0234,5", "53\u00a0%", "07/03/2026", "1512", "2 heures 5 minutes"},
		{"es", "1.234,5", "53\u00a0%", "07/03/2026", "1512", "2 horas 5 minutos"},
		{"pt-BR", "1.234,5", "53%", "07/03/2026", "1512", "2 horas 5 minutos"},
	} {
		l, _ := c.Lang(tc.code)
		check := func(what, got, want string) {
			if got != want {
				t.Errorf("%s: %s = %q, want %q", tc.code, what, got, want)
			}
		}
		check("Number", l.Number(1234.5, 1), tc.number)
		check("Percent", l.Percent(0.53), tc.percent)
		check("Date", l.Date(at), tc.date)
		check("Rating", l.Rating(1511.6), tc.rating)
		check("Duration", l.Duration(2*time.Hour+5*time.Minute+3*time.Second), tc.dur)
	}
	en := c.English()
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 seconds"}, {time.Second, "1 second"}, {90 * time.Second, "1 minute 30 seconds"},
		{2 * time.Hour, "2 hours"}, {26 * time.Hour, "1 day 2 hours"}, {-5 * time.Minute, "5 minutes"},
	} {
		if got := en.Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
	if got := en.Signed(-3.25); got != "-3.2" && got != "-3.3" {
		t.Errorf("Signed(-3.25) = %q", got)
	}
	if got := c.Match("de").Signed(12.5); got != "+12,5" {
		t.Errorf("de Signed(12.5) = %q, want +12,5", got)
	}
}

func TestPseudo(t *testing.T) {
	c := Default()
	p := c.Match(Pseudo)
	en := c.English()
	for id, m := range c.messages["en"] {
		if strings.HasPrefix(id, "meta.") || strings.HasPrefix(id, "format.") {
			continue
		}
		pm := c.messages[Pseudo][id]
		if pm.Other == m.Other {
			t.Errorf("pseudo %q equals English", id)
		}
		if got, want := placeholders(pm.Other), placeholders(m.Other); !slices.Equal(got, want) {
			t.Errorf("pseudo %q: placeholders %v, want %v", id, got, want)
		}
		if !strings.HasPrefix(id, "name.") && utf8.RuneCountInString(pm.Other) < utf8.RuneCountInString(m.Other)*14/10 {
			t.Errorf("pseudo %q is not 40%% longer: %q", id, pm.Other)
		}
	}
	if got := p.Registration(SectionName, "queue"); !regexp.MustCompile(`^[-_\p{Ll}\p{N}]{1,32}$`).MatchString(got) {
		t.Errorf("pseudo name %q breaks Discord's name rule", got)
	}
	if got := p.N("unit.minute", 2); !strings.Contains(got, "2") || got == en.N("unit.minute", 2) {
		t.Errorf("pseudo unit.minute = %q", got)
	}
	if got := PseudoText("Hi <@1>, %d of {{.N}}", false); !strings.Contains(got, "<@1>") || !strings.Contains(got, "%d") || !strings.Contains(got, "{{.N}}") || !strings.Contains(got, "Ĥí") {
		t.Errorf("PseudoText kept the wrong parts: %q", got)
	}
}

func TestLocalizations(t *testing.T) {
	c := Default()
	got := c.Localizations(SectionDescription, "match ID")
	want := map[string]string{"de": "Match-ID", "fr": "identifiant du match", "es-ES": "ID de la partida", "es-419": "ID de la partida", "pt-BR": "ID da partida"}
	if len(got) != len(want) {
		t.Fatalf("Localizations(match ID) = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Localizations(match ID)[%s] = %q, want %q", k, got[k], v)
		}
	}
	if got := c.Localizations(SectionName, "p1"); got != nil {
		t.Errorf("Localizations(name p1) = %v, want none", got)
	}
	if got := c.Localizations(SectionName, "match"); got["de"] != "" || got["es-ES"] != "partida" {
		t.Errorf("Localizations(name match) = %v: de equals English and is left out, es-ES is partida", got)
	}
}

func TestUnknownID(t *testing.T) {
	if got := For("de").T("no.such.key"); got != "no.such.key" {
		t.Errorf("T(unknown) = %q, want the ID", got)
	}
}

// TestErrorFormatsExist keeps the err.* messages true: each English text
// must still be a format some Go file of the module passes to an error
// constructor, else the translation would never be used.
func TestErrorFormatsExist(t *testing.T) {
	var src strings.Builder
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			src.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	all := src.String()
	n := 0
	for id, m := range Default().messages["en"] {
		if !strings.HasPrefix(id, "err.") {
			continue
		}
		n++
		if !strings.Contains(all, strconv.Quote(m.Other)) && !strings.Contains(all, "`"+m.Other+"`") {
			t.Errorf("%s: %q is in no Go source any more", id, m.Other)
		}
	}
	if n < 20 {
		t.Errorf("Got(err.* messages) = %d, want the coded errors of the match flow", n)
	}
}

// englishOnly are files whose coded errors only the JSON API or the
// command line shows, and those speak English (docs/i18n.md); so do the
// JSON API's handlers, web/api_*.go.
var englishOnly = map[string]string{
	"web/jsonio.go":           "the JSON API's request decoding",
	"storage/backup_check.go": "the backup command's checks of its --out file",
}

// codedFormats finds every coded error's English format in the module's
// Go source: the literal format of ladder.Errorf(code, …), of the
// ladder's reword(err, code, …) and storage's wrap(op, err, …), and the
// literal message of ladder.Wrap(code, err, …), by position. Formats without a word ("%s")
// and those of englishOnly files are left out.
func codedFormats(t *testing.T) map[string]string {
	t.Helper()
	isCode := func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.Ident:
			return strings.HasPrefix(x.Name, "Code")
		case *ast.SelectorExpr:
			return strings.HasPrefix(x.Sel.Name, "Code")
		}
		return false
	}
	out := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator)))
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			englishOnly[rel] != "" || strings.HasPrefix(rel, "web/api_") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fn := c.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			var lit ast.Expr
			switch {
			case name == "Errorf" && len(c.Args) >= 2 && isCode(c.Args[0]):
				lit = c.Args[1]
			case name == "reword" && len(c.Args) >= 3 && isCode(c.Args[1]):
				lit = c.Args[2]
			case name == "Wrap" && len(c.Args) == 3 && isCode(c.Args[0]):
				lit = c.Args[2]
			case name == "wrap" && len(c.Args) >= 3 && strings.HasPrefix(rel, "storage/"):
				lit = c.Args[2] // storage's wrap(op, err, format, args...)
			default:
				return true
			}
			b, ok := lit.(*ast.BasicLit)
			if !ok || b.Kind != token.STRING {
				return true
			}
			format, err := strconv.Unquote(b.Value)
			if err == nil && hasWord.MatchString(printfVerb.ReplaceAllString(markupTag.ReplaceAllString(format, ""), "")) {
				out[format] = fset.Position(b.Pos()).String()
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	hasWord   = regexp.MustCompile(`\pL{2,}`)
	markupTag = regexp.MustCompile(`<[^>]*>`)
)

// TestCodedErrorsTranslated fails when a coded error's format has no
// err.* entry: its users would read it in English whatever their
// language. TestCatalogsComplete sees to each language having the entry.
func TestCodedErrorsTranslated(t *testing.T) {
	formats := codedFormats(t)
	if len(formats) < 350 {
		t.Fatalf("Got(coded error formats) = %d, want the module's every one (over 350)", len(formats))
	}
	c := Default()
	for format, at := range formats {
		if _, ok := c.errKeys[format]; !ok {
			t.Errorf("%s: %q has no err.* entry in the catalogs", at, format)
		}
	}
}

// TestCodedFormatsFound proves the search finds a format where it must
// and leaves the JSON API's and the words-free ones alone.
func TestCodedFormatsFound(t *testing.T) {
	formats := codedFormats(t)
	for _, want := range []string{
		"room_linger must be from 0 to %d seconds",                    // rooms: ladder.Errorf
		"no %s is called %q",                                          // ladder: Errorf inside the package
		"the bot is restarting",                                       // bot: ladder.Wrap
		"flag %d was dismissed already by <@%s>",                      // storage
		"Queue %s needs the <@&%s> role (required_role); you do not.", // joins
	} {
		if _, ok := formats[want]; !ok {
			t.Errorf("codedFormats() misses %q", want)
		}
	}
	for _, not := range []string{"%s", "request body is empty; want a JSON object"} {
		if at, ok := formats[not]; ok {
			t.Errorf("codedFormats() has %q (%s), want it left out", not, at)
		}
	}
}

func TestErrorTranslates(t *testing.T) {
	de := For("de")
	if got, want := de.Error("match %d not found", 7), "Match 7 nicht gefunden"; got != want {
		t.Errorf("Error(match not found) = %q, want %q", got, want)
	}
	if got := de.Error("some %d new text", 3); got != "some 3 new text" {
		t.Errorf("Error(untranslated) = %q, want the English text", got)
	}
	if got, want := de.Error("match %d is %s", 7, keyed("state.disputed")), "Match 7 ist angefochten"; got != want {
		t.Errorf("Error(match is disputed) = %q, want %q: a Keyed argument in the language", got, want)
	}
	if got := de.Error("100% plain"); got != "100% plain" {
		t.Errorf("Error(plain) = %q, want it unchanged", got)
	}
}

// keyed is a Keyed argument naming message id.
type keyed string

func (k keyed) MessageID() string { return string(k) }
