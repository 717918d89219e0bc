package jobs

import (
	"context"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
)

// lang is the language of the scheduler's posts to a guild's channels:
// its /config language (commands.GuildLang); English when the guild
// cannot be read, so that a post is never lost to the lookup.
func (s *Scheduler) lang(ctx context.Context, guildID string) *i18n.Lang {
	g, err := s.svc.Guild(ctx, guildID)
	if err != nil {
		return i18n.English()
	}
	return commands.GuildLang(g)
}
