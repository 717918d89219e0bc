package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// fakeResponder stands in for a transport in the step tests: it records
// what the chain asked of it and fails as told.
type fakeResponder struct {
	deferErr, answerErr, postErr error
	deferred, answered           bool
	// goneIn is a channel Discord answers 10003 Unknown Channel for.
	goneIn string

	defers  []bool // the ephemeral flag of each Defer
	deferIn time.Duration
	answers []commands.Reply
	posts   []commands.Post
	shown   []string
}

func (f *fakeResponder) Defer(ctx context.Context, ephemeral bool) error {
	f.defers = append(f.defers, ephemeral)
	if dl, ok := ctx.Deadline(); ok {
		f.deferIn = time.Until(dl)
	}
	if f.deferErr == nil {
		f.deferred = true
	}
	return f.deferErr
}

func (f *fakeResponder) Answer(_ context.Context, r commands.Reply) error {
	f.answers = append(f.answers, r)
	return f.answerErr
}

func (f *fakeResponder) ShowError(text string) error {
	f.shown = append(f.shown, text)
	return nil
}

func (f *fakeResponder) Post(_ context.Context, channelID string, msg commands.Reply) (string, error) {
	f.posts = append(f.posts, commands.Post{ChannelID: channelID, Message: msg})
	if channelID == f.goneIn {
		return "", codedError{err: errors.New("Unknown Channel"), code: 10003}
	}
	return fmt.Sprint(700000000000000000 + len(f.posts)), f.postErr
}

func (f *fakeResponder) Acked() time.Time { return time.Time{} }
func (f *fakeResponder) Deferred() bool   { return f.deferred }
func (f *fakeResponder) Answered() bool   { return f.answered }

// probe is the rest of the chain in a step test: it records that it ran
// and with what context, and returns err.
type probe struct {
	ran bool
	ctx context.Context
	err error
	// during runs inside the chain, to look at the state a step set up.
	during func(c *call)
}

func (p *probe) handle(ctx context.Context, c *call) error {
	p.ran, p.ctx = true, ctx
	if p.during != nil {
		p.during(c)
	}
	return p.err
}

func newCall(kind commands.Kind, instant bool) (*call, *fakeResponder) {
	f := &fakeResponder{}
	return &call{id: "1", start: time.Now(), req: commands.Request{Kind: kind, GuildID: "g"},
		route: route{name: "queue join", instant: instant}, resp: f}, f
}

var (
	errStorage = errors.New("storage: disk on fire")
	errInvalid = ladder.Errorf(ladder.CodeInvalid, "pick a winner")
)

// TestCompose runs steps outermost first and lets them see the inner
// result last.
func TestCompose(t *testing.T) {
	var order []string
	mark := func(name string) step {
		return func(next handler) handler {
			return func(ctx context.Context, c *call) error {
				order = append(order, name+" in")
				err := next(ctx, c)
				order = append(order, name+" out")
				return err
			}
		}
	}
	h := compose(func(context.Context, *call) error { order = append(order, "handler"); return errStorage }, mark("a"), mark("b"))
	err := h(context.Background(), &call{})
	want := []string{"a in", "b in", "handler", "b out", "a out"}
	if !slices.Equal(order, want) || !errors.Is(err, errStorage) {
		t.Errorf("Got(order, err) = %v, %v, want %v, %v", order, err, want, errStorage)
	}
}

func TestAdmission(t *testing.T) {
	cases := []struct {
		name     string
		admitted bool
		wantRun  bool
		wantDone int
	}{
		{"admitted runs and is done once", true, true, 1},
		{"draining drops the call", false, false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			done := 0
			p := &probe{}
			h := admission(func() bool { return tc.admitted }, func() { done++ })(p.handle)
			if err := h(context.Background(), &call{}); err != nil {
				t.Fatalf("Got(err) = %v, want nil", err)
			}
			if p.ran != tc.wantRun || done != tc.wantDone {
				t.Errorf("Got(ran, done) = %v, %d, want %v, %d", p.ran, done, tc.wantRun, tc.wantDone)
			}
		})
	}
}

func TestDropDuplicates(t *testing.T) {
	var seen dedupe
	h := func(p *probe) handler { return dropDuplicates(seen.first)(p.handle) }
	cases := []struct {
		name    string
		id      string
		wantRun bool
	}{
		{"first delivery runs", "10", true},
		{"redelivery is dropped", "10", false},
		{"another interaction runs", "11", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &probe{}
			if err := h(p)(context.Background(), &call{id: tc.id, start: time.Now()}); err != nil {
				t.Fatalf("Got(err) = %v, want nil", err)
			}
			if p.ran != tc.wantRun {
				t.Errorf("Got(ran) = %v, want %v", p.ran, tc.wantRun)
			}
		})
	}
}

func TestReport(t *testing.T) {
	cases := []struct {
		name      string
		err       error
		quiet     bool
		wantShown string // "" when nothing is shown
		wantLog   []string
	}{
		{"success shows nothing", nil, false, "", []string{"level=INFO", "cmd=\"queue join\""}},
		{"coded error shows its message", errInvalid, false, "⚠️ pick a winner", []string{"level=INFO", "code=invalid"}},
		{"internal error shows a reference", errStorage, false, "reference ", []string{"level=ERROR", "code=internal", "ref=", "disk on fire"}},
		{"quiet error is only logged", errStorage, true, "", []string{"level=ERROR", "disk on fire"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			b := &Bot{log: slog.New(slog.NewTextHandler(&logs, nil))}
			c, f := newCall(commands.KindCommand, false)
			h := b.report(func(_ context.Context, c *call) error { c.quiet = tc.quiet; return tc.err })
			if err := h(context.Background(), c); !errors.Is(err, tc.err) {
				t.Errorf("Got(err) = %v, want %v", err, tc.err)
			}
			switch {
			case tc.wantShown == "" && len(f.shown) != 0:
				t.Errorf("Got(shown) = %q, want nothing", f.shown)
			case tc.wantShown != "" && (len(f.shown) != 1 || !strings.Contains(f.shown[0], tc.wantShown)):
				t.Errorf("Got(shown) = %q, want one message with %q", f.shown, tc.wantShown)
			}
			if n := strings.Count(logs.String(), "msg=interaction"); n != 1 {
				t.Errorf("Got(log lines) = %d, want 1:\n%s", n, logs.String())
			}
			for _, w := range tc.wantLog {
				if !strings.Contains(logs.String(), w) {
					t.Errorf("Got(log) = %q, want %q in it", logs.String(), w)
				}
			}
		})
	}
}

func TestUserText(t *testing.T) {
	cases := []struct {
		name    string
		err     error
		want    string
		wantRef bool
	}{
		{"invalid", errInvalid, "⚠️ pick a winner", false},
		{"unavailable", ladder.Errorf(ladder.CodeUnavailable, "the bot is overloaded right now"), "⚠️ the bot is overloaded right now (temporary problem; please try again)", false},
		{"internal", errStorage, "⚠️ Something went wrong on our side (reference ", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text, ref := userText(i18n.English(), tc.err)
			if !strings.HasPrefix(text, tc.want) || (ref != "") != tc.wantRef {
				t.Errorf("Got(userText) = %q, %q, want %q with a reference %v", text, ref, tc.want, tc.wantRef)
			}
			if tc.wantRef && (len(ref) != 8 || !strings.Contains(text, ref) || strings.Contains(text, "disk on fire")) {
				t.Errorf("Got(internal text) = %q (ref %q), want the 8-digit reference and not the error", text, ref)
			}
		})
	}
}

func TestRecoverPanics(t *testing.T) {
	cases := []struct {
		name    string
		next    handler
		wantErr string
	}{
		{"panic becomes an internal error", func(context.Context, *call) error { panic("boom") }, "bot: panic: boom"},
		{"error passes through", func(context.Context, *call) error { return errStorage }, errStorage.Error()},
		{"success passes through", func(context.Context, *call) error { return nil }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &call{quiet: true}
			err := recoverPanics(tc.next)(context.Background(), c)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, tc.wantErr) || (tc.wantErr == "") != (err == nil) {
				t.Errorf("Got(err) = %v, want %q", err, tc.wantErr)
			}
			if tc.wantErr == "bot: panic: boom" && (c.quiet || ladder.ErrorCode(err) != ladder.CodeInternal) {
				t.Errorf("Got(quiet, code) = %v, %s, want a shown internal error", c.quiet, ladder.ErrorCode(err))
			}
		})
	}
}

func TestRouting(t *testing.T) {
	known := route{name: "queue join", handle: func(context.Context, commands.Request) (commands.Reply, error) { return commands.Reply{}, nil }}
	find := func(req commands.Request) (route, error) {
		if req.Command == "queue join" {
			return known, nil
		}
		return route{name: req.Command}, ladder.Errorf(ladder.CodeNotFound, "unknown command")
	}
	cases := []struct {
		name     string
		req      commands.Request
		reqErr   error
		wantRun  bool
		wantCode ladder.Code
		wantName string
	}{
		{"known command runs", commands.Request{Command: "queue join"}, nil, true, "", "queue join"},
		{"unknown command stops", commands.Request{Command: "made-up"}, nil, false, ladder.CodeNotFound, "made-up"},
		{"unreadable interaction stops", commands.Request{}, errInvalid, false, ladder.CodeInvalid, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &probe{}
			c := &call{req: tc.req, reqErr: tc.reqErr}
			err := routing(find)(p.handle)(context.Background(), c)
			if p.ran != tc.wantRun || (err == nil) != (tc.wantCode == "") || (err != nil && ladder.ErrorCode(err) != tc.wantCode) {
				t.Errorf("Got(ran, err) = %v, %v, want %v, code %q", p.ran, err, tc.wantRun, tc.wantCode)
			}
			if c.route.name != tc.wantName {
				t.Errorf("Got(route name) = %q, want %q", c.route.name, tc.wantName)
			}
		})
	}
}

func TestAcknowledge(t *testing.T) {
	cases := []struct {
		name       string
		kind       commands.Kind
		instant    bool
		ephemeral  bool
		deferErr   error
		wantDefers []bool
		wantRun    bool
		wantErr    string
		wantQuiet  bool
		wantName   string
	}{
		{"instant command is not deferred", commands.KindCommand, true, false, nil, nil, true, "", false, "queue join"},
		{"autocomplete is not deferred", commands.KindAutocomplete, false, false, nil, nil, true, "", false, "queue join"},
		{"storage command is deferred", commands.KindCommand, false, false, nil, []bool{false}, true, "", false, "queue join"},
		{"private command is deferred privately", commands.KindCommand, false, true, nil, []bool{true}, true, "", false, "queue join"},
		{"taken by another process is a duplicate", commands.KindComponent, false, true, duplicateError{errStorage}, []bool{true}, false, "", false, "queue join" + duplicateSuffix},
		{"failed deferral is logged only", commands.KindCommand, false, false, errStorage, []bool{false}, false, "bot: defer: " + errStorage.Error(), true, "queue join"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, f := newCall(tc.kind, tc.instant)
			c.route.ephemeral = tc.ephemeral
			f.deferErr = tc.deferErr
			p := &probe{}
			err := acknowledge(p.handle)(context.Background(), c)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr || p.ran != tc.wantRun || c.quiet != tc.wantQuiet || c.route.name != tc.wantName {
				t.Errorf("Got(err, ran, quiet, name) = %q, %v, %v, %q, want %q, %v, %v, %q",
					got, p.ran, c.quiet, c.route.name, tc.wantErr, tc.wantRun, tc.wantQuiet, tc.wantName)
			}
			if !slices.Equal(f.defers, tc.wantDefers) {
				t.Errorf("Got(defers) = %v, want %v", f.defers, tc.wantDefers)
			}
			if len(f.defers) > 0 && (f.deferIn <= 0 || f.deferIn > instantBudget) {
				t.Errorf("Got(deferral deadline in) = %s, want within Discord's budget %s", f.deferIn, instantBudget)
			}
		})
	}
}

func TestWaitForWorker(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name     string
		instant  bool
		busy     bool // every worker taken
		wait     time.Duration
		ctx      context.Context
		wantRun  bool
		wantErr  string
		wantHeld int // workers taken while the rest runs
	}{
		{"instant call needs no worker", true, true, time.Hour, context.Background(), true, "", 1},
		{"free worker runs the call", false, false, time.Hour, context.Background(), true, "", 1},
		{"busy workers past the wait", false, true, time.Nanosecond, context.Background(), false, "the bot is overloaded right now", 1},
		{"shutdown while waiting", false, true, time.Hour, cancelled, false, "the bot is restarting", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			workers := make(chan struct{}, 1)
			if tc.busy {
				workers <- struct{}{}
			}
			c, _ := newCall(commands.KindCommand, tc.instant)
			held := -1
			p := &probe{during: func(*call) { held = len(workers) }}
			err := waitForWorker(workers, tc.wait)(p.handle)(tc.ctx, c)
			if p.ran != tc.wantRun || (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("Got(ran, err) = %v, %v, want %v, %q", p.ran, err, tc.wantRun, tc.wantErr)
			}
			if err != nil && ladder.ErrorCode(err) != ladder.CodeUnavailable {
				t.Errorf("Got(code) = %s, want unavailable", ladder.ErrorCode(err))
			}
			if p.ran && held != tc.wantHeld {
				t.Errorf("Got(workers taken during the call) = %d, want %d", held, tc.wantHeld)
			}
			if want := 0; !tc.busy && len(workers) != want {
				t.Errorf("Got(workers taken after the call) = %d, want %d", len(workers), want)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	const handlerTimeout = time.Hour
	cases := []struct {
		name     string
		instant  bool
		err      error
		minLeft  time.Duration // the rest's deadline is at least this far
		maxLeft  time.Duration // and at most this far
		wantCode ladder.Code
	}{
		{"instant call within Discord's budget", true, nil, 0, instantBudget, ""},
		{"deferred call gets the handler timeout", false, nil, instantBudget, handlerTimeout, ""},
		{"handler out of time is temporary", false, context.DeadlineExceeded, instantBudget, handlerTimeout, ladder.CodeUnavailable},
		{"answer out of time stays internal", false, answerError{context.DeadlineExceeded}, instantBudget, handlerTimeout, ladder.CodeInternal},
		{"other errors pass through", false, errInvalid, instantBudget, handlerTimeout, ladder.CodeInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newCall(commands.KindCommand, tc.instant)
			p := &probe{err: tc.err}
			err := timeout(handlerTimeout)(p.handle)(context.Background(), c)
			if (err == nil) != (tc.wantCode == "") || (err != nil && ladder.ErrorCode(err) != tc.wantCode) {
				t.Errorf("Got(err) = %v (code %s), want code %q", err, ladder.ErrorCode(err), tc.wantCode)
			}
			dl, ok := p.ctx.Deadline()
			if left := time.Until(dl); !ok || left <= tc.minLeft || left > tc.maxLeft {
				t.Errorf("Got(deadline in) = %s (set %v), want in (%s, %s]", left, ok, tc.minLeft, tc.maxLeft)
			}
		})
	}
}

func TestAnswer(t *testing.T) {
	post := commands.Post{ChannelID: "c2", Message: commands.Say("Match #1 is ready")}
	reply := commands.Reply{Content: "joined", Posts: []commands.Post{post}}
	cases := []struct {
		name        string
		handlerErr  error
		answerErr   error
		postErr     error
		deferred    bool
		answered    bool
		wantAnswers int
		wantPosts   int
		wantErr     bool
		wantQuiet   bool
		wantName    string
		wantLog     string
	}{
		{"reply and posts are shown", nil, nil, nil, true, false, 1, 1, false, false, "queue join", ""},
		{"handler error is not answered", errInvalid, nil, nil, true, false, 0, 0, true, false, "queue join", ""},
		{"failed post is logged only", nil, nil, errStorage, true, false, 1, 1, false, false, "queue join", "posting to channel failed"},
		{"instant answer taken by another process", nil, duplicateError{errStorage}, nil, false, false, 1, 0, false, false, "queue join" + duplicateSuffix, ""},
		{"deferred answer failing is an error", nil, duplicateError{errStorage}, nil, true, false, 1, 0, true, false, "queue join", ""},
		{"failed answer is shown", nil, errStorage, nil, false, false, 1, 0, true, false, "queue join", ""},
		{"failed answer after an answer is logged only", nil, errStorage, nil, false, true, 1, 0, true, true, "queue join", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			c, f := newCall(commands.KindCommand, false)
			f.answerErr, f.postErr, f.deferred, f.answered = tc.answerErr, tc.postErr, tc.deferred, tc.answered
			h := answer(slog.New(slog.NewTextHandler(&logs, nil)), nil)(func(_ context.Context, c *call) error {
				c.reply = reply
				return tc.handlerErr
			})
			err := h(context.Background(), c)
			if (err != nil) != tc.wantErr || c.quiet != tc.wantQuiet || c.route.name != tc.wantName {
				t.Errorf("Got(err, quiet, name) = %v, %v, %q, want error %v, %v, %q", err, c.quiet, c.route.name, tc.wantErr, tc.wantQuiet, tc.wantName)
			}
			var ae answerError
			if err != nil && tc.handlerErr == nil && (!errors.As(err, &ae) || !strings.HasPrefix(err.Error(), "bot: answer: ")) {
				t.Errorf("Got(err) = %v, want an answer error", err)
			}
			if len(f.answers) != tc.wantAnswers || len(f.posts) != tc.wantPosts {
				t.Errorf("Got(answers, posts) = %d, %d, want %d, %d", len(f.answers), len(f.posts), tc.wantAnswers, tc.wantPosts)
			}
			if tc.wantPosts > 0 && f.posts[0].ChannelID != post.ChannelID {
				t.Errorf("Got(post channel) = %s, want %s", f.posts[0].ChannelID, post.ChannelID)
			}
			if !strings.Contains(logs.String(), tc.wantLog) || (tc.wantLog == "") != (logs.Len() == 0) {
				t.Errorf("Got(log) = %q, want %q", logs.String(), tc.wantLog)
			}
		})
	}
}

// TestAnswerRoomGone: a post Discord refuses because its channel is gone
// goes to the channel rehome names (a deleted match room's queue channel)
// and is recorded there; when rehome posted that same message there (the
// match where it stands) it is not sent again but recorded as that one;
// without a channel it stays failed; an edit is never sent elsewhere.
func TestAnswerRoomGone(t *testing.T) {
	cases := []struct {
		name, home string
		edit       bool
		shownSame  bool
		wantPosts  []string
		wantAsked  int
		wantSentIn string
		wantID     string
	}{
		{"a gone room's post goes to its match's new channel", "c9", false, false, []string{"c2", "c9"}, 1, "c9", ""},
		{"a gone room's post rehome already showed there", "c9", false, true, []string{"c2"}, 1, "c9", "800000000000000001"},
		{"a gone channel that was no room's", "", false, false, []string{"c2"}, 1, "", ""},
		{"an edit in a gone room is not sent elsewhere", "c9", true, false, []string{"c2"}, 0, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			sentIn, sentID := "", ""
			post := commands.Post{ChannelID: "c2", Message: commands.Say("Match #1 is ready"),
				Sent: func(_ context.Context, ch, id string) error { sentIn, sentID = ch, id; return nil }}
			if tc.edit {
				post.Message.Edit = "700000000000000001"
			}
			c, f := newCall(commands.KindCommand, false)
			f.goneIn = "c2"
			asked := 0
			rehome := func(_ context.Context, ch string) (string, []rehomedPost) {
				if ch != "c2" {
					t.Errorf("Got(rehome of) = %s, want c2", ch)
				}
				asked++
				// What rehome posted itself: the notice, and the match's
				// view, which is the post or another message.
				posted := []rehomedPost{{msg: commands.Say("The room of match #1 was deleted"), id: "800000000000000000"},
					{msg: commands.Say("Match #1 is on"), id: "800000000000000001"}}
				if tc.shownSame {
					posted[1].msg = commands.Say("Match #1 is ready")
				}
				return tc.home, posted
			}
			h := answer(slog.New(slog.NewTextHandler(&logs, nil)), rehome)(func(_ context.Context, c *call) error {
				c.reply = commands.Reply{Content: "done", Posts: []commands.Post{post}}
				return nil
			})
			if err := h(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range f.posts {
				got = append(got, p.ChannelID)
			}
			if !slices.Equal(got, tc.wantPosts) || asked != tc.wantAsked || sentIn != tc.wantSentIn {
				t.Errorf("Got(posts, rehome asked, recorded in) = %v, %d, %q, want %v, %d, %q", got, asked, sentIn, tc.wantPosts, tc.wantAsked, tc.wantSentIn)
			}
			if tc.wantID != "" && sentID != tc.wantID {
				t.Errorf("Got(recorded message) = %q, want the one rehome posted, %s", sentID, tc.wantID)
			}
			if failed := strings.Contains(logs.String(), "posting to channel failed"); failed != (tc.wantSentIn == "") {
				t.Errorf("Got(failure logged) = %v, want %v", failed, tc.wantSentIn == "")
			}
		})
	}
}

func TestAuthorize(t *testing.T) {
	check := func(_ context.Context, req *commands.Request, a commands.Access) error {
		if a > commands.Everyone && !req.Moderator {
			return ladder.Errorf(ladder.CodeForbidden, "moderators only")
		}
		return nil
	}
	cases := []struct {
		name      string
		access    commands.Access
		moderator bool
		wantRun   bool
	}{
		{"everyone may", commands.Everyone, false, true},
		{"moderator may", commands.Moderators, true, true},
		{"player may not", commands.Moderators, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newCall(commands.KindCommand, false)
			c.route.access, c.req.Moderator = tc.access, tc.moderator
			p := &probe{}
			err := authorize(check)(p.handle)(context.Background(), c)
			if p.ran != tc.wantRun || (err == nil) != tc.wantRun || (err != nil && ladder.ErrorCode(err) != ladder.CodeForbidden) {
				t.Errorf("Got(ran, err) = %v, %v, want ran %v", p.ran, err, tc.wantRun)
			}
		})
	}
}

func TestRunHandler(t *testing.T) {
	cases := []struct {
		name string
		err  error
	}{
		{"reply kept for the answer", nil},
		{"error returned", errInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newCall(commands.KindCommand, false)
			c.req.UserID = "u1"
			c.route.handle = func(_ context.Context, req commands.Request) (commands.Reply, error) {
				return commands.Say("hi " + req.UserID), tc.err
			}
			err := runHandler(context.Background(), c)
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) || c.reply.Content != "hi u1" {
				t.Errorf("Got(err, reply) = %v, %q, want %v, %q", err, c.reply.Content, tc.err, "hi u1")
			}
		})
	}
}

// An error's text names players and actors as <@ID>; one that is not a
// Discord user's (the dashboard's "web:<ID>", an API token's "api:<name>",
// an imported player's key) must not reach Discord as raw "<@…>" text.
func TestUserTextMentionsOutsideDiscord(t *testing.T) {
	for _, lang := range []string{"en", "de"} {
		l := i18n.For(lang)
		for _, c := range []struct {
			err  error
			want string
		}{
			{ladder.Errorf(ladder.CodeConflict, "flag %d was dismissed already by <@%s>", 3, "web:300000000000000001"),
				l.Error("flag %d was dismissed already by <@%s>", 3, "300000000000000001")},
			{ladder.Errorf(ladder.CodeConflict, "flag %d was dismissed already by <@%s>", 3, "api:overlay"),
				strings.Replace(l.Error("flag %d was dismissed already by <@%s>", 3, "api:overlay"), "<@api:overlay>", "api:overlay", 1)},
		} {
			got, _ := userText(l, c.err)
			if got != "⚠️ "+c.want || strings.Contains(got, "<@api") || strings.Contains(got, "<@web") {
				t.Errorf("userText(%s, %v) = %q, want %q", lang, c.err, got, "⚠️ "+c.want)
			}
		}
	}
}
