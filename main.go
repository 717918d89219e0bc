// Command ladderbot runs a competitive ladder for a Discord community: the
// bot, the web leaderboard and API, the scheduled jobs, and the offline tools
// (simulate, eval, tune, balance, import, export, verify, token). The verbs
// live in package cli; main only hands it the process. See README.md.
package main

import (
	"os"

	"github.com/ladderbot/ladderbot/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Environ(), os.Stdout, os.Stderr))
}
