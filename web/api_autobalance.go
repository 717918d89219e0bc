package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/matchmaking"
)

// autobalanceRequest is the body of POST /api/v1/guilds/{guild}/autobalance
// (docs/spec.md 10, seed 001 F11): a running lobby between rounds. Players are IDs
// (strings, rated by the queue's current season) or bare ratings (numbers),
// as in /balance.
type autobalanceRequest struct {
	Team1 []json.RawMessage `json:"team1"`
	Team2 []json.RawMessage `json:"team2"`
	// Join is a player joining now; absent or null when nobody joins.
	Join json.RawMessage `json:"join"`
	// Streak lists the recent rounds' winners, oldest first (1, 2, or 0
	// for a stalemate); it asks whether to scramble.
	Streak []int `json:"streak"`
	// ScrambleAfter is the number of straight wins that triggers a
	// scramble; 0 is seed 001's 3.
	ScrambleAfter int    `json:"scramble_after"`
	Queue         string `json:"queue"`
}

// moveJSON is one player changing teams, the player as the request gave it.
type moveJSON struct {
	ID   json.RawMessage `json:"id"`
	From int             `json:"from"`
	To   int             `json:"to"`
}

// scrambleJSON is the new split a scramble asks for: every player of the
// lobby, the joiner included, in two teams whose sizes differ by at most one.
type scrambleJSON struct {
	Team1 []json.RawMessage `json:"team1"`
	Team2 []json.RawMessage `json:"team2"`
	Gap   float64           `json:"gap"`
	Exact bool              `json:"exact"`
}

type autobalanceResponse struct {
	Team1 []json.RawMessage `json:"team1"`
	Team2 []json.RawMessage `json:"team2"`
	// JoinTeam is where the joiner goes, absent without one.
	JoinTeam  int        `json:"join_team,omitempty"`
	Moves     []moveJSON `json:"moves"`
	GapBefore float64    `json:"gap_before"`
	GapAfter  float64    `json:"gap_after"`
	Exact     bool       `json:"exact"`
	Scramble  bool       `json:"scramble"`
	// Split is the scramble's new teams, present when Scramble is true.
	Split *scrambleJSON `json:"split,omitempty"`
}

// apiAutobalance serves POST /api/v1/guilds/{guild}/autobalance: where a
// joiner goes and who moves to even out the team sizes (seed 001 F11), and
// whether a win streak calls for a scramble with its new split.
func (s *Server) apiAutobalance(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	var req autobalanceRequest
	if err := decodeJSON(r, &req); err != nil {
		writeJSONError(w, r, err)
		return
	}
	players := slices.Concat(req.Team1, req.Team2)
	join := len(bytes.TrimSpace(req.Join)) > 0 && !bytes.Equal(bytes.TrimSpace(req.Join), []byte("null"))
	if join {
		players = append(players, req.Join)
	}
	if len(players) < 1 || len(players) > maxAPILobby {
		writeJSONError(w, r, ladder.Errorf(ladder.CodeInvalid, `"team1", "team2" and "join" must list 1 to %d players, not %d`, maxAPILobby, len(players)))
		return
	}
	if err := noRepeatedIDs(players); err != nil {
		writeJSONError(w, r, err)
		return
	}
	ratings, err := s.lobbyRatings(r, balanceRequest{Players: players, Queue: req.Queue})
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	due, err := matchmaking.ScrambleDue(req.Streak, req.ScrambleAfter)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	release, ok := s.balanceSlot(w, r)
	if !ok {
		return
	}
	defer release()
	n1, n2 := len(req.Team1), len(req.Team2)
	lobby := matchmaking.RunningLobby{Team1: ratings[:n1], Team2: ratings[n1 : n1+n2]}
	if join {
		lobby.Joiner = &ratings[n1+n2]
	}
	rb, err := matchmaking.Autobalance(lobby)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	resp := autobalanceResponse{
		Team1: pickPlayers(players, rb.Team1), Team2: pickPlayers(players, rb.Team2), JoinTeam: rb.JoinTeam,
		Moves: []moveJSON{}, GapBefore: rb.GapBefore, GapAfter: rb.GapAfter, Exact: rb.Exact, Scramble: due,
	}
	for _, m := range rb.Moves {
		resp.Moves = append(resp.Moves, moveJSON{ID: players[m.Player], From: m.From, To: m.To})
	}
	if due {
		sp, err := matchmaking.ScrambleSplit(ratings)
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		resp.Split = &scrambleJSON{Team1: pickPlayers(players, sp.A), Team2: pickPlayers(players, sp.B), Gap: sp.Gap, Exact: sp.Exact}
	}
	writeJSON(w, http.StatusOK, resp)
}

// noRepeatedIDs refuses a lobby that lists one player ID twice (on both
// teams, or as the joiner and on a team). Bare ratings may repeat.
func noRepeatedIDs(players []json.RawMessage) error {
	seen := map[string]bool{}
	for i, raw := range players {
		var id string
		if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &id) != nil {
			continue
		}
		if seen[id] {
			return ladder.Errorf(ladder.CodeInvalid, "player %d: %q is listed twice", i+1, id)
		}
		seen[id] = true
	}
	return nil
}

func pickPlayers(players []json.RawMessage, idx []int) []json.RawMessage {
	out := make([]json.RawMessage, len(idx))
	for i, j := range idx {
		out[i] = players[j]
	}
	return out
}
