package cluster

import "github.com/plyproject/ply/pkg/value"

// applyBody is the body of a server-side apply patch of v: v as block-style
// YAML (Value.YAML), which reads back to v with the server's YAML reader
// (sigs.k8s.io/yaml, YAML 1.1; pkg/value's FuzzYAML checks it).
//
// The server reads an apply patch (application/apply-patch+yaml) with that
// YAML reader whatever its style, and with fieldValidation=Strict or Warn
// (ply's writes send Strict by default) it reads it twice, the second time
// strictly to find duplicate fields. JSON is YAML in flow style, which that
// reader parses at about three times the memory and CPU of the same object
// in block style (a 560-byte Deployment: about 138 KB allocated against
// 47 KB); on a server whose CPU bounds the lane the difference is
// measurable (docs/benchmarks.md, "The server-side lane").
func applyBody(v value.Value) []byte { return v.YAML() }
