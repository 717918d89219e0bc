// Package bot speaks Discord: one discordgo session per shard, with every
// REST call and the gateway discovery sent to DISCORD_API_BASE through the
// session's HTTP client; command sync by bulk overwrite; the one dispatch
// chain (chain.go), composed of small steps that reach Discord only through
// a responder, so another transport can reuse it; the gateway's responder
// (respond.go), which maps a commands.Reply (or an error) onto Discord; the
// HTTP interactions transport (interactions.go: signed POSTs, the first
// answer in the response, the rest by the same REST calls, no gateway);
// and Post, which delivers the channel messages the scheduled jobs render
// with package commands. It may import commands, ladder and discordgo.
package bot
