package commands

import (
	"slices"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestQueueSettingsCoverConfigQueueSet: the dashboard and the token API
// change queues through ladder.QueueSettings; it must hold exactly the
// options of /config queue set, so a new option cannot be missing from
// the web, nor the web offer a field the command lacks.
func TestQueueSettingsCoverConfigQueueSet(t *testing.T) {
	var set []string
	for _, c := range New(Deps{}).Commands() {
		if c.Name != "config" {
			continue
		}
		for _, g := range c.Options {
			for _, s := range g.Options {
				if g.Name == "queue" && s.Name == "set" {
					for _, o := range s.Options {
						if o.Name != "queue" {
							set = append(set, o.Name)
						}
					}
				}
			}
		}
	}
	var web []string
	for _, s := range ladder.QueueSettings() {
		web = append(web, s.Name)
	}
	slices.Sort(set)
	slices.Sort(web)
	if len(set) == 0 || !slices.Equal(set, web) {
		t.Errorf("Got(ladder.QueueSettings) = %v, want the options of /config queue set %v", web, set)
	}
}
