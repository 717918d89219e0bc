package chart

import (
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestConcurrentFirstRender renders charts from 8 goroutines at once as the
// first thing a fresh process does, as /profile does when several players
// ask at once after a start. go-chart loads its default font with an
// unsynchronized check; under -race the child exits non-zero if that read
// races with the load.
func TestConcurrentFirstRender(t *testing.T) {
	if os.Getenv("LADDERBOT_CHART_CHILD") == "1" {
		renderConcurrently(t)
		return
	}
	if testing.Short() {
		testdb.Skip(t, testdb.Short) // it runs a child process
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentFirstRender$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LADDERBOT_CHART_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("concurrent first renders: %v\n%s", err, out)
	}
}

func renderConcurrently(t *testing.T) {
	at := []time.Time{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}
	var start, wg sync.WaitGroup
	start.Add(1)
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			start.Wait()
			_, errs[i] = HistoryPNG("race", at, []float64{1500, 1520})
		})
	}
	start.Done()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("HistoryPNG() #%d = %v", i, err)
		}
	}
}
