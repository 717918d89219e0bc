package fakediscord_test

import (
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// rewrite sends discord.com requests to the fake.
type rewrite struct{ base *url.URL }

func (t rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	out := r.Clone(r.Context())
	out.URL.Scheme, out.URL.Host = t.base.Scheme, t.base.Host
	return http.DefaultTransport.RoundTrip(out)
}

func session(t *testing.T, s *fakediscord.Server) *discordgo.Session {
	t.Helper()
	base, err := url.Parse(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	dg, err := discordgo.New("Bot x")
	if err != nil {
		t.Fatal(err)
	}
	dg.Client = &http.Client{Timeout: 10 * time.Second, Transport: rewrite{base}}
	dg.ShouldRetryOnRateLimit = true
	dg.MaxRestRetries = 3
	return dg
}

func restCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

// TestMemberRoles drives the fake's role routes with the real discordgo: a
// bucket it paces itself by, injected 429s it retries after retry_after,
// and the errors an admin must fix.
func TestMemberRoles(t *testing.T) {
	s := fakediscord.New()
	t.Cleanup(s.Close)
	dg := session(t, s)
	const g = "100000000000000001"
	gold := s.AddRole(g, "Gold", 5)
	users := []string{"300000000000000001", "300000000000000002", "300000000000000003", "300000000000000004", "300000000000000005", "300000000000000006"}
	for _, u := range users {
		s.AddMember(g, u)
	}
	s.SetRoleRateLimit(2, 150*time.Millisecond)
	s.Inject429(2, 50*time.Millisecond)
	start := time.Now()
	for _, u := range users {
		if err := dg.GuildMemberRoleAdd(g, u, gold); err != nil {
			t.Fatalf("Got(GuildMemberRoleAdd(%s)) = %v, want nil", u, err)
		}
	}
	if el := time.Since(start); el < 200*time.Millisecond {
		t.Errorf("Got(6 adds in a 2/150ms bucket) took %v, want ≥ 200ms (paced)", el)
	}
	for _, u := range users {
		if rs, _ := s.MemberRoles(g, u); len(rs) != 1 || rs[0] != gold {
			t.Errorf("Got(MemberRoles(%s)) = %v, want [%s]", u, rs, gold)
		}
	}
	if n := s.RoleRequests(); n < 8 {
		t.Errorf("Got(RoleRequests()) = %d, want ≥ 8 (6 adds and 2 injected 429s)", n)
	}
	if n := s.Count429(); n != 2 {
		t.Errorf("Got(Count429()) = %d, want 2: the injected ones, none from the bucket discordgo paces by", n)
	}
	m, err := dg.GuildMember(g, users[0])
	if err != nil || len(m.Roles) != 1 {
		t.Errorf("Got(GuildMember) = %+v, %v, want one role", m, err)
	}
	s.TakeRole(g, users[0], gold)
	if rs, _ := s.MemberRoles(g, users[0]); len(rs) != 0 {
		t.Errorf("Got(MemberRoles after TakeRole) = %v, want none", rs)
	}
	if err := dg.GuildMemberRoleRemove(g, users[1], gold); err != nil {
		t.Errorf("Got(GuildMemberRoleRemove) = %v", err)
	}

	high := s.AddRole(g, "Diamond", 500)
	if err := dg.GuildMemberRoleAdd(g, users[0], high); restCode(err) != fakediscord.CodeMissingPermissions {
		t.Errorf("Got(add a role above the bot's) = %v, want code 50013", err)
	}
	s.DeleteRole(g, gold)
	if err := dg.GuildMemberRoleAdd(g, users[0], gold); restCode(err) != fakediscord.CodeUnknownRole {
		t.Errorf("Got(add a deleted role) = %v, want code 10011", err)
	}
	s.SetManageRoles(g, false)
	silver := s.AddRole(g, "Silver", 3)
	if err := dg.GuildMemberRoleAdd(g, users[0], silver); restCode(err) != fakediscord.CodeMissingPermissions {
		t.Errorf("Got(add without Manage Roles) = %v, want code 50013", err)
	}
	if _, err := dg.GuildRoleCreate(g, &discordgo.RoleParams{Name: "Bronze"}); restCode(err) != fakediscord.CodeMissingPermissions {
		t.Errorf("Got(create a role without Manage Roles) = %v, want code 50013", err)
	}
	s.SetManageRoles(g, true)
	r, err := dg.GuildRoleCreate(g, &discordgo.RoleParams{Name: "Bronze"})
	if err != nil || r.Name != "Bronze" {
		t.Fatalf("Got(GuildRoleCreate) = %+v, %v", r, err)
	}
	roles, err := dg.GuildRoles(g)
	if err != nil || len(roles) != 3 {
		t.Errorf("Got(GuildRoles) = %d roles, %v, want 3", len(roles), err)
	}
}
