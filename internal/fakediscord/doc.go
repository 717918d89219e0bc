// Package fakediscord is a fake Discord for tests: one httptest server that
// speaks enough of the REST API (gateway discovery, command bulk overwrite,
// interaction callbacks, webhook followups and edits, channel messages, with
// multipart file uploads) and of the gateway (hello, identify → READY,
// heartbeat → ack, resume → replay and RESUMED, INTERACTION_CREATE
// dispatch) to drive a real discordgo session. It records everything and
// offers waiting helpers, so tests assert on what the bot sent without
// sleeping. Only tests import it.
package fakediscord
