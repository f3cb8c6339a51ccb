package patch

import (
	"strconv"
	"strings"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// clean returns the patch value v as data, for a node whose patch value is
// taken whole (a replaced map or list, a list without merge strategy): map
// fields set to null are dropped, maps holding "$patch" are dropped (as
// fields and as list items: the directives of a replaced value are
// ignored), and the other directive keys are dropped. depth is the nesting
// of v in the patch; deeper than the limit is an error (for values built
// in memory, which the parser's limit did not see).
func (c *collator) clean(v value.Value, t *openapi.Type, depth int, fail func(elements.Source, string) error) (value.Value, error) {
	out, _, err := c.cleanValue(v, t, depth)
	if err != nil {
		return value.Value{}, fail(elements.Patch, err.Error())
	}
	return out, nil
}

type depthError int

func (d depthError) Error() string {
	return "nesting is deeper than the limit of " + strconv.Itoa(int(d)) + " levels of maps and lists"
}

// cleanValue is clean's recursion; keep is false for a value to drop.
func (c *collator) cleanValue(v value.Value, t *openapi.Type, depth int) (value.Value, bool, error) {
	if t == nil {
		t = openapi.Unknown
	}
	switch v.Kind() {
	case value.KindMap:
		if depth > c.max {
			return v, false, depthError(c.max)
		}
		if _, ok := v.Get(smp.DirectiveKey); ok && !declares(t, smp.DirectiveKey) {
			return v, false, nil
		}
		fs := v.Fields()
		out := make([]value.Field, 0, len(fs))
		for _, f := range fs {
			if f.Value.IsNull() || (strings.HasPrefix(f.Key, "$") && !declares(t, f.Key)) {
				continue
			}
			ct, _ := t.Child(f.Key)
			cv, keep, err := c.cleanValue(f.Value, ct, depth+1)
			if err != nil {
				return v, false, err
			}
			if keep {
				out = append(out, value.Field{Key: f.Key, Value: cv})
			}
		}
		return value.MapFromSorted(out), true, nil
	case value.KindList:
		if depth > c.max {
			return v, false, depthError(c.max)
		}
		items := v.Items()
		out := make([]value.Value, 0, len(items))
		it := t.Item()
		for _, x := range items {
			cv, keep, err := c.cleanValue(x, it, depth+1)
			if err != nil {
				return v, false, err
			}
			if keep {
				out = append(out, cv)
			}
		}
		return value.List(out), true, nil
	}
	return v, true, nil
}
