package engine

import (
	"bytes"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// holdsOrderKey reports whether a map in v, at any depth, holds a "$setElementOrder/" key.
func holdsOrderKey(v value.Value) bool {
	switch {
	case v.IsMap():
		for _, f := range v.Fields() {
			if strings.HasPrefix(f.Key, setOrderPrefix) || holdsOrderKey(f.Value) {
				return true
			}
		}
	case v.IsList():
		for _, it := range v.Items() {
			if holdsOrderKey(it) {
				return true
			}
		}
	}
	return false
}

// orderKeyText reports whether JSON text may hold a "$setElementOrder/" key, as holdsOrderKey finds in the value read:
// text naming one holds "$setElementOrder" as it is, or spells a character of it as a "\u" escape ("/" may be written
// "\/"). Text holding neither holds no such key.
func orderKeyText(text []byte) bool {
	return bytes.Contains(text, []byte("$setElementOrder")) || bytes.Contains(text, []byte(`\u`))
}
