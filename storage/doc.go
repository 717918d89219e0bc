// Package storage implements ladder's store interfaces with gorm on
// PostgreSQL or the embedded SQLite default (pure Go, no cgo), and runs the
// versioned migrations of package migrations. It may import ladder,
// migrations, gorm and the database drivers.
package storage
