// Package migrations holds ladderbot's versioned SQL migrations, one folder
// per dialect with the same version numbers in both, embedded in the binary.
// Package storage applies them with goose; nothing else changes the schema.
package migrations

import "embed"

// Postgres holds postgres/*.sql.
//
//go:embed postgres/*.sql
var Postgres embed.FS

// SQLite holds sqlite/*.sql.
//
//go:embed sqlite/*.sql
var SQLite embed.FS
