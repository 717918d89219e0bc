package bot

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// FuzzRequest feeds INTERACTION_CREATE payloads (command options of every
// type, components, modals, garbage) through discordgo's decoding and the
// bot's adapter: request never panics, a failure is a CodeInvalid error,
// and option values come out as string, int64, float64 or bool only when
// their declared type says so.
func FuzzRequest(f *testing.F) {
	seeds := []string{
		`{"id":"1","type":2,"guild_id":"5","member":{"user":{"id":"7"},"permissions":"32"},"data":{"id":"9","name":"mod","type":1,"options":[{"name":"rating","type":2,"options":[{"name":"set","type":1,"options":[{"name":"player","type":6,"value":"7"},{"name":"rating","type":10,"value":1500.5},{"name":"rd","type":10,"value":60}]}]}]}}`,
		`{"id":"1","type":2,"guild_id":"5","member":{"user":{"id":"7"}},"data":{"name":"report","options":[{"name":"outcome","type":3,"value":"win"},{"name":"match","type":4,"value":12}]}}`,
		`{"id":"1","type":4,"guild_id":"5","member":{"user":{"id":"7"}},"data":{"name":"queue","options":[{"name":"join","type":1,"options":[{"name":"queue","type":3,"value":"2v","focused":true}]}]}}`,
		`{"id":"1","type":3,"guild_id":"5","member":{"user":{"id":"7"}},"message":{"id":"3"},"data":{"custom_id":"cf:12","component_type":2}}`,
		`{"id":"1","type":5,"guild_id":"5","member":{"user":{"id":"7"}},"data":{"custom_id":"dpf:12","components":[{"type":1,"components":[{"type":4,"custom_id":"reason","value":"x"}]}]}}`,
		`{"id":"1","type":2,"data":{"name":"x","options":[{"name":"match","type":4,"value":1e300},{"name":"b","type":5,"value":"yes"},{"name":"n","type":10,"value":"NaN"}]}}`,
		`{"id":"1","type":3}`,
		`{"id":"1","type":2,"data":null}`,
		`{"type":9}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var ic discordgo.Interaction
		if json.Unmarshal(raw, &ic) != nil {
			return
		}
		req, err := request(&ic)
		if err != nil {
			if ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Fatalf("request(%s) error %v has code %s, want invalid", raw, err, ladder.ErrorCode(err))
			}
			return
		}
		if req.Kind != commands.KindCommand && req.Kind != commands.KindAutocomplete {
			return
		}
		for name, v := range req.Options {
			switch v.(type) {
			case string, int64, float64, bool, nil:
			default:
				t.Errorf("option %q: Got(type) = %T, want a string, int64, float64 or bool", name, v)
			}
		}
	})
}
