package storage

import (
	"context"
	"strings"
	"testing"
)

// TestQueueReadsProbeMembers: the matchmaking pass and the panel read a
// queue's tickets with their members. With statistics taken while the
// queues were empty (queues fill in a rush, faster than autovacuum
// analyzes) and 1,000 queues of 24 waiting players, both reads must look
// each ticket's members up by its key, not hash every waiting player of
// every guild: that made the matchmaking pass's cost per queue grow with
// the players waiting in all the others (250 pages a queue at 1,000 busy
// guilds in BenchmarkGuildScale, against about 10).
func TestQueueReadsProbeMembers(t *testing.T) {
	ctx := context.Background()
	db, g := planDB(t)
	for _, q := range []string{`ANALYZE queue_entries`, `ANALYZE queue_entry_members`,
		`INSERT INTO queues (guild_id, name, team_size) SELECT $1, 'busy' || n, 2 FROM generate_series(1, 1000) n`,
		`INSERT INTO queue_entries (guild_id, queue_id, joined_at, expires_at)
SELECT $1, q.id, now() - n * interval '1 second', now() + interval '1 hour' FROM queues q, generate_series(1, 24) n WHERE q.guild_id = $1`,
		`INSERT INTO queue_entry_members (entry_id, guild_id, user_id) SELECT id, guild_id, (300000000000000000 + id)::text FROM queue_entries`} {
		args := []any{}
		if strings.Contains(q, "$1") {
			args = append(args, g)
		}
		if _, err := db.sql.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var queue int64
	if err := db.sql.QueryRowContext(ctx, `SELECT id FROM queues WHERE guild_id = $1 AND name = 'busy500'`, g).Scan(&queue); err != nil {
		t.Fatal(err)
	}
	conn := genericPlanConn(t, db)
	for name, query := range map[string]string{"tickets": ticketsSQL(Postgres), "panel": waitingSQL(Postgres)} {
		plan := explain(t, conn, strings.Replace(query, "?", "$1", 1), queue)
		p := strings.Join(plan, "\n")
		t.Logf("%s plan:\n%s", name, p)
		if strings.Contains(p, "Seq Scan on queue_entry_members") || !strings.Contains(p, "Index Cond: (entry_id = e.id)") {
			t.Errorf("the %s read does not probe each ticket's members by key:\n%s", name, p)
		}
		rows, err := conn.QueryContext(ctx, strings.Replace(query, "?", "$1", 1), queue)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		rows.Close()
		if n != 24 {
			t.Errorf("the %s read returned %d rows, want the queue's 24", name, n)
		}
	}
}
