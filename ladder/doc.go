// Package ladder is the domain of ladderbot: players, teams, matches and their
// lifecycle, the rating models, matchmaking and lobby balancing, seasons and
// divisions, and the Service that ties them together.
//
// It imports only the standard library (SPEC 1): storage, Discord and the web
// are adapters that implement or consume the small interfaces declared here,
// so the rules can be tested and benchmarked without any of them.
package ladder
