package groupcommit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
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
