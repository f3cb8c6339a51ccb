// Package smp is kubectl's strategic merge patch wire format: its directive keys, and how kubectl renders and
// sorts merge keys and scalars (KeyString, SortScalars). internal/delta computes what a patch says.
package smp

import (
	"slices"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// Directive keys and values of the strategic merge patch format.
const (
	DirectiveKey   = "$patch"
	DeleteValue    = "delete"
	ReplaceValue   = "replace"
	MergeValue     = "merge"
	RetainKeysKey  = "$retainKeys"
	SetOrderPrefix = "$setElementOrder/"
	DeletePrefix   = "$deleteFromPrimitiveList/"
)

// KeyString renders a merge-key value as kubectl compares and sorts keys (Go's %v of the decoded JSON).
func KeyString(v value.Value) string {
	switch v.Kind() {
	case value.KindString:
		s, _ := v.AsString()
		return s
	case value.KindInt, value.KindFloat:
		f, _ := v.AsFloat()
		return strconv.FormatFloat(f, 'g', -1, 64)
	case value.KindBool:
		b, _ := v.AsBool()
		return strconv.FormatBool(b)
	case value.KindNull:
		return "<nil>"
	}
	return v.Short()
}

// SortScalars sorts vs stably as kubectl sorts scalars: by KeyString.
func SortScalars(vs []value.Value) { slices.SortStableFunc(vs, byKeyString) }

// Sorted reports whether vs are in SortScalars' order.
func Sorted(vs []value.Value) bool { return slices.IsSortedFunc(vs, byKeyString) }

func byKeyString(a, b value.Value) int { return strings.Compare(KeyString(a), KeyString(b)) }
