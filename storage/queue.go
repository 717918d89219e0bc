package storage

import (
	"context"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm/clause"
)

var _ ladder.QueueStore = (*tx)(nil)

type ticketRow struct {
	ID        int64 `gorm:"primaryKey"`
	GuildID   string
	QueueID   int64
	ChannelID string
	JoinedAt  time.Time
	ExpiresAt time.Time
}

func (ticketRow) TableName() string { return "queue_entries" }

type ticketMemberRow struct {
	EntryID int64
	GuildID string
	UserID  string
}

func (ticketMemberRow) TableName() string { return "queue_entry_members" }

type inviteRow struct {
	ID        int64 `gorm:"primaryKey"`
	GuildID   string
	QueueID   int64
	FromUser  string
	ToUser    string
	ChannelID string
	CreatedAt time.Time
	ExpiresAt time.Time
}

func (inviteRow) TableName() string { return "party_invites" }

type banRow struct {
	GuildID   string `gorm:"primaryKey"`
	UserID    string `gorm:"primaryKey"`
	Until     *time.Time
	Reason    string
	BannedBy  string
	CreatedAt time.Time
}

func (banRow) TableName() string { return "queue_bans" }

// queueLockClass is the first key of the queue's PostgreSQL advisory lock
// ("LB"); the second is the queue ID.
const queueLockClass = 0x4c42

// LockQueue implements ladder.QueueStore: pg_advisory_xact_lock on PostgreSQL,
// released when the transaction ends; nothing on SQLite, whose immediate
// transactions already hold the database's write lock.
func (t *tx) LockQueue(ctx context.Context, queueID int64) error {
	if t.dialect != Postgres {
		return nil
	}
	return wrap("lock queue", t.q(ctx).Exec("SELECT pg_advisory_xact_lock(?, ?)", queueLockClass, int32(queueID)).Error, "")
}

// withMembers loads the members of rows, each ticket's ordered by user ID.
func (t *tx) withMembers(ctx context.Context, rows []ticketRow) ([]ladder.Ticket, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var ms []ticketMemberRow
	if err := t.q(ctx).Where("entry_id IN ?", ids).Order("entry_id, user_id").Find(&ms).Error; err != nil {
		return nil, wrap("queue members", err, "")
	}
	users := make(map[int64][]string, len(rows))
	for _, m := range ms {
		users[m.EntryID] = append(users[m.EntryID], m.UserID)
	}
	out := make([]ladder.Ticket, len(rows))
	for i, r := range rows {
		out[i] = r.ticket(users[r.ID])
	}
	return out, nil
}

// ticket is the ticket of r with its members.
func (r ticketRow) ticket(users []string) ladder.Ticket {
	return ladder.Ticket{ID: r.ID, GuildID: r.GuildID, QueueID: r.QueueID, ChannelID: r.ChannelID,
		UserIDs: users, JoinedAt: r.JoinedAt.UTC(), ExpiresAt: r.ExpiresAt.UTC()}
}

// ticketsSQL reads a queue's tickets with their members in one statement
// (every join's matchmaking pass reads the whole queue): tickets in join
// order, each ticket's members by user ID. A ticket always has members
// (AddTicket writes them with it); the outer join keeps one that had none.
func ticketsSQL(dialect string) string {
	return `SELECT e.id, e.guild_id, e.queue_id, e.channel_id, e.joined_at, e.expires_at, m.user_id
 FROM queue_entries e ` + membersJoin(dialect, "LEFT JOIN") + `
 WHERE e.queue_id = ? ORDER BY e.joined_at, e.id, m.user_id`
}

// membersJoin joins the members m of the queue entries e, each entry's
// found by its key. On PostgreSQL it is a lateral subquery that the
// planner cannot flatten (OFFSET 0), so it can only be a probe per entry:
// as a plain join, a queue_entry_members whose statistics were taken while
// it was small (queues fill in a rush, faster than autovacuum analyzes)
// was hashed whole for each queue's read, every waiting player of every
// guild, and a matchmaking pass over 1,000 guilds with players waiting
// read 250 pages per queue where 10 do. SQLite joins by nested loops over
// the key anyway.
func membersJoin(dialect, join string) string {
	if dialect == Postgres {
		return join + ` LATERAL (SELECT user_id FROM queue_entry_members WHERE entry_id = e.id OFFSET 0) m ON true`
	}
	return join + ` queue_entry_members m ON m.entry_id = e.id`
}

// Tickets implements ladder.QueueStore.
func (t *tx) Tickets(ctx context.Context, queueID int64) ([]ladder.Ticket, error) {
	rows, err := t.q(ctx).Raw(ticketsSQL(t.dialect), queueID).Rows()
	if err != nil {
		return nil, wrap("queue tickets", err, "")
	}
	defer rows.Close()
	var out []ladder.Ticket
	for rows.Next() {
		var (
			r    ticketRow
			user *string
		)
		if err := rows.Scan(&r.ID, &r.GuildID, &r.QueueID, &r.ChannelID, &r.JoinedAt, &r.ExpiresAt, &user); err != nil {
			return nil, wrap("queue tickets", err, "")
		}
		if n := len(out); n == 0 || out[n-1].ID != r.ID {
			out = append(out, r.ticket(nil))
		}
		if user != nil {
			out[len(out)-1].UserIDs = append(out[len(out)-1].UserIDs, *user)
		}
	}
	return out, wrap("queue tickets", rows.Err(), "")
}

// TicketOf implements ladder.QueueStore.
func (t *tx) TicketOf(ctx context.Context, guildID, userID string) (ladder.Ticket, error) {
	var m ticketMemberRow
	if err := t.q(ctx).Where("guild_id = ? AND user_id = ?", guildID, userID).Take(&m).Error; err != nil {
		return ladder.Ticket{}, wrap("queue ticket", err, "queue ticket not found")
	}
	var r ticketRow
	if err := t.q(ctx).Where("id = ?", m.EntryID).Take(&r).Error; err != nil {
		return ladder.Ticket{}, wrap("queue ticket", err, "queue ticket not found")
	}
	ts, err := t.withMembers(ctx, []ticketRow{r})
	if err != nil {
		return ladder.Ticket{}, err
	}
	return ts[0], nil
}

// AddTicket implements ladder.QueueStore. The unique (guild, user) index of
// queue_entry_members turns a second ticket of a player into CodeConflict.
func (t *tx) AddTicket(ctx context.Context, tk ladder.Ticket) (ladder.Ticket, error) {
	r := ticketRow{GuildID: tk.GuildID, QueueID: tk.QueueID, ChannelID: tk.ChannelID, JoinedAt: tk.JoinedAt.UTC(), ExpiresAt: tk.ExpiresAt.UTC()}
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return ladder.Ticket{}, wrap("add ticket", err, "queue ticket exists")
	}
	ms := make([]ticketMemberRow, len(tk.UserIDs))
	for i, u := range tk.UserIDs {
		ms[i] = ticketMemberRow{EntryID: r.ID, GuildID: tk.GuildID, UserID: u}
	}
	if err := t.q(ctx).Create(&ms).Error; err != nil {
		return ladder.Ticket{}, wrap("add ticket", err, "queue ticket member exists")
	}
	tk.ID = r.ID
	return tk, nil
}

// AddTicketMember implements ladder.QueueStore.
func (t *tx) AddTicketMember(ctx context.Context, tk ladder.Ticket, userID string) error {
	m := ticketMemberRow{EntryID: tk.ID, GuildID: tk.GuildID, UserID: userID}
	return wrap("add ticket member", t.q(ctx).Create(&m).Error, "queue ticket member exists")
}

// DeleteTickets implements ladder.QueueStore.
func (t *tx) DeleteTickets(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	if err := t.q(ctx).Where("entry_id IN ?", ids).Delete(&ticketMemberRow{}).Error; err != nil {
		return wrap("delete tickets", err, "")
	}
	return wrap("delete tickets", t.q(ctx).Where("id IN ?", ids).Delete(&ticketRow{}).Error, "")
}

// ExpiredTickets implements ladder.QueueStore.
func (t *tx) ExpiredTickets(ctx context.Context, before time.Time, limit int) ([]ladder.Ticket, error) {
	var rows []ticketRow
	if err := t.q(ctx).Where("expires_at < ?", before.UTC()).Order("expires_at, id").Limit(max(limit, 1)).Find(&rows).Error; err != nil {
		return nil, wrap("expired tickets", err, "")
	}
	return t.withMembers(ctx, rows)
}

// ActivePlayers implements ladder.QueueStore with the partial unique index of
// match_players over active rows.
func (t *tx) ActivePlayers(ctx context.Context, guildID string, userIDs []string) ([]string, error) {
	if len(userIDs) == 0 {
		return nil, nil
	}
	var users []string
	err := t.q(ctx).Table("match_players").Where("guild_id = ? AND user_id IN ? AND "+t.active(), guildID, userIDs).
		Order("user_id").Pluck("user_id", &users).Error
	return users, wrap("active players", err, "")
}

// QueuesWithTickets implements ladder.QueueStore.
func (t *tx) QueuesWithTickets(ctx context.Context) ([]int64, error) {
	var ids []int64
	err := t.q(ctx).Model(&ticketRow{}).Distinct("queue_id").Order("queue_id").Pluck("queue_id", &ids).Error
	return ids, wrap("queues with tickets", err, "")
}

func inviteOf(r inviteRow) ladder.Invite {
	return ladder.Invite{ID: r.ID, GuildID: r.GuildID, QueueID: r.QueueID, From: r.FromUser, To: r.ToUser,
		ChannelID: r.ChannelID, CreatedAt: r.CreatedAt.UTC(), ExpiresAt: r.ExpiresAt.UTC()}
}

// AddInvite implements ladder.QueueStore.
func (t *tx) AddInvite(ctx context.Context, in ladder.Invite) (ladder.Invite, error) {
	r := inviteRow{GuildID: in.GuildID, QueueID: in.QueueID, FromUser: in.From, ToUser: in.To, ChannelID: in.ChannelID,
		CreatedAt: in.CreatedAt.UTC(), ExpiresAt: in.ExpiresAt.UTC()}
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return ladder.Invite{}, wrap("add invite", err, "party invite exists")
	}
	return inviteOf(r), nil
}

// InviteTo implements ladder.QueueStore.
func (t *tx) InviteTo(ctx context.Context, guildID, userID string) (ladder.Invite, error) {
	var r inviteRow
	if err := t.q(ctx).Where("guild_id = ? AND to_user = ?", guildID, userID).Take(&r).Error; err != nil {
		return ladder.Invite{}, wrap("invite", err, "party invite not found")
	}
	return inviteOf(r), nil
}

// DeleteInvites implements ladder.QueueStore.
func (t *tx) DeleteInvites(ctx context.Context, guildID, userID string) error {
	err := t.q(ctx).Where("guild_id = ? AND (from_user = ? OR to_user = ?)", guildID, userID, userID).Delete(&inviteRow{}).Error
	return wrap("delete invites", err, "")
}

// DeleteExpiredInvites implements ladder.QueueStore.
func (t *tx) DeleteExpiredInvites(ctx context.Context, before time.Time) (int, error) {
	res := t.q(ctx).Where("expires_at < ?", before.UTC()).Delete(&inviteRow{})
	return int(res.RowsAffected), wrap("delete expired invites", res.Error, "")
}

// Ban implements ladder.QueueStore.
func (t *tx) Ban(ctx context.Context, guildID, userID string) (ladder.QueueBan, error) {
	var r banRow
	if err := t.q(ctx).Where("guild_id = ? AND user_id = ?", guildID, userID).Take(&r).Error; err != nil {
		return ladder.QueueBan{}, wrap("queue ban", err, "queue ban not found")
	}
	return ladder.QueueBan{GuildID: r.GuildID, UserID: r.UserID, Until: tv(r.Until), Reason: r.Reason,
		BannedBy: r.BannedBy, CreatedAt: r.CreatedAt.UTC()}, nil
}

// SaveBan implements ladder.QueueStore.
func (t *tx) SaveBan(ctx context.Context, b ladder.QueueBan) error {
	r := banRow{GuildID: b.GuildID, UserID: b.UserID, Until: nt(b.Until), Reason: b.Reason, BannedBy: b.BannedBy, CreatedAt: b.CreatedAt.UTC()}
	err := t.q(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "guild_id"}, {Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"until", "reason", "banned_by", "created_at"}),
	}).Create(&r).Error
	return wrap("save ban", err, "")
}

// DeleteBan implements ladder.QueueStore.
func (t *tx) DeleteBan(ctx context.Context, guildID, userID string) error {
	res := t.q(ctx).Where("guild_id = ? AND user_id = ?", guildID, userID).Delete(&banRow{})
	return wrap("delete ban", found(res), "queue ban not found")
}
