// Package rating owns the rating math of docs/spec.md 2 and 4: a player's State, the
// Model interface, the registry that builds a model by name from --params,
// every model (team-glicko, glicko, glicko-boost, elo, synelo, openskill,
// trueskill), GXE, the offline evaluation of models on a match log, the
// learning a queue can do from its own log (online calibration of win
// chances, self-tuning of a model's constants with the adoption rule, the
// partnership term), and the match CSV that log is read from and
// written to.
//
// Models are pure functions of (states, teams, result, time), so rating
// knows nothing of guilds, queues or storage and is tested on its own. It
// imports only the standard library. Invalid input is an *Error, which
// ladder reports to users as an invalid-input coded error.
package rating
