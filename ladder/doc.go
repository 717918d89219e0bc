// Package ladder is the domain of ladderbot: guilds, queues, players, teams,
// matches and their lifecycle, seasons and divisions, tokens, the coded
// errors the edges show, the store interfaces and the Service that ties them
// together. The rating math lives in ladder/rating and the matchmaker and
// lobby balancer in ladder/matchmaking; ladder imports both, never the
// reverse.
//
// It imports only the standard library (docs/spec.md 1): storage, Discord and the web
// are adapters that implement or consume the small interfaces declared here,
// so the rules can be tested and benchmarked without any of them.
package ladder
