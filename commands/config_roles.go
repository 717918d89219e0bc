package commands

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// configRoles is /config roles: map one division or badge to a
// role (or unmap it without role), create roles for the unmapped divisions
// or for one badge, or clear the mapping. One action per call.
func (h *handlers) configRoles(ctx context.Context, req Request, g ladder.Guild) (Reply, error) {
	division, hasDiv := req.String("division")
	badge, hasBadge := req.String("badge")
	role, hasRole := req.String("role")
	create, _ := req.Bool("create")
	clear, _ := req.Bool("clear")
	actions := 0
	for _, on := range []bool{hasDiv || (hasRole && !hasBadge), hasBadge, create && !hasBadge, clear} {
		if on {
			actions++
		}
	}
	switch {
	case actions != 1:
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "give a division or a badge (and its role), or create:True, or clear:True: one at a time")
	case clear:
		if err := h.Service.ClearDivisionRoles(ctx, g.ID); err != nil {
			return Reply{}, err
		}
		return Whisper(userLang(req).T("cfg.roles_cleared")), nil
	case hasBadge && create && hasRole:
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "give the badge a role or create:True, not both")
	case create:
		return h.createRoles(ctx, userLang(req), actor(req), g, badge)
	case hasBadge:
		if _, err := h.Service.SetRoles(ctx, actor(req), g.ID, ladder.RoleMapping{Badges: map[string]string{badge: role}}); err != nil {
			return Reply{}, err
		}
	case !hasDiv:
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "say which division the role is for")
	default:
		if _, err := h.Service.SetRoles(ctx, actor(req), g.ID, ladder.RoleMapping{Divisions: map[string]string{strings.TrimSpace(division): role}}); err != nil {
			return Reply{}, err
		}
	}
	rc, err := h.Service.DivisionRoleConfig(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	return Whisper(tr.T("cfg.roles_saved") + "\n" + roleLines(tr, g, rc)), nil
}

// badgeNames are the names of the roles create makes for badges.
var badgeNames = map[string]string{"top3": "Top 3", "top30": "Top 30", "top100": "Top 100"}

// createRoles creates a role for badge, or (badge "") one named after each
// unmapped division, and maps it. Roles are created before anything is
// saved; when Discord refuses one, the ones created so far are mapped and
// the refusal is reported.
func (h *handlers) createRoles(ctx context.Context, tr *i18n.Lang, who ladder.Actor, g ladder.Guild, badge string) (Reply, error) {
	if h.CreateRole == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "this process cannot create roles: map existing ones with division or badge and role")
	}
	rc, err := h.Service.DivisionRoleConfig(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	type want struct{ key, name string }
	var wants []want
	mapped := rc.Mapping
	if badge != "" {
		if badgeNames[badge] == "" {
			return Reply{}, ladder.Errorf(ladder.CodeInvalid, "no badge is called %q", badge)
		}
		wants, mapped = []want{{badge, badgeNames[badge]}}, rc.Badges
	} else {
		for _, d := range g.Divisions {
			wants = append(wants, want{d.Name, d.Name})
		}
	}
	created := map[string]string{}
	var failure error
	for _, w := range wants {
		if mapped[w.key] != "" {
			continue
		}
		id, err := h.CreateRole(ctx, g.ID, w.name)
		if err != nil {
			failure = fmt.Errorf("commands: create role %s: %w", w.name, err)
			break
		}
		created[w.key] = id
	}
	if len(created) > 0 {
		set := ladder.RoleMapping{Divisions: created}
		if badge != "" {
			set = ladder.RoleMapping{Badges: created}
		}
		if _, err := h.Service.SetRoles(ctx, who, g.ID, set); err != nil {
			return Reply{}, err
		}
		if rc, err = h.Service.DivisionRoleConfig(ctx, g.ID); err != nil {
			return Reply{}, err
		}
	}
	if failure != nil {
		e := ladder.Errorf(ladder.CodeUnavailable, "Discord refused to create a role (does the bot have Manage Roles?); %d created and mapped", len(created))
		e.Err = failure
		return Reply{}, e
	}
	if len(created) == 0 {
		what := tr.T("cfg.roles_all_mapped")
		if badge != "" {
			what = tr.T("cfg.roles_badge_mapped")
		}
		return Whisper(what + "\n" + roleLines(tr, g, rc)), nil
	}
	return Whisper(tr.N("cfg.roles_created", len(created)) + "\n" + roleLines(tr, g, rc)), nil
}

// roleLines lists the mapping in division order, then the badges, and any
// problem.
func roleLines(tr *i18n.Lang, g ladder.Guild, rc ladder.RoleConfig) string {
	if len(rc.Mapping) == 0 && len(rc.Badges) == 0 {
		return tr.T("cfg.roles_none")
	}
	// The problems first: with 25 divisions and the badges mapped the
	// lines pass Discord's 1,024 characters a field, and what is cut off
	// must not be the warning that roles cannot be given.
	var lines []string
	for _, p := range rc.Problems {
		lines = append(lines, "⚠ "+roleProblemText(tr, p))
	}
	for _, d := range g.Divisions {
		if id := rc.Mapping[d.Name]; id != "" {
			lines = append(lines, fmt.Sprintf("%s → <@&%s>", d.Name, id))
		}
	}
	for _, d := range slices.Sorted(maps.Keys(rc.Mapping)) {
		if _, _, ok := ladder.DivisionRange(g.Divisions, d); !ok {
			lines = append(lines, fmt.Sprintf("%s → <@&%s> (%s)", d, rc.Mapping[d], tr.T("cfg.roles_gone")))
		}
	}
	for _, badge := range ladder.Badges {
		if id := rc.Badges[badge]; id != "" {
			lines = append(lines, fmt.Sprintf("%s → <@&%s>", tr.T("cfg.roles_badge", "Badge", strings.ToLower(badgeNames[badge])), id))
		}
	}
	return fitLines(tr, lines, embedFieldValue)
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
