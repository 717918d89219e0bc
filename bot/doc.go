// Package bot speaks Discord: one discordgo session per shard, with every
// REST call and the gateway discovery sent to DISCORD_API_BASE through the
// session's HTTP client; command sync by bulk overwrite; the one dispatch
// chain that adapts interactions to commands.Request, acknowledges them,
// checks permissions, runs the handler and maps its commands.Reply (or its
// error) onto Discord; and Post, which delivers the channel messages the
// scheduled jobs render with package commands. It
// may import commands, ladder and discordgo.
package bot
