package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// Answer classes of an interaction, as a user would read the answer.
const (
	classOK          = "ok"          // a normal answer
	classRefused     = "refused"     // a clear error: invalid, forbidden, conflict
	classUnavailable = "unavailable" // "temporary problem; please try again"
	classInternal    = "internal"    // "something went wrong" with a reference
	classTimeout     = "timeout"     // no complete answer in time
	classNoSession   = "no-session"  // the fake had no gateway session for the shard
	classFailed      = "failed"      // an HTTP interaction's POST failed: "This interaction failed"
	// classExpired: a gateway interaction replayed to the bot more than
	// Discord's 3 s after it was made (an outage): "This interaction
	// failed", and the bot must not have acted on it.
	classExpired = "expired"
)

// load drives many guilds of players through the fake Discord at once:
// joins and leaves, reports, confirms (double clicks included), disputes
// through the modal, moderator resolves, voids and rating sets, and reads.
// It remembers every result acknowledged to a user so the ledger check
// can find each one stored exactly once.
type load struct {
	fake *fakediscord.Server
	svc  *ladder.Service
	db   *storage.DB
	wait time.Duration

	guilds []*lguild

	sent atomic.Int64
	// onSent, when set before run, is told the count after each send.
	onSent func(n int64)

	mu       sync.Mutex
	classes  map[string]int
	samples  map[string][]string // a few answer texts per class
	acked    map[int64]int       // match → winner acknowledged as rated
	mustRate map[int64]bool      // both sides agreed and both were answered
	voided   map[int64]bool      // a moderator's void was acknowledged
	wrong    []string            // violations seen during the load
}

// lguild is one guild of the load, on its shard.
type lguild struct {
	id, channel string
	owner       fakediscord.User
	players     []fakediscord.User
	rng         *rand.Rand
}

// guildID returns the ID of guild i whose shard of count is i % count.
func guildID(i, count int) string {
	k := uint64(1<<20 + i)
	k -= k % uint64(count)
	k += uint64(i % count)
	return fmt.Sprint(k<<22 | 777)
}

// newLoad opens an oracle on dsn and prepares guilds×players users.
func newLoad(t testing.TB, fake *fakediscord.Server, dsn string, guilds, players, shards int) *load {
	t.Helper()
	db, err := storage.Open(context.Background(), dsn, nil)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	l := &load{
		fake: fake, db: db, svc: ladder.NewService(db, nil), wait: 20 * time.Second,
		classes: map[string]int{}, samples: map[string][]string{},
		acked: map[int64]int{}, mustRate: map[int64]bool{}, voided: map[int64]bool{},
	}
	for gi := range guilds {
		g := &lguild{
			id:      guildID(gi, shards),
			channel: fmt.Sprintf("2%017d", gi+1),
			owner:   fakediscord.User{ID: fmt.Sprintf("7%02d%015d", gi, 1), Name: fmt.Sprintf("owner%d", gi), Permissions: commands.PermManageGuild},
			rng:     rand.New(rand.NewPCG(uint64(gi), 42)),
		}
		for pi := range players {
			g.players = append(g.players, fakediscord.User{ID: fmt.Sprintf("6%02d%015d", gi, pi+1), Name: fmt.Sprintf("g%dp%d", gi, pi)})
		}
		noReadyCheck(t, l.svc, g.id)
		noRooms(t, l.db, l.svc, g.id)
		l.guilds = append(l.guilds, g)
	}
	return l
}

func (g *lguild) call(u fakediscord.User) fakediscord.Call {
	return fakediscord.Call{GuildID: g.id, ChannelID: g.channel, User: u}
}

func (g *lguild) user(id string) fakediscord.User {
	for _, u := range g.players {
		if u.ID == id {
			return u
		}
	}
	return fakediscord.User{ID: id}
}

// answer is what a user saw.
type answer struct {
	class string
	text  string
	resp  fakediscord.Response
	p     *fakediscord.Pending
}

// do sends one interaction and waits for its complete answer.
func (l *load) do(ctx context.Context, send func() (*fakediscord.Pending, error)) answer {
	if n := l.sent.Add(1); l.onSent != nil {
		l.onSent(n)
	}
	p, err := send()
	if err != nil {
		return l.note(answer{class: classNoSession, text: err.Error()})
	}
	wctx, cancel := context.WithTimeout(ctx, l.wait)
	defer cancel()
	r, err := p.Result(wctx)
	if errors.Is(err, fakediscord.ErrDeliveryFailed) {
		return l.note(answer{class: classFailed, text: err.Error(), p: p})
	}
	if errors.Is(err, fakediscord.ErrArrivedLate) {
		return l.note(answer{class: classExpired, text: err.Error(), p: p})
	}
	if err != nil {
		return l.note(answer{class: classTimeout, text: err.Error(), p: p})
	}
	a := answer{class: classOK, text: r.Message.Text(), resp: r, p: p}
	switch {
	case r.Modal != nil:
	case strings.Contains(a.text, "Something went wrong"):
		a.class = classInternal
	case strings.HasPrefix(r.Message.Content, "⚠️") && strings.Contains(a.text, "try again"):
		a.class = classUnavailable
	case strings.HasPrefix(r.Message.Content, "⚠️"):
		a.class = classRefused
	}
	return l.note(a)
}

func (l *load) note(a answer) answer {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.classes[a.class]++
	if a.class != classOK && len(l.samples[a.class]) < 8 {
		l.samples[a.class] = append(l.samples[a.class], a.text)
	}
	return a
}

func (l *load) slash(ctx context.Context, g *lguild, u fakediscord.User, path string, opts map[string]any) answer {
	return l.do(ctx, func() (*fakediscord.Pending, error) { return l.fake.Slash(g.call(u), path, opts) })
}

func (l *load) click(ctx context.Context, g *lguild, u fakediscord.User, msgID, customID string) answer {
	return l.do(ctx, func() (*fakediscord.Pending, error) { return l.fake.ClickForged(g.call(u), msgID, customID) })
}

func (l *load) violation(format string, args ...any) {
	l.mu.Lock()
	l.wrong = append(l.wrong, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *load) ack(id int64, winner int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w, ok := l.acked[id]; ok && w != winner {
		l.wrong = append(l.wrong, fmt.Sprintf("match %d acknowledged with winner %d and %d", id, w, winner))
	}
	l.acked[id] = winner
}

// run plays rounds in every guild at once until at least target
// interactions were sent or ctx ends.
func (l *load) run(ctx context.Context, target int64) {
	var wg sync.WaitGroup
	for _, g := range l.guilds {
		wg.Go(func() {
			for ctx.Err() == nil && l.sent.Load() < target {
				l.round(ctx, g)
			}
		})
	}
	wg.Wait()
}

// matches returns the guild's matches in states, from the oracle.
func (l *load) matches(ctx context.Context, g *lguild, states ...ladder.MatchState) []ladder.Match {
	ms, err := l.svc.Matches(ctx, ladder.MatchFilter{GuildID: g.id, States: states, Limit: 500})
	if err != nil {
		// The database may be restarting (fault tests); the next round retries.
		return nil
	}
	return ms
}

// round is one wave of a guild: idle players join (some twice, some
// leave again), every open match is played one of five ways, disputes
// are resolved, and a few reads and moderator actions run beside.
func (l *load) round(ctx context.Context, g *lguild) {
	busy := map[string]bool{}
	for _, m := range l.matches(ctx, g, ladder.StateOpen, ladder.StateReported) {
		for _, u := range m.Players() {
			busy[u] = true
		}
	}
	var wg sync.WaitGroup
	for _, u := range g.players {
		if busy[u.ID] {
			continue
		}
		x := g.rng.Float64()
		wg.Go(func() {
			l.slash(ctx, g, u, "queue join", nil)
			switch {
			case x < 0.08:
				l.slash(ctx, g, u, "queue leave", nil)
				if x < 0.04 {
					l.slash(ctx, g, u, "queue join", nil)
				}
			case x < 0.2:
				l.slash(ctx, g, u, "queue join", nil) // a double submit
			}
		})
	}
	wg.Wait()
	l.checkOneOpenMatch(ctx)

	for _, m := range l.matches(ctx, g, ladder.StateOpen) {
		how, out, who := g.rng.IntN(100), []ladder.Outcome{ladder.Win, ladder.Loss, ladder.Tie}[g.rng.IntN(3)], g.rng.IntN(2)
		wg.Go(func() { l.play(ctx, g, m, how, out, who) })
	}
	wg.Wait()

	for _, m := range l.matches(ctx, g, ladder.StateDisputed) {
		w, double := g.rng.IntN(3), g.rng.IntN(3) == 0
		wg.Go(func() { l.resolve(ctx, g, m, w, double) })
	}
	reader := g.players[g.rng.IntN(len(g.players))]
	wg.Go(func() { l.slash(ctx, g, reader, "leaderboard", nil) })
	wg.Go(func() { l.slash(ctx, g, reader, "queue status", nil) })
	if open := l.matches(ctx, g, ladder.StateOpen, ladder.StateReported); len(open) > 0 {
		m := open[g.rng.IntN(len(open))]
		wg.Go(func() {
			// A player is never a moderator: refused, and nothing changes.
			a := l.slash(ctx, g, reader, "mod void", map[string]any{"match": int(m.ID), "reason": "not mine"})
			if a.class == classOK {
				l.violation("non-moderator /mod void of match %d answered %q", m.ID, a.text)
			}
		})
	}
	if g.rng.IntN(3) == 0 {
		p := g.players[g.rng.IntN(len(g.players))]
		r := 1400 + 200*g.rng.Float64()
		wg.Go(func() {
			l.slash(ctx, g, g.owner, "mod rating set", map[string]any{"player": p.ID, "rating": r, "rd": 80.0, "reason": "load"})
		})
	}
	wg.Wait()
}

// winnerOf is the match winner when a player of team reports o.
func winnerOf(team int, o ladder.Outcome) int {
	switch o {
	case ladder.Tie:
		return ladder.Draw
	case ladder.Win:
		return team
	}
	return 3 - team
}

// opposite is the same result seen from the other team.
func opposite(o ladder.Outcome) ladder.Outcome {
	switch o {
	case ladder.Win:
		return ladder.Loss
	case ladder.Loss:
		return ladder.Win
	}
	return o
}

// play plays an open match one of five ways, chosen by how (0..99).
func (l *load) play(ctx context.Context, g *lguild, m ladder.Match, how int, out ladder.Outcome, who int) {
	a, b := g.user(m.Teams[0][who]), g.user(m.Teams[1][1-who])
	report := func(u fakediscord.User, o ladder.Outcome) answer {
		return l.slash(ctx, g, u, "report", map[string]any{"outcome": string(o), "match": int(m.ID)})
	}
	winner := winnerOf(1, out)
	agreed := fmt.Sprintf("match #%d is confirmed and rated", m.ID)
	switch {
	case how < 45: // report, then the other team confirms with a double click
		if r := report(a, out); r.class != classOK || !strings.Contains(r.text, "Reported match") {
			return
		}
		ask, ok := l.askMessage(ctx, g, m.ID)
		if !ok {
			// The post was lost with a killed process: confirm by reporting.
			if r := report(b, opposite(out)); strings.Contains(r.text, agreed) {
				l.ack(m.ID, winner)
			}
			return
		}
		var wg sync.WaitGroup
		for _, u := range m.Teams[1] {
			wg.Go(func() {
				r := l.click(ctx, g, g.user(u), ask, commands.ID("cf", m.ID))
				if r.class == classOK && strings.Contains(r.text, fmt.Sprintf("Match #%d confirmed", m.ID)) {
					l.ack(m.ID, winner)
				}
			})
		}
		wg.Wait()
	case how < 65: // both teams report the same result at once
		var ra, rb answer
		var wg sync.WaitGroup
		wg.Go(func() { ra = report(a, out) })
		wg.Go(func() { rb = report(b, opposite(out)) })
		wg.Wait()
		if strings.Contains(ra.text, agreed) || strings.Contains(rb.text, agreed) {
			l.ack(m.ID, winner)
		}
		if ra.class == classOK && rb.class == classOK {
			l.mu.Lock()
			l.mustRate[m.ID] = true
			l.mu.Unlock()
		}
	case how < 80: // conflicting reports: disputed
		report(a, ladder.Win)
		report(b, ladder.Win)
	case how < 90: // report, then the other team disputes through the modal
		if r := report(a, out); r.class != classOK {
			return
		}
		ask, ok := l.askMessage(ctx, g, m.ID)
		if !ok {
			return
		}
		form := l.click(ctx, g, b, ask, commands.ID("dp", m.ID))
		if form.class != classOK || form.resp.Modal == nil {
			return
		}
		l.do(ctx, func() (*fakediscord.Pending, error) {
			return l.fake.Submit(g.call(b), form.p, map[string]string{"reason": "we won, not them", "evidence": "https://replays.invalid/" + fmt.Sprint(m.ID)})
		})
	default: // a moderator voids it
		r := l.slash(ctx, g, g.owner, "mod void", map[string]any{"match": int(m.ID), "reason": "no-show"})
		if r.class == classOK && strings.Contains(r.text, "**voided**") {
			l.mu.Lock()
			l.voided[m.ID] = true
			l.mu.Unlock()
		}
	}
}

// resolve settles a disputed match, sometimes with a moderator's double click.
func (l *load) resolve(ctx context.Context, g *lguild, m ladder.Match, winner int, double bool) {
	n := 1
	if double {
		n = 2
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			r := l.slash(ctx, g, g.owner, "mod resolve", map[string]any{"match": int(m.ID), "winner": winner, "reason": "load"})
			if r.class == classOK && strings.Contains(r.text, fmt.Sprintf("Match #%d is now **resolved**", m.ID)) {
				l.ack(m.ID, winner)
			}
		})
	}
	wg.Wait()
}

// askMessage waits up to 5 s for the confirmation request of match id in
// the guild's channel and returns its message ID.
func (l *load) askMessage(ctx context.Context, g *lguild, id int64) (string, bool) {
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	want := fmt.Sprintf("reported match #%d:", id)
	m, err := l.fake.WaitChannelMessage(wctx, g.channel, func(m fakediscord.Message) bool { return strings.Contains(m.Content, want) })
	return m.ID, err == nil
}

// summary is the load's counters for logs and reports.
func (l *load) summary() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	keys := make([]string, 0, len(l.classes))
	for k := range l.classes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%d interactions:", l.sent.Load())
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%d", k, l.classes[k])
	}
	fmt.Fprintf(&b, "; %d results acknowledged, %d voids", len(l.acked), len(l.voided))
	for _, k := range keys {
		if len(l.samples[k]) > 0 {
			fmt.Fprintf(&b, "\n  %s, e.g.: %q", k, l.samples[k])
		}
	}
	return b.String()
}

// checkOneOpenMatch records a violation when a player is in two open or
// reported matches at this moment (checked during the load, not only at
// its end).
func (l *load) checkOneOpenMatch(ctx context.Context) {
	var user string
	var n int
	err := l.db.SQL().QueryRowContext(ctx, `SELECT mp.user_id, COUNT(*) FROM match_players mp
		JOIN matches m ON m.id = mp.match_id WHERE m.state IN ('open', 'reported')
		GROUP BY mp.guild_id, mp.user_id HAVING COUNT(*) > 1 LIMIT 1`).Scan(&user, &n)
	if err == nil {
		l.violation("player %s is in %d open matches at once", user, n)
	}
}
