// Package i18n owns ladderbot's message catalogs and everything that depends
// on a language: choosing one from a Discord locale or an Accept-Language
// header, rendering messages with CLDR plural rules (go-i18n), and formatting
// numbers, percentages, dates and durations the way that language writes them
// (golang.org/x/text).
//
// Each language is one embedded JSON file in catalogs/, named by its BCP 47
// tag; adding a file adds the language everywhere (docs/i18n.md). English is
// the source and the fallback. The pseudo-locale en-XA, built from English at
// start-up, accents every letter and makes each text 40% longer so tests can
// prove nothing is left hard-coded or overflows Discord's limits.
package i18n
