package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Message IDs as the code and the pages' templates spell them literally:
// l.T("cfg.queues", …) and tr.N("…", n) in Go, {{t "cfg.queues"}} and
// (n "…" .Count) in templates. A prefix the code completes
// (T("cfg.pick_"+mode)) is the second group, and not a whole ID.
var (
	goKeyUse   = regexp.MustCompile(`\.(?:T|N)\("([a-z0-9_]+(?:\.[a-z0-9_]+)+)"(\s*\+)?`)
	tmplKeyUse = regexp.MustCompile(`[({]\s*(?:t|n)\s+"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"()`)
)

// TestKeysUsedExist fails when code or a page template names a message
// ID that the English catalog lacks: T renders an unknown ID as the ID
// itself, so a key removed from the catalogs while a template still used
// it showed "cfg.queues" in the dashboard's navigation, and no other test
// noticed. Every language has the key too (TestCatalogsComplete).
func TestKeysUsedExist(t *testing.T) {
	en := English()
	seen := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); strings.HasPrefix(name, ".") && path != ".." || name == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		var re *regexp.Regexp
		switch {
		case strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go"):
			re = goKeyUse
		case strings.HasSuffix(path, ".html") && strings.Contains(filepath.ToSlash(path), "/templates/"):
			re = tmplKeyUse
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			if m[2] != "" {
				continue
			}
			seen++
			if !en.Has(m[1]) {
				t.Errorf("%s uses message %q, which the catalogs lack", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d uses of message IDs, each in the catalogs", seen)
	if seen < 500 {
		t.Errorf("Got(%d uses of message IDs found), want the code's and templates' hundreds: is the pattern still right?", seen)
	}
}
