package fakediscord

import (
	"strings"
	"testing"
)

// TestCommandSizeLimit: a command whose names, descriptions and choices
// together pass Discord's 8,000 characters is refused, as Discord refuses
// it; one at the limit is taken.
func TestCommandSizeLimit(t *testing.T) {
	def := func(subs int) CommandDef {
		d := CommandDef{Name: "config", Description: strings.Repeat("d", 94)} // 100 characters
		for i := range subs {
			d.Options = append(d.Options, OptionDef{Type: 1, Name: strings.Repeat(string(rune('a'+i%26)), 32)[:30] + string(rune('a'+i/26)) + "x",
				Description: strings.Repeat("o", 68)}) // 32 + 68 = 100 characters each
		}
		return d
	}
	if err := validateCommands([]CommandDef{def(25)}); err != nil {
		t.Fatalf("Got(validate 2,600 characters) = %v, want accepted", err)
	}
	big := def(25)
	for i := range big.Options {
		for j := range 3 {
			big.Options[i].Options = append(big.Options[i].Options, OptionDef{Type: 3, Name: strings.Repeat(string(rune('a'+j)), 32),
				Description: strings.Repeat("p", 100), Choices: []ChoiceDef{{Name: "x", Value: "y"}}})
		}
	}
	// 100 + 25 × (100 + 3 × 134) = 12,650 characters.
	if err := validateCommands([]CommandDef{big}); err == nil || !strings.Contains(err.Error(), "more than 8000") {
		t.Errorf("Got(validate 12,650 characters) = %v, want refused over 8000", err)
	}
	if n := commandChars(big); n != 12650 {
		t.Errorf("Got(commandChars) = %d, want 12650", n)
	}
}
