// Package showdown verifies a reported match against a Pokémon Showdown
// replay: it fetches a replay's JSON log from the replay server
// (SHOWDOWN_REPLAY_BASE, docs/spec.md 8), parses the battle protocol it holds
// (players p1–p4, the game type, the |win| line) and checks that a match's
// two teams are exactly the two sides of a 2v2 multi battle (p1 and p3
// against p2 and p4), saying which team won or why the replay does not
// prove the match.
//
// It lives under internal/ rather than in ladder because it is an adapter
// to an outside service, like storage is to the database: it does network
// I/O with its own timeouts and size bounds, and knows Showdown's wire
// format, none of which belongs to the domain. ladder stays pure and the
// future /report replay: handler takes this through a small interface
// declared where it is used. It is internal because nothing outside this
// module should depend on its shape, and it is its own package, not part
// of bot or commands, so it is tested alone against real replay logs
// served by httptest. It imports only the standard library.
package showdown
