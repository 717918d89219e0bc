// Package rooms gives each formed match a room of its own: a private
// thread in the queue's channel, or a text channel in a category that only
// the players and moderators see, and optionally one voice channel per
// team. The announcement, ready check, draft, report buttons and votes are
// posted in the room (the match's channel points at it while it lives);
// the queue's channel gets one line with a link.
//
// Rooms are rows (match_rooms): written before anything is created on
// Discord and updated right after each creation, so the rooms job
// (Manager.Tick) finds what a crashed process left half made and cleans it
// up, and closes rooms of ended matches after their queue's linger in
// whichever process runs first. A room that cannot be made (a missing
// permission, the guild's channel limit) is told once to the moderators'
// log channel and the match is played in the queue's channel as before:
// a room problem never holds a match up.
package rooms
