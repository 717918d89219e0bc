package rooms

import (
	"context"
	"errors"
)

// Discord's JSON error codes the rooms react to.
const (
	CodeUnknownChannel     = 10003
	CodeUnknownMember      = 10007
	CodeUnknownVoiceState  = 10065
	CodeMaxChannels        = 30013
	CodeMaxOverwrites      = 30060
	CodeNotInVoice         = 40032
	CodeMissingPermissions = 50013
	CodeThreadArchived     = 50083
	CodeInvalidForm        = 50035
)

// Discord is what the rooms ask of Discord; package bot implements it
// through its session, whose rate-limit buckets pace the calls. Failed
// calls return errors with a DiscordCode() int method when Discord
// answered with a JSON error code.
type Discord interface {
	// CreateThread starts a private thread (type 12) named name in
	// channelID, which only its members and moderators see.
	CreateThread(ctx context.Context, channelID, name string) (string, error)
	// AddThreadMember adds a member to a thread.
	AddThreadMember(ctx context.Context, threadID, userID string) error
	// ArchiveThread archives and locks a thread.
	ArchiveThread(ctx context.Context, threadID string) error
	// CreateChannel creates a guild channel as c describes.
	CreateChannel(ctx context.Context, guildID string, c Channel) (string, error)
	// RemoveThreadMember removes a member from a thread.
	RemoveThreadMember(ctx context.Context, threadID, userID string) error
	// AllowMember lets a member see (and, for voice, join) a channel.
	AllowMember(ctx context.Context, channelID, userID string, voice bool) error
	// DisallowMember removes a member's overwrite of a channel, so the
	// channel's denial to @everyone applies to them again.
	DisallowMember(ctx context.Context, channelID, userID string) error
	// DeleteChannel deletes a channel or thread.
	DeleteChannel(ctx context.Context, channelID string) error
	// FindChannels returns the guild's channels and active threads called
	// any of names, with the name each has.
	FindChannels(ctx context.Context, guildID string, names ...string) ([]Found, error)
	// VoiceChannelOf returns the voice channel a member is in; "" when
	// none.
	VoiceChannelOf(ctx context.Context, guildID, userID string) (string, error)
	// MoveMember moves a member who is in voice to channelID.
	MoveMember(ctx context.Context, guildID, userID, channelID string) error
	// DisconnectMember disconnects a member from voice (Discord's modify
	// member with channel_id null, which needs Move Members; 40032 when
	// they are not in voice).
	DisconnectMember(ctx context.Context, guildID, userID string) error
	// Send posts a plain message pinging only mentions.
	Send(ctx context.Context, channelID, content string, mentions []string) error
}

// Found is a channel FindChannels found.
type Found struct {
	ID, Name string
}

// Channel is a channel to create: visible (and, for voice, joinable) to
// Members, Roles and the bot only.
type Channel struct {
	Name     string
	Voice    bool
	ParentID string
	Members  []string
	Roles    []string
}

// DiscordCode returns Discord's JSON error code of err, 0 when it has none.
func DiscordCode(err error) int {
	var c interface{ DiscordCode() int }
	if errors.As(err, &c) {
		return c.DiscordCode()
	}
	return 0
}
