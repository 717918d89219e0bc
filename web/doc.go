// Package web serves the ladder over HTTP (docs/spec.md 7): the server-rendered
// leaderboard, player and match pages, the read-only JSON API, the game-server
// result API with bearer tokens, and the operations endpoints /healthz,
// /readyz and /metrics.
//
// Handlers translate HTTP into calls on ladder.Service and coded ladder errors
// back into status codes; they hold no ladder logic of their own. The
// Prometheus registry is private to a Metrics value, so nothing registers
// into the global default registry.
package web
