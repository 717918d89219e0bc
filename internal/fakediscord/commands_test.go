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
	if n := CommandChars(big); n != 12650 {
		t.Errorf("Got(CommandChars) = %d, want 12650", n)
	}
}

// TestCommandSizeLongestLocalization: Discord counts each field at its
// longest spelling across the default and its localizations, so a command
// that fits in English can pass the limit in another language.
func TestCommandSizeLongestLocalization(t *testing.T) {
	d := CommandDef{Name: "stats", Description: "Ladder stats",
		NameLocalizations: map[string]string{"de": "statistik"}, DescriptionLocalizations: map[string]string{"de": "Statistiken der Rangliste"},
		Options: []OptionDef{{Type: 3, Name: "queue", Description: "queue", DescriptionLocalizations: map[string]string{"fr": "la file d'attente"},
			Choices: []ChoiceDef{{Name: "a", Value: "a", NameLocalizations: map[string]string{"es-ES": "ábaco"}}}}}}
	// 9 + 25 + (5 + 17) + (5 + 1) = 62.
	if n := CommandChars(d); n != 62 {
		t.Errorf("Got(CommandChars) = %d, want 62, each field at its longest spelling", n)
	}
	big := CommandDef{Name: "config", Description: "Settings"}
	for i := range 25 {
		o := OptionDef{Type: 1, Name: "sub" + string(rune('a'+i)), Description: "short"}
		for j := range 4 {
			o.Options = append(o.Options, OptionDef{Type: 3, Name: "opt" + string(rune('a'+j)), Description: "short",
				DescriptionLocalizations: map[string]string{"de": strings.Repeat("ü", 80)}})
		}
		big.Options = append(big.Options, o)
	}
	// In English 6 + 8 + 25 × (4 + 5 + 4 × (4 + 5)) = 1,139 characters;
	// in German 25 × 4 × 75 more: 8,639.
	if err := validateCommands([]CommandDef{big}); err == nil || !strings.Contains(err.Error(), "8639 characters") {
		t.Errorf("Got(validate a command long only in German) = %v, want refused at 8639 characters", err)
	}
}
