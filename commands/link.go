package commands

import "context"

func (h *handlers) linkCommand() Command {
	return Command{
		Name:        "link",
		Description: "Link your accounts on other game sites",
		Ephemeral:   true,
		Options: []Option{
			sub("showdown", "Link your Pokémon Showdown name, so /report replay can prove your matches",
				Option{Type: OptString, Name: "name", Description: "your Showdown user name", Required: true, MaxLength: 18}),
		},
		Handle: h.link,
	}
}

func (h *handlers) link(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	name, _ := req.String("name")
	if err := h.Service.LinkShowdown(ctx, req.GuildID, req.UserID, name); err != nil {
		return Reply{}, err
	}
	return Whisper(userLang(req).T("link.done", "Name", name)), nil
}
