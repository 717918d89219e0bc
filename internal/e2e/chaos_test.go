package e2e

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/bot"
	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/ladder"
)

// The chaos night: a whole busy evening of a community on three
// `ladderbot run` processes sharing one PostgreSQL database (one gateway
// shard, two HTTP-interaction replicas behind a round-robin proxy), with
// faults injected on a seeded schedule, ending in a check of everything
// that must hold whatever broke. The short form runs in CI; the long one
// is
//
//	LADDERBOT_CHAOS_MINUTES=60 go test -run TestChaosNight -timeout 90m ./internal/e2e
//
// (docs/testing.md keeps its last result).

// chaosSettings are the knobs of one night.
type chaosSettings struct {
	evening          time.Duration // how long the players play
	seed             uint64        // the fault schedule's and the players' seed
	guilds, players  int
	killMin, killMax time.Duration // a process is killed every killMin–killMax
	pgRestarts       bool          // restart PostgreSQL twice (LADDERBOT_FAULT_TESTS=1 and PG_CLUSTER)
}

func chaosConfig(t *testing.T) chaosSettings {
	s := chaosSettings{evening: 5 * time.Minute, seed: 20261126, guilds: 8, players: 32,
		killMin: 20 * time.Second, killMax: 60 * time.Second}
	if v := os.Getenv("LADDERBOT_CHAOS_MINUTES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 24*60 {
			t.Fatalf("LADDERBOT_CHAOS_MINUTES=%q: want minutes, 1 to 1440", v)
		}
		s.evening = time.Duration(n) * time.Minute
	}
	if v := os.Getenv("LADDERBOT_CHAOS_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("LADDERBOT_CHAOS_SEED=%q: want a number", v)
		}
		s.seed = n
	}
	s.pgRestarts = os.Getenv("LADDERBOT_FAULT_TESTS") == "1" && os.Getenv("PG_CLUSTER") != ""
	return s
}

// Guild kinds: how a guild's queue turns a formed group into a match.
const (
	kindPlain    = iota // no ready check: the match is on at once
	kindReady           // a 10 s ready check, with no-shows
	kindCaptains        // a ready check, then captains pick the teams
	kindSubs            // a ready check; subs and cancel votes are common
	kinds
)

var kindNames = [kinds]string{"plain", "ready check", "captains", "subs"}

// chaos is the night's driver: the load's players and oracle, plus what
// the load does not do (ready checks, drafts, subs, cancel votes,
// corrections, the panel's buttons, a season rollover) and the faults.
type chaos struct {
	*load
	t      *testing.T
	cfg    chaosSettings
	fake   *fakediscord.Server
	recv   *chaosReceiver
	queues map[string]int64 // guild → its queue's ID
	kind   map[string]int   // guild → kind
	http   map[string]bool  // guild → its interactions come over HTTP

	mu          sync.Mutex
	cancelled   map[int64]bool // a cancel (vote or ready check) was acknowledged
	corrections int
	subs        int
	picks       int
	noShows     int
	rolled      map[string]bool // guild → season ended by its moderator
	// unanswered are corrections whose Apply got no answer (a process
	// killed, a callback lost): each may or may not have taken effect.
	unanswered map[int64][]int
	faults     map[string]int // fault → times injected
	// gatewayKills are when the gateway process was killed.
	gatewayKills []time.Time
}

func (c *chaos) count(what string, n int) {
	c.mu.Lock()
	c.faults[what] += n
	c.mu.Unlock()
}

// TestChaosNight is the chaos night (see the top of this file). It runs a
// few hundred players for cfg.evening while processes are killed with
// SIGKILL every 20–60 s and restarted, the gateway is dropped, Discord
// answers a share of REST calls 429 or 500, the webhook receiver fails
// and hangs, and (with LADDERBOT_FAULT_TESTS=1 and PG_CLUSTER) PostgreSQL
// restarts twice; then it checks every invariant of the ladder.
func TestChaosNight(t *testing.T) {
	needPostgres(t)
	cfg := chaosConfig(t)
	if testing.Short() && os.Getenv("LADDERBOT_CHAOS_MINUTES") == "" {
		t.Skip("the chaos night takes minutes; -short skips it")
	}
	ctx := testCtx(t, cfg.evening+8*time.Minute)
	dsn := freshDSN(t, "postgres")
	fake := startFake(t)
	t.Logf("chaos night: %s evening, seed %d, %d guilds of %d players", cfg.evening, cfg.seed, cfg.guilds, cfg.players)
	if !cfg.pgRestarts {
		t.Log("PostgreSQL restarts skipped: they need LADDERBOT_FAULT_TESTS=1 and PG_CLUSTER (they disturb every other test on the server)")
	}

	l := newLoad(t, fake, dsn, cfg.guilds, cfg.players, 1)
	l.wait = 15 * time.Second
	c := &chaos{load: l, t: t, cfg: cfg, fake: fake, queues: map[string]int64{}, kind: map[string]int{}, http: map[string]bool{},
		cancelled: map[int64]bool{}, rolled: map[string]bool{}, faults: map[string]int{}, unanswered: map[int64][]int{}}
	c.recv = newChaosReceiver(t, cfg.seed)
	var httpGuilds []string
	for gi, g := range l.guilds {
		c.setUpGuild(ctx, gi, g)
		if gi%2 == 1 {
			c.http[g.id] = true
			httpGuilds = append(httpGuilds, g.id)
		}
	}

	// The processes: a gateway shard, and two HTTP replicas behind the
	// proxy. Each also serves the API and runs the jobs.
	env := []string{"WEBHOOK_ALLOW_HTTP=1", "WEBHOOK_TIMEOUT=2s", "WEBHOOK_LEASE=5s", "ROLE_SYNC_INTERVAL=2s"}
	addrs := []string{freeAddr(t), freeAddr(t), freeAddr(t)}
	gw := newProc(t, "gateway", dsn, fake, 0, 1)
	// The dropper leaves connections silent; the watchdog cuts them after
	// 2 s, so an outage lasts past Discord's 3 s with discordgo's backoff.
	gw.env = append(append(gw.env, "HTTP_ADDR="+addrs[0], "DISCORD_GATEWAY_TIMEOUT=2s"), env...)
	procs := []*proc{gw}
	for i := 1; i < 3; i++ {
		p := newHTTPProc(t, fmt.Sprintf("http%d", i), dsn, fake, addrs[i])
		p.env = append(p.env, env...)
		procs = append(procs, p)
	}
	for _, p := range procs {
		p.start()
	}
	gw.waitConnected(ctx, fake, 1)
	for i, p := range procs[1:] {
		p.waitReady(ctx, addrs[i+1])
	}
	waitCommands(t, ctx, fake, procs...)
	rr, proxy := newRoundRobin(t, addrs[1:])
	fake.SetInteractionsEndpoint(proxy.URL + "/interactions")
	fake.RouteHTTP(httpGuilds...)
	for _, g := range l.guilds {
		c.placePanel(ctx, g)
	}

	// Faults from here on.
	fake.SetRESTFaults(0.03, 0.02, 300*time.Millisecond, cfg.seed)
	end := time.Now().Add(cfg.evening)
	night, stopFaults := context.WithCancel(ctx)
	var faults sync.WaitGroup
	faults.Go(func() { c.killer(night, rand.New(rand.NewPCG(cfg.seed, 2)), procs, addrs, rr) })
	faults.Go(func() { c.dropper(night, rand.New(rand.NewPCG(cfg.seed, 3))) })
	faults.Go(func() { c.recv.misbehave(night, rand.New(rand.NewPCG(cfg.seed, 4)), c) })
	if cfg.pgRestarts {
		faults.Go(func() { c.restartPostgres(night, end) })
	}
	gs := newGameServer(t, l, l.guilds[0].id, addrs)
	gs.pace = 250 * time.Millisecond // a game server's matches take time to play
	faults.Go(func() { gs.run(night, cfg.seed, func() bool { return time.Now().Before(end) }) })

	var players sync.WaitGroup
	for gi, g := range l.guilds {
		players.Go(func() {
			grng := rand.New(rand.NewPCG(cfg.seed, 100+uint64(gi)))
			for time.Now().Before(end) && ctx.Err() == nil {
				c.round(ctx, g, grng, end)
			}
		})
	}
	players.Wait()
	stopFaults()
	faults.Wait()
	fake.SetRESTFaults(0, 0, 0, 0)
	n429, n500 := fake.RESTFaults()
	c.count("discord 429", n429)
	c.count("discord 500", n500)

	// Morning: every process up, then what must hold.
	for i, p := range procs {
		if !p.running() {
			p.start()
		}
		if i > 0 {
			p.waitReady(ctx, addrs[i])
			rr.down[i-1].Store(false)
		}
	}
	gw.waitConnected(ctx, fake, 1)
	t.Logf("the evening: %s", l.summary())
	c.settleDisputes(ctx)
	c.checkNight(ctx, dsn, gs, procs)
	for _, p := range procs {
		p.stop()
	}
	c.mu.Lock()
	c.faults["results acknowledged in Discord"] = len(l.acked)
	kills := 0
	for k, n := range c.faults {
		if strings.HasPrefix(k, "kill -9") {
			kills += n
		}
	}
	// The night must have been one: faults of every kind injected.
	if kills == 0 || c.faults["discord 429"] == 0 || c.faults["discord 500"] == 0 || c.faults["webhook 500s"] == 0 || c.faults["webhook requests held"] == 0 ||
		c.faults["gateway dropped"] == 0 || c.faults["gateway connections left silent"] == 0 {
		t.Errorf("Got(faults) = %v, want kills, 429s, 500s, webhook failures and hangs, gateway cuts and silent connections", c.faults)
	}
	if len(l.acked) == 0 || c.noShows == 0 || len(c.cancelled) == 0 || c.picks == 0 || c.subs == 0 || c.corrections == 0 || 2*len(c.rolled) < len(l.guilds) {
		t.Errorf("Got(the night's events) = %d results, %d no-shows, %d cancels, %d picks, %d subs, %d corrections, %d of %d seasons ended; want some of each, most seasons",
			len(l.acked), c.noShows, len(c.cancelled), c.picks, c.subs, c.corrections, len(c.rolled), len(l.guilds))
	}
	c.mu.Unlock()
	c.settleUnanswered(ctx)
	checkLedger(t, l, dsn)
	gs.check(t, l)
	c.report(gs)
}

// setUpGuild configures guild gi before the processes start: its queue's
// kind, placement off (every player has a division at once), a division
// role per division with every player a member, and a webhook to the
// receiver for every event.
func (c *chaos) setUpGuild(ctx context.Context, gi int, g *lguild) {
	t, svc := c.t, c.svc
	c.kind[g.id] = gi % kinds
	mod := ladder.Actor{UserID: g.owner.ID, Moderator: true}
	q, lobby, err := svc.Lobby(ctx, g.id, "")
	if err != nil {
		t.Fatal(err)
	}
	c.queues[g.id] = q.ID
	switch c.kind[g.id] {
	case kindReady, kindSubs:
		lobby.ReadyWindow = 10 * time.Second
	case kindCaptains:
		lobby.ReadyWindow, lobby.PickMode, lobby.PickWindow = 10*time.Second, ladder.PickCaptains, 10*time.Second
	}
	// Short cooldowns: a no-show sits out a little, not the whole night.
	lobby.Cooldowns = []time.Duration{20 * time.Second}
	if _, err := svc.UpdateLobby(ctx, mod, g.id, lobby); err != nil {
		t.Fatalf("UpdateLobby(%s) = %v", g.id, err)
	}
	gd, err := svc.EnsureGuild(ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	gd.PlacementGames = 0
	if _, err := svc.UpdateGuild(ctx, mod, gd); err != nil {
		t.Fatal(err)
	}
	set := map[string]string{}
	for i, d := range ladder.DefaultDivisions() {
		set[d.Name] = c.fake.AddRole(g.id, d.Name, 10+i)
	}
	if _, err := svc.SetDivisionRoles(ctx, g.id, set); err != nil {
		t.Fatal(err)
	}
	for _, p := range g.players {
		c.fake.AddMember(g.id, p.ID)
	}
	var events []string
	for _, e := range ladder.EventTypes {
		events = append(events, string(e))
	}
	hook, err := svc.CreateWebhook(ctx, ladder.System, g.id, c.recv.URL+"/"+g.id, events, ladder.URLPolicy{AllowHTTP: true})
	if err != nil {
		t.Fatalf("CreateWebhook(%s) = %v", g.id, err)
	}
	c.recv.secrets.Store(g.id, hook.Secret)
}

// placePanel has the guild's owner post the queue panel in its channel.
func (c *chaos) placePanel(ctx context.Context, g *lguild) {
	for try := 0; ; try++ {
		a := c.slash(ctx, g, g.owner, "config queue panel", nil)
		if a.class == classOK {
			return
		}
		if try == 5 {
			c.t.Fatalf("%s: /config queue panel = %s %q", g.id, a.class, a.text)
		}
	}
}

// panelMessage is the guild's panel message, "" before it is posted.
func (c *chaos) panelMessage(ctx context.Context, g *lguild) string {
	var id string
	c.db.SQL().QueryRowContext(ctx, `SELECT message_id FROM queue_panels WHERE queue_id = $1`, c.queues[g.id]).Scan(&id)
	return id
}

// round is one wave of a guild's evening: idle players rush the queue
// (by command or the panel's buttons), formed matches go through their
// ready check (some players never click), captains pick, and each match
// on is played, cancelled by a vote, or has a player replaced; disputes
// are resolved, a rated result is sometimes corrected, and halfway
// through the night the moderator ends the season.
func (c *chaos) round(ctx context.Context, g *lguild, rng *rand.Rand, end time.Time) {
	l := c.load
	if !c.rolledOver(g) && time.Until(end) < c.cfg.evening/2 {
		a := l.slash(ctx, g, g.owner, "mod season end", nil)
		if a.class == classOK {
			c.mu.Lock()
			c.rolled[g.id] = true
			c.mu.Unlock()
		}
	}
	busy := map[string]bool{}
	for _, m := range l.matches(ctx, g, ladder.StateOpen, ladder.StateReported) {
		for _, u := range m.Players() {
			busy[u] = true
		}
	}
	panel := c.panelMessage(ctx, g)
	qid := c.queues[g.id]
	var wg sync.WaitGroup
	for _, u := range g.players {
		if busy[u.ID] {
			continue
		}
		x, byPanel := rng.Float64(), panel != "" && rng.IntN(2) == 0
		wg.Go(func() {
			join := func() {
				if byPanel {
					l.click(ctx, g, u, panel, commands.ID(commands.ActPanelJoin, qid))
				} else {
					l.slash(ctx, g, u, "queue join", nil)
				}
			}
			join()
			switch {
			case x < 0.06:
				if byPanel {
					l.click(ctx, g, u, panel, commands.ID(commands.ActPanelLeave, qid))
				} else {
					l.slash(ctx, g, u, "queue leave", nil)
				}
				if x < 0.03 {
					join()
				}
			case x < 0.15:
				join() // a double submit
			case x < 0.18 && byPanel:
				l.click(ctx, g, u, panel, commands.ID(commands.ActPanelStatus, qid))
			}
		})
	}
	wg.Wait()
	l.checkOneOpenMatch(ctx)
	c.checkNotQueuedWhilePlaying(ctx)

	for _, m := range l.matches(ctx, g, ladder.StateOpen) {
		seed := rng.Uint64()
		wg.Go(func() { c.playOut(ctx, g, m, rand.New(rand.NewPCG(seed, 5)), busy) })
	}
	wg.Wait()
	for _, m := range l.matches(ctx, g, ladder.StateDisputed) {
		w, double := rng.IntN(3), rng.IntN(3) == 0
		wg.Go(func() { l.resolve(ctx, g, m, w, double) })
	}
	if rng.IntN(3) == 0 {
		rated := l.matches(ctx, g, ladder.StateConfirmed, ladder.StateResolved)
		if len(rated) > 0 {
			m, w := rated[rng.IntN(len(rated))], rng.IntN(3)
			wg.Go(func() { c.correct(ctx, g, m, w) })
		}
	}
	reader := g.players[rng.IntN(len(g.players))]
	wg.Go(func() { l.slash(ctx, g, reader, "leaderboard", nil) })
	if rng.IntN(4) == 0 {
		p, r := g.players[rng.IntN(len(g.players))], 1300+400*rng.Float64()
		wg.Go(func() {
			l.slash(ctx, g, g.owner, "mod rating set", map[string]any{"player": p.ID, "rating": r, "rd": 80.0, "reason": "chaos"})
		})
	}
	wg.Wait()
	// A breath between waves, as real players have.
	select {
	case <-ctx.Done():
	case <-time.After(time.Duration(200+rng.IntN(800)) * time.Millisecond):
	}
}

func (c *chaos) rolledOver(g *lguild) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rolled[g.id]
}

// announcement waits up to 5 s for match id's announcement in the
// guild's channel and returns its message ID ("" when it never came: a
// post lost with a killed process, or refused by Discord).
func (c *chaos) announcement(ctx context.Context, g *lguild, id int64) string {
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	want := fmt.Sprintf("**Match #%d**", id)
	m, err := c.fake.WaitChannelMessage(wctx, g.channel, func(m fakediscord.Message) bool { return strings.Contains(m.Content, want) })
	if err != nil {
		return ""
	}
	return m.ID
}

// playOut takes an open match as far as its players do in one wave: the
// ready check (a no-show or a decline now and then), the captains'
// picks, then one of: played as the load plays it, a cancel vote, or a
// substitute taking a seat.
func (c *chaos) playOut(ctx context.Context, g *lguild, m ladder.Match, rng *rand.Rand, busy map[string]bool) {
	l := c.load
	if rc, err := l.svc.ReadyCheck(ctx, g.id, m.ID); err == nil && rc.State == ladder.ReadyPending {
		ann := c.announcement(ctx, g, m.ID)
		if ann == "" {
			return // the ready check's job cancels it
		}
		skip := ""
		if rng.IntN(8) == 0 {
			skip = m.Players()[rng.IntN(len(m.Players()))]
			c.mu.Lock()
			c.noShows++
			c.mu.Unlock()
		}
		decline := rng.IntN(25) == 0
		var wg sync.WaitGroup
		for i, u := range m.Players() {
			if u == skip || !rc.Seated(u) {
				continue
			}
			action := "rdy"
			if decline && i == 0 {
				action = "nrdy"
			}
			wg.Go(func() {
				a := l.click(ctx, g, g.user(u), ann, commands.ID(action, m.ID))
				if a.class == classOK && strings.Contains(a.text, fmt.Sprintf("**Match #%d** is cancelled", m.ID)) {
					c.mu.Lock()
					c.cancelled[m.ID] = true
					c.mu.Unlock()
				}
			})
		}
		wg.Wait()
		if skip != "" || decline {
			return
		}
	}
	if d, err := l.svc.Draft(ctx, g.id, m.ID); err == nil {
		ann := c.announcement(ctx, g, m.ID)
		for try := 0; d.State != ladder.DraftDone && try < 8 && ann != ""; try++ {
			if d.State != ladder.DraftPicking {
				break
			}
			pool := d.Pool()
			if len(pool) == 0 {
				break
			}
			pick := pool[rng.IntN(len(pool))].UserID
			a := l.do(ctx, func() (*fakediscord.Pending, error) {
				return l.fake.SelectForged(g.call(g.user(d.Captain(d.Turn()))), ann, commands.ID("pick", m.ID, strconv.Itoa(d.Picks())), pick)
			})
			if a.class == classOK {
				c.mu.Lock()
				c.picks++
				c.mu.Unlock()
			}
			if d, err = l.svc.Draft(ctx, g.id, m.ID); err != nil {
				break
			}
		}
		if d.State != ladder.DraftDone {
			return // the pick job picks for the captain
		}
	}
	cur, err := l.svc.Match(ctx, g.id, m.ID)
	if err != nil || cur.State != ladder.StateOpen {
		return
	}
	subShare, cancelShare := 20, 25
	if c.kind[g.id] == kindSubs {
		subShare, cancelShare = 4, 6
	}
	switch {
	case rng.IntN(cancelShare) == 0:
		c.cancelVote(ctx, g, cur, rng)
	case rng.IntN(subShare) == 0:
		c.substitute(ctx, g, cur, rng, busy)
	default:
		l.play(ctx, g, cur, rng.IntN(100), []ladder.Outcome{ladder.Win, ladder.Loss, ladder.Tie}[rng.IntN(3)], rng.IntN(2))
	}
}

// cancelVote has three of the four players vote to cancel, by command or
// the announcement's button.
func (c *chaos) cancelVote(ctx context.Context, g *lguild, m ladder.Match, rng *rand.Rand) {
	l := c.load
	ann := c.announcement(ctx, g, m.ID)
	ps := m.Players()
	rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	var wg sync.WaitGroup
	for _, u := range ps[:len(ps)*3/4] {
		byButton := ann != "" && rng.IntN(2) == 0
		wg.Go(func() {
			var a answer
			if byButton {
				a = l.click(ctx, g, g.user(u), ann, commands.ID("cxv", m.ID))
			} else {
				a = l.slash(ctx, g, g.user(u), "match cancel", map[string]any{"match": int(m.ID)})
			}
			if a.class == classOK && strings.Contains(a.text, fmt.Sprintf("Your vote cancelled match #%d.", m.ID)) {
				c.mu.Lock()
				c.cancelled[m.ID] = true
				c.mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// substitute has a player ask for a substitute and an idle player take
// the seat (by command); the match is played in a later wave.
func (c *chaos) substitute(ctx context.Context, g *lguild, m ladder.Match, rng *rand.Rand, busy map[string]bool) {
	l := c.load
	out := g.user(m.Players()[rng.IntN(len(m.Players()))])
	if a := l.slash(ctx, g, out, "sub request", map[string]any{"match": int(m.ID)}); a.class != classOK {
		return
	}
	var idle []fakediscord.User
	for _, u := range g.players {
		if !busy[u.ID] && !slices.Contains(m.Players(), u.ID) {
			idle = append(idle, u)
		}
	}
	if len(idle) == 0 {
		return
	}
	// Two volunteers at once: one seat, one winner.
	var wg sync.WaitGroup
	for range 2 {
		in := idle[rng.IntN(len(idle))]
		wg.Go(func() {
			if a := l.slash(ctx, g, in, "sub accept", map[string]any{"match": int(m.ID)}); a.class == classOK {
				c.mu.Lock()
				c.subs++
				c.mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// correct has the moderator preview a correction of a rated match and
// apply it with the preview's button; an applied correction moves what
// the ledger check expects.
func (c *chaos) correct(ctx context.Context, g *lguild, m ladder.Match, winner int) {
	l := c.load
	if winner == 0 {
		winner = ladder.Draw
	}
	pre := l.slash(ctx, g, g.owner, "mod correct", map[string]any{"match": int(m.ID), "winner": winner})
	if pre.class != classOK || !strings.Contains(pre.text, "Preview") {
		return
	}
	a := l.click(ctx, g, g.owner, pre.resp.Message.ID, commands.ID("modfix", m.ID, strconv.Itoa(winner)))
	// An Apply that reached the bot expired failed in Discord and must
	// have done nothing; any other answer but a refusal may have.
	if a.class != classOK && a.class != classRefused && a.class != classExpired {
		c.mu.Lock()
		c.unanswered[m.ID] = append(c.unanswered[m.ID], winner)
		c.mu.Unlock()
	}
	if a.class == classOK && (strings.Contains(a.text, "is now **") || strings.Contains(a.text, "already done")) {
		l.mu.Lock()
		if _, ok := l.acked[m.ID]; ok || strings.Contains(a.text, "is now **") {
			l.acked[m.ID] = winner
		}
		l.mu.Unlock()
		c.mu.Lock()
		c.corrections++
		c.mu.Unlock()
	}
}

// settleUnanswered accepts, for a match whose correction went unanswered,
// the corrected winner in place of the one acknowledged before: the
// moderator never learnt whether it took effect, so either is right.
func (c *chaos) settleUnanswered(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.load.mu.Lock()
	defer c.load.mu.Unlock()
	took := 0
	for id, ws := range c.unanswered {
		w, ok := c.load.acked[id]
		if !ok {
			continue
		}
		for _, g := range c.guilds {
			if m, err := c.svc.Match(ctx, g.id, id); err == nil && m.Winner != w && slices.Contains(ws, m.Winner) {
				c.load.acked[id] = m.Winner
				took++
			}
		}
	}
	c.faults["unanswered corrections that took effect"] = took
}

// settleDisputes is the moderator's last round of the night: every
// disputed match resolved through the bot.
func (c *chaos) settleDisputes(ctx context.Context) {
	for _, g := range c.guilds {
		for try := 0; try < 5; try++ {
			ms := c.matches(ctx, g, ladder.StateDisputed)
			if len(ms) == 0 {
				break
			}
			for _, m := range ms {
				c.resolve(ctx, g, m, 1, false)
			}
		}
	}
}

// checkNotQueuedWhilePlaying records a violation when a player is queued
// while in an open or reported match.
func (c *chaos) checkNotQueuedWhilePlaying(ctx context.Context) {
	var user string
	var match int64
	err := c.db.SQL().QueryRowContext(ctx, `SELECT qm.user_id, m.id FROM queue_entry_members qm
		JOIN match_players mp ON mp.guild_id = qm.guild_id AND mp.user_id = qm.user_id
		JOIN matches m ON m.id = mp.match_id WHERE m.state IN ('open', 'reported') LIMIT 1`).Scan(&user, &match)
	if err == nil {
		c.violation("player %s is queued while in match %d", user, match)
	}
}

// checkExpired checks the gateway interactions the outages made late, and
// counts them for the night's table: every one the gateway process
// logged as expired on arrival got no callback and no refused one from
// it (it did nothing that Discord would show), and every one the fake
// replayed more than 3 s after it was made went unanswered (the user saw
// "This interaction failed") and is among them, unless the process was
// killed around its replay, before it could read it. Replayed
// interactions that were answered are counted with the latest
// acknowledgement among them: how close the bot's margin came to
// Discord's 3 s.
func (c *chaos) checkExpired(gw *proc) {
	t := c.t
	t.Helper()
	dropped := map[string]bool{}
	cuts := 0
	for _, l := range gw.lines() {
		switch l["msg"] {
		case "interaction expired before it arrived":
			id, _ := l["interaction_id"].(string)
			if age, _ := l["age_ms"].(float64); age <= float64(bot.ExpiredAge.Milliseconds()) {
				t.Errorf("interaction %s: dropped as expired at %v ms, want past %d", id, age, bot.ExpiredAge.Milliseconds())
			}
			dropped[id] = true
		case "gateway connection silent; cutting it to connect again":
			cuts++
		}
	}
	c.mu.Lock()
	kills := slices.Clone(c.gatewayKills)
	c.mu.Unlock()
	// killedAround reports a kill of the gateway process from shortly
	// before at (the fake writes to a connection until it sees it closed)
	// to well after it (the process still reading the replay).
	killedAround := func(at time.Time) bool {
		return slices.ContainsFunc(kills, func(k time.Time) bool { return k.After(at.Add(-2*time.Second)) && k.Before(at.Add(10*time.Second)) })
	}
	late, unlogged, replayed := 0, 0, 0
	var latest, slowest time.Duration
	for _, ix := range c.fake.Interactions() {
		if dropped[ix.ID] && (len(ix.Callbacks) > 0 || len(ix.Rejected) > 0) {
			t.Errorf("interaction %s (%s%s): dropped as expired, Got(callbacks, refused) = %v, %v, want none", ix.ID, ix.Command, ix.CustomID, ix.Callbacks, ix.Rejected)
		}
		if ix.ArrivedLate() {
			late++
			if !dropped[ix.ID] {
				unlogged++
				if !killedAround(ix.Delivered) {
					t.Errorf("interaction %s (%s%s): replayed %v after it was made to a gateway process that was not killed then, Got(logged as expired) = false, want true",
						ix.ID, ix.Command, ix.CustomID, ix.Delivered.Sub(ix.SentAt))
				}
			}
			if len(ix.Callbacks) > 0 {
				t.Errorf("interaction %s (%s%s): replayed %v after it was made, Got(callbacks) = %v, want none", ix.ID, ix.Command, ix.CustomID, ix.Delivered.Sub(ix.SentAt), ix.Callbacks)
			}
		}
		if d := ix.Delivered.Sub(ix.SentAt); d > time.Second && !ix.Delivered.IsZero() && len(ix.Callbacks) > 0 {
			replayed++
			latest = max(latest, ix.AckLatency())
			slowest = max(slowest, ix.Callbacks[0].At.Sub(ix.Delivered))
		}
	}
	st := c.fake.Gateway()
	c.count("gateway connections left silent", st.Silenced)
	c.count("silent connections cut by the watchdog", cuts)
	c.count("expired interactions dropped", len(dropped))
	c.count("interactions replayed past 3 s", late)
	if unlogged > 0 {
		c.count("of them not logged as dropped (the process killed)", unlogged)
	}
	c.count("interactions replayed over 1 s late and answered", replayed)
	if replayed > 0 {
		c.count("latest answer of those (ms after sent)", int(latest.Milliseconds()))
		c.count("slowest answer of those (ms after the replay)", int(slowest.Milliseconds()))
	}
	if st.Silenced > 0 && cuts == 0 {
		t.Errorf("Got(watchdog cuts) = 0 of %d silent connections, want the gateway process to cut them", st.Silenced)
	}
}

// killer kills a random process with SIGKILL every killMin–killMax and
// restarts it at once, as a supervisor would.
func (c *chaos) killer(ctx context.Context, rng *rand.Rand, procs []*proc, addrs []string, rr *roundRobin) {
	for {
		wait := c.cfg.killMin + time.Duration(rng.Int64N(int64(c.cfg.killMax-c.cfg.killMin)))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		i := rng.IntN(len(procs))
		p := procs[i]
		p.kill()
		c.count("kill -9 "+p.name, 1)
		if i == 0 {
			c.mu.Lock()
			c.gatewayKills = append(c.gatewayKills, time.Now())
			c.mu.Unlock()
		}
		p.start()
		if i > 0 {
			for ctx.Err() == nil && p.running() {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addrs[i]+"/readyz", nil)
				if resp, err := http.DefaultClient.Do(req); err == nil {
					resp.Body.Close()
					if resp.StatusCode == http.StatusOK {
						break
					}
				}
				time.Sleep(50 * time.Millisecond)
			}
			rr.down[i-1].Store(false)
		}
	}
}

// dropper cuts the gateway connection every 30–90 s. Every other cut,
// the first included, leaves the next connection silent (no RESUMED or
// READY), as a gateway in trouble does: the process's watchdog cuts it
// after DISCORD_GATEWAY_TIMEOUT (2 s) and discordgo connects again after
// its 1 s backoff, so the interactions made at the start of the outage
// are replayed more than 3 s late, expired.
func (c *chaos) dropper(ctx context.Context, rng *rand.Rand) {
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(30*time.Second + time.Duration(rng.Int64N(int64(60*time.Second)))):
		}
		if n%2 == 0 {
			c.fake.SilenceGateway(fakediscord.SilentReady)
		}
		c.fake.Drop()
		c.count("gateway dropped", 1)
	}
}

// restartPostgres restarts the server at a third and two thirds of the night.
func (c *chaos) restartPostgres(ctx context.Context, end time.Time) {
	cluster := os.Getenv("PG_CLUSTER")
	for _, at := range []time.Time{end.Add(-c.cfg.evening * 2 / 3), end.Add(-c.cfg.evening / 3)} {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(at)):
		}
		args := append([]string{"--skip-systemctl-redirect"}, splitFields(cluster)...)
		out, err := exec.Command("pg_ctlcluster", append(args, "restart", "-m", "fast")...).CombinedOutput()
		if err != nil {
			c.t.Errorf("restart PostgreSQL: %v: %s", err, out)
			return
		}
		c.count("postgres restarted", 1)
	}
}

// chaosReceiver is every guild's webhook endpoint: it checks signatures,
// remembers each event's bytes, fails a share of deliveries with 500 and,
// while hanging, holds requests until the sender gives up.
type chaosReceiver struct {
	*httptest.Server
	secrets sync.Map // guild → secret

	mu        sync.Mutex
	rng       *rand.Rand
	failShare float64
	hangUntil time.Time
	bodies    map[string]string // event ID → body
	acked     map[string]int    // event ID → 2xx answers
	bad       []string
	hung      int
	failed    int
}

func newChaosReceiver(t *testing.T, seed uint64) *chaosReceiver {
	r := &chaosReceiver{rng: rand.New(rand.NewPCG(seed, 6)), bodies: map[string]string{}, acked: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var env struct {
			ID      string `json:"id"`
			GuildID string `json:"guild_id"`
		}
		_ = json.Unmarshal(body, &env)
		secret, _ := r.secrets.Load(strings.TrimPrefix(req.URL.Path, "/"))
		s, _ := secret.(string)
		m := hmac.New(sha256.New, []byte(s))
		m.Write(body)
		signed := req.Header.Get("X-Ladderbot-Signature") == "sha256="+hex.EncodeToString(m.Sum(nil))
		r.mu.Lock()
		switch prev, seen := r.bodies[env.ID]; {
		case env.ID == "" || !signed || req.Header.Get("X-Ladderbot-Delivery") != env.ID:
			r.bad = append(r.bad, fmt.Sprintf("delivery %q to %s: signed %v, header %q", env.ID, req.URL.Path, signed, req.Header.Get("X-Ladderbot-Delivery")))
		case seen && prev != string(body):
			r.bad = append(r.bad, fmt.Sprintf("event %s delivered with different bytes", env.ID))
		}
		r.bodies[env.ID] = string(body)
		hang := time.Now().Before(r.hangUntil)
		fail := !hang && r.rng.Float64() < r.failShare
		switch {
		case hang:
			r.hung++
		case fail:
			r.failed++
		default:
			r.acked[env.ID]++
		}
		r.mu.Unlock()
		switch {
		case hang:
			<-req.Context().Done()
		case fail:
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(r.Close)
	return r
}

// misbehave fails 15% of deliveries all night and hangs for 8 s every
// 20–50 s.
func (r *chaosReceiver) misbehave(ctx context.Context, rng *rand.Rand, c *chaos) {
	r.mu.Lock()
	r.failShare = 0.15
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.failShare, r.hangUntil = 0, time.Time{}
		r.mu.Unlock()
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(20*time.Second + time.Duration(rng.Int64N(int64(30*time.Second)))):
		}
		r.mu.Lock()
		r.hangUntil = time.Now().Add(8 * time.Second)
		r.mu.Unlock()
		c.count("webhook receiver hung", 1)
	}
}

var mentionRE = regexp.MustCompile(`<@(\d+)>`)

// checkNight checks what must hold after the night, beyond the ledger
// (checkLedger) and the game server's results (gameServer.check).
func (c *chaos) checkNight(ctx context.Context, dsn string, gs *gameServer, procs []*proc) {
	t := c.t
	t.Helper()
	c.mu.Lock()
	cancelled := maps(c.cancelled)
	c.mu.Unlock()

	// Interactions: each answered at most once, none refused by Discord
	// (a late acknowledgement among them), no internal error; those that
	// reached the gateway expired were dropped by it.
	checkCallbacks(t, c.fake, false)
	c.checkExpired(procs[0])
	c.load.mu.Lock()
	if n := c.load.classes[classInternal]; n > 0 {
		t.Errorf("Got(internal errors) = %d, want 0: a fault is never an internal error; e.g. %q", n, c.load.samples[classInternal])
		for _, p := range procs {
			t.Logf("%s: internal errors logged: %q", p.name, loggedErrors(p, "internal", 5))
		}
	}
	c.load.mu.Unlock()

	// Every acknowledged HTTP interaction is in the delivery log (its
	// primary key keeps it there once), which refuses a redelivery by any
	// replica; the log keeps 15 minutes, so the last 14 are checked. (A
	// gateway interaction reaches one shard's session, and Discord itself
	// refuses a second answer.)
	logged := map[string]bool{}
	rows, err := c.db.SQL().QueryContext(ctx, `SELECT id FROM interaction_deliveries`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		logged[id] = true
	}
	rows.Close()
	acked, missing := 0, 0
	for _, ix := range c.fake.Interactions() {
		if len(ix.Callbacks) == 0 || !c.http[ix.Call.GuildID] || time.Since(ix.SentAt) > 14*time.Minute {
			continue
		}
		acked++
		if !logged[ix.ID] {
			missing++
			if missing <= 5 {
				t.Errorf("interaction %s (%s%s) was answered but is not in the delivery log", ix.ID, ix.Command, ix.CustomID)
			}
		}
	}
	if missing > 0 || acked == 0 {
		t.Errorf("Got(answered interactions of the last 14 min missing from the log) = %d of %d, want 0 of some", missing, acked)
	}

	// No match stuck: every match is over, or waits on a deadline a job
	// keeps; acknowledged cancels are cancelled.
	for _, g := range c.guilds {
		ms := c.matches(ctx, g, ladder.StateOpen, ladder.StateReported, ladder.StateDisputed, ladder.StateCancelled, ladder.StateVoided)
		for _, m := range ms {
			switch m.State {
			case ladder.StateDisputed:
				t.Errorf("match %d: Got(state) = disputed after the moderator's last round, want resolved", m.ID)
			case ladder.StateReported:
				if time.Since(m.Deadline) > 90*time.Second {
					t.Errorf("match %d: reported, its confirmation deadline %s passed long ago: stuck", m.ID, m.Deadline)
				}
			case ladder.StateOpen:
				if rc, err := c.svc.ReadyCheck(ctx, g.id, m.ID); err == nil && rc.State == ladder.ReadyPending && time.Since(rc.Deadline) > 30*time.Second {
					t.Errorf("match %d: ready check pending %s past its deadline: stuck", m.ID, time.Since(rc.Deadline).Round(time.Second))
				}
				if d, err := c.svc.Draft(ctx, g.id, m.ID); err == nil && d.State == ladder.DraftPicking && time.Since(d.Deadline) > 30*time.Second {
					t.Errorf("match %d: captains' pick %s past its deadline: stuck", m.ID, time.Since(d.Deadline).Round(time.Second))
				}
			}
			if cancelled[m.ID] && m.State != ladder.StateCancelled {
				t.Errorf("match %d: cancel acknowledged; Got(state) = %s", m.ID, m.State)
			}
		}
	}
	c.checkNotQueuedWhilePlaying(ctx)

	// Webhooks: once the receiver behaves, every event is delivered at
	// least once, with the same bytes each time (deduplicable by ID). The
	// backoff after failures reaches minutes; the night is over, so the
	// pending retries are made due now rather than waited for.
	// The backlog drains one delivery at a time per webhook: wait while
	// it shrinks.
	pending, failed, last, progress := 0, 0, -1, time.Now()
	drain := time.Now()
	for time.Since(progress) < 45*time.Second && ctx.Err() == nil {
		// Retries scheduled by the night's failures come due now.
		if _, err := c.db.SQL().ExecContext(ctx, `UPDATE webhook_deliveries SET next_at = $1 WHERE state = 'pending' AND next_at > $1`, time.Now()); err != nil {
			t.Fatal(err)
		}
		c.db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FILTER (WHERE state = 'pending'), COUNT(*) FILTER (WHERE state = 'failed') FROM webhook_deliveries`).Scan(&pending, &failed)
		if pending == 0 {
			break
		}
		if pending != last {
			last, progress = pending, time.Now()
		}
		time.Sleep(500 * time.Millisecond)
	}
	c.count("webhook backlog drain (s)", int(time.Since(drain).Seconds()))
	if pending != 0 || failed != 0 {
		t.Errorf("Got(webhook deliveries pending, failed) = %d, %d after the night, want 0, 0", pending, failed)
	}
	rows, err = c.db.SQL().QueryContext(ctx, `SELECT e.id, e.body FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id`)
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	c.recv.mu.Lock()
	for rows.Next() {
		var id, body string
		rows.Scan(&id, &body)
		events++
		switch {
		case c.recv.acked[id] == 0:
			t.Errorf("webhook event %s: never acknowledged by the receiver", id)
		case c.recv.bodies[id] != body:
			t.Errorf("webhook event %s: Got(body) %q, want the stored %q", id, c.recv.bodies[id], body)
		}
	}
	rows.Close()
	for _, b := range c.recv.bad {
		t.Errorf("webhook receiver: %s", b)
	}
	dups := 0
	for _, n := range c.recv.acked {
		dups += n - 1
	}
	c.count("webhook 500s", c.recv.failed)
	c.count("webhook requests held", c.recv.hung)
	c.recv.mu.Unlock()
	if events == 0 {
		t.Error("Got(webhook events) = 0, want the night's matches to send some")
	}
	c.count("webhook events", events)
	c.count("webhook duplicates (deduplicated)", dups)

	// Roles: every player holds their division's role and no other, once
	// the role sync has caught up.
	var diff string
	for wait := time.Now().Add(2 * time.Minute); time.Now().Before(wait); time.Sleep(time.Second) {
		diff = c.roleDiff(ctx)
		if diff == "" {
			break
		}
	}
	if diff != "" {
		t.Errorf("roles never matched the divisions:%s", diff)
	}

	// The panel lists exactly who is queued, once its editor caught up.
	for wait := time.Now().Add(time.Minute); time.Now().Before(wait); time.Sleep(time.Second) {
		diff = c.panelDiff(ctx)
		if diff == "" {
			break
		}
	}
	if diff != "" {
		t.Errorf("the panels never listed who is queued:%s", diff)
	}
}

func maps[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// roleDiff returns how the players' division roles differ from their
// standings ("" when they agree).
func (c *chaos) roleDiff(ctx context.Context) string {
	var diff strings.Builder
	for _, g := range c.guilds {
		roles := map[string]string{}
		for _, r := range c.fake.Roles(g.id) {
			roles[r.Name] = r.ID
		}
		var ids []string
		for _, p := range g.players {
			ids = append(ids, p.ID)
		}
		ss, err := c.svc.CurrentStandings(ctx, g.id, "", ids)
		if err != nil {
			return err.Error()
		}
		for _, s := range ss {
			want := []string{}
			if !s.Provisional && !s.Stale {
				want = append(want, roles[s.Division])
			}
			got, _ := c.fake.MemberRoles(g.id, s.UserID)
			if got == nil {
				got = []string{}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				fmt.Fprintf(&diff, " %s holds %v, want %v (%s);", s.UserID, got, want, s.Division)
			}
		}
	}
	return diff.String()
}

// panelDiff returns how each guild's panel differs from its queue.
func (c *chaos) panelDiff(ctx context.Context) string {
	var diff strings.Builder
	for _, g := range c.guilds {
		rows, err := c.db.SQL().QueryContext(ctx, `SELECT user_id FROM queue_entry_members WHERE guild_id = $1`, g.id)
		if err != nil {
			return err.Error()
		}
		var queued []string
		for rows.Next() {
			var u string
			rows.Scan(&u)
			queued = append(queued, u)
		}
		rows.Close()
		msg, ok := c.fake.Message(c.panelMessage(ctx, g))
		if !ok || len(msg.Embeds) == 0 {
			fmt.Fprintf(&diff, " %s: no panel;", g.id)
			continue
		}
		var listed []string
		for _, m := range mentionRE.FindAllStringSubmatch(msg.Embeds[0].Description, -1) {
			listed = append(listed, m[1])
		}
		slices.Sort(queued)
		slices.Sort(listed)
		if !slices.Equal(queued, listed) {
			fmt.Fprintf(&diff, " %s: panel lists %v, queued %v;", g.id, listed, queued)
		}
	}
	return diff.String()
}

// report logs the night's table (docs/testing.md keeps the long one's).
func (c *chaos) report(gs *gameServer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.load.mu.Lock()
	defer c.load.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "\n| chaos night | %s, seed %d |\n|---|---|\n", c.cfg.evening, c.cfg.seed)
	fmt.Fprintf(&b, "| players | %d in %d guilds (%s) + %d of a game server |\n", c.cfg.guilds*c.cfg.players, c.cfg.guilds, strings.Join(kindNames[:], ", "), len(gs.players))
	var classes []string
	for k, n := range c.load.classes {
		classes = append(classes, fmt.Sprintf("%s %d", k, n))
	}
	slices.Sort(classes)
	fmt.Fprintf(&b, "| interactions | %d (%s) |\n", c.load.sent.Load(), strings.Join(classes, ", "))
	fmt.Fprintf(&b, "| results acknowledged | %d by players and moderators, %d API results (%d requests) |\n", c.faults["results acknowledged in Discord"], len(gs.acked), gs.tries)
	delete(c.faults, "results acknowledged in Discord")
	fmt.Fprintf(&b, "| lobby | %d no-shows, %d cancels acknowledged, %d captains' picks, %d subs, %d corrections |\n", c.noShows, len(c.cancelled), c.picks, c.subs, c.corrections)
	var fs []string
	for k, n := range c.faults {
		fs = append(fs, fmt.Sprintf("%s %d", k, n))
	}
	slices.Sort(fs)
	fmt.Fprintf(&b, "| faults and events | %s |\n", strings.Join(fs, ", "))
	c.t.Log(b.String())
}
