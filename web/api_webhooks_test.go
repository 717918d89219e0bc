package web

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestWebhooksAPI adds, lists and deletes a webhook through the API: the
// secret appears only in the answer to POST; bad URLs and events are 400;
// another guild's token cannot see or delete it.
func TestWebhooksAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{Webhooks: ladder.URLPolicy{AllowHTTP: true}})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "hooks")
		other := newToken(t, e, otherGuild, "other")
		auth := func(tok string) []string { return []string{"Authorization", "Bearer " + tok} }
		base := "/api/v1/guilds/" + guildG + "/webhooks"

		rec := call(e, "POST", base, `{"url":"http://127.0.0.1:9/hook","events":["match.confirmed","season.closed"]}`, auth(tok)...)
		if rec.Code != 201 {
			t.Fatalf("Got(POST webhooks) = %d %s, want 201", rec.Code, rec.Body)
		}
		var created webhookJSON
		if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || created.ID == 0 || !strings.HasPrefix(created.Secret, "whsec_") {
			t.Fatalf("Got(POST webhooks body) = %s (%v), want an id and a whsec_ secret", rec.Body, err)
		}

		rec = call(e, "GET", base, "", auth(tok)...)
		if rec.Code != 200 || strings.Contains(rec.Body.String(), created.Secret) {
			t.Fatalf("Got(GET webhooks) = %d %s, want 200 without the secret", rec.Code, rec.Body)
		}
		var list struct{ Webhooks []webhookJSON }
		_ = json.Unmarshal(rec.Body.Bytes(), &list)
		if len(list.Webhooks) != 1 || list.Webhooks[0].ID != created.ID || len(list.Webhooks[0].Events) != 2 {
			t.Errorf("Got(GET webhooks) = %s, want webhook %d with 2 events", rec.Body, created.ID)
		}
		if rec := call(e, "GET", "/api/v1/guilds/"+otherGuild+"/webhooks", "", auth(other)...); strings.Contains(rec.Body.String(), "127.0.0.1") {
			t.Errorf("Got(other guild's GET webhooks) = %s, want none of guild G's", rec.Body)
		}

		bad := []struct{ name, body, msg string }{
			{"http to a name", `{"url":"http://example.com/","events":["match.formed"]}`, "https"},
			{"private address", `{"url":"https://10.0.0.8/","events":["match.formed"]}`, "private"},
			{"metadata", `{"url":"https://169.254.169.254/","events":["match.formed"]}`, "link-local"},
			{"decimal loopback", `{"url":"https://2130706433/","events":["match.formed"]}`, "numeric form"},
			{"hex loopback", `{"url":"https://0x7f000001/","events":["match.formed"]}`, "numeric form"},
			{"octal loopback", `{"url":"https://0177.0.0.1/","events":["match.formed"]}`, "numeric form"},
			{"short private", `{"url":"https://10.1/","events":["match.formed"]}`, "numeric form"},
			{"v4-compatible private", `{"url":"https://[::10.0.0.1]/","events":["match.formed"]}`, "carries 10.0.0.1"},
			{"port 6379", `{"url":"https://example.com:6379/","events":["match.formed"]}`, "port 6379 is not allowed"},
			{"no events", `{"url":"https://example.com/"}`, "events"},
			{"unknown event", `{"url":"https://example.com/","events":["match.exploded"]}`, "unknown event"},
			{"repeated event", `{"url":"https://example.com/","events":["match.formed","match.formed"]}`, "twice"},
		}
		for _, c := range bad {
			rec := call(e, "POST", base, c.body, auth(tok)...)
			if rec.Code != 400 || !strings.Contains(rec.Body.String(), c.msg) {
				t.Errorf("Got(POST %s) = %d %s, want 400 mentioning %q", c.name, rec.Code, rec.Body, c.msg)
			}
		}
		if rec := call(e, "POST", base, `{"url":"https://example.com/","events":["match.formed"]}`); rec.Code != 401 {
			t.Errorf("Got(POST without a token) = %d, want 401", rec.Code)
		}

		path := base + "/" + jsonNum(created.ID)
		if rec := call(e, "DELETE", "/api/v1/guilds/"+otherGuild+"/webhooks/"+jsonNum(created.ID), "", auth(other)...); rec.Code != 404 {
			t.Errorf("Got(DELETE by another guild) = %d %s, want 404", rec.Code, rec.Body)
		}
		if rec := call(e, "DELETE", path, "", auth(tok)...); rec.Code != 204 {
			t.Errorf("Got(DELETE) = %d %s, want 204", rec.Code, rec.Body)
		}
		if rec := call(e, "DELETE", path, "", auth(tok)...); rec.Code != 404 {
			t.Errorf("Got(DELETE again) = %d %s, want 404", rec.Code, rec.Body)
		}
		if rec := call(e, "DELETE", base+"/abc", "", auth(tok)...); rec.Code != 404 {
			t.Errorf("Got(DELETE abc) = %d %s, want 404", rec.Code, rec.Body)
		}
	})
}

func jsonNum(id int64) string { b, _ := json.Marshal(id); return string(b) }
