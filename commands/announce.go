package commands

import "github.com/ladderbot/ladderbot/ladder"

// Announcement is the message announcing a formed match — players
// mentioned, teams, quality, win probability and the report buttons — the
// same one /queue join posts, for the matches the scheduled matchmaking
// pass forms (the bot posts it through jobs.Poster).
func Announcement(f ladder.FormedMatch) Reply { return announce(f) }
