package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed catalogs/*.json
var catalogFS embed.FS

// Pseudo is the tag of the pseudo-locale: English with every letter
// accented and every text 40% longer, never offered to users.
const Pseudo = "en-XA"

// Catalog holds every language's messages. It is read-only once built, so
// one Catalog serves every goroutine.
type Catalog struct {
	bundle  *goi18n.Bundle
	langs   map[string]*Lang // by code: "en", "de", "pt-BR", "en-XA"
	order   []string         // codes of the real languages, English first
	matcher language.Matcher
	tags    []language.Tag // in the matcher's order
	// messages are each language's parsed messages by ID, for the
	// completeness test and for Has.
	messages map[string]map[string]*goi18n.Message
	// errKeys maps an English error format to its message ID.
	errKeys map[string]string
}

// Lang renders the messages of one language.
type Lang struct {
	cat     *Catalog
	code    string
	tag     language.Tag
	loc     *goi18n.Localizer
	printer *message.Printer
}

var (
	defaultOnce sync.Once
	defaultCat  *Catalog
)

// Default returns the catalog built from the embedded files. It panics
// when a file is broken: the files are part of the program, so that is a
// programming error caught by the tests.
func Default() *Catalog {
	defaultOnce.Do(func() {
		c, err := Load(catalogFS)
		if err != nil {
			panic(err)
		}
		defaultCat = c
	})
	return defaultCat
}

// For returns the language of a Discord locale or a BCP 47 tag from the
// default catalog (see Catalog.Match).
func For(locale string) *Lang { return Default().Match(locale) }

// ForServer returns the language a server's posts are in: its setting
// (/config language) when set, else the locale Discord says it prefers,
// else English.
func ForServer(setting, preferred string) *Lang {
	if setting != "" {
		return For(setting)
	}
	return For(preferred)
}

// Load builds a catalog from the files catalogs/*.json of fsys.
func Load(fsys fs.FS) (*Catalog, error) {
	c := &Catalog{
		bundle:   goi18n.NewBundle(language.English),
		langs:    map[string]*Lang{},
		messages: map[string]map[string]*goi18n.Message{},
		errKeys:  map[string]string{},
	}
	files, err := fs.Glob(fsys, "catalogs/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	for _, f := range files {
		buf, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		code := strings.TrimSuffix(path.Base(f), ".json")
		tag, err := language.Parse(code)
		if err != nil {
			return nil, fmt.Errorf("i18n: %s: the file name is not a language tag: %w", f, err)
		}
		if !json.Valid(buf) {
			return nil, fmt.Errorf("i18n: %s: invalid JSON", f)
		}
		msgs, err := goi18n.ParseMessageBytes(buf, json.Unmarshal)
		if err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", f, err)
		}
		if err := c.add(code, tag, msgs); err != nil {
			return nil, err
		}
		if code == "en" {
			c.order = append([]string{code}, c.order...)
		} else {
			c.order = append(c.order, code)
		}
	}
	if _, ok := c.langs["en"]; !ok {
		return nil, fmt.Errorf("i18n: no English catalog (catalogs/en.json)")
	}
	for _, code := range c.order {
		c.tags = append(c.tags, c.langs[code].tag)
	}
	c.matcher = language.NewMatcher(c.tags)
	for id, m := range c.messages["en"] {
		if strings.HasPrefix(id, "err.") {
			c.errKeys[m.Other] = id
		}
	}
	en := c.messages["en"]
	pseudo := make([]*goi18n.Message, 0, len(en))
	for _, m := range en {
		pseudo = append(pseudo, pseudoMessage(m))
	}
	if err := c.add(Pseudo, language.MustParse(Pseudo), pseudo); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Catalog) add(code string, tag language.Tag, msgs []*goi18n.Message) error {
	if err := c.bundle.AddMessages(tag, msgs...); err != nil {
		return fmt.Errorf("i18n: %s: %w", code, err)
	}
	byID := make(map[string]*goi18n.Message, len(msgs))
	for _, m := range msgs {
		byID[m.ID] = m
	}
	c.messages[code] = byID
	c.langs[code] = &Lang{
		cat:     c,
		code:    code,
		tag:     tag,
		loc:     goi18n.NewLocalizer(c.bundle, tag.String(), "en"),
		printer: message.NewPrinter(tag),
	}
	return nil
}

// Languages returns the codes of the real languages, English first: the
// file names of the catalogs.
func (c *Catalog) Languages() []string { return append([]string(nil), c.order...) }

// Lang returns the language of an exact code, false when there is none.
func (c *Catalog) Lang(code string) (*Lang, bool) {
	l, ok := c.langs[code]
	return l, ok
}

// English returns the source language.
func (c *Catalog) English() *Lang { return c.langs["en"] }

// Match returns the best language for a Discord locale ("de", "es-ES",
// "pt-BR", "en-GB"), a BCP 47 tag or an Accept-Language header; English
// when nothing matches or locale is empty. The pseudo-locale is returned
// only when asked for by its exact tag.
func (c *Catalog) Match(locale string) *Lang {
	locale = strings.TrimSpace(locale)
	if locale == "" {
		return c.English()
	}
	if l, ok := c.langs[locale]; ok {
		return l
	}
	var tags []language.Tag
	if strings.ContainsAny(locale, ",;") {
		tags, _, _ = language.ParseAcceptLanguage(locale)
	} else if t, err := language.Parse(locale); err == nil {
		tags = []language.Tag{t}
	}
	if len(tags) == 0 {
		return c.English()
	}
	_, i, conf := c.matcher.Match(tags...)
	if conf == language.No {
		return c.English()
	}
	return c.langs[c.order[i]]
}

// Code is the language's catalog name: "en", "de", "pt-BR".
func (l *Lang) Code() string { return l.code }

// Tag is the language's BCP 47 tag, for <html lang>.
func (l *Lang) Tag() language.Tag { return l.tag }

// Name is the language's own name for itself ("Deutsch").
func (l *Lang) Name() string { return l.T("meta.name") }

// Discord is the Discord locale the language is registered under ("es-ES"),
// "" for English, which is the registrations' default.
func (l *Lang) Discord() string {
	if l.code == "en" || l.code == Pseudo {
		return ""
	}
	return l.T("meta.discord")
}

// Has reports whether the language's own catalog holds id.
func (l *Lang) Has(id string) bool {
	_, ok := l.cat.messages[l.code][id]
	return ok
}

// T renders message id with data given as name, value pairs:
// T("queue.joined", "Queue", name). A missing message renders the English
// one; an unknown ID renders the ID itself, which tests catch. A value
// that is Phrased renders in the language.
func (l *Lang) T(id string, kv ...any) string {
	return l.render(id, nil, kv)
}

// N renders the plural message id for count n with CLDR plural rules;
// the data has Count set to n formatted for the language.
func (l *Lang) N(id string, n int, kv ...any) string {
	return l.render(id, n, kv)
}

func (l *Lang) render(id string, count any, kv []any) string {
	data := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		k, _ := kv[i].(string)
		data[k] = kv[i+1]
		if p, ok := kv[i+1].(Phrased); ok {
			data[k] = p.Phrase(l.T)
		}
		if sp, ok := kv[i+1].(Span); ok {
			data[k] = l.Duration(sp.Span())
		}
	}
	if n, ok := count.(int); ok {
		data["Count"] = l.Int(n)
	}
	s, err := l.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil || s == "" {
		return id
	}
	return s
}

// Keyed is an error's argument that names its own text in the catalogs
// (a match's state): Error renders it in the language.
type Keyed interface{ MessageID() string }

// Phrased is an error's argument or a message's data value that words
// itself from the catalogs: t renders a message ID with name, value pairs
// in the language at hand (Lang.T). A time with its weekday, a queue's
// hours or a reason the ladder wrote implement it with nothing but a func
// type, so the packages that make them need not import this one; their
// String method is the English text for logs.
type Phrased interface {
	Phrase(t func(id string, kv ...any) string) string
}

// Span is an error's argument or a message's data value that is a length
// of time (a cooldown's time left): it renders as Lang.Duration, in the
// units of the catalogs' unit.* plurals. Its String method is the English
// text for logs and the JSON API; the packages that make it need not
// import this one.
type Span interface{ Span() time.Duration }

// Phrase renders p in the language.
func (l *Lang) Phrase(p Phrased) string { return p.Phrase(l.T) }

// Error renders an English error text made by fmt.Sprintf(format, args...)
// in the language: the catalog's err.* messages are keyed by their English
// format, and a translation is a format with the same verbs, which may be
// numbered (%[2]s) to change their order. A format without a translation
// renders as English. Arguments that are Keyed, Phrased or a Span render as
// their text.
func (l *Lang) Error(format string, args ...any) string {
	copied := false
	for i, a := range args {
		p, phrased := a.(Phrased)
		k, keyed := a.(Keyed)
		sp, span := a.(Span)
		if !phrased && !keyed && !span {
			continue
		}
		if !copied { // the caller's arguments stay as they were
			args, copied = append([]any(nil), args...), true
		}
		switch {
		case phrased:
			args[i] = p.Phrase(l.T)
		case keyed:
			args[i] = l.T(k.MessageID())
		default:
			args[i] = l.Duration(sp.Span())
		}
	}
	f := format
	if id, ok := l.cat.errKeys[format]; ok {
		if t := l.T(id); t != id {
			f = t
		}
	}
	if len(args) == 0 && f == format {
		return format // a plain message, which may hold a literal %
	}
	return fmt.Sprintf(f, args...)
}

// English returns the source language of the default catalog.
func English() *Lang { return Default().English() }
