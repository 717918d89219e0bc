package ladder

import (
	"context"
	"time"
)

// Ticket is a stored queue entry: one player, or a party that accepted to
// play together (docs/spec.md 3). A player holds at most one ticket per guild.
type Ticket struct {
	ID      int64
	GuildID string
	QueueID int64
	// ChannelID is where the ticket was taken, for the match announcement.
	ChannelID string
	// UserIDs are the members; the first joined first (the party leader).
	UserIDs   []string
	JoinedAt  time.Time
	ExpiresAt time.Time
}

// Invite is a pending party invitation: From asked To to queue together.
type Invite struct {
	ID        int64
	GuildID   string
	QueueID   int64
	From, To  string
	ChannelID string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// QueueBan keeps a player out of a guild's queues until Until (zero: for good).
type QueueBan struct {
	GuildID   string
	UserID    string
	Until     time.Time
	Reason    string
	BannedBy  string
	CreatedAt time.Time
}

// QueueStore is the queue's persistence. Lookups of a missing row answer CodeNotFound and
// unique violations (a player in two tickets, two invites) CodeConflict, so
// the database enforces one ticket per player even across processes.
type QueueStore interface {
	// LockQueue serializes matchmaking on a queue until the transaction
	// ends: a transaction-scoped advisory lock on PostgreSQL; on SQLite the
	// immediate transaction already holds the write lock.
	LockQueue(ctx context.Context, queueID int64) error
	// Tickets returns a queue's tickets, oldest first.
	Tickets(ctx context.Context, queueID int64) ([]Ticket, error)
	// TicketOf returns the guild's ticket holding userID.
	TicketOf(ctx context.Context, guildID, userID string) (Ticket, error)
	// AddTicket stores t with its members and returns it with its ID.
	AddTicket(ctx context.Context, t Ticket) (Ticket, error)
	// AddTicketMember adds a party member to an existing ticket.
	AddTicketMember(ctx context.Context, t Ticket, userID string) error
	// DeleteTickets removes tickets and their members.
	DeleteTickets(ctx context.Context, ids []int64) error
	// ExpiredTickets returns up to limit tickets whose ExpiresAt is before t.
	ExpiredTickets(ctx context.Context, before time.Time, limit int) ([]Ticket, error)
	// ActivePlayers returns those of userIDs who are in an open or reported
	// match of the guild.
	ActivePlayers(ctx context.Context, guildID string, userIDs []string) ([]string, error)
	// QueuesWithTickets lists the IDs of queues that have tickets.
	QueuesWithTickets(ctx context.Context) ([]int64, error)
	// RecordWait stores how long the players of a match the queue formed
	// had waited on average, for the typical wait queue panels show.
	RecordWait(ctx context.Context, matchID, queueID int64, wait time.Duration, at time.Time) error

	// AddInvite stores an invitation; From or To already in one gives CodeConflict.
	AddInvite(ctx context.Context, in Invite) (Invite, error)
	// InviteTo returns the invitation addressed to userID.
	InviteTo(ctx context.Context, guildID, userID string) (Invite, error)
	// DeleteInvites removes the invitations from or to userID.
	DeleteInvites(ctx context.Context, guildID, userID string) error
	// DeleteExpiredInvites removes invitations that expired before t.
	DeleteExpiredInvites(ctx context.Context, before time.Time) (int, error)

	// Ban returns the guild's queue ban of userID.
	Ban(ctx context.Context, guildID, userID string) (QueueBan, error)
	// SaveBan inserts or replaces a ban.
	SaveBan(ctx context.Context, b QueueBan) error
	// DeleteBan lifts a ban; CodeNotFound if there is none.
	DeleteBan(ctx context.Context, guildID, userID string) error
}
