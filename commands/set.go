package commands

import (
	"context"
	"fmt"
	"slices"

	"github.com/ladderbot/ladderbot/ladder"
)

// ModeratorRole returns the role ID a guild configured for moderators, ""
// when none; the permission check calls it for members without Manage Guild.
type ModeratorRole func(ctx context.Context, guildID string) (string, error)

// Set is the one explicit list of commands and components the bot serves.
type Set struct {
	modRole    ModeratorRole
	commands   []Command
	byName     map[string]int
	components map[string]Component
	// lost is RoomLost's work; nil without match rooms.
	lost func(ctx context.Context, channelID string) (string, []Post, error)
}

// NewSet builds a set. It panics when a name or action is registered twice
// or a definition is invalid: both are programming errors that must stop
// start-up rather than surface at the first sync.
func NewSet(modRole ModeratorRole, cmds []Command, comps []Component) *Set {
	s := &Set{modRole: modRole, byName: map[string]int{}, components: map[string]Component{}}
	for _, c := range cmds {
		if _, dup := s.byName[c.Name]; dup {
			panic(fmt.Sprintf("commands: command /%s registered twice", c.Name))
		}
		if err := c.validate(); err != nil {
			panic(err)
		}
		s.byName[c.Name] = len(s.commands)
		s.commands = append(s.commands, c)
	}
	for _, c := range comps {
		if _, dup := s.components[c.Action]; dup {
			panic(fmt.Sprintf("commands: component action %q registered twice", c.Action))
		}
		if !namePattern.MatchString(c.Action) || c.Handle == nil {
			panic(fmt.Sprintf("commands: component action %q: bad name or no handler", c.Action))
		}
		s.components[c.Action] = c
	}
	if len(s.commands) > 100 {
		panic("commands: more than 100 commands")
	}
	return s
}

// Commands returns the commands in registration order.
func (s *Set) Commands() []Command { return slices.Clone(s.commands) }

// Command returns the command called name.
func (s *Set) Command(name string) (Command, bool) {
	i, ok := s.byName[name]
	if !ok {
		return Command{}, false
	}
	return s.commands[i], true
}

// Component returns the component for action.
func (s *Set) Component(action string) (Component, bool) {
	c, ok := s.components[action]
	return c, ok
}

// Authorize is the permission check of the dispatch chain: it sets
// req.Moderator (Manage Guild, Administrator, or the guild's moderator
// role) and returns a CodeForbidden error when the member may not use
// something of access a. It runs for every interaction, whatever
// default_member_permissions a guild admin configured in Discord.
func (s *Set) Authorize(ctx context.Context, req *Request, a Access) error {
	req.UserName = neutralName(req.UserName)
	// The names Discord resolved for the options are shown, not stored or
	// looked up: each is kept without bidi controls, as the invoker's is,
	// and one that breaks the text rule otherwise is left out rather than
	// refuse the command of whoever named that user.
	for id, n := range req.Names {
		n = neutralName(n)
		if ladder.CheckText("resolved user", id+n) != nil {
			delete(req.Names, id)
			continue
		}
		req.Names[id] = n
	}
	if err := req.CheckText(); err != nil {
		return err
	}
	if err := s.checkBounds(*req); err != nil {
		return err
	}
	if req.GuildID == "" {
		return ladder.Errorf(ladder.CodeForbidden, "ladderbot works in servers, not in direct messages")
	}
	admin := req.Permissions&(PermManageGuild|PermAdministrator) != 0
	req.Moderator = admin
	// The role lookup reads storage, so it runs only where access needs
	// it; elsewhere Moderator reflects the Discord permissions alone.
	if !admin && a != Everyone && s.modRole != nil && len(req.Roles) > 0 {
		role, err := s.modRole(ctx, req.GuildID)
		if err != nil {
			return fmt.Errorf("commands: authorize: %w", err)
		}
		req.Moderator = role != "" && slices.Contains(req.Roles, role)
	}
	switch {
	case a == Admins && !admin:
		return ladder.Errorf(ladder.CodeForbidden, "you are not allowed to do this: it needs the Manage Server permission")
	case a == Moderators && !req.Moderator:
		return ladder.Errorf(ladder.CodeForbidden, "you are not allowed to do this: it is for moderators")
	}
	return nil
}
