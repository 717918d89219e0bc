package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// freeAddr returns a loopback address with a port nobody listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// scrape returns the body of GET base+path.
func scrape(t *testing.T, base, path string) string {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s = %d, %v", path, resp.StatusCode, err)
	}
	return string(b)
}

// sample returns the value of the metric line that starts with series
// (name and labels exactly as exposed), or "" when there is none.
func sample(body, series string) string {
	for line := range strings.Lines(body) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), series+" "); ok {
			return v
		}
	}
	return ""
}

// TestRunMetrics runs `ladderbot run` in-process against a fake Discord
// and scrapes its /metrics: the interactions the bot answered appear by
// command and outcome with their acknowledgement latency, the scheduled
// jobs' catch-up runs, the match four queue joins formed, and the
// database pool. A rating change through the bot drops the web server's
// cached leaderboard at once (bot.Config.OnResult), not after the 2 s TTL.
func TestRunMetrics(t *testing.T) {
	fake := fakediscord.New()
	t.Cleanup(fake.Close)
	const guild, channel = "100000000000000078", "200000000000000078"
	addr := freeAddr(t)
	base := "http://" + addr
	logs := startRun(t, fake, guild, addr)
	wait, stop := context.WithTimeout(context.Background(), 20*time.Second)
	defer stop()
	if err := fake.WaitReady(wait, guild); err != nil {
		t.Fatalf("%v\nlog:\n%s", err, logs)
	}

	owner := fakediscord.User{ID: "400000000000000078", Name: "owner", Permissions: commands.PermManageGuild}
	players := make([]fakediscord.User, 4)
	for i := range players {
		players[i] = fakediscord.User{ID: fmt.Sprintf("50000000000000007%d", i), Name: fmt.Sprintf("p%d", i)}
	}
	slash := func(u fakediscord.User, path string, opts map[string]any) string {
		t.Helper()
		p, err := fake.Slash(fakediscord.Call{GuildID: guild, ChannelID: channel, User: u}, path, opts)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Result(wait)
		if err != nil {
			t.Fatalf("/%s: %v\nlog:\n%s", path, err, logs)
		}
		return r.Message.Text()
	}
	// metrics waits until series has value want ("" for any value), as
	// the bot counts an interaction right after answering it and the jobs'
	// catch-up runs in the background, and returns the page.
	metrics := func(series, want string) string {
		t.Helper()
		var body string
		for wait.Err() == nil {
			body = scrape(t, base, "/metrics")
			if got := sample(body, series); got == want || (want == "" && got != "") {
				return body
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("Got(%s) = %q, want %q\n/metrics:\n%s", series, sample(body, series), want, body)
		return ""
	}

	if got := slash(players[0], "queue status", nil); !strings.Contains(got, "You are not queued") {
		t.Errorf("Got(/queue status) = %q, want the queue status", got)
	}
	metrics(`ladderbot_interactions_total{cmd="queue status",outcome="ok"}`, "1")
	metrics(`ladderbot_interaction_ack_seconds_count{cmd="queue status"}`, "1")
	slash(players[0], "queue join", map[string]any{"queue": "nosuch"})
	metrics(`ladderbot_interactions_total{cmd="queue join",outcome="not_found"}`, "1")
	metrics(`ladderbot_job_runs_total{job="matchmake",outcome="ok"}`, "")
	metrics(`go_sql_max_open_connections{db_name="ladderbot"}`, "")

	// Ranked players (no placement games, RD 60) so four joins form a match.
	slash(owner, "config thresholds", map[string]any{"placement_games": 0})
	for i, p := range players {
		slash(owner, "mod rating set", map[string]any{"player": p.ID, "rating": 1500.0 + float64(10*i), "rd": 60.0})
	}
	metrics(`ladderbot_interactions_total{cmd="mod rating set",outcome="ok"}`, "4")
	board := scrape(t, base, "/api/v1/guilds/"+guild+"/leaderboard")
	if !strings.Contains(board, `"rating":1500`) {
		t.Fatalf("Got(leaderboard) = %s, want p0 at 1500", board)
	}
	slash(owner, "mod rating set", map[string]any{"player": players[0].ID, "rating": 1777.0, "rd": 60.0})
	metrics(`ladderbot_interactions_total{cmd="mod rating set",outcome="ok"}`, "5")
	if board := scrape(t, base, "/api/v1/guilds/"+guild+"/leaderboard"); !strings.Contains(board, `"rating":1777`) {
		t.Errorf("Got(leaderboard right after /mod rating set) = %s, want p0 at 1777 (the cached page dropped)", board)
	}

	for _, p := range players {
		slash(p, "queue join", nil)
	}
	body := metrics(`ladderbot_interactions_total{cmd="queue join",outcome="ok"}`, "4")
	formed := ""
	for line := range strings.Lines(body) {
		if strings.HasPrefix(line, `ladderbot_matches_formed_total{guild_id="`+guild+`",`) {
			formed = strings.TrimSpace(line)
		}
	}
	if !strings.HasSuffix(formed, "} 1") {
		t.Errorf("Got(matches formed) = %q, want one series of guild %s with 1\n/metrics:\n%s", formed, guild, body)
	}
}
