// Package groupcommit lets callers that write to one hot key share a
// transaction. A caller hands its input to Do under a key; while a batch of
// that key is being written, the inputs that arrive wait and are written
// together as the next batch, in arrival order. With nobody else writing a
// key, a call runs at once, alone, so nothing waits for company.
//
// A Group may also linger (Linger): after a batch of two or more, its
// writer waits a moment, before it writes the next, for as many calls as
// that batch had plus those that were already waiting, as PostgreSQL's
// commit_delay waits for the commits of other busy sessions. Callers that
// write again as soon as they are answered (an API client posting its
// results one after another, people confirming their matches in a busy
// queue) otherwise fall into alternating batches: the calls that arrived
// during a batch are written as the next while that batch's callers,
// answered, queue behind them, so every round of callers pays for two
// transactions. A lone call is never held: the wait follows only a batch
// of two or more, and ends as soon as the calls expected have arrived.
//
// The ladder uses it for the results of one guild's queue and for its
// confirms, which must be applied one after another in log order: taking
// the queue's lock once per batch rather than once per result is what lets
// a busy queue keep up (docs/operating.md, "Cost and sizing"). The
// confirms linger; the API's results do not, since a game server's next
// result comes over HTTP later than the linger would wait. It holds only
// the calls in flight, never domain state.
package groupcommit

import (
	"context"
	"sync"
	"time"
)

// Group batches calls by key. The zero value is not usable; use New.
type Group[K comparable, I, O any] struct {
	run    func(ctx context.Context, ins []I) ([]O, []error)
	max    int
	linger time.Duration
	// after is time.After; a test may replace it to end a linger when it
	// chooses.
	after func(time.Duration) <-chan time.Time

	mu     sync.Mutex
	queues map[K]*queue[I, O]
}

type queue[I, O any] struct {
	pending []*call[I, O]
	// arrived wakes a lingering writer when a call is queued.
	arrived chan struct{}
}

type call[I, O any] struct {
	ctx  context.Context
	in   I
	out  O
	err  error
	done chan struct{}
}

// New returns a Group that writes a batch of at most max inputs with run,
// which answers each input's output and error at its index.
func New[K comparable, I, O any](max int, run func(ctx context.Context, ins []I) ([]O, []error)) *Group[K, I, O] {
	if max < 1 {
		max = 1
	}
	return &Group[K, I, O]{run: run, max: max, after: time.After, queues: map[K]*queue[I, O]{}}
}

// Linger sets how long, at most, the writer of a key waits after a batch
// of two or more for the calls it expects (as many as that batch had plus
// those already waiting) before it writes the next batch, or retires the
// key if none came (0, New's default: it does not wait). Set it before
// the first Do.
func (g *Group[K, I, O]) Linger(d time.Duration) *Group[K, I, O] {
	g.linger = max(d, 0)
	return g
}

// Do writes in under key, in a batch with the other calls of that key that
// are waiting, and answers its output. When ctx ends before the call's batch
// starts, the input is not written and Do answers ctx's error; once its
// batch has started, Do waits for the batch's answer, so that an answer
// always says what happened.
func (g *Group[K, I, O]) Do(ctx context.Context, key K, in I) (O, error) {
	c := &call[I, O]{ctx: ctx, in: in, done: make(chan struct{})}
	g.mu.Lock()
	q, busy := g.queues[key]
	if !busy {
		q = &queue[I, O]{arrived: make(chan struct{}, 1)}
		g.queues[key] = q
	}
	q.pending = append(q.pending, c)
	g.mu.Unlock()
	if busy {
		select {
		case q.arrived <- struct{}{}: // wakes a lingering writer
		default: // the writer has a wake-up waiting already
		}
	} else {
		// The first call of an idle key starts its writer, which writes
		// batches until nobody is waiting; every caller only waits for
		// its own batch.
		go g.drain(key, q)
	}
	<-c.done
	return c.out, c.err
}

// drain writes q's batches in arrival order until q is empty, then retires it.
func (g *Group[K, I, O]) drain(key K, q *queue[I, O]) {
	for {
		g.mu.Lock()
		var batch []*call[I, O]
		for len(q.pending) > 0 && len(batch) < g.max {
			c := q.pending[0]
			q.pending = q.pending[1:]
			if err := c.ctx.Err(); err != nil {
				c.err = err
				close(c.done)
				continue
			}
			batch = append(batch, c)
		}
		if len(batch) == 0 {
			delete(g.queues, key)
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		ins := make([]I, len(batch))
		for i, c := range batch {
			ins[i] = c.in
		}
		// The batch outlives any one caller's request: it runs to its end
		// once started, with the values of its first caller's context.
		outs, errs := g.run(context.WithoutCancel(batch[0].ctx), ins)
		// With nobody waiting, the key is retired before its last batch is
		// answered, so that a caller that has its answer never finds the
		// key still held; a call that comes after starts a writer of its own.
		// A lingering writer keeps the key through its wait instead, and
		// retires it after, if nobody came.
		lingers := g.linger > 0 && len(batch) > 1
		g.mu.Lock()
		waiting := len(q.pending)
		retired := !lingers && waiting == 0
		if retired {
			delete(g.queues, key)
		}
		g.mu.Unlock()
		for i, c := range batch {
			c.out, c.err = outs[i], errs[i]
			close(c.done)
		}
		if retired {
			return
		}
		// The callers just answered and those already waiting are the
		// ones a busy key expects next.
		if lingers && g.wait(key, q, min(len(batch)+waiting, g.max)) {
			return
		}
	}
}

// wait lingers until q has n calls waiting or the linger ends; it retires
// the key and reports true when by then nobody is waiting.
func (g *Group[K, I, O]) wait(key K, q *queue[I, O], n int) bool {
	timeout := g.after(g.linger)
	for {
		g.mu.Lock()
		have := len(q.pending)
		g.mu.Unlock()
		if have >= n {
			return false
		}
		select {
		case <-q.arrived: // count again (a wake-up may be left from the batch's run)
		case <-timeout:
			g.mu.Lock()
			idle := len(q.pending) == 0
			if idle {
				delete(g.queues, key)
			}
			g.mu.Unlock()
			return idle
		}
	}
}
