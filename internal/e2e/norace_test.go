//go:build !race

package e2e

// raceBuild: see race_test.go.
const raceBuild = false
