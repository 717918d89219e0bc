package groupcommit

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestBatchesInOrder: calls of one key that arrive while a batch runs are
// written together, in arrival order, each answered with its own output;
// other keys are not held up.
func TestBatchesInOrder(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var batches [][]int
	g := New[string, int, string](4, func(ctx context.Context, ins []int) ([]string, []error) {
		if ins[0] == 0 {
			<-release // the first batch holds the key while others queue
		}
		mu.Lock()
		batches = append(batches, slices.Clone(ins))
		mu.Unlock()
		outs := make([]string, len(ins))
		errs := make([]error, len(ins))
		for i, in := range ins {
			outs[i] = fmt.Sprint("r", in)
			if in == 5 {
				errs[i] = errors.New("five refused")
			}
		}
		return outs, errs
	})
	ctx := context.Background()
	first := make(chan string)
	go func() { out, _ := g.Do(ctx, "a", 0); first <- out }()
	// Wait until the first batch is running, then queue six more.
	for {
		g.mu.Lock()
		q := g.queues["a"]
		n := -1
		if q != nil {
			n = len(q.pending)
		}
		g.mu.Unlock()
		if n == 0 {
			break
		}
	}
	var wg sync.WaitGroup
	res := make([]string, 7)
	errs := make([]error, 7)
	for i := 1; i <= 6; i++ {
		// In order: each waits until the previous one is queued.
		wg.Add(1)
		go func() { defer wg.Done(); res[i], errs[i] = g.Do(ctx, "a", i) }()
		for {
			g.mu.Lock()
			n := len(g.queues["a"].pending)
			g.mu.Unlock()
			if n == i {
				break
			}
		}
	}
	// Another key runs while "a" is held.
	if out, err := g.Do(ctx, "b", 100); out != "r100" || err != nil {
		t.Fatalf(`Do("b") = %q, %v`, out, err)
	}
	close(release)
	if out := <-first; out != "r0" {
		t.Fatalf("first = %q", out)
	}
	wg.Wait()
	for i := 1; i <= 6; i++ {
		if res[i] != fmt.Sprint("r", i) {
			t.Errorf("call %d answered %q", i, res[i])
		}
		if (errs[i] != nil) != (i == 5) {
			t.Errorf("call %d error %v", i, errs[i])
		}
	}
	want := [][]int{{100}, {0}, {1, 2, 3, 4}, {5, 6}}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(batches) != fmt.Sprint(want) {
		t.Fatalf("batches = %v, want %v", batches, want)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queues) != 0 {
		t.Fatalf("%d queues left after every call returned", len(g.queues))
	}
}

// TestCancelledBeforeBatch: a call whose context ends while it waits is
// not written and answers its context's error.
func TestCancelledBeforeBatch(t *testing.T) {
	release := make(chan struct{})
	var got [][]int
	var mu sync.Mutex
	g := New[int, int, int](8, func(ctx context.Context, ins []int) ([]int, []error) {
		if ins[0] == 0 {
			<-release
		}
		mu.Lock()
		got = append(got, slices.Clone(ins))
		mu.Unlock()
		return slices.Clone(ins), make([]error, len(ins))
	})
	done := make(chan struct{})
	go func() { g.Do(context.Background(), 1, 0); close(done) }()
	for {
		g.mu.Lock()
		q := g.queues[1]
		ready := q != nil && len(q.pending) == 0
		g.mu.Unlock()
		if ready {
			break
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error)
	go func() { _, err := g.Do(ctx, 1, 7); errc <- err }()
	for {
		g.mu.Lock()
		n := len(g.queues[1].pending)
		g.mu.Unlock()
		if n == 1 {
			break
		}
	}
	cancel()
	close(release)
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call answered %v", err)
	}
	<-done
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != "[[0]]" {
		t.Fatalf("batches = %v: the cancelled call was written", got)
	}
}

// TestLinger: after a batch of two or more, a lingering writer waits for
// as many calls as that batch had plus those already waiting before it
// writes the next batch, so calls that arrive one by one after it are
// written together; when the linger ends it writes what came, or retires
// the key if nothing did. A batch of one is not
// followed by a wait. The linger's end is the test's to choose.
func TestLinger(t *testing.T) {
	release := make(chan struct{})
	end := make(chan time.Time)
	var mu sync.Mutex
	var batches [][]int
	g := New[string, int, int](8, func(ctx context.Context, ins []int) ([]int, []error) {
		if ins[0]%10 == 0 {
			<-release // 0 and 10 hold the key while others queue
		}
		mu.Lock()
		batches = append(batches, slices.Clone(ins))
		mu.Unlock()
		return slices.Clone(ins), make([]error, len(ins))
	}).Linger(time.Hour)
	g.after = func(time.Duration) <-chan time.Time { return end }
	ctx := context.Background()
	pending := func() int {
		g.mu.Lock()
		defer g.mu.Unlock()
		if q := g.queues["a"]; q != nil {
			return len(q.pending)
		}
		return -1
	}
	written := func() string {
		mu.Lock()
		defer mu.Unlock()
		return fmt.Sprint(batches)
	}
	// until polls cond, failing the test after 10 s.
	until := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); runtime.Gosched() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not after 10 s (batches %s, pending %d)", what, written(), pending())
			}
		}
	}
	var wg sync.WaitGroup
	calls := make(chan int, 10) // the answered calls of 20 and 21
	do := func(in int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := g.Do(ctx, "a", in); out != in || err != nil {
				t.Errorf("Do(%d) = %d, %v", in, out, err)
			}
			if in == 20 || in == 21 {
				calls <- in
			}
		}()
	}
	// queue starts calls one at a time, each once the one before waits.
	queue := func(ins ...int) {
		for _, in := range ins {
			n := pending()
			do(in)
			until(fmt.Sprintf("call %d queued", in), func() bool { return pending() == n+1 })
		}
	}

	do(0)
	until("the first batch running", func() bool { return pending() == 0 })
	queue(1, 2, 3)
	release <- struct{}{}
	wg.Wait() // [0] alone, then [1 2 3] with no wait between
	if got := written(); got != "[[0] [1 2 3]]" {
		t.Fatalf("batches = %s, want [[0] [1 2 3]]", got)
	}
	// The writer now waits for three: two are not enough.
	queue(4, 5)
	if got := written(); got != "[[0] [1 2 3]]" {
		t.Fatalf("batches = %s: the writer did not wait for a third call", got)
	}
	do(6) // the third: the writer takes all three at once
	wg.Wait()
	if got := written(); got != "[[0] [1 2 3] [4 5 6]]" {
		t.Fatalf("batches = %s, want [4 5 6] written together", got)
	}
	// One call, then the linger ends: it is written alone, and a batch of
	// one retires the key at once.
	queue(7)
	end <- time.Time{}
	wg.Wait()
	if got := written(); got != "[[0] [1 2 3] [4 5 6] [7]]" {
		t.Fatalf("batches = %s, want [7] written when the linger ended", got)
	}
	if n := pending(); n != -1 {
		t.Fatalf("the key is still held (%d waiting) after a batch of one was answered", n)
	}
	// A batch of two answered while one more call waits: the writer waits
	// for three (the two answered and the one waiting), not two.
	do(10)
	until("the batch of 10 running", func() bool { return pending() == 0 })
	queue(20, 21)
	release <- struct{}{} // [10] alone, then [20 21], which holds the key
	until("the batch of 20 running", func() bool { return pending() == 0 })
	queue(22)
	answered := make(chan struct{})
	go func() {
		for range 2 {
			<-calls // 20 and 21 answered
		}
		close(answered)
	}()
	release <- struct{}{}
	<-answered
	queue(23)
	if got := written(); got != "[[0] [1 2 3] [4 5 6] [7] [10] [20 21]]" {
		t.Fatalf("batches = %s: the writer did not wait for a third call after [20 21] with 22 waiting", got)
	}
	do(24)
	wg.Wait()
	// Then nobody: the key is kept through the linger and retired when it
	// ends.
	if n := pending(); n != 0 {
		t.Fatalf("after a batch of three the key's queue has %d waiting, want 0 while the writer lingers", n)
	}
	end <- time.Time{}
	until("the key retired after the linger", func() bool { return pending() == -1 })
	if got := written(); got != "[[0] [1 2 3] [4 5 6] [7] [10] [20 21] [22 23 24]]" {
		t.Fatalf("batches = %s", got)
	}
}
