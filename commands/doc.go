// Package commands holds one file per slash command: its definition and a
// handler func(ctx, Request) (Reply, error) that returns what to show and
// never calls Discord. It may import ladder only.
package commands
