package jobs_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// testPolicy lets the tests' receivers listen on 127.0.0.1 over http
// (WEBHOOK_ALLOW_HTTP=1).
var testPolicy = ladder.URLPolicy{AllowHTTP: true}

// hit is one POST a receiver got.
type hit struct {
	id, typ  string
	matchID  int64
	status   int
	signedOK bool
	at       time.Time
}

// receiver is a webhook endpoint on httptest. It checks every request's
// signature with the webhook's secret and answers 500 to the first fails
// requests of each event ID, 200 after.
type receiver struct {
	*httptest.Server
	clock  ladder.Clock
	fails  int
	secret string

	mu   sync.Mutex
	hits []hit
	seen map[string]int
}

func newReceiver(t *testing.T, c ladder.Clock, fails int) *receiver {
	r := &receiver{clock: c, fails: fails, seen: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	var env struct {
		ID      string `json:"id"`
		Type    string `json:"type"`
		GuildID string `json:"guild_id"`
		Data    struct {
			MatchID int64 `json:"match_id"`
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &env)
	r.mu.Lock()
	defer r.mu.Unlock()
	h := hit{id: env.ID, typ: env.Type, matchID: env.Data.MatchID, at: r.clock.Now(),
		signedOK: req.Header.Get(jobs.SignatureHeader) == jobs.Sign(r.secret, body) && env.GuildID == guild &&
			req.Header.Get("X-Ladderbot-Delivery") == env.ID && req.Header.Get("X-Ladderbot-Event") == env.Type}
	r.seen[env.ID]++
	h.status = http.StatusOK
	if r.fails < 0 || r.seen[env.ID] <= r.fails {
		h.status = http.StatusInternalServerError
	}
	r.hits = append(r.hits, h)
	w.WriteHeader(h.status)
}

// accepted returns the hits answered 200, by event ID.
func (r *receiver) accepted() map[string][]hit {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string][]hit{}
	for _, h := range r.hits {
		if h.status == http.StatusOK {
			out[h.id] = append(out[h.id], h)
		}
	}
	return out
}

func (r *receiver) all() []hit {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hit(nil), r.hits...)
}

// subscribe adds a webhook of every event type for r.
func subscribe(t *testing.T, svc *ladder.Service, r *receiver) ladder.Webhook {
	t.Helper()
	var evs []string
	for _, e := range ladder.EventTypes {
		evs = append(evs, string(e))
	}
	w, err := svc.CreateWebhook(context.Background(), moderator, guild, r.URL+"/hook", evs, testPolicy)
	if err != nil {
		t.Fatalf("CreateWebhook() = %v", err)
	}
	r.secret = w.Secret
	return w
}

// wantEvent is an event a test expects, by type and match (0 for seasons).
type wantEvent struct {
	typ     ladder.EventType
	matchID int64
}

// checkOnce checks that every wanted event was accepted exactly once with
// a valid signature, and that nothing else was.
func checkOnce(t *testing.T, r *receiver, want []wantEvent) {
	t.Helper()
	got := map[wantEvent]int{}
	for id, hs := range r.accepted() {
		if len(hs) != 1 {
			t.Errorf("Got(accepted deliveries of %s) = %d, want 1", id, len(hs))
		}
		got[wantEvent{ladder.EventType(hs[0].typ), hs[0].matchID}]++
	}
	for _, w := range want {
		if got[w] != 1 {
			t.Errorf("Got(accepted %s of match %d) = %d, want 1", w.typ, w.matchID, got[w])
		}
		delete(got, w)
	}
	for w, n := range got {
		t.Errorf("Got(unexpected event %s of match %d) = %d deliveries, want none", w.typ, w.matchID, n)
	}
	for _, h := range r.all() {
		if !h.signedOK {
			t.Errorf("Got(signature and headers of %s %s valid) = false, want true", h.typ, h.id)
		}
	}
}

// formMatch opens a match of the guild's default queue.
func formMatch(t *testing.T, svc *ladder.Service, team1, team2 []string) ladder.Match {
	t.Helper()
	ctx := context.Background()
	qs, err := svc.Queues(ctx, guild)
	if err != nil || len(qs) == 0 {
		t.Fatalf("Queues() = %v, %v", qs, err)
	}
	m, err := svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, Teams: [2][]string{team1, team2}})
	if err != nil {
		t.Fatalf("CreateMatch() = %v", err)
	}
	return m
}

func deliverer(p *proc, batch int) *jobs.Deliverer {
	return jobs.NewDeliverer(p.svc, nil, jobs.DelivererOptions{Policy: testPolicy, Batch: batch})
}

func runOnce(t *testing.T, d *jobs.Deliverer) int {
	t.Helper()
	n, err := d.RunOnce(context.Background())
	if err != nil {
		t.Fatalf("RunOnce() = %v", err)
	}
	return n
}

// drain runs rounds until one finds nothing due and returns the attempts
// made: a claim takes one delivery per webhook, so a webhook's backlog
// goes out over several rounds.
func drain(t *testing.T, d *jobs.Deliverer) int {
	t.Helper()
	total := 0
	for {
		n := runOnce(t, d)
		if n == 0 {
			return total
		}
		total += n
	}
}

// TestWebhookEvents makes one of every event through the service — a
// match formed, reported and confirmed; one disputed by conflicting
// reports and resolved; one voided; an API result; a season close — plus
// a preview and a refused report that must make none. The receiver fails
// each event's first delivery: every event arrives once, signed, on the
// retry, and the log keeps both attempts.
func TestWebhookEvents(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		p := newProc(t, testdb.DSN(t, b), c, nil)
		setupGuild(t, p.svc, 0)
		r := newReceiver(t, c, 1)
		hook := subscribe(t, p.svc, r)
		u := users(1, 4)
		player := func(i int) ladder.Actor { return ladder.Actor{UserID: u[i]} }
		form := func() ladder.Match { return formMatch(t, p.svc, u[:2], u[2:]) }
		must := func(what string, err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("%s = %v", what, err)
			}
		}

		m1 := form()
		_, err := p.svc.Report(ctx, player(0), guild, m1.ID, ladder.Win)
		must("Report(m1)", err)
		_, err = p.svc.Confirm(ctx, player(2), guild, m1.ID)
		must("Confirm(m1)", err)

		m2 := form()
		_, err = p.svc.Report(ctx, player(0), guild, m2.ID, ladder.Win)
		must("Report(m2, team 1)", err)
		_, err = p.svc.Report(ctx, player(2), guild, m2.ID, ladder.Win)
		must("Report(m2, team 2)", err)
		// A preview runs the resolve and rolls it back: no event.
		_, err = p.svc.PreviewCorrection(ctx, moderator, guild, m2.ID, 2)
		must("PreviewCorrection(m2)", err)
		_, err = p.svc.Resolve(ctx, moderator, guild, m2.ID, 2, "replay shows team 2 won")
		must("Resolve(m2)", err)

		m3 := form()
		// A refused change writes no event either.
		if _, err := p.svc.Report(ctx, ladder.Actor{UserID: user(9)}, guild, m3.ID, ladder.Win); err == nil {
			t.Fatalf("Report(m3) by a stranger = nil, want an error")
		}
		_, err = p.svc.Void(ctx, moderator, guild, m3.ID, "never played")
		must("Void(m3)", err)

		m4 := record(t, p.svc, u[0], u[2], u[1], u[3], 1)
		_, err = p.svc.EndSeason(ctx, moderator, guild, 0)
		must("EndSeason()", err)

		want := []wantEvent{
			{ladder.EventMatchFormed, m1.ID}, {ladder.EventMatchConfirmed, m1.ID},
			{ladder.EventMatchFormed, m2.ID}, {ladder.EventMatchDisputed, m2.ID}, {ladder.EventMatchResolved, m2.ID},
			{ladder.EventMatchFormed, m3.ID}, {ladder.EventMatchVoided, m3.ID},
			{ladder.EventMatchConfirmed, m4.Match.ID}, {ladder.EventSeasonClosed, 0},
		}
		d := deliverer(p, 0)
		if n := drain(t, d); n != len(want) {
			t.Fatalf("Got(first round attempts) = %d, want %d", n, len(want))
		}
		if got := len(r.accepted()); got != 0 {
			t.Fatalf("Got(accepted after the failing round) = %d, want 0", got)
		}
		if n := runOnce(t, d); n != 0 {
			t.Errorf("Got(attempts before the backoff passed) = %d, want 0", n)
		}
		c.Add(ladder.RetryBase)
		if n := drain(t, d); n != len(want) {
			t.Fatalf("Got(retry round attempts) = %d, want %d", n, len(want))
		}
		c.Add(48 * time.Hour)
		if n := runOnce(t, d); n != 0 {
			t.Errorf("Got(attempts after every 2xx) = %d, want 0", n)
		}
		checkOnce(t, r, want)

		ws, err := p.svc.Webhooks(ctx, guild, 100)
		must("Webhooks()", err)
		if len(ws) != 1 || ws[0].ID != hook.ID || ws[0].Secret != "" {
			t.Fatalf("Got(Webhooks) = %+v, want hook %d without its secret", ws, hook.ID)
		}
		var s200, s500 int
		for _, a := range ws[0].Recent {
			switch a.Status {
			case 200:
				s200++
			case 500:
				s500++
				if a.Error == "" {
					t.Errorf("Got(error of a 500 attempt) = \"\", want the status text")
				}
			}
		}
		if s200 != len(want) || s500 != len(want) || len(ws[0].Recent) != 2*len(want) {
			t.Errorf("Got(delivery log) = %d×200, %d×500 of %d, want %d of each", s200, s500, len(ws[0].Recent), len(want))
		}
	})
}

// TestWebhookBackoff answers 500 forever: attempts come at doubling
// intervals from RetryBase up to RetryCap, stop within RetryWindow of the
// event, and the delivery ends failed rather than retrying for ever.
func TestWebhookBackoff(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		start := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
		c := ladder.NewManualClock(start)
		p := newProc(t, testdb.DSN(t, b), c, nil)
		setupGuild(t, p.svc, 0)
		r := newReceiver(t, c, -1)
		subscribe(t, p.svc, r)
		formMatch(t, p.svc, users(1, 2), users(3, 4))
		d := deliverer(p, 0)
		// Step the clock a minute at a time through 25 hours.
		for c.Now().Before(start.Add(25 * time.Hour)) {
			runOnce(t, d)
			c.Add(time.Minute)
		}
		hs := r.all()
		if len(hs) < 10 {
			t.Fatalf("Got(attempts in 25 h) = %d, want at least 10", len(hs))
		}
		for i := 1; i < len(hs); i++ {
			gap := hs[i].at.Sub(hs[i-1].at)
			want := min(ladder.RetryBase<<(i-1), ladder.RetryCap)
			// The minute steps round each wait up to the next whole minute.
			if gap < want || gap >= want+time.Minute {
				t.Errorf("Got(wait before attempt %d) = %v, want %v (to the next minute)", i+1, gap, want)
			}
		}
		if last := hs[len(hs)-1].at; last.After(start.Add(ladder.RetryWindow)) {
			t.Errorf("Got(last attempt) = %v, want within %v of the event at %v", last, ladder.RetryWindow, start)
		}
		if last := hs[len(hs)-1].at; last.Before(start.Add(ladder.RetryWindow - ladder.RetryCap - time.Minute)) {
			t.Errorf("Got(last attempt) = %v, want in the window's last hour", last)
		}
	})
}

// TestWebhookSenderCrash commits events, then lets a process claim some
// and die before posting (a kill between commit and delivery). The outbox
// keeps them: a second process leaves the dead one's webhooks alone while
// its claims last (one delivery in flight per webhook) and delivers each
// of their events once after the claims lapse. The webhook the dead
// process had claimed nothing of gets its events at once.
func TestWebhookSenderCrash(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		dsn := testdb.DSN(t, b)
		c := ladder.NewManualClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		a := newProc(t, dsn, c, nil)
		setupGuild(t, a.svc, 0)
		rs := []*receiver{newReceiver(t, c, 0), newReceiver(t, c, 0), newReceiver(t, c, 0)}
		for _, r := range rs {
			subscribe(t, a.svc, r)
		}
		var want []wantEvent
		for i := range 3 {
			m := formMatch(t, a.svc, users(4*i+1, 4*i+2), users(4*i+3, 4*i+4))
			want = append(want, wantEvent{ladder.EventMatchFormed, m.ID})
		}
		// Process a claims two deliveries — one of each of two webhooks —
		// and dies holding them.
		const lease = 2 * time.Minute
		claimed, err := a.svc.ClaimDeliveries(ctx, lease, 2)
		if err != nil || len(claimed) != 2 || claimed[0].WebhookID == claimed[1].WebhookID {
			t.Fatalf("ClaimDeliveries() = %+v, %v; want 2 of different webhooks", claimed, err)
		}
		a.db.Close()

		bp := newProc(t, dsn, c, nil)
		d := jobs.NewDeliverer(bp.svc, nil, jobs.DelivererOptions{Policy: testPolicy, Lease: lease})
		if n := drain(t, d); n != 3 {
			t.Fatalf("Got(attempts while the dead claims last) = %d, want 3 (the unclaimed webhook's events)", n)
		}
		c.Add(lease)
		if n := drain(t, d); n != 6 {
			t.Fatalf("Got(attempts after the lease) = %d, want 6", n)
		}
		for _, r := range rs {
			checkOnce(t, r, want)
		}
	})
}

// TestWebhookRace runs two processes' deliverers at once over 24 events
// in small batches: each event is accepted exactly once.
func TestWebhookRace(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		dsn := testdb.DSN(t, b)
		c := ladder.NewManualClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		p1 := newProc(t, dsn, c, nil)
		setupGuild(t, p1.svc, 0)
		r := newReceiver(t, c, 0)
		subscribe(t, p1.svc, r)
		var want []wantEvent
		for i := range 24 {
			res := record(t, p1.svc, user(1), user(2), user(3), user(4), 1+i%2)
			want = append(want, wantEvent{ladder.EventMatchConfirmed, res.Match.ID})
		}
		p2 := newProc(t, dsn, c, nil)
		start := make(chan struct{})
		var wg sync.WaitGroup
		counts := make([]int, 2)
		errs := make([]error, 2)
		for i, p := range []*proc{p1, p2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d := deliverer(p, 3)
				<-start
				for {
					n, err := d.RunOnce(context.Background())
					if err != nil {
						errs[i] = err
						return
					}
					if n == 0 {
						return
					}
					counts[i] += n
				}
			}()
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("RunOnce() of process %d = %v", i+1, err)
			}
		}
		if counts[0]+counts[1] != len(want) {
			t.Errorf("Got(attempts) = %d + %d, want %d in all", counts[0], counts[1], len(want))
		}
		checkOnce(t, r, want)
		t.Logf("process 1 delivered %d, process 2 %d", counts[0], counts[1])
	})
}

// TestWebhookDeleted stops deliveries to a deleted webhook and leaves
// other guilds' webhooks alone.
func TestWebhookDeleted(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		p := newProc(t, testdb.DSN(t, b), c, nil)
		setupGuild(t, p.svc, 0)
		r := newReceiver(t, c, 0)
		w := subscribe(t, p.svc, r)
		record(t, p.svc, user(1), user(2), user(3), user(4), 1)
		if err := p.svc.DeleteWebhook(ctx, moderator, guild, w.ID); err != nil {
			t.Fatalf("DeleteWebhook() = %v", err)
		}
		if err := p.svc.DeleteWebhook(ctx, moderator, guild, w.ID); ladder.ErrorCode(err) != ladder.CodeNotFound {
			t.Errorf("Got(DeleteWebhook() again) = %v, want not found", err)
		}
		if n := runOnce(t, deliverer(p, 0)); n != 0 {
			t.Errorf("Got(attempts to a deleted webhook) = %d, want 0", n)
		}
		if got := len(r.all()); got != 0 {
			t.Errorf("Got(requests to a deleted webhook) = %d, want 0", got)
		}
	})
}

// TestWebhookPrune keeps an event while a delivery of it waits, and
// deletes it with its log EventRetention after it once nothing does.
func TestWebhookPrune(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		p := newProc(t, testdb.DSN(t, b), c, nil)
		setupGuild(t, p.svc, 0)
		formMatch(t, p.svc, users(1, 2), users(3, 4)) // no webhook yet: an event without deliveries
		r := newReceiver(t, c, -1)
		subscribe(t, p.svc, r)
		formMatch(t, p.svc, users(5, 6), users(7, 8))
		prune := func() int64 {
			t.Helper()
			n, err := p.svc.PruneEvents(ctx)
			if err != nil {
				t.Fatalf("PruneEvents() = %v", err)
			}
			return n
		}
		if n := prune(); n != 0 {
			t.Errorf("Got(pruned at once) = %d, want 0", n)
		}
		c.Add(ladder.EventRetention + time.Hour)
		if n := prune(); n != 1 {
			t.Errorf("Got(pruned with one delivery pending) = %d, want 1 (the event without deliveries)", n)
		}
		// The late attempt fails past the retry window: the delivery ends.
		if n := runOnce(t, deliverer(p, 0)); n != 1 {
			t.Fatalf("Got(late attempts) = %d, want 1", n)
		}
		if n := prune(); n != 1 {
			t.Errorf("Got(pruned after the delivery failed) = %d, want 1", n)
		}
		ws, err := p.svc.Webhooks(ctx, guild, 10)
		if err != nil || len(ws) != 1 || len(ws[0].Recent) != 0 {
			t.Errorf("Got(Webhooks after pruning) = %+v, %v; want the webhook with an empty log", ws, err)
		}
	})
}
