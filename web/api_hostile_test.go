package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestHostileRequests sends what a broken or malicious client can: huge
// and non-finite numbers, negative sizes, unknown and foreign IDs, forged
// and revoked tokens, on every API endpoint. Each must answer a 4xx JSON
// error (never a 5xx) and leave the database exactly as it was.
func TestHostileRequests(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		ctx := context.Background()
		tok := newToken(t, e, guildG, "game-server")
		revoked := newToken(t, e, guildG, "old")
		if _, err := e.svc.RevokeToken(ctx, ladder.System, guildG, "old"); err != nil {
			t.Fatal(err)
		}
		foreignTok := newToken(t, e, otherGuild, "elsewhere")
		foreign, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: otherGuild, Team1: []string{"9001", "9002"}, Team2: []string{"9003", "9004"}, Winner: 1, Source: "test"})
		if err != nil {
			t.Fatal(err)
		}
		g := "/api/v1/guilds/" + guildG
		auth := []string{"Authorization", "Bearer " + tok}
		team := `"team1":["1001","1002"],"team2":["1003","1004"]`
		many := make([]string, 5000)
		for i := range many {
			many[i] = "1500"
		}
		tests := []struct {
			name, method, path, body string
			header                   []string
		}{
			{"winner 1e400", "POST", g + "/matches", `{` + team + `,"winner":1e400}`, auth},
			{"winner -1", "POST", g + "/matches", `{` + team + `,"winner":-1}`, auth},
			{"winner 2^31", "POST", g + "/matches", `{` + team + `,"winner":2147483648}`, auth},
			{"winner 1.5", "POST", g + "/matches", `{` + team + `,"winner":1.5}`, auth},
			{"winner NaN", "POST", g + "/matches", `{` + team + `,"winner":NaN}`, auth},
			{"empty player ID", "POST", g + "/matches", `{"team1":["","1002"],"team2":["1003","1004"],"winner":1}`, auth},
			{"9v9", "POST", g + "/matches", `{"team1":["1","2","3","4","5","6","7","8","9"],"team2":["a","b","c","d","e","f","g","h","i"],"winner":1}`, auth},
			{"10,000-character player ID", "POST", g + "/matches", `{"team1":["` + strings.Repeat("9", 10000) + `","1002"],"team2":["1003","1004"],"winner":1}`, auth},
			{"played_at in year 10000", "POST", g + "/matches", `{` + team + `,"winner":1,"played_at":"10000-01-01T00:00:00Z"}`, auth},
			{"null teams", "POST", g + "/matches", `{"team1":null,"team2":null,"winner":1}`, auth},
			{"JSON array body", "POST", g + "/matches", `[1,2,3]`, auth},
			{"deeply nested body", "POST", g + "/matches", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), auth},
			{"record with a revoked token", "POST", g + "/matches", `{` + team + `,"winner":1}`, []string{"Authorization", "Bearer " + revoked}},
			{"record with another guild's token", "POST", g + "/matches", `{` + team + `,"winner":1}`, []string{"Authorization", "Bearer " + foreignTok}},
			{"record with a forged token", "POST", g + "/matches", `{` + team + `,"winner":1}`, []string{"Authorization", "Bearer lbt_" + strings.Repeat("x", 43)}},
			{"balance of 5,000 players", "POST", g + "/balance", `{"players":[` + strings.Join(many, ",") + `]}`, auth},
			{"balance with team size -1", "POST", g + "/balance", `{"players":[1500,1600,1700,1800],"team_size":-1}`, auth},
			{"balance with team size 2^40", "POST", g + "/balance", `{"players":[1500,1600,1700,1800],"team_size":1099511627776}`, auth},
			{"balance with team size 3 of 4 players", "POST", g + "/balance", `{"players":[1500,1600,1700,1800],"team_size":3}`, auth},
			{"balance of ratings 1e308", "POST", g + "/balance", `{"players":[1e308,1e308,-1e308,-1e308]}`, auth},
			{"balance of rating 1e400", "POST", g + "/balance", `{"players":[1e400,1500]}`, auth},
			{"balance of objects", "POST", g + "/balance", `{"players":[{"id":1},{"id":2}]}`, auth},
			{"balance of a player of nowhere", "POST", g + "/balance", `{"players":[true,false]}`, auth},
			{"set rating 1e308", "PUT", g + "/admin/players/1001/rating", `{"rating":1e308,"rd":50}`, auth},
			{"set rating -1e7", "PUT", g + "/admin/players/1001/rating", `{"rating":-1e7,"rd":50}`, auth},
			{"set rd -1", "PUT", g + "/admin/players/1001/rating", `{"rating":1500,"rd":-1}`, auth},
			{"set rd 1e400", "PUT", g + "/admin/players/1001/rating", `{"rating":1500,"rd":1e400}`, auth},
			{"set rating null", "PUT", g + "/admin/players/1001/rating", `{"rating":null,"rd":50}`, auth},
			{"set rating as a string", "PUT", g + "/admin/players/1001/rating", `{"rating":"1500","rd":50}`, auth},
			{"set rating in an unknown queue", "PUT", g + "/admin/players/1001/rating", `{"rating":1500,"rd":50,"queue":"nope"}`, auth},
			{"set rating in another guild", "PUT", "/api/v1/guilds/" + otherGuild + "/admin/players/9001/rating", `{"rating":1500,"rd":50}`, auth},
			{"reset in another guild", "POST", "/api/v1/guilds/" + otherGuild + "/admin/players/9001/rating/reset", ``, auth},
			{"reset in an unknown queue", "POST", g + "/admin/players/1001/rating/reset", `{"queue":"nope"}`, auth},
			{"another guild's match", "GET", g + "/matches/" + fmt.Sprint(foreign.Match.ID), ``, nil},
			{"unknown match", "GET", g + "/matches/987654321", ``, nil},
			{"match ID beyond int64", "GET", g + "/matches/99999999999999999999", ``, nil},
			{"match ID -1", "GET", g + "/matches/-1", ``, nil},
			{"match ID not a number", "GET", g + "/matches/abc", ``, nil},
			{"leaderboard limit -1", "GET", g + "/leaderboard?limit=-1", ``, nil},
			{"leaderboard limit 1e9", "GET", g + "/leaderboard?limit=1000000000", ``, nil},
			{"leaderboard season 2^40", "GET", g + "/leaderboard?season=1099511627776", ``, nil},
			{"leaderboard season -1", "GET", g + "/leaderboard?season=-1", ``, nil},
			{"leaderboard after garbage", "GET", g + "/leaderboard?after=%00%ff", ``, nil},
			{"leaderboard unknown division", "GET", g + "/leaderboard?division=Mythic", ``, nil},
			{"player season 2^40", "GET", g + "/players/1001?season=1099511627776", ``, nil},
			{"unknown guild", "GET", "/api/v1/guilds/123/leaderboard", ``, nil},
		}
		before, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := call(e, tt.method, tt.path, tt.body, tt.header...)
				if rec.Code < 400 || rec.Code >= 500 {
					t.Errorf("Got(status) = %d (%.200s), want a 4xx error", rec.Code, rec.Body)
					return
				}
				wantError(t, rec, rec.Code, "")
			})
		}
		after, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		if diff := before.Diff(after); len(diff) > 0 {
			t.Errorf("refused requests changed the database: %v", diff)
		}
	})
}
