package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// AnnounceMatch posts a formed match's announcement to channelID: the
// message /queue join posts (commands.Announcement), pinging the match's
// players only. The scheduled matchmaking pass calls it; it implements
// jobs.Poster.
func (b *Bot) AnnounceMatch(ctx context.Context, channelID string, f ladder.FormedMatch) error {
	msg := commands.Announcement(f)
	if _, err := b.session.ChannelMessageSendComplex(channelID, messageSend(msg), discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("bot: announce match %d: %w", f.Match.ID, err)
	}
	return nil
}
