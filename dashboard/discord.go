package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Discord permission bits a manageable guild needs (one of them).
const (
	permAdministrator = 1 << 3
	permManageGuild   = 1 << 5
)

// errUnauthorized is Discord refusing the user's token (revoked by the
// user, or expired): the dashboard session ends.
var errUnauthorized = errors.New("dashboard: discord refused the user's token")

// errNotMember is Discord's 404 for a member lookup: the user is not (or
// no longer) in the guild.
var errNotMember = errors.New("dashboard: not a member of the guild")

// discordUser is GET /users/@me.
type discordUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
}

// name is what the dashboard calls the user.
func (u discordUser) name() string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// userGuild is one entry of GET /users/@me/guilds.
type userGuild struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Owner       bool   `json:"owner"`
	Permissions string `json:"permissions"`
}

// manages reports Manage Server (or Administrator, or ownership) there.
func (g userGuild) manages() bool {
	p, _ := strconv.ParseInt(g.Permissions, 10, 64)
	return g.Owner || p&(permAdministrator|permManageGuild) != 0
}

// discordAPI reads Discord's REST API at base (DISCORD_API_BASE) with the
// user's bearer token or the bot's token.
type discordAPI struct {
	base     string
	botToken string
	client   *http.Client
}

func (d discordAPI) get(ctx context.Context, path, auth string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.base+"/api/v10"+path, nil)
	if err != nil {
		return fmt.Errorf("dashboard: discord: %w", err)
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("User-Agent", "DiscordBot (https://github.com/ladderbot/ladderbot, 1) ladderbot-dashboard")
	resp, err := d.client.Do(req)
	if err != nil {
		return fmt.Errorf("dashboard: discord GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("dashboard: discord GET %s: %w", path, err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return errUnauthorized
	case resp.StatusCode == http.StatusNotFound:
		return errNotMember
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("dashboard: discord GET %s: %s: %.200s", path, resp.Status, body)
	}
	if err := json.Unmarshal(body, into); err != nil {
		return fmt.Errorf("dashboard: discord GET %s: %w", path, err)
	}
	return nil
}

// me returns the token's user.
func (d discordAPI) me(ctx context.Context, token string) (discordUser, error) {
	var u discordUser
	err := d.get(ctx, "/users/@me", "Bearer "+token, &u)
	return u, err
}

// guilds returns the user's guilds with their permissions there.
func (d discordAPI) guilds(ctx context.Context, token string) ([]userGuild, error) {
	var gs []userGuild
	err := d.get(ctx, "/users/@me/guilds", "Bearer "+token, &gs)
	return gs, err
}

// memberRoles returns the roles of a member, read with the bot's token;
// errNotMember when the user is not in the guild.
func (d discordAPI) memberRoles(ctx context.Context, guildID, userID string) ([]string, error) {
	if d.botToken == "" {
		return nil, nil
	}
	var m struct {
		Roles []string `json:"roles"`
	}
	err := d.get(ctx, "/guilds/"+url.PathEscape(guildID)+"/members/"+url.PathEscape(userID), "Bot "+d.botToken, &m)
	if errors.Is(err, errUnauthorized) {
		// The bot's token, not the user's, was refused: a configuration fault.
		return nil, fmt.Errorf("dashboard: discord refused the bot token (DISCORD_TOKEN) reading member roles")
	}
	return m.Roles, err
}

// revoke revokes the user's token at Discord (RFC 7009), best effort: the
// dashboard's session is gone whatever Discord answers.
func (d discordAPI) revoke(ctx context.Context, clientID, secret, token string) error {
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.base+"/api/oauth2/token/revoke", strings.NewReader(form.Encode()))
	if err != nil {
		return fmt.Errorf("dashboard: revoke: %w", err)
	}
	req.SetBasicAuth(url.QueryEscape(clientID), url.QueryEscape(secret))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := d.client.Do(req)
	if err != nil {
		return fmt.Errorf("dashboard: revoke: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("dashboard: revoke: %s", resp.Status)
	}
	return nil
}
