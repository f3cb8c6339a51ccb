package engine

import (
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
