package commands

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

type toFake struct{ base *url.URL }

func (t toFake) RoundTrip(r *http.Request) (*http.Response, error) {
	out := r.Clone(r.Context())
	out.URL.Scheme, out.URL.Host = t.base.Scheme, t.base.Host
	return http.DefaultTransport.RoundTrip(out)
}

// withRoleCreator gives f's commands a CreateRole that creates roles
// through discordgo on a fake Discord, and returns the fake.
func withRoleCreator(t *testing.T, f *fixture) *fakediscord.Server {
	t.Helper()
	fake := fakediscord.New()
	t.Cleanup(fake.Close)
	base, _ := url.Parse(fake.URL())
	dg, err := discordgo.New("Bot x")
	if err != nil {
		t.Fatal(err)
	}
	dg.Client = &http.Client{Timeout: 5 * time.Second, Transport: toFake{base}}
	f.set = New(Deps{Service: f.svc, CreateRole: func(ctx context.Context, guildID, name string) (string, error) {
		r, err := dg.GuildRoleCreate(guildID, &discordgo.RoleParams{Name: name}, discordgo.WithContext(ctx))
		if err != nil {
			return "", err
		}
		return r.ID, nil
	}})
	return fake
}

// TestConfigRoles walks /config roles: bad input changes nothing, a
// division maps to a role, create makes roles for the rest through
// discordgo (and reports a refusal without Manage Roles), /config show lists
// the mapping and a recorded problem, clear empties it.
func TestConfigRoles(t *testing.T) {
	f := newFixture(t)
	fake := withRoleCreator(t, f)
	ctx := context.Background()
	f.ok(admin("config show", nil))

	for _, tc := range []struct {
		name string
		opts map[string]any
	}{
		{"nothing", nil},
		{"unknown division", map[string]any{"division": "Mithril", "role": "500000000000000001"}},
		{"role without division", map[string]any{"role": "500000000000000001"}},
		{"role that is not an ID", map[string]any{"division": "Gold", "role": "@gold"}},
		{"two actions", map[string]any{"division": "Gold", "role": "500000000000000001", "clear": true}},
	} {
		if _, err := f.call(admin("config roles", tc.opts)); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("%s: Got(config roles) error = %v, want invalid", tc.name, err)
		}
	}
	if _, err := f.call(cmd(user(1), "config roles", map[string]any{"division": "Gold", "role": "500000000000000001"})); ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("Got(config roles by a player) error = %v, want forbidden", err)
	}
	if rc, _ := f.svc.DivisionRoleConfig(ctx, guild); len(rc.Mapping) != 0 {
		t.Fatalf("Got(mapping after refused input) = %v, want none", rc.Mapping)
	}

	r := f.ok(admin("config roles", map[string]any{"division": "gold", "role": "500000000000000001"}))
	if !strings.Contains(r.Content, "Gold → <@&500000000000000001>") {
		t.Errorf("Got(config roles gold) = %q, want the mapping", r.Content)
	}
	if _, err := f.call(admin("config roles", map[string]any{"division": "Silver", "role": "500000000000000001"})); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(one role for two divisions) error = %v, want invalid", err)
	}

	fake.SetManageRoles(guild, false)
	if _, err := f.call(admin("config roles", map[string]any{"create": true})); ladder.ErrorCode(err) != ladder.CodeUnavailable || !strings.Contains(err.Error(), "Manage Roles") {
		t.Errorf("Got(create without Manage Roles) error = %v, want unavailable naming Manage Roles", err)
	}
	fake.SetManageRoles(guild, true)
	r = f.ok(admin("config roles", map[string]any{"create": true}))
	if !strings.Contains(r.Content, "Created 4 roles") {
		t.Errorf("Got(create) = %q, want 4 roles created", r.Content)
	}
	if got := len(fake.Roles(guild)); got != 4 {
		t.Errorf("Got(roles on Discord) = %d, want 4", got)
	}
	rc, err := f.svc.DivisionRoleConfig(ctx, guild)
	if err != nil || len(rc.Mapping) != 5 || rc.Mapping["Gold"] != "500000000000000001" {
		t.Fatalf("Got(mapping after create) = %v, %v, want 5 with Gold kept", rc.Mapping, err)
	}
	if _, err := f.svc.RoleFailed(ctx, guild, rc.Mapping["Diamond"], ladder.DiscordMissingPermissions); err != nil {
		t.Fatal(err)
	}
	show := f.ok(admin("config show", nil))
	text := ""
	for _, fl := range show.Embeds[0].Fields {
		if fl.Name == "Rank roles" {
			text = fl.Value
		}
	}
	if !strings.Contains(text, "Diamond → <@&"+rc.Mapping["Diamond"]+">") || !strings.Contains(text, "Manage Roles") {
		t.Errorf("Got(config show division roles) = %q, want the mapping and the problem", text)
	}
	f.ok(admin("config roles", map[string]any{"clear": true}))
	if rc, _ := f.svc.DivisionRoleConfig(ctx, guild); len(rc.Mapping) != 0 || len(rc.Problems) != 0 {
		t.Errorf("Got(after clear) = %+v, want nothing", rc)
	}
}

// TestConfigBadgeRoles maps last season's badges with /config roles on both
// backends: a badge takes a given role or one created through discordgo
// (refused without Manage Roles), a role already standing for a division
// is refused, /config show lists the badges after the divisions, a badge
// is unmapped without a role, and clear forgets divisions and badges.
func TestConfigBadgeRoles(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		db, err := storage.Open(context.Background(), testdb.DSN(t, backend), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		f := &fixture{t: t, svc: ladder.NewService(db, nil)}
		fake := withRoleCreator(t, f)
		ctx := context.Background()
		f.ok(admin("config show", nil))

		for _, tc := range []struct {
			name string
			opts map[string]any
		}{
			{"forged badge", map[string]any{"badge": "top5", "role": "500000000000000001"}},
			{"badge and division", map[string]any{"badge": "top3", "division": "Gold", "role": "500000000000000001"}},
			{"badge with role and create", map[string]any{"badge": "top3", "role": "500000000000000001", "create": true}},
			{"badge and clear", map[string]any{"badge": "top3", "clear": true}},
		} {
			if _, err := f.call(admin("config roles", tc.opts)); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("%s: Got(config roles) error = %v, want invalid", tc.name, err)
			}
		}
		f.ok(admin("config roles", map[string]any{"division": "Gold", "role": "500000000000000001"}))
		if _, err := f.call(admin("config roles", map[string]any{"badge": "top3", "role": "500000000000000001"})); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(a badge on Gold's role) error = %v, want invalid", err)
		}
		r := f.ok(admin("config roles", map[string]any{"badge": "top30", "role": "500000000000000030"}))
		if !strings.Contains(r.Content, "last season's top 30 → <@&500000000000000030>") || !strings.Contains(r.Content, "Gold → <@&500000000000000001>") {
			t.Errorf("Got(config roles badge:top30) = %q, want both mappings", r.Content)
		}

		fake.SetManageRoles(guild, false)
		if _, err := f.call(admin("config roles", map[string]any{"badge": "top3", "create": true})); ladder.ErrorCode(err) != ladder.CodeUnavailable {
			t.Errorf("Got(create a badge role without Manage Roles) error = %v, want unavailable", err)
		}
		fake.SetManageRoles(guild, true)
		r = f.ok(admin("config roles", map[string]any{"badge": "top3", "create": true}))
		roles := fake.Roles(guild)
		if len(roles) != 1 || roles[0].Name != "Top 3" || !strings.Contains(r.Content, "Created 1 role.") {
			t.Fatalf("Got(create top3) = %q, roles on Discord %+v, want one role Top 3", r.Content, roles)
		}
		r = f.ok(admin("config roles", map[string]any{"badge": "top3", "create": true}))
		if !strings.Contains(r.Content, "already has a role") || len(fake.Roles(guild)) != 1 {
			t.Errorf("Got(create top3 again) = %q, want nothing created", r.Content)
		}
		rc, err := f.svc.DivisionRoleConfig(ctx, guild)
		if err != nil || rc.Badges["top3"] != roles[0].ID || rc.Badges["top30"] != "500000000000000030" || len(rc.Mapping) != 1 {
			t.Fatalf("Got(mapping) = %+v, %v, want Gold, top3 created and top30", rc, err)
		}

		show := f.ok(admin("config show", nil))
		text := ""
		for _, fl := range show.Embeds[0].Fields {
			if fl.Name == "Rank roles" {
				text = fl.Value
			}
		}
		want := "Gold → <@&500000000000000001>\nlast season's top 3 → <@&" + roles[0].ID + ">\nlast season's top 30 → <@&500000000000000030>"
		if text != want {
			t.Errorf("Got(config show roles) = %q, want %q", text, want)
		}

		f.ok(admin("config roles", map[string]any{"badge": "top30"}))
		if rc, _ := f.svc.DivisionRoleConfig(ctx, guild); len(rc.Badges) != 1 {
			t.Errorf("Got(badges after unmapping top30) = %v, want top3 only", rc.Badges)
		}
		f.ok(admin("config roles", map[string]any{"clear": true}))
		if rc, _ := f.svc.DivisionRoleConfig(ctx, guild); len(rc.Mapping) != 0 || len(rc.Badges) != 0 {
			t.Errorf("Got(after clear) = %+v, want nothing", rc)
		}
	})
}
