package commands

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// catalogedFiles are the handlers and posts whose every user-facing text
// comes from the catalogs. A file joins the list once it is translated;
// the test keeps it that way.
var catalogedFiles = []string{
	"balance.go", "balance_match.go", "behaviour.go", "buttons.go", "commands.go", "compare.go", "config.go",
	"config_community.go", "config_joins.go", "config_language.go", "config_maps.go", "config_party.go",
	"config_roles.go", "config_room.go", "config_sides.go", "draft.go", "history.go", "integrity.go", "leaderboard.go",
	"link.go", "lobby.go", "maps.go", "match.go", "mod.go", "noshow.go", "panel.go", "posts.go", "predict.go",
	"profile.go", "queue.go", "report.go", "report_replay.go", "series.go", "set.go", "setup.go", "stats.go", "sub.go",
	"tune.go", "views.go", "reasons.go",
}

// textCalls are the functions whose string arguments become what a user
// reads; textFields are the fields of the reply types that do.
var (
	textCalls  = map[string]bool{"Whisper": true, "Say": true, "Sprintf": true, "Fprintf": true, "WriteString": true, "Sprint": true}
	textFields = map[string]map[string]bool{
		"Reply":        {"Content": true},
		"Embed":        {"Title": true, "Description": true, "Footer": true},
		"Field":        {"Name": true, "Value": true},
		"Button":       {"Label": true},
		"SelectMenu":   {"Placeholder": true},
		"SelectOption": {"Label": true, "Description": true},
		"Modal":        {"Title": true},
		"TextField":    {"Label": true, "Placeholder": true},
	}
	// registration types hold the slash commands' own texts, translated
	// through the cmd.*, name.* and choice.* sections by the English text.
	registration = map[string]bool{"Option": true, "Command": true, "Choice": true}
	// dataLiterals are literals with letters that are data, not text.
	dataLiterals = map[string]string{"season-%d-%s.csv": "an attachment's file name", "_show": "the end of a message ID",
		"attachment://rating.png": "an embed's reference to its attachment", "all": "a button's argument for every player or division",
		"https://…": "the beginning of a link, a form field's example"}
	// registrationCalls build registration options: their texts are
	// registration texts too.
	registrationCalls = map[string]bool{"opt": true, "sub": true, "group": true}
	// catalogKey is a message ID, or the start of one ("state." + s): a
	// literal naming a text, not one.
	catalogKey = regexp.MustCompile(`^[a-z_]+(\.[a-z_]+)+\.?$|^[a-z_]+\.$`)
	// markup is what a text may hold without being words: printf verbs,
	// Discord's <@…>, <#…> and <t:…> markup and Markdown.
	markup = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]|<[^>]*>`)
	word   = regexp.MustCompile(`\pL{2,}`)
)

// englishLiteral reports whether e is a string literal holding a word.
func englishLiteral(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil || dataLiterals[s] != "" || catalogKey.MatchString(s) {
		return "", false
	}
	return s, word.MatchString(markup.ReplaceAllString(s, ""))
}

// literalsIn lists the string literals of e that are not inside a call
// (a call's own arguments are checked where the call is): "Team " + x.
func literalsIn(e ast.Expr) []ast.Expr {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		return append(literalsIn(x.X), literalsIn(x.Y)...)
	case *ast.ParenExpr:
		return literalsIn(x.X)
	case *ast.BasicLit:
		return []ast.Expr{x}
	}
	return nil
}

// calledName is the name a call is made by: Whisper, fmt.Sprintf → Sprintf.
func calledName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if pkg, ok := f.X.(*ast.Ident); ok && pkg.Name == "ladder" {
			return "ladder." + f.Sel.Name
		}
		return f.Sel.Name
	}
	return ""
}

// TestNoHardcodedText fails when a user-facing text of the translated
// handlers and posts bypasses the catalogs: a string literal with words
// passed to Whisper, Say, a printf or a builder, or set as a reply's
// content, an embed's title, description, footer or field, a button's
// label or a menu's placeholder. Coded errors (ladder.Errorf) render
// through the catalog's err.* section and registration texts through
// cmd.*, name.* and choice.*, so neither is looked at here.
func TestNoHardcodedText(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	for _, name := range catalogedFiles {
		f, err := parser.ParseFile(fset, filepath.Join(".", name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		report := func(e ast.Expr, where string) {
			for _, l := range literalsIn(e) {
				if s, ok := englishLiteral(l); ok {
					t.Errorf("%s: %s %q is not from the catalogs", fset.Position(l.Pos()), where, s)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				name := calledName(x)
				if strings.HasPrefix(name, "ladder.") || registrationCalls[name] {
					return false // a coded error (rendered through err.*) or a registration
				}
				if name == "panic" {
					return false // a programming error that stops start-up; no user reads it
				}
				if textCalls[name] {
					checked++
					for _, a := range x.Args {
						report(a, name+" argument")
					}
				}
			case *ast.AssignStmt:
				// text := "…" or text += "…": a text built up before it is
				// shown.
				for _, r := range x.Rhs {
					report(r, "assigned text")
				}
			case *ast.ReturnStmt:
				for _, r := range x.Results {
					report(r, "returned text")
				}
			case *ast.CompositeLit:
				id, ok := x.Type.(*ast.Ident)
				if ok && registration[id.Name] {
					return false
				}
				if !ok || textFields[id.Name] == nil {
					return true
				}
				for _, el := range x.Elts {
					kv, ok := el.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if k, ok := kv.Key.(*ast.Ident); ok && textFields[id.Name][k.Name] {
						checked++
						report(kv.Value, id.Name+"."+k.Name)
					}
				}
			}
			return true
		})
	}
	if checked < 100 {
		t.Errorf("Got(texts checked) = %d, want the handlers' every reply", checked)
	}
}

// TestNoHardcodedTextCatches proves the check finds a literal where it
// must, and lets data and markup through.
func TestNoHardcodedTextCatches(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{`"Saved."`, true}, {`"Queue **%s** saved: %s"`, true}, {`"%s · %s\n"`, false},
		{`"<t:%d:R>"`, false}, {`"#%d %s%s"`, false}, {`" · "`, false}, {`"%dv%d"`, false},
		{`"state."`, false}, {`"queue.status_line"`, false}, {`"Map"`, true}, {`"no games"`, true},
	} {
		e, err := parser.ParseExpr(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := englishLiteral(e); got != tc.want {
			t.Errorf("englishLiteral(%s) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
