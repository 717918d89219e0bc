package storage

import (
	"cmp"
	"context"
	"errors"
	"github.com/ladderbot/ladderbot/integrity"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/ladderbot/ladderbot/ladder"
)

const ladderColumns = `g.id, g.moderator_role_id, g.announce_channel_id, g.log_channel_id, g.placement_games, g.stale_days,
 g.season_schedule, g.season_carry, g.confirm_window_s, g.queue_timeout_s, g.divisions, g.weekly_top, g.created_at,
 q.id, q.guild_id, q.name, q.team_size, q.model, q.params, q.channel_id, q.q_start, q.q_floor, q.buckets, q.bucket_ms,
 q.boost, q.rd_max, q.party_max_weight, q.party_median_weight, q.ordinal_deviations, q.behaviour_pairing, q.disabled, q.self_tune, q.created_at, s.id, s.guild_id, s.number, s.started_at, s.ended_at`

const ladderFrom = `
FROM guilds g
JOIN queues q ON q.guild_id = g.id
JOIN seasons s ON s.guild_id = g.id AND s.ended_at IS NULL
WHERE g.id = ? AND (q.name = ? OR ? = '')`

const ladderSQL = `SELECT ` + ladderColumns + ladderFrom + `
ORDER BY q.id LIMIT 1`

// lockedRatingColumns are the columns of the rating rows r that the lock
// queries read beside the ladder, in ratingRow.ptrs order.
const lockedRatingColumns = `, r.queue_id, r.season_id, r.user_id, r.guild_id, r.rating, r.dev, r.games, r.last_at, r.recent,
 r.base_rating, r.base_dev, r.base_games, r.base_last_at, r.base_recent, r.wins, r.losses, r.draws, r.streak, r.best_streak, r.stale,
 r.display, r.display_dev, r.provisional`

// lockLadderSQL reads the ladder and locks its rating rows in one
// statement: only the rating rows are locked, in user ID order, as
// LockRatings does. Written once in gorm's ? placeholders; pgSQL turns it
// into PostgreSQL's for pgx.
const lockLadderSQL = `SELECT ` + ladderColumns + lockedRatingColumns + `
FROM guilds g
JOIN queues q ON q.id = (SELECT q2.id FROM queues q2 WHERE q2.guild_id = g.id AND (q2.name = ? OR ? = '') ORDER BY q2.id LIMIT 1)
JOIN seasons s ON s.guild_id = g.id AND s.ended_at IS NULL
JOIN ratings r ON r.queue_id = q.id AND r.season_id = s.id AND r.user_id IN ?
WHERE g.id = ?
ORDER BY r.user_id`

// matchColumns are the columns of matchRow, in matchRow.ptrs order.
const matchColumns = `id, guild_id, queue_id, season_id, team1, team2, state, winner, seq, p_team1, p_raw, quality, created_at, played_at,
 reported_by, reported_winner, deadline, disputed_by, dispute_reason, dispute_reason_code, evidence, rated_at, resolved_by, source, channel_id, map, score`

// socialSQL says whether any of matches ? (twice) has predictions or MVP
// votes. LockMatchLadder sends it after lockMatchPG: both are taken only
// under the match's lock, so none can appear before the transaction ends,
// and a rated write of a match without any leaves the recount out
// (Recount, which asks it itself on SQLite).
const socialSQL = `SELECT EXISTS (SELECT 1 FROM predictions WHERE match_id IN ?) OR EXISTS (SELECT 1 FROM mvp_votes WHERE match_id IN ?)`

// lockMatchPG locks a match (LockMatch) for pgx.
const lockMatchPG = `SELECT ` + matchColumns + ` FROM matches WHERE id = $1 FOR UPDATE`

// matchLadderPG reads the ladder of a match and locks its players'
// existing rating rows in user ID order, after lockMatchPG in the same
// round trip, so that the match is locked before the ratings as on every
// other path. The players are joined, not tested with IN (subquery): the
// planner estimates one match row and then scans every rating row of the
// ladder against the subquery (283 ms on 40,000 rows, BenchmarkConfirm),
// where the join looks each player's row up by its primary key (0.4 ms).
const matchLadderPG = `SELECT ` + ladderColumns + lockedRatingColumns + `
FROM matches m
JOIN guilds g ON g.id = m.guild_id
JOIN queues q ON q.id = m.queue_id
JOIN seasons s ON s.id = m.season_id
JOIN match_players mp ON mp.match_id = m.id
JOIN ratings r ON r.queue_id = m.queue_id AND r.season_id = m.season_id AND r.user_id = mp.user_id
WHERE m.id = $1
ORDER BY r.user_id FOR UPDATE OF r`

// pgSQL turns a statement in gorm's ? placeholders into PostgreSQL's
// numbered ones for pgx; a slice bound by "IN ?" becomes "= ANY(?)", an
// array parameter.
func pgSQL(text string) string {
	text = strings.ReplaceAll(text, " IN ?", " = ANY(?)")
	var b strings.Builder
	n := 0
	for _, c := range text {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// lockLadderPG is lockLadderSQL for pgx, each player's rating row looked
// up by its primary key. With user_id = ANY($3) joined to the ladder, the
// planner, misled by statistics taken while the guild was small, scanned
// every rating row of the ladder and filtered the players (12 ms for
// 10,000 players, TestLadderLockProbesPlayers); LIMIT 1 keeps the probe
// from being flattened into such a join. The rows are locked in the
// order of userIDs, which callers sort.
const lockLadderPG = `SELECT ` + ladderColumns + lockedRatingColumns + `
FROM guilds g
JOIN queues q ON q.id = (SELECT q2.id FROM queues q2 WHERE q2.guild_id = g.id AND (q2.name = $1 OR $2 = '') ORDER BY q2.id LIMIT 1)
JOIN seasons s ON s.guild_id = g.id AND s.ended_at IS NULL
CROSS JOIN unnest($3::text[]) AS u(user_id)
CROSS JOIN LATERAL (SELECT * FROM ratings r2 WHERE r2.queue_id = q.id AND r2.season_id = s.id AND r2.user_id = u.user_id LIMIT 1 FOR UPDATE) r
WHERE g.id = $4
ORDER BY r.user_id`

// lockLadderPGLocks lock the players' rating rows. The queue's row is not
// locked: the queue's calibrator row, locked by the statement before it in
// the same round trip, fences an adoption of new constants (which takes it
// too), so the constants read here are in force until the write commits
// and a result never takes a seq after an adoption it was not rated with.
// A share lock on the queue row, taken by every result of a busy queue,
// made PostgreSQL create a multixact per locker.
const lockLadderPGLocks = " FOR UPDATE OF r"

// ladderRow is one row of ladderSQL.
type ladderRow struct {
	g guildRow
	q queueRow
	s seasonRow
}

func (l *ladderRow) ptrs() []any {
	g, q, s := &l.g, &l.q, &l.s
	return []any{&g.ID, &g.ModeratorRoleID, &g.AnnounceChannelID, &g.LogChannelID, &g.PlacementGames, &g.StaleDays,
		&g.SeasonSchedule, &g.SeasonCarry, &g.ConfirmWindowS, &g.QueueTimeoutS, &g.Divisions, &g.WeeklyTop, &g.CreatedAt,
		&q.ID, &q.GuildID, &q.Name, &q.TeamSize, &q.Model, &q.Params, &q.ChannelID, &q.QStart, &q.QFloor, &q.Buckets, &q.BucketMs,
		&q.Boost, &q.RDMax, &q.PartyMaxWeight, &q.PartyMedianWeight, &q.OrdinalDeviations, &q.BehaviourPairing, &q.Disabled, &q.SelfTune, &q.CreatedAt, &s.ID, &s.GuildID, &s.Number, &s.StartedAt, &s.EndedAt}
}

func (l *ladderRow) ladder() (ladder.Ladder, error) {
	gd, err := l.g.guild()
	if err != nil {
		return ladder.Ladder{}, err
	}
	qd, err := l.q.queue()
	if err != nil {
		return ladder.Ladder{}, err
	}
	return ladder.Ladder{Guild: gd, Queue: qd, Season: l.s.season()}, nil
}

// ptrs returns the scan targets of ratingColumns.
func (r *ratingRow) ptrs() []any {
	return []any{&r.QueueID, &r.SeasonID, &r.UserID, &r.GuildID, &r.Rating, &r.Dev, &r.Games, &r.LastAt, &r.Recent,
		&r.BaseRating, &r.BaseDev, &r.BaseGames, &r.BaseLastAt, &r.BaseRecent, &r.Wins, &r.Losses, &r.Draws, &r.Streak, &r.BestStreak, &r.Stale,
		&r.Display, &r.DisplayDev, &r.Provisional}
}

// Ladder implements ladder.Tx.
func (t *tx) Ladder(ctx context.Context, guildID, queue string) (ladder.Ladder, error) {
	rows, err := t.q(ctx).Raw(ladderSQL, guildID, queue, queue).Rows()
	if err != nil {
		return ladder.Ladder{}, wrap("ladder", err, "")
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return ladder.Ladder{}, wrap("ladder", err, "")
		}
		rows.Close()
		if _, err := t.Guild(ctx, guildID); err != nil {
			return ladder.Ladder{}, err
		}
		if queue != "" {
			return ladder.Ladder{}, ladder.Errorf(ladder.CodeNotFound, "no queue called %q", queue)
		}
		return ladder.Ladder{}, ladder.Errorf(ladder.CodeNotFound, "guild %s has no queue or running season", guildID)
	}
	var l ladderRow
	if err := rows.Scan(l.ptrs()...); err != nil {
		return ladder.Ladder{}, wrap("ladder", err, "")
	}
	return l.ladder()
}

// LadderOf implements ladder.RatingStore in one read, or none when
// LockMatches read it already.
func (t *tx) LadderOf(ctx context.Context, queueID, seasonID int64) (ladder.Ladder, error) {
	if t.pg != nil && t.pg.ladderOf != nil {
		// Read with the matches this transaction locked (LockMatches).
		if l := *t.pg.ladderOf; l.Queue.ID == queueID && l.Season.ID == seasonID {
			return l, nil
		}
	}
	rows, err := t.q(ctx).Raw(`SELECT `+ladderColumns+`
FROM queues q
JOIN guilds g ON g.id = q.guild_id
JOIN seasons s ON s.id = ? AND s.guild_id = g.id
WHERE q.id = ?`, seasonID, queueID).Rows()
	if err != nil {
		return ladder.Ladder{}, wrap("ladder of", err, "")
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return ladder.Ladder{}, wrap("ladder of", err, "")
		}
		return ladder.Ladder{}, ladder.Errorf(ladder.CodeNotFound, "queue %d or season %d not found", queueID, seasonID)
	}
	var l ladderRow
	if err := rows.Scan(l.ptrs()...); err != nil {
		return ladder.Ladder{}, wrap("ladder of", err, "")
	}
	return l.ladder()
}

// LockLadder implements ladder.Tx: when some of the players have rows, it
// is one statement; when none has, it is Ladder.
func (t *tx) LockLadder(ctx context.Context, guildID, queue string, userIDs []string) (ladder.Ladder, []ladder.Rating, error) {
	if len(userIDs) == 0 || len(userIDs) > 1000 {
		l, err := t.Ladder(ctx, guildID, queue)
		if err != nil {
			return ladder.Ladder{}, nil, err
		}
		rs, err := t.LockRatings(ctx, ladder.Key{QueueID: l.Queue.ID, SeasonID: l.Season.ID}, userIDs)
		return l, rs, err
	}
	var (
		l   ladderRow
		r   ratingRow
		rs  = make([]ladder.Rating, 0, len(userIDs))
		dst = append(l.ptrs(), r.ptrs()...)
		cal *ladder.CalibratorRow
	)
	var (
		reserved []reservation
		aheadLad *integrity.Ladder
		aheadLd  *loaded
	)
	if t.pg != nil {
		// BEGIN, when not sent yet, goes in the same round trip, and so
		// does the queue's calibrator row, locked before the ratings, and
		// what the transaction's rated writes will read (ahead.go).
		a, loads := t.takeAhead(guildID, queue)
		err := t.pg.batch(ctx, func(b *pgx.Batch) {
			b.Queue(lockCalibratorByNamePG, guildID, queue)
			b.Queue(lockLadderPG, queue, queue, userIDs, guildID)
			if a != nil {
				queueAhead(b, a, loads[0])
			}
		}, func(br pgx.BatchResults) error {
			crows, err := br.Query()
			if err != nil {
				return err
			}
			if cal, err = scanCalibrator(crows); err != nil {
				return err
			}
			rows, err := br.Query()
			if err != nil {
				return err
			}
			for rows.Next() {
				if err := rows.Scan(dst...); err != nil {
					rows.Close()
					return err
				}
				rs = append(rs, r.rating())
			}
			rows.Close()
			if err := rows.Err(); err != nil || a == nil {
				return err
			}
			reserved, aheadLad, aheadLd, err = readAhead(br, loads[0].Keys, a.stored() != nil)
			return err
		})
		if err != nil {
			return ladder.Ladder{}, nil, wrap("lock ladder", err, "")
		}
	} else {
		sqlText := lockLadderSQL
		if t.dialect == Postgres {
			sqlText += lockLadderPGLocks
		}
		rows, err := t.q(ctx).Raw(sqlText, queue, queue, userIDs, guildID).Rows()
		if err != nil {
			return ladder.Ladder{}, nil, wrap("lock ladder", err, "")
		}
		defer rows.Close()
		for rows.Next() {
			if err := rows.Scan(dst...); err != nil {
				return ladder.Ladder{}, nil, wrap("lock ladder", err, "")
			}
			rs = append(rs, r.rating())
		}
		if err := rows.Err(); err != nil {
			return ladder.Ladder{}, nil, wrap("lock ladder", err, "")
		}
		rows.Close()
	}
	slices.SortFunc(rs, func(a, b ladder.Rating) int { return cmp.Compare(a.UserID, b.UserID) })
	if len(rs) == 0 {
		lad, err := t.Ladder(ctx, guildID, queue)
		if cal != nil && cal.QueueID == lad.Queue.ID {
			lad.Cal = cal
		}
		if err == nil && aheadLad != nil {
			t.keepAhead(lad.Cal != nil, lad.Key(), reserved, aheadLad, aheadLd)
		}
		return lad, nil, err
	}
	lad, err := l.ladder()
	lad.Cal = cal
	if err == nil && aheadLad != nil {
		t.keepAhead(cal != nil && cal.QueueID == lad.Queue.ID, lad.Key(), reserved, aheadLad, aheadLd)
	}
	return lad, rs, err
}

// serialised reports whether the transaction excludes every other writer
// (SQLite's immediate transactions), so that a read in it is as good as a
// lock.
func (t *tx) serialised() bool { return t.dialect != Postgres }

// SaveRated implements ladder.Tx. On PostgreSQL a new match is written in
// a single statement (data-modifying CTEs), so a result costs three round
// trips in all: read the ladder, lock the rows, write.
func (t *tx) SaveRated(ctx context.Context, w ladder.RatedWrite) (ladder.Match, error) {
	m, err := t.saveRated(ctx, w, false)
	if err != nil {
		return ladder.Match{}, err
	}
	return m, t.rated(ctx, []ladder.RatedWrite{w}, []ladder.Match{m})
}

// saveRated is SaveRated; last, on PostgreSQL, commits the transaction
// with the write (InRatedTx).
func (t *tx) saveRated(ctx context.Context, w ladder.RatedWrite, last bool) (ladder.Match, error) {
	if t.dialect == Postgres {
		return t.saveRatedPG(ctx, w, last)
	}
	m := w.Match
	seq, err := t.NextSeq(ctx)
	if err != nil {
		return ladder.Match{}, err
	}
	m.Seq = seq
	if m.ID == 0 {
		if m, err = t.CreateMatch(ctx, m); err != nil {
			return ladder.Match{}, err
		}
	} else if err := t.updateMatch(ctx, m); err != nil {
		return ladder.Match{}, err
	}
	cs := make([]ladder.RatingChange, len(w.Changes))
	for i, c := range w.Changes {
		c.MatchID, c.Seq = m.ID, m.Seq
		cs[i] = c
	}
	if err := t.InsertChanges(ctx, cs); err != nil {
		return ladder.Match{}, err
	}
	if err := t.SaveRatings(ctx, w.Ratings); err != nil {
		return ladder.Match{}, err
	}
	if w.Calibrator != nil {
		c := *w.Calibrator
		c.Seq = m.Seq
		if err := t.SaveCalibrator(ctx, c); err != nil {
			return ladder.Match{}, err
		}
	}
	if w.IdempotencyKey != "" {
		if err := t.SaveIdempotency(ctx, m.GuildID, w.IdempotencyKey, m.ID, w.At); err != nil {
			return ladder.Match{}, err
		}
	}
	if w.Event != "" {
		e, err := ladder.MatchEvent(w.Event, m, w.At)
		if err != nil {
			return ladder.Match{}, err
		}
		if err := t.AddEvent(ctx, e); err != nil {
			return ladder.Match{}, err
		}
	}
	return m, nil
}

// sqlBuilder collects SQL text and arguments, with PostgreSQL's numbered
// placeholders.
type sqlBuilder struct {
	strings.Builder
	args []any
}

// arg writes a placeholder for v.
func (b *sqlBuilder) arg(v any) {
	if e, ok := v.(sqlExpr); ok {
		b.WriteString(string(e))
		return
	}
	b.args = append(b.args, v)
	b.WriteByte('$')
	b.WriteString(strconv.Itoa(len(b.args)))
}

// sqlExpr is SQL text that arg writes in place of a placeholder.
type sqlExpr string

// sql writes text whose ? marks are placeholders for args, in order.
func (b *sqlBuilder) sql(text string, args ...any) {
	for {
		i := strings.IndexByte(text, '?')
		if i < 0 {
			b.WriteString(text)
			return
		}
		b.WriteString(text[:i])
		b.arg(args[0])
		text, args = text[i+1:], args[1:]
	}
}

// values writes one parenthesized row of cast placeholders.
func (b *sqlBuilder) values(casts []string, args ...any) {
	b.WriteByte('(')
	for i, c := range casts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.arg(args[i])
		b.WriteString("::")
		b.WriteString(c)
	}
	b.WriteByte(')')
}

var (
	playerCasts = []string{"text", "int", "int"}
	changeCasts = []string{"text", "int", "double precision", "double precision", "int", "timestamptz", "bigint",
		"double precision", "double precision", "int", "timestamptz", "bigint", "int", "int", "int", "int", "int", "timestamptz"}
	ratingCasts = []string{"bigint", "bigint", "text", "text", "double precision", "double precision", "int", "timestamptz", "bigint",
		"double precision", "double precision", "int", "timestamptz", "bigint",
		"int", "int", "int", "int", "int", "boolean", "double precision", "double precision", "boolean"}
)

// saveRatedPG is SaveRated on PostgreSQL in one statement of data-modifying
// CTEs: the match (inserted, or updated when it has an ID), its players,
// the log rows, the ratings and the idempotency key. last sends COMMIT in
// the same round trip (InRatedTx).
func (t *tx) saveRatedPG(ctx context.Context, w ladder.RatedWrite, last bool) (ladder.Match, error) {
	ms, err := t.saveRatedPGs(ctx, []ladder.RatedWrite{w}, last)
	if err != nil {
		return ladder.Match{}, err
	}
	return ms[0], nil
}

// saveRatedPGs is saveRatedPG for several writes in log order: their
// statements travel in one round trip (with COMMIT when last), so a batch
// of results holds the queue's lock for one round trip and one WAL flush.
func (t *tx) saveRatedPGs(ctx context.Context, ws []ladder.RatedWrite, last bool) ([]ladder.Match, error) {
	bs := make([]*sqlBuilder, len(ws))
	for i, w := range ws {
		b, err := ratedSQL(w)
		if err != nil {
			return nil, err
		}
		bs[i] = b
	}
	if t.pg != nil && !last && t.deriving() && t.derive.loads != nil {
		ms, ok, err := t.deferRated(ws)
		if ok || err != nil {
			return ms, err
		}
	}
	outs := make([]struct{ ID, Seq int64 }, len(ws))
	var err error
	if t.pg != nil {
		// COMMIT never travels with BEGIN: a batch carrying BEGIN may be
		// retried on another connection when this one fails.
		last := last && t.pg.begun
		// The fold's reads travel with the write when COMMIT does not:
		// it travels with the fold's writes instead.
		var loads []integrity.Load
		if !last && t.derive != nil && t.derive.loads != nil {
			loads = t.derive.loads(ws)
		}
		err = t.pg.batch(ctx, func(bt *pgx.Batch) {
			for _, b := range bs {
				bt.Queue(b.String(), b.args...)
			}
			for _, l := range loads {
				queueLoad(bt, l)
			}
			if last {
				bt.Queue("commit")
			}
		}, func(br pgx.BatchResults) error {
			for i := range outs {
				if err := br.QueryRow().Scan(&outs[i].ID, &outs[i].Seq); err != nil {
					return err
				}
			}
			for _, l := range loads {
				ld, err := readLoad(br, l)
				if err != nil {
					return err
				}
				if t.pg.loaded == nil {
					t.pg.loaded = map[integrity.Ladder]*loaded{}
				}
				t.pg.loaded[l.Ladder] = ld
			}
			if last {
				return t.pg.readCommit(br)
			}
			return nil
		})
	} else {
		for i, b := range bs {
			if err = t.q(ctx).Statement.ConnPool.QueryRowContext(ctx, b.String(), b.args...).Scan(&outs[i].ID, &outs[i].Seq); err != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, ratedErr(err)
	}
	ms := make([]ladder.Match, len(ws))
	for i, out := range outs {
		m := ws[i].Match
		if out.ID == 0 {
			return nil, ladder.Errorf(ladder.CodeNotFound, "match %d not found", m.ID)
		}
		m.ID, m.Seq = out.ID, out.Seq
		ms[i] = m
	}
	return ms, nil
}

// ratedErr is the error of a failed rated write.
func ratedErr(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.TableName == "idempotency_keys" {
		return ladder.Errorf(ladder.CodeConflict, "idempotency key already used")
	}
	return wrap("save rated", translate(err), "a player of this match is already in another open match")
}

// ratedSQL is the one statement of data-modifying CTEs that saves w on
// PostgreSQL; it answers the match's ID and seq.
func ratedSQL(w ladder.RatedWrite) (*sqlBuilder, error) { return ratedSQLAt(w, reservation{}) }

// ratedSQLAt is ratedSQL with the match ID (of a new match) and log
// position reserved by at (deferRated); a zero at takes them from the
// sequences.
func ratedSQLAt(w ladder.RatedWrite, at reservation) (*sqlBuilder, error) {
	m := w.Match
	r := toMatchRow(m)
	b := &sqlBuilder{}
	var id, seq any = sqlExpr("DEFAULT"), sqlExpr("nextval('rating_seq')")
	if at.id != 0 {
		id, seq = at.id, at.seq
	}
	if m.ID == 0 {
		b.sql(`WITH m AS (INSERT INTO matches (id, guild_id, queue_id, season_id, team1, team2, state, winner, seq, p_team1, p_raw, quality,
 created_at, played_at, reported_by, reported_winner, deadline, disputed_by, dispute_reason, dispute_reason_code, evidence, rated_at, resolved_by, source, channel_id, map, score)
 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, seq)`,
			id, r.GuildID, r.QueueID, r.SeasonID, r.Team1, r.Team2, r.State, r.Winner, seq, r.PTeam1, r.PRaw, r.Quality,
			r.CreatedAt, r.PlayedAt, r.ReportedBy, r.ReportedWinner, r.Deadline, r.DisputedBy, r.DisputeReason, r.DisputeReasonCode, r.Evidence,
			r.RatedAt, r.ResolvedBy, r.Source, r.ChannelID, r.Map, r.Score)
		b.sql(`, mp AS (INSERT INTO match_players (match_id, guild_id, user_id, team, seat, active) SELECT m.id, ?, v.u, v.t, v.s, ? FROM m, (VALUES `,
			m.GuildID, m.State.Active())
		first := true
		for team, us := range m.Teams {
			for seat, u := range us {
				if !first {
					b.WriteByte(',')
				}
				first = false
				b.values(playerCasts, u, team+1, seat)
			}
		}
		b.WriteString(`) v(u, t, s))`)
	} else {
		// As UpdateMatch: every mutable field; a rated match is neither
		// active nor disputed any more.
		b.sql(`WITH m AS (UPDATE matches SET state = ?, winner = ?, seq = ?, p_team1 = ?, p_raw = ?, quality = ?, played_at = ?,
 reported_by = ?, reported_winner = ?, deadline = ?, disputed_by = ?, dispute_reason = ?, dispute_reason_code = ?, evidence = ?, rated_at = ?, resolved_by = ?,
 source = ?, channel_id = ?, map = ?, score = ? WHERE id = ? RETURNING id, seq)`,
			r.State, r.Winner, seq, r.PTeam1, r.PRaw, r.Quality, r.PlayedAt, r.ReportedBy, r.ReportedWinner, r.Deadline, r.DisputedBy,
			r.DisputeReason, r.DisputeReasonCode, r.Evidence, r.RatedAt, r.ResolvedBy, r.Source, r.ChannelID, r.Map, r.Score, r.ID)
		b.sql(`, mp AS (UPDATE match_players SET active = false FROM m WHERE match_players.match_id = m.id AND match_players.active)
, dp AS (UPDATE disputes SET resolved_at = ? FROM m WHERE disputes.match_id = m.id AND disputes.resolved_at IS NULL)`, dbNow())
	}
	if len(w.Changes) > 0 {
		b.sql(`, c AS (INSERT INTO rating_changes (seq, queue_id, season_id, match_id, user_id, team, kind,
 before_rating, before_dev, before_games, before_last_at, before_recent, after_rating, after_dev, after_games, after_last_at, after_recent,
 wins, losses, draws, streak, best_streak, at)
 SELECT m.seq, ?, ?, m.id, v.u, v.team, 'match', v.br, v.bd, v.bg, v.bl, v.brc, v.ar, v.ad, v.ag, v.al, v.arc, v.w, v.l, v.d, v.s, v.bs, v.at FROM m, (VALUES `,
			m.QueueID, m.SeasonID)
		for i, c := range w.Changes {
			if i > 0 {
				b.WriteByte(',')
			}
			cr := toChangeRow(c)
			b.values(changeCasts, cr.UserID, cr.Team, cr.BeforeRating, cr.BeforeDev, cr.BeforeGames, cr.BeforeLastAt, cr.BeforeRecent,
				cr.AfterRating, cr.AfterDev, cr.AfterGames, cr.AfterLastAt, cr.AfterRecent, cr.Wins, cr.Losses, cr.Draws, cr.Streak, cr.BestStreak, cr.At)
		}
		b.WriteString(`) v(u, team, br, bd, bg, bl, brc, ar, ad, ag, al, arc, w, l, d, s, bs, at) ORDER BY v.u)`)
	}
	if len(w.Ratings) > 0 {
		// An upsert finds each row through the primary key whatever the
		// statistics say; the insert half never runs, every row exists.
		b.WriteString(`, r AS (INSERT INTO ratings (` + ratingColumns + `) VALUES `)
		for i, rt := range w.Ratings {
			if i > 0 {
				b.WriteByte(',')
			}
			rr := toRatingRow(m.GuildID, rt)
			b.values(ratingCasts, rr.QueueID, rr.SeasonID, rr.UserID, rr.GuildID, rr.Rating, rr.Dev, rr.Games, rr.LastAt, rr.Recent,
				rr.BaseRating, rr.BaseDev, rr.BaseGames, rr.BaseLastAt, rr.BaseRecent, rr.Wins, rr.Losses, rr.Draws, rr.Streak, rr.BestStreak,
				rr.Stale, rr.Display, rr.DisplayDev, rr.Provisional)
		}
		b.WriteString(` ON CONFLICT (queue_id, season_id, user_id) DO UPDATE SET `)
		for i, c := range savedRatingColumns {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(c + " = excluded." + c)
		}
		b.WriteString(`)`)
	}
	if w.Event != "" {
		if err := eventCTE(b, w); err != nil {
			return nil, err
		}
	}
	if w.Calibrator != nil {
		state, err := ladder.EncodeCalibrator(w.Calibrator.Cal)
		if err != nil {
			return nil, err
		}
		b.sql(`, cal AS (UPDATE calibrators SET seq = m.seq, state = ?, sided = ? FROM m WHERE calibrators.queue_id = ?)`,
			state, w.Calibrator.Sided, w.Calibrator.QueueID)
	}
	// A taken key fails the statement (a unique violation), so nothing
	// is written even when COMMIT follows in the same round trip.
	b.sql(`, i AS (INSERT INTO idempotency_keys (guild_id, key, match_id, created_at) SELECT ?, ?, m.id, ? FROM m WHERE ?)
 SELECT m.id, m.seq FROM m`, m.GuildID, w.IdempotencyKey, w.At.UTC(), w.IdempotencyKey != "")
	return b, nil
}

// ptrs returns the scan targets of matchColumns.
func (r *matchRow) ptrs() []any {
	return []any{&r.ID, &r.GuildID, &r.QueueID, &r.SeasonID, &r.Team1, &r.Team2, &r.State, &r.Winner, &r.Seq, &r.PTeam1,
		&r.PRaw, &r.Quality, &r.CreatedAt, &r.PlayedAt, &r.ReportedBy, &r.ReportedWinner, &r.Deadline, &r.DisputedBy, &r.DisputeReason,
		&r.DisputeReasonCode, &r.Evidence, &r.RatedAt, &r.ResolvedBy, &r.Source, &r.ChannelID, &r.Map, &r.Score}
}

// LockMatchLadder implements ladder.RatingStore. In a PostgreSQL
// transaction it is one round trip, carrying BEGIN when not sent yet: the
// match lock and the ladder with the players' locked rows, pipelined. A
// match whose players have no rows yet costs one more read (LadderOf); the
// caller creates and locks them.
func (t *tx) LockMatchLadder(ctx context.Context, id int64) (ladder.Match, ladder.Ladder, []ladder.Rating, error) {
	if t.pg == nil {
		m, err := t.LockMatch(ctx, id)
		if err != nil {
			return ladder.Match{}, ladder.Ladder{}, nil, err
		}
		l, err := t.LadderOf(ctx, m.QueueID, m.SeasonID)
		if err != nil {
			return ladder.Match{}, ladder.Ladder{}, nil, err
		}
		users := m.Players()
		slices.Sort(users)
		rs, err := t.LockRatings(ctx, l.Key(), users)
		return m, l, rs, err
	}
	var (
		mr    matchRow
		found bool
		l     ladderRow
		r     ratingRow
		rs    []ladder.Rating
		dst   = append(l.ptrs(), r.ptrs()...)
		cal   *ladder.CalibratorRow
		// social: the match has predictions or MVP votes (Recount).
		social bool
	)
	// What the match's rated write will read goes with the lock too
	// (ahead.go): a confirm then holds the queue's lock for one round
	// trip after this one.
	ahead := t.deriving() && t.derive.loads != nil
	var (
		reserved []reservation
		aheadLad *integrity.Ladder
		aheadLd  *loaded
	)
	err := t.pg.batch(ctx, func(b *pgx.Batch) {
		b.Queue(lockMatchPG, id)
		b.Queue(lockCalibratorOfMatchPG, id)
		b.Queue(matchLadderPG, id)
		b.Queue(pgSQL(socialSQL), []int64{id}, []int64{id})
		if ahead {
			queueMatchAhead(b, id)
		}
	}, func(br pgx.BatchResults) error {
		err := br.QueryRow().Scan(mr.ptrs()...)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		crows, err := br.Query()
		if err != nil {
			return err
		}
		if cal, err = scanCalibrator(crows); err != nil {
			return err
		}
		rows, err := br.Query()
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := rows.Scan(dst...); err != nil {
				rows.Close()
				return err
			}
			rs = append(rs, r.rating())
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if err := br.QueryRow().Scan(&social); err != nil || !ahead {
			return err
		}
		reserved, aheadLad, aheadLd, err = readAhead(br, nil, true)
		return err
	})
	if err != nil {
		return ladder.Match{}, ladder.Ladder{}, nil, wrap("lock match ladder", err, "")
	}
	if !found {
		return ladder.Match{}, ladder.Ladder{}, nil, ladder.Errorf(ladder.CodeNotFound, "match %d not found", id)
	}
	m := mr.match()
	if !social {
		t.pg.quiet = append(t.pg.quiet, id)
	}
	if aheadLad != nil {
		t.keepAhead(cal != nil && cal.QueueID == m.QueueID, ladder.Key{QueueID: m.QueueID, SeasonID: m.SeasonID}, reserved, aheadLad, aheadLd)
	}
	if len(rs) == 0 {
		lad, err := t.LadderOf(ctx, m.QueueID, m.SeasonID)
		lad.Cal = cal
		return m, lad, nil, err
	}
	lad, err := l.ladder()
	lad.Cal = cal
	return m, lad, rs, err
}
