package dashboard_test

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestBrowserLanguageScreenshots photographs, in German and Portuguese at
// desktop and phone width, the pages whose texts the ladder and the
// settings make (the help texts of the queue and settings forms, the
// reasons of the disputes page and of the audit log with its actions):
// each shows its language and nothing is wider than the screen.
// LADDERBOT_SCREENSHOT_DIR keeps the pictures (lang-PAGE-CODE-SIZE.png).
func TestBrowserLanguageScreenshots(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	startChrome(t)
	m, _ := ladderReasons(t, e)
	dir := os.Getenv("LADDERBOT_SCREENSHOT_DIR")
	switch {
	case dir == "":
		dir = t.TempDir()
	case !filepath.IsAbs(dir):
		dir = filepath.Join("..", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	g := "/admin/guilds/" + guildA + "/"
	pages := []screenshotPage{
		{name: "queue", path: g + "queues/" + queueName, mark: "#queue-form"},
		{name: "settings", path: g + "settings", mark: "#settings-form"},
		{name: "disputes", path: g + "disputes", mark: fmt.Sprintf("#dispute-reason-%d", m.ID)},
		{name: "audit", path: g + "audit", mark: "#audit"},
	}
	b := e.tab(t)
	b.login(userAdmin, "/admin")
	for _, code := range []string{"de", "pt-BR"} {
		l := i18n.For(code)
		for _, size := range []struct {
			name  string
			w, h  int64
			phone bool
		}{{"desktop", 1000, 800, false}, {"phone", 390, 844, true}} {
			b.emulate(size.w, size.h, size.phone, "light")
			for _, p := range pages {
				b.open(p.path + "?lang=" + code)
				if !b.has(p.mark) {
					t.Errorf("Got(%s %s) at %s: no %s on the page", p.name, code, b.location(), p.mark)
					continue
				}
				if got := b.eval(`document.documentElement.lang`); got != l.Tag().String() {
					t.Errorf("Got(%s %s) lang = %q", p.name, code, got)
				}
				if w := b.scrollWidth(); w > size.w {
					t.Errorf("Got(%s %s at %s width) = %d px of content, wider than the screen", p.name, code, size.name, w)
				}
				shot := b.screenshot()
				if cfg, err := png.DecodeConfig(bytes.NewReader(shot)); err != nil || int64(cfg.Width) != size.w {
					t.Errorf("Got(%s %s %s screenshot) = %d px wide, %v; want %d", p.name, code, size.name, cfg.Width, err, size.w)
				}
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("lang-%s-%s-%s.png", p.name, code, size.name)), shot, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("screenshots written to %s", dir)
}
