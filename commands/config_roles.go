package commands

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// configRoles is /config roles (issue 16): map one division to a role (or
// unmap it without role), create roles for the unmapped divisions, or
// clear the mapping. One action per call.
func (h *handlers) configRoles(ctx context.Context, req Request, g ladder.Guild) (Reply, error) {
	division, hasDiv := req.String("division")
	role, hasRole := req.String("role")
	create, _ := req.Bool("create")
	clear, _ := req.Bool("clear")
	actions := 0
	for _, on := range []bool{hasDiv || hasRole, create, clear} {
		if on {
			actions++
		}
	}
	switch {
	case actions != 1:
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "give a division (and its role), or create:True, or clear:True: one at a time")
	case clear:
		if err := h.Service.ClearDivisionRoles(ctx, g.ID); err != nil {
			return Reply{}, err
		}
		return Whisper("Division roles cleared. The bot no longer gives or takes any role; roles players hold stay."), nil
	case create:
		return h.createDivisionRoles(ctx, g)
	case !hasDiv:
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "say which division the role is for")
	}
	m, err := h.Service.SetDivisionRoles(ctx, g.ID, map[string]string{strings.TrimSpace(division): role})
	if err != nil {
		return Reply{}, err
	}
	return Whisper("Division roles saved. Players get them within a minute.\n" + roleLines(g, ladder.RoleConfig{Mapping: m})), nil
}

// createDivisionRoles creates a role named after each unmapped division and
// maps it. Roles are created before anything is saved; when Discord refuses
// one, the ones created so far are mapped and the refusal is reported.
func (h *handlers) createDivisionRoles(ctx context.Context, g ladder.Guild) (Reply, error) {
	if h.CreateRole == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "this process cannot create roles: map existing ones with division and role")
	}
	rc, err := h.Service.DivisionRoleConfig(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	set := map[string]string{}
	var failure error
	for _, d := range g.Divisions {
		if rc.Mapping[d.Name] != "" {
			continue
		}
		id, err := h.CreateRole(ctx, g.ID, d.Name)
		if err != nil {
			failure = fmt.Errorf("commands: create role %s: %w", d.Name, err)
			break
		}
		set[d.Name] = id
	}
	m := rc.Mapping
	if len(set) > 0 {
		if m, err = h.Service.SetDivisionRoles(ctx, g.ID, set); err != nil {
			return Reply{}, err
		}
	}
	if failure != nil {
		return Reply{}, ladder.Wrap(ladder.CodeUnavailable, failure,
			fmt.Sprintf("Discord refused to create a role (does the bot have Manage Roles?); %d created and mapped", len(set)))
	}
	if len(set) == 0 {
		return Whisper("Every division already has a role.\n" + roleLines(g, ladder.RoleConfig{Mapping: m})), nil
	}
	return Whisper(fmt.Sprintf("Created %d roles. Move the bot's own role above them so it can give them.\n", len(set)) + roleLines(g, ladder.RoleConfig{Mapping: m})), nil
}

// roleLines lists the mapping in division order and any problem.
func roleLines(g ladder.Guild, rc ladder.RoleConfig) string {
	if len(rc.Mapping) == 0 {
		return "none (/config roles)"
	}
	var b strings.Builder
	for _, d := range g.Divisions {
		if id := rc.Mapping[d.Name]; id != "" {
			fmt.Fprintf(&b, "%s → <@&%s>\n", d.Name, id)
		}
	}
	for _, d := range slices.Sorted(maps.Keys(rc.Mapping)) {
		if _, _, ok := ladder.DivisionRange(g.Divisions, d); !ok {
			fmt.Fprintf(&b, "%s → <@&%s> (no such division any more)\n", d, rc.Mapping[d])
		}
	}
	for _, p := range rc.Problems {
		fmt.Fprintf(&b, "⚠ %s\n", p.Explain())
	}
	return strings.TrimSpace(b.String())
}

// divisionChoices autocompletes a division name from the guild's divisions.
func (h *handlers) divisionChoices(ctx context.Context, req Request) (Reply, error) {
	g, err := h.Service.Guild(ctx, req.GuildID)
	if err != nil {
		return Reply{}, nil
	}
	typed, _ := req.String("division")
	var cs []Choice
	for _, d := range g.Divisions {
		if strings.HasPrefix(strings.ToLower(d.Name), strings.ToLower(typed)) && len(cs) < 25 {
			cs = append(cs, Choice{Name: d.Name, Value: d.Name})
		}
	}
	return Reply{Choices: cs}, nil
}
