package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// The calls /setup makes through the bot's session: a channel or role is
// found by name first, so running the walkthrough twice creates nothing
// twice.

// EnsureChannel answers the ID of the guild's text channel called name,
// creating it (Manage Channels) when there is none.
func (b *Bot) EnsureChannel(ctx context.Context, guildID, name string) (string, error) {
	chs, err := b.session.GuildChannels(guildID, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("list channels: %w", coded(err))
	}
	for _, c := range chs {
		if c.Type == discordgo.ChannelTypeGuildText && strings.EqualFold(c.Name, name) {
			return c.ID, nil
		}
	}
	c, err := b.session.GuildChannelCreate(guildID, name, discordgo.ChannelTypeGuildText, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("create channel #%s: %w", name, coded(err))
	}
	return c.ID, nil
}

// EnsureRole answers the ID of the guild's role called name, creating it
// (Manage Roles) when there is none.
func (b *Bot) EnsureRole(ctx context.Context, guildID, name string) (string, error) {
	rs, err := b.session.GuildRoles(guildID, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("list roles: %w", coded(err))
	}
	for _, r := range rs {
		if strings.EqualFold(r.Name, name) {
			return r.ID, nil
		}
	}
	return b.CreateRole(ctx, guildID, name)
}
