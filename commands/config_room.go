package commands

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// roomSub is /config queue room: where a queue's matches are played. Its
// own subcommand because /config queue set is near Discord's 25 options.
func roomSub() Option {
	zero, day := 0.0, float64(rooms.MaxLinger/time.Second)
	return sub("room", "Where a queue's matches are played: a private thread, a channel, voice channels",
		Option{Type: OptString, Name: "queue", Description: "queue name", Required: true, Autocomplete: true, MaxLength: 32},
		Option{Type: OptString, Name: "room", Description: "none (the queue's channel), thread (default) or channel", Choices: []Choice{
			{Name: "none", Value: string(rooms.ModeNone)}, {Name: "thread", Value: string(rooms.ModeThread)}, {Name: "channel", Value: string(rooms.ModeChannel)}}},
		opt(OptChannel, "room_category", "category for match channels and voice channels", false),
		opt(OptBool, "voice", "one voice channel per team, joinable by that team only", false),
		opt(OptChannel, "lobby_voice", "voice channel whose players are moved to their team's and back", false),
		Option{Type: OptInteger, Name: "room_linger", Description: "seconds a room stays after its match ends (default 300)", Min: &zero, Max: &day},
		opt(OptBool, "clear", "clear room_category and lobby_voice", false))
}

func (h *handlers) configRoom(ctx context.Context, req Request) (Reply, error) {
	if h.Rooms == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "match rooms need the bot's connection to Discord, which this process does not have")
	}
	// The options as text, read by the same rooms.Settings.Apply as the
	// dashboard's form and the token API.
	values := map[string]string{}
	if clear, _ := req.Bool("clear"); clear {
		values["room_category"], values["lobby_voice"] = "", ""
	}
	for _, f := range rooms.Fields {
		if !req.Has(f.Name) {
			continue
		}
		switch v := req.Options[f.Name].(type) {
		case string:
			if f.Kind == ladder.KindChannel && !snowflake(v) {
				return Reply{}, ladder.Errorf(ladder.CodeInvalid, "%s must be a Discord channel, not %q", f.Name, v)
			}
			values[f.Name] = v
		case bool:
			values[f.Name] = strconv.FormatBool(v)
		default:
			n, _ := req.Int(f.Name)
			values[f.Name] = strconv.FormatInt(n, 10)
		}
	}
	// A value of the wrong type (a modified client's) is refused, not
	// skipped: skipping it would store the other options as if all went.
	for _, c := range []struct {
		name string
		ok   func(string) bool
		err  *ladder.Error
	}{
		{"room", func(n string) bool { _, ok := req.String(n); return ok }, ladder.Errorf(ladder.CodeInvalid, "room must be one of none, thread or channel")},
		{"voice", func(n string) bool { _, ok := req.Bool(n); return ok }, ladder.Errorf(ladder.CodeInvalid, "%s must be true or false", "voice")},
		{"clear", func(n string) bool { _, ok := req.Bool(n); return ok }, ladder.Errorf(ladder.CodeInvalid, "%s must be true or false", "clear")},
		{"room_linger", func(n string) bool { _, ok := req.Int(n); return ok }, ladder.Errorf(ladder.CodeInvalid, "room_linger must be a whole number of seconds")},
	} {
		if req.Has(c.name) && !c.ok(c.name) {
			return Reply{}, c.err
		}
	}
	name, _ := req.String("queue")
	q, err := h.queueNamed(ctx, req.GuildID, name)
	if err != nil {
		return Reply{}, err
	}
	s, err := h.Rooms.Settings(ctx, q.ID)
	if err != nil {
		return Reply{}, err
	}
	if len(values) > 0 {
		if err := s.Apply(values); err != nil {
			return Reply{}, err
		}
		if err := h.Rooms.SaveSettings(ctx, actor(req), q, s); err != nil {
			return Reply{}, err
		}
	}
	tr := userLang(req)
	return Whisper(tr.T("cfg.rooms_set", "Queue", q.Name, "Rooms", describeRoom(tr, s))), nil
}

// describeRoom says a queue's room settings in a line.
func describeRoom(tr *i18n.Lang, s rooms.Settings) string {
	var b strings.Builder
	switch s.Mode {
	case rooms.ModeNone:
		b.WriteString(tr.T("cfg.room_none"))
	case rooms.ModeThread:
		b.WriteString(tr.T("cfg.room_thread"))
	case rooms.ModeChannel:
		if s.CategoryID != "" {
			b.WriteString(tr.T("cfg.room_channel_in", "Category", "<#"+s.CategoryID+">"))
		} else {
			b.WriteString(tr.T("cfg.room_channel"))
		}
	}
	if s.Voice {
		if s.LobbyVoiceID != "" {
			b.WriteString(tr.T("cfg.room_voice_lobby", "Lobby", "<#"+s.LobbyVoiceID+">"))
		} else {
			b.WriteString(tr.T("cfg.room_voice"))
		}
	}
	if s.Mode != rooms.ModeNone {
		b.WriteString(tr.T("cfg.room_linger", "Linger", tr.Duration(s.Linger)))
	}
	return b.String()
}
