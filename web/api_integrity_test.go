package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestIntegrityAPI: a token of the guild lists its integrity flags and
// dismisses one (audited under the token's name); another guild's token or
// none is refused, and bad flag numbers are clear errors.
func TestIntegrityAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		in := e.in // the rated writes raise the flags
		e.srv = New(Options{Service: e.svc, Integrity: in})
		ctx := context.Background()
		for i := range 20 {
			_, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: comGuild, Team1: []string{"501", "502"}, Team2: []string{"503", "504"},
				Winner: 1 + i%2, PlayedAt: time.Now().Add(-time.Hour)})
			if err != nil {
				t.Fatalf("RecordResult() = %v", err)
			}
		}
		if _, err := e.svc.EnsureGuild(ctx, comOther); err != nil {
			t.Fatal(err)
		}
		tok := newToken(t, e, comGuild, "mod-tool")
		auth := []string{"Authorization", "Bearer " + tok}
		base := "/api/v1/guilds/" + comGuild + "/admin/integrity"
		wantError(t, call(e, "GET", base, ""), 401, "bearer")
		otherTok := newToken(t, e, comOther, "theirs")
		wantError(t, call(e, "GET", base, "", "Authorization", "Bearer "+otherTok), 401, "")
		rec := call(e, "GET", base, "", auth...)
		if rec.Code != http.StatusOK {
			t.Fatalf("Got(status) = %d %s", rec.Code, rec.Body)
		}
		list := decode[struct {
			Flags []flagJSON `json:"flags"`
		}](t, rec)
		if len(list.Flags) != 4 || list.Flags[0].Kind != integrity.KindWinTrade || len(list.Flags[0].Players) != 2 || len(list.Flags[0].Matches) == 0 {
			t.Fatalf("Got(flags) = %+v, want the 4 win-trading pairs with players and matches", list.Flags)
		}
		// The evidence is English text, as docs/api.md shows it, though the
		// flags store it as data.
		if ev := list.Flags[0].Evidence; !strings.Contains(ev, "meetings") || strings.Contains(ev, "{") {
			t.Errorf("Got(evidence) = %q, want the English sentence", ev)
		}
		id := strconv.FormatInt(list.Flags[0].ID, 10)
		wantError(t, call(e, "POST", base+"/abc/dismiss", "", auth...), 400, "flag")
		wantError(t, call(e, "POST", base+"/999999/dismiss", "", auth...), 404, "flag")
		rec = call(e, "POST", base+"/"+id+"/dismiss", `{"reason":"scrims\nsee the mod log"}`, auth...)
		if rec.Code != http.StatusOK {
			t.Fatalf("Got(dismiss) = %d %s", rec.Code, rec.Body)
		}
		if f := decode[flagJSON](t, rec); f.DismissedBy != "api:mod-tool" || f.DismissReason != "scrims\nsee the mod log" {
			t.Errorf("Got(dismissed) = %+v, want by api:mod-tool for scrims, on two lines", f)
		}
		wantError(t, call(e, "POST", base+"/"+id+"/dismiss", "", auth...), 409, "dismissed already")
		// The reason may be left out, also by a client that sends its
		// empty body chunked (no Content-Length).
		r := httptest.NewRequest("POST", base+"/"+strconv.FormatInt(list.Flags[1].ID, 10)+"/dismiss", io.MultiReader())
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+tok)
		chunked := httptest.NewRecorder()
		e.srv.Handler().ServeHTTP(chunked, r)
		if r.ContentLength != -1 || chunked.Code != http.StatusOK {
			t.Errorf("Got(dismiss with an empty chunked body) = %d %s (length %d), want 200", chunked.Code, chunked.Body, r.ContentLength)
		}
		if open := decode[struct {
			Flags []flagJSON `json:"flags"`
		}](t, call(e, "GET", base, "", auth...)); len(open.Flags) != 2 {
			t.Errorf("Got(%d open flags), want 2", len(open.Flags))
		}
		if all := decode[struct {
			Flags []flagJSON `json:"flags"`
		}](t, call(e, "GET", base+"?all=true", "", auth...)); len(all.Flags) != 4 {
			t.Errorf("Got(%d flags with all=true), want 4", len(all.Flags))
		}
	})
}
