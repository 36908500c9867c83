package llmmetrics

import "strconv"

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// nameOr is name, or "typ(v)" when the library has none for v.
func nameOr(name, typ string, v int64) string {
	if name != "" {
		return name
	}
	return typ + "(" + itoa(v) + ")"
}

// enumName is the name of v among names (those of 0, 1, ...), or "typ(v)" for a value
// without one.
func enumName[E ~int32](v E, typ string, names ...string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return typ + "(" + itoa(int64(v)) + ")"
}
