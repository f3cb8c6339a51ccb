package dropinbench

import (
	"encoding/base64"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"
)

// ConfigMapSizes are the numbers of data keys of the ConfigMap cases measured.
var ConfigMapSizes = []int{100, 1000}

// ConfigMapSchema is the ConfigMap's struct schema.
var ConfigMapSchema, _ = sp.NewPatchMetaFromStruct(&corev1.ConfigMap{})

// ConfigMapCase is a ConfigMap of Keys data keys applied again with one value changed: CreateThreeWayMergePatch's
// original and modified, and current as the server holds it: server metadata beside recorded's data, and binaryData of
// as many keys that another writer added (a field modified lacks, which the drop-in stands in for after checking it).
// Sorted says whether current's keys are written in increasing order, as encoding/json writes a map, or decreasing, as
// a program writing its own order may (the drop-in then checks that current's keys are each once by sorting them).
type ConfigMapCase struct {
	Keys                        int
	Sorted                      bool
	Original, Modified, Current []byte
}

// NewConfigMapCase builds the case of keys data keys, current's written in increasing order or not (sorted).
func NewConfigMapCase(keys int, sorted bool) ConfigMapCase {
	original := configMapText(keys, "", true, "", false)
	modified := configMapText(keys, "", true, "changed", false)
	server := `"creationTimestamp":"2026-01-02T03:04:05Z","resourceVersion":"4711","uid":"5d3c8a1e-0000-4000-8000-000000000001",`
	current := configMapText(keys, server, sorted, "", true)
	return ConfigMapCase{Keys: keys, Sorted: sorted, Original: original, Modified: modified, Current: current}
}

// Name names the case in benchmarks and specs.
func (c ConfigMapCase) Name() string {
	order := "sorted"
	if !c.Sorted {
		order = "reversed"
	}
	return fmt.Sprintf("keys=%d/current=%s", c.Keys, order)
}

// Call is CreateThreeWayMergePatch of api on c, overwriting.
func (c ConfigMapCase) Call(api API) ([]byte, error) {
	return api.CreateThreeWayMergePatch(c.Original, c.Modified, c.Current, ConfigMapSchema, true)
}

// configMapText is a ConfigMap of keys data keys ("key-0000" ...), server's metadata fields (each followed by a comma)
// before its name, the keys in increasing order or decreasing (sorted), the first key's value first (empty: as the
// others), and with binary, binaryData of as many keys.
func configMapText(keys int, server string, sorted bool, first string, binary bool) []byte {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"v1",`)
	if binary {
		b.WriteString(`"binaryData":{`)
		writeEntries(&b, keys, sorted, func(k int) string {
			return base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "bytes of entry %d", k))
		})
		b.WriteString(`},`)
	}
	b.WriteString(`"data":{`)
	writeEntries(&b, keys, sorted, func(k int) string {
		if k == 0 && first != "" {
			return first
		}
		return fmt.Sprintf("value %d of the configuration, long enough to be a realistic entry", k)
	})
	b.WriteString(`},"kind":"ConfigMap","metadata":{` + server + `"name":"settings","namespace":"default"}}`)
	return []byte(b.String())
}

// writeEntries writes keys entries "key-0000": value(0) ..., in increasing order of their keys or decreasing (sorted).
func writeEntries(b *strings.Builder, keys int, sorted bool, value func(k int) string) {
	for i := range keys {
		k := i
		if !sorted {
			k = keys - 1 - i
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, `"key-%04d":%q`, k, value(k))
	}
}
