package i18n

// Sections of the catalogs that localize slash command registrations.
// Their message IDs are the English texts, so a definition needs no key of
// its own: "cmd.<description>", "name.<name>", "choice.<choice name>".
const (
	SectionDescription = "cmd"
	SectionName        = "name"
	SectionChoice      = "choice"
)

// Registration returns the text a command definition shows in language l:
// the translation of english in section, or english itself when the
// catalog has none (a name without a translation stays the name users
// type in every language).
func (l *Lang) Registration(section, english string) string {
	id := section + "." + english
	if !l.Has(id) {
		return english
	}
	return l.T(id)
}

// Localizations returns Discord's name_localizations or
// description_localizations of an English text: the Discord locale of each
// language other than English mapped to its translation, leaving out
// languages whose text equals the English one. nil when there is none.
func (c *Catalog) Localizations(section, english string) map[string]string {
	var out map[string]string
	for _, code := range c.order[1:] {
		l := c.langs[code]
		t := l.Registration(section, english)
		if t == english || l.Discord() == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[l.Discord()] = t
		for _, also := range alsoRegistered[l.Discord()] {
			out[also] = t
		}
	}
	return out
}

// alsoRegistered are further Discord locales a language's registrations
// are given under. Discord has two Spanish locales, Spain's (es-ES) and
// Latin America's (es-419); the catalog's Spanish, which replies already
// use for both, is written to read in either, so a client set to es-419
// types /cola like one set to es-ES instead of meeting English names.
var alsoRegistered = map[string][]string{"es-ES": {"es-419"}}
