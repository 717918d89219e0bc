package storage

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestFirstDelivery checks the cross-process record of HTTP interactions
// on both databases: a second delivery is not first, two processes (two
// handles on one database) racing on one ID get one first between them,
// and expired IDs are pruned while fresh ones stay.
func TestFirstDelivery(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		dsn := testdb.DSN(t, backend)
		procs := make([]*DB, 2)
		for i := range procs {
			db, err := Open(ctx, dsn, nil)
			if err != nil {
				t.Fatalf("Open() = %v", err)
			}
			t.Cleanup(func() { db.Close() })
			procs[i] = db
		}
		t0 := time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)

		first, err := procs[0].FirstDelivery(ctx, "1001", t0)
		if err != nil || !first {
			t.Fatalf("Got(FirstDelivery(1001)) = %v, %v, want true, nil", first, err)
		}
		again, err := procs[1].FirstDelivery(ctx, "1001", t0.Add(time.Second))
		if err != nil || again {
			t.Fatalf("Got(FirstDelivery(1001) again, other process) = %v, %v, want false, nil", again, err)
		}

		var mu sync.Mutex
		firsts := 0
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Go(func() {
				ok, err := procs[i%2].FirstDelivery(ctx, "2002", t0)
				if err != nil {
					t.Errorf("FirstDelivery(2002) = %v", err)
				}
				if ok {
					mu.Lock()
					firsts++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if firsts != 1 {
			t.Errorf("Got(first deliveries among 16 racing) = %d, want 1", firsts)
		}

		pruner := ""
		for i := 0; pruner == ""; i++ {
			if id := fmt.Sprint(3_000_000 + i); prunes(id) {
				pruner = id
			}
		}
		later := t0.Add(deliveryTTL + time.Minute)
		if _, err := procs[0].FirstDelivery(ctx, "4004", later.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		if ok, err := procs[0].FirstDelivery(ctx, pruner, later); err != nil || !ok {
			t.Fatalf("Got(FirstDelivery(%s)) = %v, %v, want true, nil", pruner, ok, err)
		}
		var ids []string
		if err := procs[0].db.Raw(`SELECT id FROM interaction_deliveries ORDER BY id`).Scan(&ids).Error; err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint([]string{pruner, "4004"}); fmt.Sprint(ids) != want {
			t.Errorf("Got(remembered IDs after a prune) = %v, want %s (the two older than %s gone)", ids, want, deliveryTTL)
		}
	})
}
