package storage

import (
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
)

// A rated result on PostgreSQL, read ahead (ladder.RatedAhead).
//
// A queue's results are folded one at a time: each holds the queue's
// calibrator row from the round trip that locks it to COMMIT, and the next
// result of the queue waits for it. What the lock costs the queue is the
// round trips after the one that takes it. Without reading ahead a result
// holds it for two more: the write with the integrity fold's reads (whose
// answers the fold needs), then the fold's writes with COMMIT.
//
// Told what it will rate (ExpectRated), the transaction sends with the
// lock, after it in the same round trip: the fold's reads, and the
// matches' IDs and log positions (nextval of both sequences), taken under
// the lock so that log order is still lock order. The write then needs no
// answer before the fold runs, and travels with the fold's writes and
// COMMIT: the lock is held for one round trip after the one that takes it.
//
// Everything read ahead is checked before it is used: the calibrator row
// must have been locked in that round trip, before the reads; the ladder
// the reads resolved must be the one locked; the keys read must be the
// ones the writes' fold asks for. Otherwise the reads and positions are
// dropped and the write takes the ordinary path.

// ahead is what a transaction was told to expect (ExpectRated).
type ahead struct {
	guildID, queue string
	ws             []ladder.RatedWrite
}

// reservation is a match ID and log position taken under the queue's
// lock; stored when the ID is a stored match's (LockMatchLadder), not a
// new one.
type reservation struct {
	id, seq int64
	stored  bool
}

// ExpectRated implements ladder.RatedAhead on PostgreSQL transactions
// whose rated writes fold derived rows; elsewhere it does nothing.
func (t *tx) ExpectRated(guildID, queue string, ws []ladder.RatedWrite) {
	if t.pg == nil || !t.deriving() || t.derive.loads == nil || len(ws) == 0 {
		return
	}
	t.pg.ahead = &ahead{guildID: guildID, queue: queue, ws: ws}
}

// takeAhead returns, once, what the transaction expects in ladder queue
// of guildID, with the integrity reads of its writes; nil when it expects
// nothing there.
func (t *tx) takeAhead(guildID, queue string) (*ahead, []integrity.Load) {
	if t.pg == nil || t.pg.ahead == nil {
		return nil, nil
	}
	a := t.pg.ahead
	t.pg.ahead = nil
	if a.guildID != guildID || a.queue != queue {
		return nil, nil
	}
	loads := t.derive.loads(a.ws)
	if len(loads) != 1 {
		return nil, nil
	}
	return a, loads
}

// byName is the ladder that lockLadderPG locks, resolved the same way ($1
// guild, $2 queue name); byMatch is match $1's ladder (LockMatchLadder).
// The reads sent with a lock name their ladder so.
const (
	byName = `WITH l AS (SELECT (SELECT q2.id FROM queues q2 WHERE q2.guild_id = $1 AND (q2.name = $2 OR $2 = '') ORDER BY q2.id LIMIT 1) AS q,
 (SELECT s.id FROM seasons s WHERE s.guild_id = $1 AND s.ended_at IS NULL ORDER BY s.id LIMIT 1) AS s, $1::text AS g) `
	byMatch = `WITH l AS (SELECT queue_id AS q, season_id AS s, guild_id AS g FROM matches WHERE id = $1) `
)

// The integrity fold's reads (IntegrityLoad), sent ahead of the write, of
// the ladder l: the progress row, created live and locked; whether any
// rated match of the ladder follows the progress (before the write, any is
// one the fold never saw); the counters of the keys.
const (
	aheadProgressInsert = `INSERT INTO integrity_progress (queue_id, season_id, guild_id, seq, folded, live, clear, ended)
 SELECT l.q, l.s, l.g, 0, 0, true, false, EXISTS (SELECT 1 FROM seasons WHERE id = l.s AND ended_at IS NOT NULL) FROM l WHERE l.q IS NOT NULL AND l.s IS NOT NULL ON CONFLICT (queue_id, season_id) DO NOTHING`
	aheadProgressLock = `SELECT p.queue_id, p.season_id, p.seq, p.folded, p.live, p.clear, p.ended FROM integrity_progress p, l
 WHERE p.queue_id = l.q AND p.season_id = l.s FOR UPDATE OF p`
	aheadUnseen = `SELECT COUNT(*) FROM l, LATERAL (SELECT seq FROM matches WHERE queue_id = l.q AND season_id = l.s
 AND state IN ('confirmed', 'resolved') ORDER BY seq DESC LIMIT 1) x WHERE x.seq > (SELECT seq FROM integrity_progress WHERE queue_id = l.q AND season_id = l.s)`
	// aheadCounters reads the counters of keys $3, given.
	aheadCounters = `SELECT c.key, c.value FROM l CROSS JOIN unnest($3::text[]) AS k(key)
 CROSS JOIN LATERAL (SELECT key, value FROM integrity_counters WHERE queue_id = l.q AND season_id = l.s AND key = k.key LIMIT 1) c`
	// aheadMatchCounters reads the counters of match $1's keys, which it
	// lists as integrity.Keys does from the match's players, reporter and
	// disputer; a missing counter's value is NULL. The keys are checked
	// against the write's before they are used. A pair is ordered by its
	// bytes, as Go orders strings: a key with a collation of its own ("C")
	// would not be looked up through the primary key, whose collation is
	// the database's (a scan of every counter: 150 ms at 115,000).
	aheadMatchCounters = `, mp AS (SELECT user_id AS u, team AS t FROM match_players WHERE match_id = $1),
 ks AS (SELECT 'l' AS key
 UNION SELECT 'u:' || u FROM mp
 UNION SELECT 'p:' || a.u || ':' || b.u FROM mp a JOIN mp b ON a.t = b.t AND a.u <> b.u
 UNION SELECT 'o:' || CASE WHEN convert_to(a.u, 'UTF8') < convert_to(b.u, 'UTF8') THEN a.u || ':' || b.u ELSE b.u || ':' || a.u END
 FROM mp a JOIN mp b ON a.t = 1 AND b.t = 2
 UNION SELECT 'u:' || x FROM matches m, unnest(ARRAY[m.reported_by, m.disputed_by]) AS x WHERE m.id = $1 AND x <> '' AND x NOT IN (SELECT u FROM mp))
SELECT ks.key, c.value FROM l CROSS JOIN ks
 LEFT JOIN LATERAL (SELECT value FROM integrity_counters WHERE queue_id = l.q AND season_id = l.s AND key = ks.key LIMIT 1) c ON true`
	// aheadReserve takes $1 match IDs and log positions.
	aheadReserve = `SELECT nextval(pg_get_serial_sequence('matches', 'id')), nextval('rating_seq') FROM generate_series(1, $1)`
	// aheadReserveMatch takes a log position for stored match $1.
	aheadReserveMatch = `SELECT id, nextval('rating_seq') FROM matches WHERE id = $1`
	// aheadReserveStored takes a log position for each of stored matches
	// $1, answered in $1's order (a batch of confirms).
	aheadReserveStored = `SELECT u.id, nextval('rating_seq') FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, n) ORDER BY u.n`
)

// stored reports whether every write a expects is of a stored match (a
// batch of confirms), whose IDs it then names; otherwise they are all
// expected new, as results are.
func (a *ahead) stored() []int64 {
	ids := make([]int64, len(a.ws))
	for i, w := range a.ws {
		if w.Match.ID == 0 {
			return nil
		}
		ids[i] = w.Match.ID
	}
	return ids
}

// queueMatchAhead queues, after LockMatchLadder's lock, the reads ahead of
// a rated write of match id.
func queueMatchAhead(b *pgx.Batch, id int64) {
	b.Queue(aheadReserveMatch, id)
	b.Queue(byMatch+aheadProgressInsert, id)
	b.Queue(byMatch+aheadProgressLock, id)
	b.Queue(byMatch+aheadUnseen, id)
	b.Queue(byMatch+aheadMatchCounters, id)
}

// queueAhead queues the reads ahead of a's writes, after the lock.
func queueAhead(b *pgx.Batch, a *ahead, l integrity.Load) {
	if ids := a.stored(); ids != nil {
		b.Queue(aheadReserveStored, ids)
	} else {
		b.Queue(aheadReserve, len(a.ws))
	}
	b.Queue(byName+aheadProgressInsert, a.guildID, a.queue)
	b.Queue(byName+aheadProgressLock, a.guildID, a.queue)
	b.Queue(byName+aheadUnseen, a.guildID, a.queue)
	b.Queue(byName+aheadCounters, a.guildID, a.queue, l.Keys)
}

// readAhead reads the answers of queueAhead's (or queueMatchAhead's)
// statements: the reservations in log order, and the reads, with the
// ladder they resolved (nil when it has no progress row: no such ladder).
// keys are the keys read, nil when the statement listed them (one stored
// match's, LockMatchLadder). stored says the reservations name stored
// matches, in the writes' order (aheadReserveStored): they keep that
// order and take the positions in it.
func readAhead(br pgx.BatchResults, keys []string, stored bool) ([]reservation, *integrity.Ladder, *loaded, error) {
	rows, err := br.Query()
	if err != nil {
		return nil, nil, nil, err
	}
	var res []reservation
	for rows.Next() {
		var r reservation
		if err := rows.Scan(&r.id, &r.seq); err != nil {
			rows.Close()
			return nil, nil, nil, err
		}
		res = append(res, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	ids := make([]int64, len(res))
	seqs := make([]int64, len(res))
	for i, r := range res {
		ids[i], seqs[i] = r.id, r.seq
	}
	if !stored {
		slices.Sort(ids)
	}
	slices.Sort(seqs)
	for i := range res {
		res[i] = reservation{id: ids[i], seq: seqs[i], stored: stored || keys == nil}
	}
	if _, err := br.Exec(); err != nil {
		return nil, nil, nil, err
	}
	ld := &loaded{keys: keys}
	var lad integrity.Ladder
	err = br.QueryRow().Scan(&lad.QueueID, &lad.SeasonID, &ld.p.Seq, &ld.p.Folded, &ld.p.Live, &ld.p.Clear, &ld.p.Ended)
	found := err == nil
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, nil, err
	}
	if err := br.QueryRow().Scan(&ld.gaps); err != nil {
		return nil, nil, nil, err
	}
	listed, counters, err := readCounters(br)
	if err != nil {
		return nil, nil, nil, err
	}
	ld.rows = counters
	if keys == nil {
		// The statement listed the keys.
		slices.Sort(listed)
		ld.keys = listed
	}
	if !found {
		return res, nil, nil, nil
	}
	return res, &lad, ld, nil
}

// keepAhead keeps what was read ahead for ladder k when it may be used:
// the calibrator row was locked before it (locked) and the reads resolved
// k. Otherwise it is dropped, and the writes take the ordinary path.
func (t *tx) keepAhead(locked bool, k ladder.Key, res []reservation, lad *integrity.Ladder, ld *loaded) {
	if !locked || lad == nil || lad.QueueID != k.QueueID || lad.SeasonID != k.SeasonID {
		return
	}
	if t.pg.loaded == nil {
		t.pg.loaded = map[integrity.Ladder]*loaded{}
	}
	t.pg.loaded[*lad] = ld
	t.pg.reserved = res
}

// deferRated queues ws's statements to travel with the transaction's next
// round trip (COMMIT's, after the derived rows' fold) when everything the
// fold reads of them was read ahead with their reserved IDs and log
// positions, and returns them as they will be saved; false when they must
// be written now.
func (t *tx) deferRated(ws []ladder.RatedWrite) ([]ladder.Match, bool, error) {
	res := t.pg.reserved
	t.pg.reserved = nil
	if len(res) < len(ws) {
		return nil, false, nil
	}
	ms := make([]ladder.Match, len(ws))
	for i, w := range ws {
		// A stored match's reservation names it; a new match's is new.
		if (w.Match.ID != 0) != res[i].stored || (w.Match.ID != 0 && w.Match.ID != res[i].id) {
			return nil, false, nil
		}
		ms[i] = w.Match
		ms[i].ID, ms[i].Seq = res[i].id, res[i].seq
	}
	// The fold asks for the keys of the writes as saved.
	saved := make([]ladder.RatedWrite, len(ws))
	for i, w := range ws {
		w.Match = ms[i]
		saved[i] = w
	}
	for _, l := range t.derive.loads(saved) {
		ld := t.pg.loaded[l.Ladder]
		if ld == nil || !slices.Equal(ld.keys, l.Keys) {
			return nil, false, nil
		}
	}
	for i, w := range ws {
		b, err := ratedSQLAt(w, res[i])
		if err != nil {
			return nil, false, err
		}
		want := res[i]
		t.pg.later = append(t.pg.later, queued{sql: b.String(), args: b.args, check: func(br pgx.BatchResults) error {
			var got reservation
			if err := br.QueryRow().Scan(&got.id, &got.seq); errors.Is(err, pgx.ErrNoRows) {
				return ladder.Errorf(ladder.CodeNotFound, "match %d not found", want.id)
			} else if err != nil {
				return ratedErr(err)
			}
			if got.id != want.id || got.seq != want.seq {
				return fmt.Errorf("storage: save rated: wrote match %d at %d, want %d at %d", got.id, got.seq, want.id, want.seq)
			}
			return nil
		}})
	}
	return ms, true, nil
}
