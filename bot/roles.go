package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// The division-role calls. They go through the bot's session, so
// pacing is discordgo's: one bucket per route (a guild's member-role routes
// share one), a wait when X-RateLimit-Remaining reaches 0 until
// X-RateLimit-Reset-After, and on a 429 a sleep of the body's retry_after
// and a retry (Session.ShouldRetryOnRateLimit). Callers add no limiter.

// AddMemberRole gives a member a role. It implements jobs.RoleClient.
func (b *Bot) AddMemberRole(ctx context.Context, guildID, userID, roleID string) error {
	return coded(b.session.GuildMemberRoleAdd(guildID, userID, roleID, discordgo.WithContext(ctx)))
}

// RemoveMemberRole takes a role from a member. It implements jobs.RoleClient.
func (b *Bot) RemoveMemberRole(ctx context.Context, guildID, userID, roleID string) error {
	return coded(b.session.GuildMemberRoleRemove(guildID, userID, roleID, discordgo.WithContext(ctx)))
}

// MemberRoles returns the roles a member holds. It implements jobs.RoleClient.
func (b *Bot) MemberRoles(ctx context.Context, guildID, userID string) ([]string, error) {
	m, err := b.session.GuildMember(guildID, userID, discordgo.WithContext(ctx))
	if err != nil {
		return nil, coded(err)
	}
	return m.Roles, nil
}

// CreateRole creates a role in a guild and returns its ID (/config roles
// create).
func (b *Bot) CreateRole(ctx context.Context, guildID, name string) (string, error) {
	r, err := b.session.GuildRoleCreate(guildID, &discordgo.RoleParams{Name: name}, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("create role %q: %w", name, coded(err))
	}
	return r.ID, nil
}

// codedError is a failed REST call with Discord's JSON error code, which
// callers outside this package read through its DiscordCode method
// without knowing discordgo.
type codedError struct {
	err  error
	code int
}

func (e codedError) Error() string    { return e.err.Error() }
func (e codedError) Unwrap() error    { return e.err }
func (e codedError) DiscordCode() int { return e.code }

// coded gives a Discord REST error its code; other errors pass unchanged.
func coded(err error) error {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return codedError{err: err, code: re.Message.Code}
	}
	return err
}
