package dashboard_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// chromiumPath is where Debian's chromium package (installed by .ci/install)
// puts the browser.
const chromiumPath = "/usr/bin/chromium"

var noChromium = testdb.Reason{
	Why:    "without Chromium at " + chromiumPath,
	Enable: "apt-get install chromium (as .ci/install does) to run them",
}

// chrome is the one headless Chromium of this package's test run, started
// by the first browser test and stopped by TestMain. Each test gets its
// own browser context in it (its own cookies, like a private window), so
// tests share the process and nothing else.
var chrome struct {
	once sync.Once
	ctx  context.Context // the browser's chromedp context
	stop func()
	err  error
}

// startChrome returns the shared browser, starting it on first use. Without
// Chromium the test is skipped, except under CI, where it fails: the
// browser tests must not silently stop running there.
func startChrome(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("headless browser tests: %s not found under CI (.ci/install installs it): %v", chromiumPath, err)
		}
		testdb.Skip(t, noChromium)
	}
	chrome.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumPath),
			chromedp.NoSandbox, chromedp.DisableGPU, chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-component-update", true), chromedp.WindowSize(1000, 900))
		actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, bcancel := chromedp.NewContext(actx)
		chrome.ctx = bctx
		chrome.stop = func() { bcancel(); acancel() }
		// An empty run starts the browser. It runs on the browser's own
		// context: the context of the first run is the browser's life.
		chrome.err = chromedp.Do(bctx)
	})
	if chrome.err != nil {
		t.Fatalf("starting %s: %v", chromiumPath, chrome.err)
	}
	return chrome.ctx
}

// stopChrome stops the shared browser, if a test started it.
func stopChrome() {
	if chrome.stop != nil {
		chrome.stop()
	}
}

// tab is one browser context of the shared Chromium: a private window
// with one tab, closed when the test ends.
type tab struct {
	t   *testing.T
	e   *env
	ctx context.Context
}

func (e *env) tab(t *testing.T) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(startChrome(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// An empty run opens the tab, on the tab's own context, which the tab
	// lives as long as.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("browser: new tab: %v", err)
	}
	return &tab{t: t, e: e, ctx: ctx}
}

// do runs steps in the tab, each run bounded so a hung page fails the
// test instead of stalling it.
func (b *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("browser: %v (at %s)", err, b.location())
	}
}

// load runs steps that navigate (a link, a form's button) and waits for the
// page they lead to, after any redirects; it returns that page's status.
func (b *tab) load(steps ...chromedp.Action[chromedp.Void]) int64 {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	resp, err := chromedp.RunResponse(ctx, steps...)
	if err != nil {
		b.t.Fatalf("browser: %v (at %s)", err, b.location())
	}
	return resp.Status
}

// open goes to a dashboard path (or any URL) and returns the status of the
// page it lands on.
func (b *tab) open(path string) int64 {
	b.t.Helper()
	if !strings.HasPrefix(path, "http") {
		path = b.e.srv.URL + path
	}
	return b.load(chromedp.Navigate(path))
}

// click clicks the element and waits for the page it leads to.
func (b *tab) click(sel string) int64 {
	b.t.Helper()
	return b.load(chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// text returns the visible text of the first element sel matches.
func (b *tab) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		b.t.Fatalf("browser: text of %s: %v (at %s)", sel, err, b.location())
	}
	return s
}

// html returns the outer HTML of the first element sel matches.
func (b *tab) html(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("browser: html of %s: %v (at %s)", sel, err, b.location())
	}
	return s
}

// has reports whether the page has an element sel matches, now.
func (b *tab) has(sel string) bool {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	n, err := chromedp.Run(ctx, chromedp.QueryNodeIDs(chromedp.CSS(sel), chromedp.AtLeast(0)))
	if err != nil {
		b.t.Fatalf("browser: looking for %s: %v", sel, err)
	}
	return len(n) > 0
}

// set types value into the input or select sel, replacing what it held.
func (b *tab) set(sel, value string) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.CSS(sel), value, chromedp.NodeVisible))
}

func (b *tab) location() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	return loc
}

// login logs user in as a person does: the dashboard's log-in link, then
// Discord's consent page and its Authorize button. It returns the text of
// the page it lands on, which is next.
func (b *tab) login(user, next string) string {
	b.t.Helper()
	b.e.fake.LogInBrowser(user)
	b.e.fake.RequireConsent(true)
	b.open("/admin/login?next=" + next)
	if !b.has("#authorize") {
		b.t.Fatalf("login: no consent page at %s", b.location())
	}
	if st := b.click("#authorize"); st != 200 {
		b.t.Fatalf("login: landed with %d on %s", st, b.location())
	}
	if loc := b.location(); !strings.HasPrefix(loc, b.e.srv.URL+next) {
		b.t.Fatalf("login: landed on %s, want %s", loc, next)
	}
	return b.text("body")
}

// emulate sets the viewport (phone: a touch screen of that width) and the
// colour scheme the page's CSS sees.
func (b *tab) emulate(width, height int64, phone bool, scheme string) {
	b.t.Helper()
	var opts []chromedp.EmulateViewportOption
	if phone {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	b.do(chromedp.EmulateViewport(width, height, opts...),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}))
}
