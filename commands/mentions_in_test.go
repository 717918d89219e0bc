package commands

import "testing"

// MentionsIn rewrites the user mentions of a ladder message (an error's
// text) as mention writes them: a Discord user stays a mention, the
// dashboard's "web:<ID>" becomes that user's mention, any other ID is
// text with its markdown escaped; role mentions and text that is no
// mention are left alone.
func TestMentionsIn(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"flag 3 was dismissed already by <@web:300000000000000001>", "flag 3 was dismissed already by <@300000000000000001>"},
		{"flag 3 was dismissed already by <@api:over_lay>", `flag 3 was dismissed already by api:over\_lay`},
		{"<@steam:76561198000000001> is not a player of match 5", "steam:76561198000000001 is not a player of match 5"},
		{"<@500000000000000003> is queued with <@bob>; leave the queue first", "<@500000000000000003> is queued with bob; leave the queue first"},
		{"Queue 2v2 needs the <@&400000000000000001> role (required_role); <@system> does not.", "Queue 2v2 needs the <@&400000000000000001> role (required_role); system does not."},
		{"<@!500000000000000003> and <@> and a <@line\nbreak>", "<@!500000000000000003> and <@> and a <@line\nbreak>"},
		{"<@0123> is no Discord ID", "0123 is no Discord ID"},
		{"nothing to see", "nothing to see"},
	} {
		if got := MentionsIn(c.in); got != c.want {
			t.Errorf("MentionsIn(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
