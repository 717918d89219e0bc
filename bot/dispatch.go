package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// route is what the chain runs for one interaction.
type route struct {
	name      string // for the log: "queue join", "button:confirm", "modal:dispute"
	access    commands.Access
	instant   bool
	ephemeral bool // defer privately
	handle    commands.Handler
}

// onInteraction is the gateway's entry to the dispatch chain (chain.go):
// it reads the interaction into a call answered through the session. The
// gateway may deliver an interaction long after Discord created it (a
// replay on resume), so the call carries its creation time, and one that
// arrives expired is dropped (expired.go).
func (b *Bot) onInteraction(s *discordgo.Session, ev *discordgo.InteractionCreate) {
	c := &call{id: ev.ID, start: time.Now()}
	c.created, _ = createdAt(ev.ID)
	c.req, c.reqErr = request(ev.Interaction)
	c.resp = &gatewayResponder{session: b.session, base: b.base, ic: ev.Interaction, kind: c.req.Kind, messageID: c.req.MessageID}
	b.chain(b.base, c)
}

// route finds what handles req.
func (b *Bot) route(req commands.Request) (route, error) {
	switch req.Kind {
	case commands.KindCommand, commands.KindAutocomplete:
		root := req.Command
		for i, r := range root {
			if r == ' ' {
				root = root[:i]
				break
			}
		}
		c, ok := b.set.Command(root)
		if !ok {
			return route{name: req.Command}, ladder.Errorf(ladder.CodeNotFound, "unknown command /%s; the bot may be updating, try again in a minute", root)
		}
		rt := route{name: req.Command, access: c.Access, instant: c.Instant, ephemeral: c.Ephemeral, handle: c.Handle}
		if req.Kind == commands.KindAutocomplete {
			rt.name = "autocomplete:" + req.Command
			rt.handle = c.Autocomplete
			if c.Autocomplete == nil {
				return rt, ladder.Errorf(ladder.CodeInvalid, "no suggestions for /%s", req.Command)
			}
		}
		return rt, nil
	default:
		prefix := "button:"
		if req.Kind == commands.KindModal {
			prefix = "modal:"
		}
		c, ok := b.set.Component(req.CustomID.Action)
		if !ok {
			return route{name: prefix + "unknown"}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid any more; run the command again")
		}
		return route{name: prefix + c.Action, access: c.Access, instant: c.Instant, ephemeral: true, handle: c.Handle}, nil
	}
}

// logInteraction writes the one line per interaction.
func (b *Bot) logInteraction(c *call, err error, ref string) {
	attrs := []slog.Attr{
		slog.String("guild_id", c.req.GuildID),
		slog.String("user_id", c.req.UserID),
		slog.String("cmd", c.route.name),
		slog.Int64("duration_ms", time.Since(c.start).Milliseconds()),
	}
	if acked := c.resp.Acked(); !acked.IsZero() {
		attrs = append(attrs, slog.Int64("ack_ms", acked.Sub(c.start).Milliseconds()))
	}
	level := slog.LevelInfo
	if err != nil {
		code := ladder.ErrorCode(err)
		attrs = append(attrs, slog.String("code", string(code)), slog.String("err", err.Error()))
		if ref != "" {
			attrs = append(attrs, slog.String("ref", ref))
		}
		if code == ladder.CodeInternal || code == ladder.CodeUnavailable {
			level = slog.LevelError
		}
	}
	b.log.LogAttrs(context.Background(), level, "interaction", attrs...)
}
