package bot

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// request adapts a discordgo interaction to a commands.Request. Garbled
// custom IDs give a CodeInvalid error.
func request(ic *discordgo.Interaction) (commands.Request, error) {
	req := commands.Request{
		InteractionID: ic.ID,
		GuildID:       ic.GuildID,
		ChannelID:     ic.ChannelID,
		Locale:        string(ic.Locale),
	}
	if ic.GuildLocale != nil {
		req.GuildLocale = string(*ic.GuildLocale)
	}
	user := ic.User
	if ic.Member != nil {
		user = ic.Member.User
		req.Roles = ic.Member.Roles
		req.Permissions = ic.Member.Permissions
		req.UserName = ic.Member.Nick
	}
	if user != nil {
		req.UserID = user.ID
		if req.UserName == "" {
			req.UserName = user.GlobalName
		}
		if req.UserName == "" {
			req.UserName = user.Username
		}
	}
	if ic.Message != nil {
		req.MessageID = ic.Message.ID
	}
	switch ic.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		req.Kind = commands.KindCommand
		if ic.Type == discordgo.InteractionApplicationCommandAutocomplete {
			req.Kind = commands.KindAutocomplete
		}
		data := ic.ApplicationCommandData()
		path := []string{data.Name}
		opts := data.Options
		for len(opts) == 1 && (opts[0].Type == discordgo.ApplicationCommandOptionSubCommand || opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
			path = append(path, opts[0].Name)
			opts = opts[0].Options
		}
		req.Command = strings.Join(path, " ")
		req.Names = resolvedNames(data.Resolved)
		req.Options = make(map[string]any, len(opts))
		for _, o := range opts {
			req.Options[o.Name] = optionValue(o)
			if o.Focused {
				req.Focused = o.Name
			}
		}
	case discordgo.InteractionMessageComponent:
		req.Kind = commands.KindComponent
		id, err := commands.ParseCustomID(ic.MessageComponentData().CustomID)
		if err != nil {
			return req, err
		}
		req.CustomID = id
		switch data := ic.MessageComponentData(); data.ComponentType {
		case discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
			discordgo.ChannelSelectMenuComponent:
			if len(data.Values) > maxSelectOptions {
				return req, ladder.Errorf(ladder.CodeInvalid, "too many values selected")
			}
			req.Selected = data.Values
		}
	case discordgo.InteractionModalSubmit:
		req.Kind = commands.KindModal
		data := ic.ModalSubmitData()
		id, err := commands.ParseCustomID(data.CustomID)
		if err != nil {
			return req, err
		}
		req.CustomID = id
		req.Values = map[string]string{}
		for _, c := range data.Components {
			row, ok := c.(*discordgo.ActionsRow)
			if !ok {
				continue
			}
			for _, in := range row.Components {
				if t, ok := in.(*discordgo.TextInput); ok {
					req.Values[t.CustomID] = t.Value
				}
			}
		}
	default:
		return req, ladder.Errorf(ladder.CodeInvalid, "this kind of interaction is not supported")
	}
	return req, nil
}

// optionValue normalizes a JSON option value: integers to int64, numbers to
// float64, IDs and strings to string.
func optionValue(o *discordgo.ApplicationCommandInteractionDataOption) any {
	if o.Focused {
		// Autocomplete sends what was typed so far, possibly partial.
		if s, ok := o.Value.(string); ok {
			return s
		}
	}
	switch o.Type {
	case discordgo.ApplicationCommandOptionInteger:
		if f, ok := o.Value.(float64); ok {
			return int64(f)
		}
	case discordgo.ApplicationCommandOptionNumber:
		if f, ok := o.Value.(float64); ok {
			return f
		}
	case discordgo.ApplicationCommandOptionBoolean:
		if b, ok := o.Value.(bool); ok {
			return b
		}
	}
	return o.Value
}

// applicationCommands converts the command set for bulk overwrite.
func applicationCommands(cmds []commands.Command) []*discordgo.ApplicationCommand {
	out := make([]*discordgo.ApplicationCommand, 0, len(cmds))
	for _, c := range cmds {
		ac := &discordgo.ApplicationCommand{
			Type:        discordgo.ChatApplicationCommand,
			Name:        c.Name,
			Description: c.Description,
			Options:     options(c.Options),
		}
		if l := localizations(i18n.SectionName, c.Name); l != nil {
			ac.NameLocalizations = &l
		}
		if l := localizations(i18n.SectionDescription, c.Description); l != nil {
			ac.DescriptionLocalizations = &l
		}
		// A hint for the client only; the dispatch chain checks again.
		// Moderator commands stay visible so that members with the
		// configured moderator role (not a Discord permission) can use them.
		if c.Access == commands.Admins {
			p := commands.PermManageGuild
			ac.DefaultMemberPermissions = &p
		}
		dm := false
		ac.DMPermission = &dm
		out = append(out, ac)
	}
	return out
}

func options(opts []commands.Option) []*discordgo.ApplicationCommandOption {
	out := make([]*discordgo.ApplicationCommandOption, 0, len(opts))
	for _, o := range opts {
		ao := &discordgo.ApplicationCommandOption{
			Type:         discordgo.ApplicationCommandOptionType(o.Type),
			Name:         o.Name,
			Description:  o.Description,
			Required:     o.Required,
			Autocomplete: o.Autocomplete,
			MinValue:     o.Min,
			MaxLength:    o.MaxLength,
			Options:      options(o.Options),

			NameLocalizations:        localizations(i18n.SectionName, o.Name),
			DescriptionLocalizations: localizations(i18n.SectionDescription, o.Description),
		}
		if o.Max != nil {
			ao.MaxValue = *o.Max
		}
		for _, c := range o.Choices {
			ao.Choices = append(ao.Choices, &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value,
				NameLocalizations: localizations(i18n.SectionChoice, c.Name)})
		}
		out = append(out, ao)
	}
	return out
}

// localizations are Discord's name_localizations or
// description_localizations of an English text, from the catalogs; nil
// when no language translates it.
func localizations(section, english string) map[discordgo.Locale]string {
	l := i18n.Default().Localizations(section, english)
	if l == nil {
		return nil
	}
	out := make(map[discordgo.Locale]string, len(l))
	for locale, text := range l {
		out[discordgo.Locale(locale)] = text
	}
	return out
}

// Discord's length limits; longer text is cut with an ellipsis rather than
// have the whole answer refused.
const (
	maxContent     = 2000
	maxTitle       = 256
	maxDescription = 4096
	maxFieldName   = 256
	maxFieldValue  = 1024
	maxFooter      = 2048
	maxFields      = 25
	maxLabel       = 80
	maxChoiceName  = 100
	// maxSelectOptions is Discord's limit on a select menu's options;
	// maxOptionText its limit on an option's label, value and description.
	maxSelectOptions = 25
	maxOptionText    = 100
	// maxModalText is Discord's limit on a modal's title and on a text
	// input's label (a placeholder's is maxOptionText); a translation
	// longer than it would have the whole form refused.
	maxModalText = 45
)

// clip cuts s to at most n characters (runes), ending in "…" when cut;
// n ≤ 0 leaves nothing.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// maxEmbedTotal is Discord's limit on the characters of all of a
// message's embeds together: titles, descriptions, field names and
// values, footers (and author names, which the bot does not set).
const maxEmbedTotal = 6000

// blankField is what an empty field name or value is sent as: Discord
// refuses an empty one (50035), and shows a zero-width space as nothing.
const blankField = "\u200b"

// embeds converts a reply's embeds within Discord's limits: each part is
// clipped to its own, and all together to maxEmbedTotal characters. Within
// the whole budget the titles and footers come first, then each embed's
// description and its fields in order; a field that no longer fits is
// left out with the ones after it, and a description is clipped, rather
// than have Discord refuse the whole message.
func embeds(es []commands.Embed) []*discordgo.MessageEmbed {
	budget := maxEmbedTotal
	take := func(s string, n int) string {
		s = clip(s, min(n, budget))
		budget -= utf8.RuneCountInString(s)
		return s
	}
	titles, footers := make([]string, len(es)), make([]string, len(es))
	for i, e := range es {
		titles[i] = take(e.Title, maxTitle)
		footers[i] = take(e.Footer, maxFooter)
	}
	out := make([]*discordgo.MessageEmbed, 0, len(es))
	for i, e := range es {
		me := &discordgo.MessageEmbed{Type: discordgo.EmbedTypeRich, Title: titles[i], Description: take(e.Description, maxDescription), Color: e.Color}
		for _, f := range e.Fields[:min(len(e.Fields), maxFields)] {
			name, value := clip(f.Name, maxFieldName), clip(f.Value, maxFieldValue)
			if strings.TrimSpace(name) == "" {
				name = blankField
			}
			if strings.TrimSpace(value) == "" {
				value = blankField
			}
			n := utf8.RuneCountInString(name) + utf8.RuneCountInString(value)
			if n > budget {
				break
			}
			budget -= n
			me.Fields = append(me.Fields, &discordgo.MessageEmbedField{Name: name, Value: value, Inline: f.Inline})
		}
		if footers[i] != "" {
			me.Footer = &discordgo.MessageEmbedFooter{Text: footers[i]}
		}
		if e.Image != "" {
			me.Image = &discordgo.MessageEmbedImage{URL: e.Image}
		}
		out = append(out, me)
	}
	return out
}

// components are a reply's rows: its buttons, then one row per select
// menu, as Discord wants a select menu alone in its row.
func components(r commands.Reply) []discordgo.MessageComponent {
	out := make([]discordgo.MessageComponent, 0, len(r.Buttons)+len(r.Menus))
	for _, bs := range r.Buttons {
		row := discordgo.ActionsRow{}
		for _, b := range bs {
			row.Components = append(row.Components, discordgo.Button{
				Label: clip(b.Label, maxLabel), Style: discordgo.ButtonStyle(b.Style), CustomID: b.CustomID, Disabled: b.Disabled,
			})
		}
		out = append(out, row)
	}
	for _, m := range r.Menus {
		one := 1
		menu := discordgo.SelectMenu{MenuType: menuType(m.Kind), CustomID: m.CustomID, Placeholder: clip(m.Placeholder, maxLabel),
			MinValues: &one, MaxValues: min(max(m.MaxValues, 1), maxSelectOptions), Disabled: m.Disabled}
		if m.Kind == commands.SelectChannels {
			menu.ChannelTypes = []discordgo.ChannelType{discordgo.ChannelTypeGuildText}
		}
		for _, o := range m.Options[:min(len(m.Options), maxSelectOptions)] {
			menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: clip(o.Label, maxOptionText), Value: o.Value,
				Description: clip(o.Description, maxOptionText), Default: o.Default})
		}
		out = append(out, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
	}
	return out
}

// menuType is the discordgo select menu type of a kind.
func menuType(k commands.SelectKind) discordgo.SelectMenuType {
	switch k {
	case commands.SelectUsers:
		return discordgo.UserSelectMenu
	case commands.SelectRoles:
		return discordgo.RoleSelectMenu
	case commands.SelectChannels:
		return discordgo.ChannelSelectMenu
	}
	return discordgo.StringSelectMenu
}

func files(fs []commands.File) []*discordgo.File {
	var out []*discordgo.File
	for _, f := range fs {
		out = append(out, &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)})
	}
	return out
}

// resolvedNames are the display names of the users Discord resolved for
// a command's options: the member's nickname, else the user's global
// name, else the username.
func resolvedNames(r *discordgo.ApplicationCommandInteractionDataResolved) map[string]string {
	if r == nil || len(r.Users) == 0 {
		return nil
	}
	out := make(map[string]string, len(r.Users))
	for id, u := range r.Users {
		if u == nil {
			continue
		}
		name := u.GlobalName
		if m := r.Members[id]; m != nil && m.Nick != "" {
			name = m.Nick
		}
		if name == "" {
			name = u.Username
		}
		if name != "" {
			out[id] = name
		}
	}
	return out
}

// maxAllowedUsers is Discord's limit on the users a message may ping.
const maxAllowedUsers = 100

func mentions(users []string) *discordgo.MessageAllowedMentions {
	// An empty parse list: only the listed users are pinged, never roles
	// or @everyone typed into a name. Only Discord users can be pinged: a
	// player of an imported or API-recorded match may have another ID,
	// and Discord refuses the whole message (50035) for a users list
	// holding one, or holding more than 100.
	var ids []string
	for _, u := range users {
		if len(ids) < maxAllowedUsers && ladder.IsSnowflake(u) && !slices.Contains(ids, u) {
			ids = append(ids, u)
		}
	}
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: ids}
}

func flags(ephemeral bool) discordgo.MessageFlags {
	if ephemeral {
		return discordgo.MessageFlagsEphemeral
	}
	return 0
}

func responseData(r commands.Reply) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{
		Content:         clip(r.Content, maxContent),
		Embeds:          embeds(r.Embeds),
		Components:      components(r),
		Files:           files(r.Files),
		AllowedMentions: mentions(r.Mentions),
		Flags:           flags(r.Ephemeral),
	}
}

func modalData(m *commands.Modal) *discordgo.InteractionResponseData {
	rows := make([]discordgo.MessageComponent, 0, len(m.Fields))
	for _, f := range m.Fields {
		style := discordgo.TextInputShort
		if f.Long {
			style = discordgo.TextInputParagraph
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{
			CustomID: f.ID, Label: clip(f.Label, maxModalText), Style: style, Placeholder: clip(f.Placeholder, maxOptionText),
			Required: f.Required, MaxLength: f.MaxLength,
		}}})
	}
	return &discordgo.InteractionResponseData{CustomID: m.CustomID, Title: clip(m.Title, maxModalText), Components: rows}
}

func webhookEdit(r commands.Reply) *discordgo.WebhookEdit {
	content := clip(r.Content, maxContent)
	es := embeds(r.Embeds)
	cs := components(r)
	return &discordgo.WebhookEdit{
		Content: &content, Embeds: &es, Components: &cs,
		Files: files(r.Files), AllowedMentions: mentions(r.Mentions),
	}
}

func webhookParams(r commands.Reply) *discordgo.WebhookParams {
	return &discordgo.WebhookParams{
		Content: clip(r.Content, maxContent), Embeds: embeds(r.Embeds), Components: components(r),
		Files: files(r.Files), AllowedMentions: mentions(r.Mentions), Flags: flags(r.Ephemeral),
	}
}

// messageEdit replaces the whole of message r.Edit of a channel by r: its
// text, embeds and buttons (none clears them), never pinging anew; with
// r.ButtonsOnly only its buttons and menus.
func messageEdit(channelID string, r commands.Reply) *discordgo.MessageEdit {
	content, embs, comps := clip(r.Content, maxContent), embeds(r.Embeds), components(r)
	if embs == nil {
		embs = []*discordgo.MessageEmbed{}
	}
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	if r.ButtonsOnly {
		return &discordgo.MessageEdit{ID: r.Edit, Channel: channelID, Components: &comps, AllowedMentions: mentions(nil)}
	}
	return &discordgo.MessageEdit{ID: r.Edit, Channel: channelID, Content: &content, Embeds: &embs,
		Components: &comps, AllowedMentions: mentions(nil)}
}

func messageSend(r commands.Reply) *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Content: clip(r.Content, maxContent), Embeds: embeds(r.Embeds), Components: components(r),
		Files: files(r.Files), AllowedMentions: mentions(r.Mentions),
	}
}
