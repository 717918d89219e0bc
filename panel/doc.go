// Package panel owns the button flow around the ladder: the queue panel,
// one persistent Discord message per queue that lists who is waiting and
// carries Join, Leave, Join with… and Status buttons, and the results
// channel, where every rated result is posted once.
//
// Nothing here decides anything about the ladder: the buttons run the
// same command handlers as /queue (package commands), and this package
// only shows the queue and the results. Its state is rows (Store): which
// message shows which queue, what it last showed, which process edits it
// now, and which results were posted. The editor (Service.Run) keeps the
// messages true: it edits a panel in place at most once per Options.Gap
// however fast the queue changes, lets one process at a time edit a panel
// (a claim on its row), posts a panel again when its message was deleted
// (Discord's 10008 Unknown Message), and checks every panel at start-up
// and every Options.Resync, so a change made by another process, a job or
// a restart shows up by itself.
//
// It imports ladder and commands (for the message types the bot posts),
// never discordgo: Discord is behind Poster, whose errors carry Discord's
// JSON error code through a DiscordCode() int method.
package panel
