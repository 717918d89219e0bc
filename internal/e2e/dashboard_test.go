package e2e

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestDashboardAcrossProcesses: two `ladderbot run` processes on one
// database serve the dashboard; a moderator logs in through the fake
// Discord at the first, and the session (a row in the database, not a
// process's memory) works at the second, which checks the moderator's
// rights with Discord itself before a write. Logging out at the second
// ends the session at the first too.
func TestDashboardAcrossProcesses(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		const guild, user, clientID = "600000000000000001", "700000000000000001", "800000000000000001"
		fake := fakediscord.New()
		defer fake.Close()
		fake.Token = botToken
		dsn := freshDSN(t, backend)
		addrs := []string{freeAddr(t), freeAddr(t)}
		var procs []*proc
		for i, addr := range addrs {
			// HTTP interactions: no gateway, so two processes of one shard are fine.
			p := newHTTPProc(t, "dash"+string(rune('a'+i)), dsn, fake, addr)
			p.env = append(p.env, "PUBLIC_URL=http://"+addr,
				"DISCORD_CLIENT_ID="+clientID, "DISCORD_CLIENT_SECRET=e2e-secret")
			procs = append(procs, p)
		}
		fake.SetOAuthApp(clientID, "e2e-secret", "http://"+addrs[0]+"/admin/callback", "http://"+addrs[1]+"/admin/callback")
		fake.AddOAuthUser(user, "mod")
		fake.AddMember(guild, user)
		fake.GrantPermissions(guild, user, fakediscord.PermManageGuild)
		fake.LogInBrowser(user)
		// The guild's ladder exists once someone used it: make it through the API's CLI.
		if out, code := ladderbot(t, dsn, "token", "create", "--guild", guild, "--name", "e2e"); code != 0 {
			t.Fatalf("token create: %s", out)
		}
		for i, p := range procs {
			p.start()
			p.waitReady(ctx, addrs[i])
		}
		defer func() {
			for _, p := range procs {
				p.stop()
			}
		}()

		jar, _ := cookiejar.New(nil)
		client := &http.Client{Jar: jar}
		get := func(u string) (int, string) {
			t.Helper()
			resp, err := client.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		queue := "/admin/guilds/" + guild + "/queues/2v2"
		status, body := get("http://" + addrs[0] + "/admin/login?next=" + url.QueryEscape(queue))
		if status != http.StatusOK || !strings.Contains(body, `name="q_start"`) {
			t.Fatalf("Got(login at process 1) = %d %.400s", status, body)
		}
		status, body = get("http://" + addrs[1] + queue)
		m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
		if status != http.StatusOK || m == nil {
			t.Fatalf("Got(the session at process 2) = %d %.400s, want the logged-in page", status, body)
		}
		req, _ := http.NewRequest(http.MethodPost, "http://"+addrs[1]+queue, strings.NewReader(url.Values{"csrf": {m[1]}, "q_start": {"0.66"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "saved") {
			t.Fatalf("Got(write at process 2) = %d %.400s", resp.StatusCode, b)
		}
		req, _ = http.NewRequest(http.MethodPost, "http://"+addrs[1]+"/admin/logout", strings.NewReader(url.Values{"csrf": {m[1]}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if resp, err = client.Do(req); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		fake.LogInBrowser("") // so a redirect to log in cannot log the browser back in
		if status, body := get("http://" + addrs[0] + queue); status == http.StatusOK && strings.Contains(body, `name="q_start"`) {
			t.Errorf("Got(process 1 after logout at process 2) = the logged-in page, want the session gone")
		}
	})
}
