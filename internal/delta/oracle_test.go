package delta_test

import (
	"sort"
	"strings"

	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/oracle"
)

// The oracle is k8s.io/apimachinery's strategicpatch with merge metadata
// from the swagger document ply embeds. (built by test/oracle.)

// patchMeta returns kubectl's merge metadata for the definition called
// name, read from the swagger document ply embeds.
func patchMeta(name string) strategicpatch.LookupPatchMeta {
	models, err := oracle.Default()
	Expect(err).NotTo(HaveOccurred())
	o, err := models.Oracle(name)
	Expect(err).NotTo(HaveOccurred())
	return o.Meta()
}

func jsonOrNil(v value.Value, has bool) []byte {
	if !has {
		return nil
	}
	return v.JSON()
}

func decode(b []byte) value.Value {
	v, err := parse.Document(b)
	Expect(err).NotTo(HaveOccurred(), string(b))
	return v
}

// kubectlThreeWay is the patch kubectl apply sends (overwrite on).
func kubectlThreeWay(def string, recorded value.Value, hasRecorded bool, local, live value.Value) value.Value {
	p, err := strategicpatch.CreateThreeWayMergePatch(jsonOrNil(recorded, hasRecorded), local.JSON(), live.JSON(), patchMeta(def), true)
	Expect(err).NotTo(HaveOccurred())
	return decode(p)
}

// verdict is the outcome of kubectl apply without overwrite.
type verdict string

const (
	kubectlAccepts  verdict = "accepts"
	kubectlConflict verdict = "conflict"
	kubectlFails    verdict = "fails with an error that is not a conflict"
)

// kubectlVerdict runs kubectl's three-way patch without overwrite.
func kubectlVerdict(def string, recorded value.Value, hasRecorded bool, local, live value.Value) verdict {
	_, err := strategicpatch.CreateThreeWayMergePatch(jsonOrNil(recorded, hasRecorded), local.JSON(), live.JSON(), patchMeta(def), false)
	switch {
	case err == nil:
		return kubectlAccepts
	case mergepatch.IsConflict(err):
		return kubectlConflict
	}
	return kubectlFails
}

// kubectlTwoWay is strategicpatch's two-way patch from original to modified.
func kubectlTwoWay(def string, original, modified value.Value) value.Value {
	p, err := strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(original.JSON(), modified.JSON(), patchMeta(def))
	Expect(err).NotTo(HaveOccurred())
	return decode(p)
}

// normalize prepares a patch for comparison: $setElementOrder entries are
// removed, and so is what only held them (a map left empty, a keyed-list
// item left with nothing but its merge key); $retainKeys and
// $deleteFromPrimitiveList lists are sorted. t is the schema type of v.
func normalize(v value.Value, t *openapi.Type) value.Value {
	out, keep, _ := normalizeValue(v, t, openapi.Meta{})
	if !keep {
		return value.MustMap()
	}
	return out
}

func normalizeValue(v value.Value, t *openapi.Type, meta openapi.Meta) (out value.Value, keep, removed bool) {
	switch v.Kind() {
	case value.KindMap:
		var fs []value.Field
		for _, f := range v.Fields() {
			switch {
			case strings.HasPrefix(f.Key, smp.SetOrderPrefix):
				removed = true
				continue
			case f.Key == smp.RetainKeysKey || strings.HasPrefix(f.Key, smp.DeletePrefix):
				fs = append(fs, value.Field{Key: f.Key, Value: sortedList(f.Value)})
				continue
			}
			ct, cm := t.Child(f.Key)
			cv, ck, cr := normalizeValue(f.Value, ct, cm)
			removed = removed || cr
			if ck {
				fs = append(fs, value.Field{Key: f.Key, Value: cv})
			}
		}
		if removed && len(fs) == 0 {
			return value.Value{}, false, true
		}
		return value.MustMap(fs...), true, removed
	case value.KindList:
		if t.Kind != openapi.KindList || len(meta.MergeKey) == 0 {
			return v, true, false
		}
		keys := make(map[string]bool, len(meta.MergeKey))
		for _, k := range meta.MergeKey {
			keys[k] = true
		}
		var items []value.Value
		for _, it := range v.Items() {
			if !it.IsMap() {
				items = append(items, it)
				continue
			}
			iv, ik, ir := normalizeValue(it, t.Item(), openapi.Meta{})
			removed = removed || ir
			if !ik {
				continue
			}
			if ir && onlyKeys(iv, keys) {
				continue
			}
			items = append(items, iv)
		}
		if removed && len(items) == 0 {
			return value.Value{}, false, true
		}
		return value.List(items), true, removed
	}
	return v, true, false
}

func onlyKeys(m value.Value, keys map[string]bool) bool {
	for _, f := range m.Fields() {
		if !keys[f.Key] {
			return false
		}
	}
	return true
}

func sortedList(l value.Value) value.Value {
	items := append([]value.Value(nil), l.Items()...)
	sort.SliceStable(items, func(i, j int) bool { return smp.KeyString(items[i]) < smp.KeyString(items[j]) })
	return value.List(items)
}
