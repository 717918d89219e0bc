package storage

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestCountersReadProbesKeys: the integrity fold reads the counters of a
// rated write's players inside the rated write. On a ladder of thousands
// of counters whose statistics were taken while it was young (as a new
// ladder's are until autovacuum comes by), the read must look each key up
// by the primary key, not scan the ladder's counters and filter them: that
// scan grew with the ladder's history and halved a hot guild's results/s.
func TestCountersReadProbesKeys(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, testdb.DSN(t, testdb.Postgres), nil)
	if err != nil {
		t.Fatalf("Open() = %v", err)
	}
	defer db.Close()
	if _, err := db.sql.ExecContext(ctx, `ANALYZE integrity_counters`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO integrity_counters (queue_id, season_id, guild_id, key, value)
SELECT 1, 1, 'g', 'p:' || a || ':' || b, '{"n":1}' FROM generate_series(1, 100) a, generate_series(1, 90) b`); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for a := range 150 {
		keys = append(keys, fmt.Sprintf("p:%d:%d", a+1, a%90+1))
	}
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A prepared statement's generic plan is the one a busy ladder runs.
	if _, err := conn.ExecContext(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.QueryContext(ctx, `EXPLAIN (ANALYZE, COSTS OFF) `+countersPG, 1, 1, keys)
	if err != nil {
		t.Fatalf("EXPLAIN = %v", err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, l)
	}
	p := strings.Join(plan, "\n")
	if !strings.Contains(p, "key = k.key") || !strings.Contains(p, "Index Cond") || strings.Contains(p, "Rows Removed by Filter") {
		t.Errorf("the counters' read does not probe the primary key per key:\n%s", p)
	}
	t.Logf("plan:\n%s", p)
}
