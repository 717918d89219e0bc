package fakediscord

import (
	"fmt"
	"slices"
)

// Discord's select menus that list the guild's users (5), roles (6),
// mentionables (7) and channels (8) themselves: the client offers the
// entities and sends their IDs as values, with the entities resolved.
const (
	ComponentUserSelect        = 5
	ComponentRoleSelect        = 6
	ComponentMentionableSelect = 7
	ComponentChannelSelect     = 8
)

func entitySelect(typ int) bool { return typ >= ComponentUserSelect && typ <= ComponentChannelSelect }

// checkEntitySelect applies Discord's rules for those menus: alone in its
// row, a custom ID, no options (the client lists the entities), a
// placeholder of at most 150 characters, 0 ≤ min ≤ max, max 1 to 25.
func checkEntitySelect(row Row, b Button) error {
	lo, hi := selectBounds(b)
	switch {
	case len(row.Components) != 1:
		return fmt.Errorf("components: a select menu must be alone in its row, not with %d others", len(row.Components)-1)
	case b.CustomID == "":
		return fmt.Errorf("components: select menu without custom_id")
	case len(b.Options) > 0:
		return fmt.Errorf("components: select menu %q of type %d cannot have options", b.CustomID, b.Type)
	case len([]rune(b.Placeholder)) > 150:
		return fmt.Errorf("components: select menu placeholder longer than 150 characters")
	case lo < 0 || lo > 25 || hi < 1 || hi > 25 || lo > hi:
		return fmt.Errorf("components: select menu %q min_values %d, max_values %d: want 0 ≤ min ≤ max, max 1 to 25", b.CustomID, lo, hi)
	case len(b.ChannelTypes) > 0 && b.Type != ComponentChannelSelect:
		return fmt.Errorf("components: channel_types on a select menu of type %d", b.Type)
	}
	return nil
}

// SelectEntities picks users, roles or channels (by ID) in the entity
// select menu with customID on message messageID, as the Discord client
// would: the menu must exist and be enabled, be of an entity type, and
// take that many values; a channel menu offers only channels of its
// channel_types the fake knows (AddChannel), a role menu only the
// guild's roles.
func (s *Server) SelectEntities(c Call, messageID, customID string, ids ...string) (*Pending, error) {
	b, err := s.usable(c, messageID, customID, "select menu")
	if err != nil {
		return nil, err
	}
	if !entitySelect(b.Type) {
		return nil, fmt.Errorf("fakediscord: %q on message %s is not a user, role or channel menu (type %d)", customID, messageID, b.Type)
	}
	if lo, hi := selectBounds(b); len(ids) < lo || len(ids) > hi {
		return nil, fmt.Errorf("fakediscord: select menu %q takes %d to %d values, not %d", customID, lo, hi, len(ids))
	}
	resolved := map[string]any{}
	s.mu.Lock()
	switch b.Type {
	case ComponentUserSelect:
		users := map[string]any{}
		for _, id := range ids {
			users[id] = map[string]any{"id": id, "username": "user" + id}
		}
		resolved["users"] = users
	case ComponentRoleSelect:
		roles := map[string]any{}
		g := s.guildRoles(c.GuildID)
		for _, id := range ids {
			i := slices.IndexFunc(g.roles, func(r Role) bool { return r.ID == id })
			if i < 0 {
				s.mu.Unlock()
				return nil, fmt.Errorf("fakediscord: guild %s has no role %s to pick", c.GuildID, id)
			}
			roles[id] = g.roles[i]
		}
		resolved["roles"] = roles
	case ComponentChannelSelect:
		chans := map[string]any{}
		for _, id := range ids {
			ch, ok := s.guildChannel(c.GuildID, id)
			if !ok || len(b.ChannelTypes) > 0 && !slices.Contains(b.ChannelTypes, ch.Type) {
				s.mu.Unlock()
				return nil, fmt.Errorf("fakediscord: menu %q does not offer channel %s", customID, id)
			}
			chans[id] = ch
		}
		resolved["channels"] = chans
	}
	s.mu.Unlock()
	data := map[string]any{"custom_id": customID, "component_type": b.Type, "values": append([]string{}, ids...), "resolved": resolved}
	msg := map[string]any{"id": messageID, "channel_id": c.ChannelID}
	return s.dispatch(c, TypeComponent, data, msg, func(ix *Interaction) {
		ix.CustomID, ix.MessageID = customID, messageID
	})
}
