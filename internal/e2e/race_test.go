//go:build race

package e2e

// raceBuild builds the ladderbot binary with the race detector when the
// tests themselves run with -race, so data races in the processes fail
// the run too (a racing process exits 66 and logs "DATA RACE").
const raceBuild = true
