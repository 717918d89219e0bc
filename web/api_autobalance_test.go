package web

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestAutobalanceAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "server")
		path := "/api/v1/guilds/" + guildG + "/autobalance"
		post := func(t *testing.T, body string) string {
			t.Helper()
			rec := call(e, "POST", path, body, "Authorization", "Bearer "+tok)
			if rec.Code != 200 {
				t.Fatalf("Got(POST autobalance %s) = %d %s, want 200", body, rec.Code, rec.Body)
			}
			return strings.TrimSpace(rec.Body.String())
		}
		tests := []struct {
			name, body, want string
		}{
			// IDs take their stored ratings: Alice 1900, Bob 1800, Cleo 1700,
			// Dan 1600. The joiner evens 4 vs 1 to 4 vs 2; then one player
			// moves, the one nearest (7000 − 3150)/2 = 1925: Alice.
			{"join then one move",
				`{"team1":["1001","1002","1003","1004"],"team2":[1650],"join":1500,"streak":[1,2,1]}`,
				`{"team1":["1002","1003","1004"],"team2":["1001",1650,1500],"join_team":2,"moves":[{"id":"1001","from":1,"to":2}],"gap_before":5350,"gap_after":50,"exact":true,"scramble":false}`},
			// The larger team is the weaker: F11's "closest to 450" would
			// move the 500; the best move is the weakest player.
			{"larger team weaker",
				`{"team1":[100,500,700],"team2":[2200]}`,
				`{"team1":[500,700],"team2":[100,2200],"moves":[{"id":100,"from":1,"to":2}],"gap_before":900,"gap_after":1100,"exact":true,"scramble":false}`},
			{"balanced sizes move no one",
				`{"team1":["1001","1002"],"team2":["1003"],"join":null,"queue":""}`,
				`{"team1":["1001","1002"],"team2":["1003"],"moves":[],"gap_before":2000,"gap_after":2000,"exact":true,"scramble":false}`},
			// 1000 + 1000 against 2000: an odd lobby scrambles into 2 vs 1
			// with nobody sitting out.
			{"odd lobby scramble",
				`{"team1":[2000],"team2":[1000,1000],"streak":[2,1,1,1]}`,
				`{"team1":[2000],"team2":[1000,1000],"moves":[],"gap_before":0,"gap_after":0,"exact":true,"scramble":true,"split":{"team1":[2000],"team2":[1000,1000],"gap":0,"exact":true}}`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if got := post(t, tt.body); got != tt.want {
					t.Errorf("Got(POST autobalance %s) =\n%s\nwant\n%s", tt.body, got, tt.want)
				}
			})
		}
		t.Run("scramble split", func(t *testing.T) {
			// Team 2 won three in a row: scramble all six. Ratings 1900,
			// 1800, 1700, 1600, 1650, 1500 sum to 10150 and every 3-subset
			// sums to a multiple of 50, so the best gap is 50.
			var got struct {
				Scramble bool
				Split    struct {
					Team1, Team2 []json.RawMessage
					Gap          float64
					Exact        bool
				}
			}
			if err := json.Unmarshal([]byte(post(t, `{"team1":["1001","1002","1003"],"team2":["1004",1650],"join":1500,"streak":[2,2,2]}`)), &got); err != nil {
				t.Fatal(err)
			}
			var all []string
			for _, p := range slices.Concat(got.Split.Team1, got.Split.Team2) {
				all = append(all, string(p))
			}
			slices.Sort(all)
			want := []string{`"1001"`, `"1002"`, `"1003"`, `"1004"`, "1500", "1650"}
			if !got.Scramble || got.Split.Gap != 50 || !got.Split.Exact || len(got.Split.Team1) != 3 || !slices.Equal(all, want) {
				t.Errorf("Got(scramble) = %+v, want true with a 3 vs 3 split of gap 50 over %v", got, want)
			}
		})
		bad := []struct {
			name, body, msg string
		}{
			{"nobody", `{}`, "1 to 64"},
			{"too many", `{"team1":[` + strings.TrimSuffix(strings.Repeat("1500,", 65), ",") + `]}`, "1 to 64"},
			{"same ID twice", `{"team1":["1001"],"team2":["1002"],"join":"1001"}`, "listed twice"},
			{"object joiner", `{"team1":[1500],"join":{"id":"1"}}`, "player 2"},
			{"boolean player", `{"team1":[true]}`, "player 1"},
			{"winner 3", `{"team1":[1500],"streak":[1,3]}`, "winner must be"},
			{"negative threshold", `{"team1":[1500],"streak":[1],"scramble_after":-2}`, "threshold"},
			{"NaN-like rating", `{"team1":[1e400]}`, "player 1"},
			{"absurd rating", `{"team1":[1e300]}`, "not a usable number"},
			{"unknown field", `{"team1":[1500],"players":[1]}`, "unknown field"},
			{"streak of strings", `{"team1":[1500],"streak":["1"]}`, "streak"},
		}
		for _, tt := range bad {
			t.Run(tt.name, func(t *testing.T) {
				wantError(t, call(e, "POST", path, tt.body, "Authorization", "Bearer "+tok), 400, tt.msg)
			})
		}
		t.Run("needs a token", func(t *testing.T) {
			wantError(t, call(e, "POST", path, `{"team1":[1500]}`), 401, "bearer")
		})
	})
}
