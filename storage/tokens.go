package storage

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder"
)

// NewTokenSecret returns 256 random bits, URL-safe, behind ladder.TokenPrefix
// (ladder.TokenVault).
func (db *DB) NewTokenSecret() (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("storage: new token secret: %w", err)
	}
	return ladder.TokenPrefix + base64.RawURLEncoding.EncodeToString(raw), nil
}

// HashToken returns the SHA-256 of a secret, the only form stored
// (ladder.TokenVault). Secrets are long random strings, so a fast hash
// without salt is enough: there is nothing to brute-force.
func (db *DB) HashToken(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}
