package joins

import "encoding/json"

// jsonText is v as the audit log keeps settings.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
