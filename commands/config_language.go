package commands

import (
	"context"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// autoLanguage is /config language's choice for following the guild's
// preferred locale; it is stored as "".
const autoLanguage = "auto"

// languageSub is /config language: the language of the bot's posts to the
// guild's channels.
func languageSub() Option {
	choices := []Choice{{Name: "the server's preferred language", Value: autoLanguage}}
	for _, code := range i18n.Default().Languages() {
		l, _ := i18n.Default().Lang(code)
		choices = append(choices, Choice{Name: l.Name(), Value: code})
	}
	return sub("language", "The language the bot posts in on this server (default: the server's preferred language)",
		Option{Type: OptString, Name: "language", Description: "the language; leave out to see the setting", Choices: choices})
}

// configLanguage shows or sets the guild's language. The answer is in the
// user's own language; what it names is the guild's.
func (h *handlers) configLanguage(ctx context.Context, req Request, g ladder.Guild) (Reply, error) {
	l := userLang(req)
	code, ok := req.String("language")
	if ok {
		switch _, known := i18n.Default().Lang(code); {
		case code == autoLanguage:
			code = ""
		case !known || code == i18n.Pseudo:
			return Reply{}, ladder.Errorf(ladder.CodeInvalid, "unknown language %q", code)
		}
		if code != g.Language {
			g.Language = code
			var err error
			if g, err = h.Service.UpdateGuild(ctx, actor(req), g); err != nil {
				return Reply{}, err
			}
		}
	}
	posts := guildLang(g, req)
	key := "language.set"
	if g.Language == "" {
		key = "language.auto"
	}
	if !ok {
		key += "_show"
	}
	return Whisper(l.T(key, "Language", posts.Name())), nil
}

// userLang is the language of a reply to req: the user's client locale.
func userLang(req Request) *i18n.Lang { return i18n.For(req.Locale) }

// guildLang is the language of the bot's posts to g's channels: its
// /config language, else the preferred locale Discord sends with req (or
// the one noted last), else English.
func guildLang(g ladder.Guild, req Request) *i18n.Lang {
	if req.GuildLocale != "" {
		g.PreferredLocale = req.GuildLocale
	}
	return GuildLang(g)
}

// GuildLang is the language of a post to g's channels: its /config
// language, else its preferred locale as last noted from an interaction,
// else English.
func GuildLang(g ladder.Guild) *i18n.Lang { return i18n.ForServer(g.Language, g.PreferredLocale) }

// postLang is guildLang for handlers that did not load the guild.
func (h *handlers) postLang(ctx context.Context, req Request) *i18n.Lang {
	g, err := h.Service.Guild(ctx, req.GuildID)
	if err != nil {
		return guildLang(ladder.Guild{}, req)
	}
	return guildLang(g, req)
}

// langOf is GuildLang for code that has only the guild's ID.
func (h *handlers) langOf(ctx context.Context, guildID string) *i18n.Lang {
	g, err := h.Service.Guild(ctx, guildID)
	if err != nil {
		return i18n.English()
	}
	return GuildLang(g)
}
