// Package fakediscord is a fake Discord for tests: one httptest server that
// speaks enough of the REST API (gateway discovery, command bulk overwrite,
// interaction callbacks, webhook followups and edits, channel messages, with
// multipart file uploads) and of the gateway (hello, identify → READY,
// heartbeat → ack, resume → replay and RESUMED, INTERACTION_CREATE
// dispatch) to drive a real discordgo session; or, with an interactions
// endpoint set, it signs each interaction with its own Ed25519 key and POSTs
// it there, taking the response as the one callback within 3 s (http.go),
// for every guild or only some (RouteHTTP). Faults are injected on demand:
// failed or lost answers of chosen routes, dropped gateways, and a seeded
// share of REST calls answered 429 or 500 (faults.go).
// Its IDs are Discord's snowflakes, minted from the clock (an
// interaction's ID says when it was sent, as a bot reads it), and it
// refuses a callback after Discord's 3 s: an interaction replayed on a
// resume after a longer outage arrives already failed (ArrivedLate).
// It records everything and offers waiting helpers, so tests assert on what
// the bot sent without sleeping. Only tests import it.
package fakediscord
