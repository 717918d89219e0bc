package bot

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/rooms"
)

// The match-room calls (package rooms). Like the role calls they go
// through the session, so discordgo's per-route buckets pace them and a
// 429 is waited out and retried; errors carry Discord's code.

var _ rooms.Discord = (*Bot)(nil)

// Permission bits of the rooms' overwrites.
const (
	permView     = discordgo.PermissionViewChannel
	permSend     = discordgo.PermissionSendMessages
	permHistory  = discordgo.PermissionReadMessageHistory
	permEmbed    = discordgo.PermissionEmbedLinks
	permCommands = discordgo.PermissionUseSlashCommands
	permConnect  = discordgo.PermissionVoiceConnect
	permSpeak    = discordgo.PermissionVoiceSpeak
	permMove     = discordgo.PermissionVoiceMoveMembers
)

// CreateThread implements rooms.Discord: a private thread (type 12) that
// members cannot invite others to.
func (b *Bot) CreateThread(ctx context.Context, channelID, name string) (string, error) {
	c, err := b.session.ThreadStartComplex(channelID, &discordgo.ThreadStart{
		Name: name, Type: discordgo.ChannelTypeGuildPrivateThread, AutoArchiveDuration: 1440, Invitable: false,
	}, discordgo.WithContext(ctx))
	if err != nil {
		return "", coded(err)
	}
	return c.ID, nil
}

// AddThreadMember implements rooms.Discord.
func (b *Bot) AddThreadMember(ctx context.Context, threadID, userID string) error {
	return coded(b.session.ThreadMemberAdd(threadID, userID, discordgo.WithContext(ctx)))
}

// RemoveThreadMember implements rooms.Discord.
func (b *Bot) RemoveThreadMember(ctx context.Context, threadID, userID string) error {
	return coded(b.session.ThreadMemberRemove(threadID, userID, discordgo.WithContext(ctx)))
}

// ArchiveThread implements rooms.Discord.
func (b *Bot) ArchiveThread(ctx context.Context, threadID string) error {
	yes := true
	_, err := b.session.ChannelEditComplex(threadID, &discordgo.ChannelEdit{Archived: &yes, Locked: &yes}, discordgo.WithContext(ctx))
	return coded(err)
}

// CreateChannel implements rooms.Discord: @everyone is denied the
// channel (seeing a text channel, joining a voice channel); c's members,
// c's roles and the bot are allowed.
func (b *Bot) CreateChannel(ctx context.Context, guildID string, c rooms.Channel) (string, error) {
	typ := discordgo.ChannelTypeGuildText
	var deny, member, role, self int64 = permView, permView | permSend | permHistory | permCommands, permView | permSend | permHistory, permView | permSend | permHistory | permEmbed
	if c.Voice {
		typ = discordgo.ChannelTypeGuildVoice
		deny, member, role, self = permConnect, permView|permConnect|permSpeak, permView|permConnect|permSpeak, permView|permConnect|permMove
	}
	botID, err := b.selfID(ctx)
	if err != nil {
		return "", err
	}
	ows := []*discordgo.PermissionOverwrite{
		{ID: guildID, Type: discordgo.PermissionOverwriteTypeRole, Deny: deny},
		{ID: botID, Type: discordgo.PermissionOverwriteTypeMember, Allow: self},
	}
	for _, r := range c.Roles {
		ows = append(ows, &discordgo.PermissionOverwrite{ID: r, Type: discordgo.PermissionOverwriteTypeRole, Allow: role})
	}
	for _, u := range c.Members {
		ows = append(ows, &discordgo.PermissionOverwrite{ID: u, Type: discordgo.PermissionOverwriteTypeMember, Allow: member})
	}
	ch, err := b.session.GuildChannelCreateComplex(guildID, discordgo.GuildChannelCreateData{
		Name: c.Name, Type: typ, ParentID: c.ParentID, PermissionOverwrites: ows,
	}, discordgo.WithContext(ctx))
	if err != nil {
		return "", coded(err)
	}
	return ch.ID, nil
}

// AllowMember implements rooms.Discord.
func (b *Bot) AllowMember(ctx context.Context, channelID, userID string, voice bool) error {
	var allow int64 = permView | permSend | permHistory | permCommands
	if voice {
		allow = permView | permConnect | permSpeak
	}
	return coded(b.session.ChannelPermissionSet(channelID, userID, discordgo.PermissionOverwriteTypeMember, allow, 0, discordgo.WithContext(ctx)))
}

// DisallowMember implements rooms.Discord.
func (b *Bot) DisallowMember(ctx context.Context, channelID, userID string) error {
	return coded(b.session.ChannelPermissionDelete(channelID, userID, discordgo.WithContext(ctx)))
}

// DeleteChannel implements rooms.Discord.
func (b *Bot) DeleteChannel(ctx context.Context, channelID string) error {
	_, err := b.session.ChannelDelete(channelID, discordgo.WithContext(ctx))
	return coded(err)
}

// FindChannels implements rooms.Discord: the guild's channels, then its
// active threads.
func (b *Bot) FindChannels(ctx context.Context, guildID string, names ...string) ([]rooms.Found, error) {
	cs, err := b.session.GuildChannels(guildID, discordgo.WithContext(ctx))
	if err != nil {
		return nil, coded(err)
	}
	ts, err := b.session.GuildThreadsActive(guildID, discordgo.WithContext(ctx))
	if err != nil {
		return nil, coded(err)
	}
	var out []rooms.Found
	for _, c := range append(cs, ts.Threads...) {
		if slices.Contains(names, c.Name) {
			out = append(out, rooms.Found{ID: c.ID, Name: c.Name})
		}
	}
	return out, nil
}

// VoiceChannelOf implements rooms.Discord with Discord's Get User Voice
// State route (10065 Unknown Voice State: not in voice).
func (b *Bot) VoiceChannelOf(ctx context.Context, guildID, userID string) (string, error) {
	uri := discordgo.EndpointGuild(guildID) + "/voice-states/" + userID
	body, err := b.session.RequestWithBucketID(http.MethodGet, uri, nil, discordgo.EndpointGuild(guildID)+"/voice-states/", discordgo.WithContext(ctx))
	if err != nil {
		if rooms.DiscordCode(coded(err)) == rooms.CodeUnknownVoiceState {
			return "", nil
		}
		return "", coded(err)
	}
	var vs discordgo.VoiceState
	if err := discordgo.Unmarshal(body, &vs); err != nil {
		return "", err
	}
	return vs.ChannelID, nil
}

// MoveMember implements rooms.Discord.
func (b *Bot) MoveMember(ctx context.Context, guildID, userID, channelID string) error {
	return coded(b.session.GuildMemberMove(guildID, userID, &channelID, discordgo.WithContext(ctx)))
}

// DisconnectMember implements rooms.Discord: channel_id null.
func (b *Bot) DisconnectMember(ctx context.Context, guildID, userID string) error {
	return coded(b.session.GuildMemberMove(guildID, userID, nil, discordgo.WithContext(ctx)))
}

// Send implements rooms.Discord.
func (b *Bot) Send(ctx context.Context, channelID, content string, mentions []string) error {
	_, err := postMessage(ctx, b.session, channelID, commands.Reply{Content: content, Mentions: mentions})
	return err
}

// selfID is the bot's user ID, for its own overwrite on the channels it
// creates: the application's ID from READY (a bot user has its
// application's ID), else asked of Discord.
func (b *Bot) selfID(ctx context.Context) (string, error) {
	if id, _ := b.appID.Load().(string); id != "" {
		return id, nil
	}
	u, err := b.session.User("@me", discordgo.WithContext(ctx))
	if err != nil {
		return "", coded(err)
	}
	if u.ID == "" {
		return "", errors.New("bot: no user ID")
	}
	return u.ID, nil
}

// channelGone reports whether Discord refused a post because its channel
// is gone (10003 Unknown Channel: deleted by hand) or is a thread locked
// by hand (50083).
func channelGone(err error) bool {
	switch rooms.DiscordCode(coded(err)) {
	case rooms.CodeUnknownChannel, rooms.CodeThreadArchived:
		return true
	}
	return false
}

// rehomedPost is a message rehome posted: the notice, or the match where it
// stands.
type rehomedPost struct {
	msg commands.Reply
	id  string
}

// rehome moves the match of the open room whose channel channelID is gone
// back to its queue's channel and returns that channel, "" when channelID
// is no open room's. The call that moves the match tells its players
// there and posts the match where it stands (commands.Set.RoomLost), and
// returns what it posted: a post that found the room gone and is that
// same view (the report's request to confirm, say) is not posted twice.
func (b *Bot) rehome(ctx context.Context, channelID string) (string, []rehomedPost) {
	home, posts, err := b.set.RoomLost(ctx, channelID)
	if err != nil {
		b.log.Warn("lost match room not handled", "channel_id", channelID, "err", err)
	}
	var out []rehomedPost
	for _, p := range posts {
		id, err := postMessage(ctx, b.session, p.ChannelID, p.Message)
		if err == nil {
			out = append(out, rehomedPost{msg: p.Message, id: id})
			if p.Sent != nil {
				err = p.Sent(ctx, p.ChannelID, id)
			}
		}
		if err != nil {
			b.log.Warn("lost match room's notice not posted", "channel_id", p.ChannelID, "err", err)
		}
	}
	return home, out
}

// shownAs returns the ID of the message of posted that is msg (the same
// text, embeds' titles and buttons), false when none is.
func shownAs(posted []rehomedPost, msg commands.Reply) (string, bool) {
	for _, s := range posted {
		if s.msg.Content == msg.Content && slices.EqualFunc(s.msg.Embeds, msg.Embeds, func(a, b commands.Embed) bool { return a.Title == b.Title }) &&
			slices.EqualFunc(s.msg.Buttons, msg.Buttons, func(a, b []commands.Button) bool {
				return slices.EqualFunc(a, b, func(x, y commands.Button) bool { return x.CustomID == y.CustomID && x.Label == y.Label })
			}) {
			return s.id, true
		}
	}
	return "", false
}

// deleted handles CHANNEL_DELETE and THREAD_DELETE: a deleted match room
// moves its match back to the queue's channel.
func (b *Bot) deleted(c *discordgo.Channel) {
	if c == nil || c.ID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(b.base, postBudget)
	defer cancel()
	b.rehome(ctx, c.ID)
}
