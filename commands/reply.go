package commands

import "context"

// Reply is what a handler wants shown. The bot maps it onto the right
// Discord call for the interaction kind and whether it was deferred.
type Reply struct {
	Content string
	Embeds  []Embed
	// Buttons are rows of at most five buttons, at most five rows.
	Buttons [][]Button
	// Menus are select menus, each a row of its own below the buttons;
	// buttons and menus together take at most five rows.
	Menus []SelectMenu
	Files []File
	// Ephemeral answers are visible to the invoker only.
	Ephemeral bool
	// Update edits the message a button is on instead of answering anew.
	Update bool
	// Modal opens a form; only Instant commands and components may.
	Modal *Modal
	// Choices answer an autocomplete interaction.
	Choices []Choice
	// Mentions are the user IDs the reply may ping; nobody else is pinged.
	Mentions []string
	// Posts are further messages to send to channels, such as a formed
	// match's announcement in its queue channel.
	Posts []Post
	// Edit, on a message posted to a channel (jobs.Poster), is the ID of a
	// message of that channel to edit instead of sending a new one: the
	// announcement of a match whose ready check ran out.
	Edit string
	// ButtonsOnly, on an Edit, sets only the message's buttons and menus
	// (none removes them) and leaves its text and embeds as they are.
	ButtonsOnly bool
}

// Post is a message to a channel other than the interaction's answer.
type Post struct {
	ChannelID string
	Message   Reply
	// Open, when set, is called just before the post and returns the
	// channel to post to instead of ChannelID: a formed match's room,
	// which it opens (rooms.Manager.Open). It never fails; any problem
	// answers ChannelID.
	Open func(ctx context.Context) string
	// Sent, when set, is told the channel and ID of the message once it is
	// posted: an announcement records them so that it can be edited later.
	Sent func(ctx context.Context, channelID, messageID string) error
	// Follow, when set, is called once the post is sent and may answer a
	// further message for the same channel: a formed match's map pick,
	// which goes in the room the announcement went to.
	Follow func(ctx context.Context) []Post
}

// Say returns a plain reply.
func Say(content string) Reply { return Reply{Content: content} }

// Whisper returns an ephemeral plain reply.
func Whisper(content string) Reply { return Reply{Content: content, Ephemeral: true} }

// Embed is a rich embed.
type Embed struct {
	Title       string
	Description string
	Color       int
	Fields      []Field
	Footer      string
	// Image is an attachment://NAME reference to one of the reply's files.
	Image string
}

// Field is a name/value pair of an embed.
type Field struct {
	Name   string
	Value  string
	Inline bool
}

// ButtonStyle is a Discord button style.
type ButtonStyle int

// Button styles as Discord numbers them.
const (
	Primary   ButtonStyle = 1
	Secondary ButtonStyle = 2
	Success   ButtonStyle = 3
	Danger    ButtonStyle = 4
)

// Button is a clickable button; CustomID is an encoded CustomID.
type Button struct {
	Label    string
	Style    ButtonStyle
	CustomID string
	Disabled bool
}

// SelectMenu is a drop-down list of at most 25 options of which the
// user picks one; CustomID is an encoded CustomID. A menu of another Kind
// lists the guild's users, roles or channels itself (no Options), and the
// handler receives their IDs in Request.Selected.
type SelectMenu struct {
	CustomID    string
	Placeholder string
	Options     []SelectOption
	Disabled    bool
	// Kind is SelectStrings (the zero value), SelectUsers, SelectRoles or
	// SelectChannels.
	Kind SelectKind
	// MaxValues is how many values the user may pick (0 means 1).
	MaxValues int
}

// SelectKind is what a select menu lists.
type SelectKind int

// Select menu kinds.
const (
	SelectStrings SelectKind = iota
	SelectUsers
	SelectRoles
	// SelectChannels lists the guild's text channels.
	SelectChannels
)

// SelectOption is one choice of a SelectMenu; Value is what the handler
// receives in Request.Selected.
type SelectOption struct {
	Label       string
	Value       string
	Description string
	// Default shows the option selected when the menu appears.
	Default bool
}

// File is an attachment.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// Modal is a form of up to five text fields.
type Modal struct {
	CustomID string
	Title    string
	Fields   []TextField
}

// TextField is one text input of a modal.
type TextField struct {
	ID          string
	Label       string
	Placeholder string
	Long        bool
	Required    bool
	MaxLength   int
}

// Colors used by embeds.
const (
	ColorInfo    = 0x5865F2
	ColorSuccess = 0x57F287
	ColorWarn    = 0xFEE75C
	ColorDanger  = 0xED4245
)
