package storage

import "time"

// dbNow is the time the storage layer stamps rows with itself (creation
// times, dispute resolutions). PostgreSQL keeps microseconds and SQLite
// would keep nanoseconds; one precision on both makes a backup moved
// between them (Backup, Restore) lossless. The service's clock truncates
// alike (ladder.Service.now).
func dbNow() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
