// Package matchmaking owns the matchmaker of docs/spec.md 3: its Settings, the queue
// Entry it reads, the Matcher with its split search that forms fair matches
// from a queue, and lobby balance, which splits a lobby into two fair teams;
// for lobbies already playing (seed 001's game servers), Autobalance places a
// mid-round joiner and evens out team sizes, and ScrambleDue with ScrambleSplit
// decide when and how a lopsided lobby is reshuffled.
//
// It sees players only as ratings and deviations, so it knows nothing of
// guilds, storage or rating models beyond rating.MaxTeamSize, and is tested
// and benchmarked on its own. It imports only the standard library. Invalid
// input is an *Error, which ladder reports to users as an invalid-input coded
// error.
package matchmaking
