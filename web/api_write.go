package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
	"unicode"

	"github.com/ladderbot/ladderbot/internal/groupcommit"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/matchmaking"
)

// recordRequest is the body of POST /api/v1/guilds/{guild}/matches (docs/spec.md 7).
type recordRequest struct {
	Team1    []string `json:"team1"`
	Team2    []string `json:"team2"`
	Winner   *int     `json:"winner"`
	PlayedAt string   `json:"played_at"`
	Queue    string   `json:"queue"`
	Map      string   `json:"map"`
	Score    string   `json:"score"`
}

// recordResponse is its answer: the match and everyone's new rating.
type recordResponse struct {
	MatchID int64              `json:"match_id"`
	Ratings []ratingChangeJSON `json:"ratings"`
}

// resultKey is what orders results: one guild's queue ("" is its default).
type resultKey struct{ guild, queue string }

// resultBatch bounds a batch of results written in one transaction.
const resultBatch = 64

// newResults is the Server's group commit of API results.
func newResults(svc *ladder.Service) *groupcommit.Group[resultKey, ladder.ResultInput, ladder.MatchResult] {
	return groupcommit.New[resultKey](resultBatch, svc.RecordResults)
}

// maxIdempotencyKey bounds the Idempotency-Key header.
const maxIdempotencyKey = 200

// apiRecordMatch serves POST /api/v1/guilds/{guild}/matches: it records a
// finished match as confirmed and rates it, answering 201. With an
// Idempotency-Key header already used for the same match it records
// nothing and answers 200 with the first answer's body; the same key with
// other teams or another winner is a 409.
func (s *Server) apiRecordMatch(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	key := r.Header.Get("Idempotency-Key")
	if err := validIdempotencyKey(key); err != nil {
		writeJSONError(w, r, err)
		return
	}
	var req recordRequest
	if err := decodeJSON(r, &req); err != nil {
		writeJSONError(w, r, err)
		return
	}
	in, err := req.input(r.PathValue("guild"), key, s.now())
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	res, err := s.results.Do(r.Context(), resultKey{in.GuildID, in.Queue}, in)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	status := http.StatusCreated
	if res.AlreadyDone {
		if !sameMatch(res.Match, in) {
			writeJSONError(w, r, ladder.Errorf(ladder.CodeConflict,
				"Idempotency-Key %q was already used for match %d with other teams or another winner", key, res.Match.ID))
			return
		}
		status = http.StatusOK
	} else {
		s.board.invalidate(in.GuildID)
	}
	w.Header().Set("Location", fmt.Sprintf("/api/v1/guilds/%s/matches/%d", in.GuildID, res.Match.ID))
	writeJSON(w, status, recordResponse{MatchID: res.Match.ID, Ratings: ratingsInTeamOrder(res.Match, res.Changes)})
}

func validIdempotencyKey(key string) error {
	if len(key) > maxIdempotencyKey {
		return ladder.Errorf(ladder.CodeInvalid, "Idempotency-Key must be at most %d characters", maxIdempotencyKey)
	}
	for _, c := range key {
		if c > unicode.MaxASCII || !unicode.IsPrint(c) {
			return ladder.Errorf(ladder.CodeInvalid, "Idempotency-Key must be printable ASCII")
		}
	}
	return nil
}

func (req recordRequest) input(guildID, key string, now time.Time) (ladder.ResultInput, error) {
	if req.Winner == nil {
		return ladder.ResultInput{}, ladder.Errorf(ladder.CodeInvalid, `"winner" is required: 1, 2 or 0 for a draw`)
	}
	in := ladder.ResultInput{GuildID: guildID, Queue: req.Queue, Team1: req.Team1, Team2: req.Team2,
		Winner: *req.Winner, IdempotencyKey: key, Source: "api", Map: req.Map, Score: req.Score}
	if req.PlayedAt != "" {
		t, err := time.Parse(time.RFC3339Nano, req.PlayedAt)
		if err != nil {
			return ladder.ResultInput{}, ladder.Errorf(ladder.CodeInvalid, `"played_at" must be an RFC 3339 time such as 2026-01-02T15:04:05Z, not %q`, req.PlayedAt)
		}
		if err := ladder.CheckPlayedAt(t, now); err != nil {
			return ladder.ResultInput{}, err
		}
		in.PlayedAt = t
	}
	return in, nil
}

// sameMatch reports whether a match recorded under an idempotency key is
// the one a retry describes: the same teams (in any order within a team)
// and the same winner.
func sameMatch(m ladder.Match, in ladder.ResultInput) bool {
	same := func(a, b []string) bool {
		a, b = slices.Clone(a), slices.Clone(b)
		slices.Sort(a)
		slices.Sort(b)
		return slices.Equal(a, b)
	}
	return m.Winner == in.Winner && same(m.Teams[0], in.Team1) && same(m.Teams[1], in.Team2)
}

// balanceRequest is the body of POST /api/v1/guilds/{guild}/balance: players
// as IDs (strings, rated by the queue's current season) or bare ratings
// (numbers), mixed freely.
type balanceRequest struct {
	Players []json.RawMessage `json:"players"`
	// TeamSize is the size of each team; 0 is ⌊N/2⌋.
	TeamSize int `json:"team_size"`
	// Queue names the queue whose ratings IDs take; "" is the default queue.
	Queue string `json:"queue"`
	// AllSizes adds the best split for every team size (seed 001's scramble cache).
	AllSizes bool `json:"all_sizes"`
}

// splitJSON is one split: the players as the request gave them.
type splitJSON struct {
	TeamSize int               `json:"team_size"`
	Gap      float64           `json:"gap"`
	Exact    bool              `json:"exact"`
	A        []json.RawMessage `json:"a"`
	B        []json.RawMessage `json:"b"`
	SitOut   []json.RawMessage `json:"sit_out"`
}

type balanceResponse struct {
	splitJSON
	// Ratings are the ratings balanced, in the order of the request.
	Ratings []float64   `json:"ratings"`
	Splits  []splitJSON `json:"splits,omitempty"`
}

// maxAPILobby caps lobbies the API balances, keeping each request cheap.
const maxAPILobby = 64

// apiBalance serves POST /api/v1/guilds/{guild}/balance (docs/spec.md 3, 7).
func (s *Server) apiBalance(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	var req balanceRequest
	if err := decodeJSON(r, &req); err != nil {
		writeJSONError(w, r, err)
		return
	}
	if len(req.Players) < 2 || len(req.Players) > maxAPILobby {
		writeJSONError(w, r, ladder.Errorf(ladder.CodeInvalid, `"players" must list 2 to %d players, not %d`, maxAPILobby, len(req.Players)))
		return
	}
	if err := noRepeatedIDs(req.Players); err != nil {
		writeJSONError(w, r, err)
		return
	}
	ratings, err := s.lobbyRatings(r, req)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	release, ok := s.balanceSlot(w, r)
	if !ok {
		return
	}
	defer release()
	split, err := matchmaking.BalanceLobby(ratings, req.TeamSize)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	resp := balanceResponse{splitJSON: splitOf(split, req.Players), Ratings: ratings}
	if req.AllSizes {
		all, err := matchmaking.BalanceAllSizes(ratings)
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		for _, sp := range all {
			resp.Splits = append(resp.Splits, splitOf(sp, req.Players))
		}
	}
	writeJSON(w, http.StatusOK, resp)
}

// balanceBusyWait is the Retry-After of a balance request that found every
// worker busy: most splits take milliseconds, the slowest exact one seconds.
const balanceBusyWait = time.Second

// balanceSlot takes one of the server's balance workers for the request,
// or answers 503 with Retry-After when all are busy (Options.BalanceWorkers)
// and reports false. It does not queue: a burst is refused at once rather
// than held in memory.
func (s *Server) balanceSlot(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	select {
	case s.balanceSlots <- struct{}{}:
		return func() { <-s.balanceSlots }, true
	default:
		w.Header().Set("Retry-After", retryAfter(balanceBusyWait))
		writeJSONError(w, r, errStatus(http.StatusServiceUnavailable,
			"the server is balancing %d other lobbies; retry in %s s", cap(s.balanceSlots), retryAfter(balanceBusyWait)))
		return nil, false
	}
}

// lobbyRatings turns the request's players into ratings: numbers as they
// are, IDs looked up in one query.
func (s *Server) lobbyRatings(r *http.Request, req balanceRequest) ([]float64, error) {
	ratings := make([]float64, len(req.Players))
	var ids []string
	var at []int
	for i, raw := range req.Players {
		raw = bytes.TrimSpace(raw)
		if len(raw) > 0 && raw[0] == '"' {
			var id string
			if err := json.Unmarshal(raw, &id); err != nil {
				return nil, ladder.Errorf(ladder.CodeInvalid, "player %d: %v", i+1, err)
			}
			ids, at = append(ids, id), append(at, i)
			continue
		}
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return nil, ladder.Errorf(ladder.CodeInvalid, "player %d must be a player ID (string) or a rating (number), not %s", i+1, raw)
		}
		ratings[i] = f
	}
	// A named queue is checked even when every player is a number: an
	// unknown queue is a mistake the caller should hear about.
	if len(ids) > 0 || req.Queue != "" {
		sts, err := s.svc.CurrentStandings(r.Context(), r.PathValue("guild"), req.Queue, ids)
		if err != nil {
			return nil, err
		}
		for j, st := range sts {
			ratings[at[j]] = st.Rating
		}
	}
	return ratings, nil
}

func splitOf(sp matchmaking.Split, players []json.RawMessage) splitJSON {
	pick := func(idx []int) []json.RawMessage {
		out := make([]json.RawMessage, len(idx))
		for i, j := range idx {
			out[i] = players[j]
		}
		return out
	}
	return splitJSON{TeamSize: len(sp.A), Gap: sp.Gap, Exact: sp.Exact, A: pick(sp.A), B: pick(sp.B), SitOut: pick(sp.SitOut)}
}
