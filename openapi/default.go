package openapi

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/plyproject/ply/openapi/internal/reduce"
)

//go:generate go run ./internal/gen
//go:generate go test . -run TestOpenAPI -ginkgo.focus "is what the documents compile to" -update

// DefaultKubernetesVersion is the Kubernetes release whose published
// OpenAPI documents (api/openapi-spec/v3/*.json and swagger.json, reduced
// to schemas and merge metadata) are embedded as the default schemas.
const DefaultKubernetesVersion = reduce.KubernetesVersion

// defaultDoc is the reduced swagger.json of DefaultKubernetesVersion,
// written by `go generate ./openapi/`.
//
//go:embed default/swagger.json
var defaultDoc []byte

// defaultV3 holds the reduced per-group-version v3 documents of
// DefaultKubernetesVersion, written by `go generate ./openapi/`.
//
//go:embed default/v3/*.json
var defaultV3 embed.FS

const (
	defaultDocName   = "embedded Kubernetes " + DefaultKubernetesVersion + " schema"
	defaultV3Dir     = "default/v3"
	defaultV3DocName = "embedded Kubernetes " + DefaultKubernetesVersion + " OpenAPI v3 document "
)

var defaultV3Schema struct {
	once   sync.Once
	schema *Schema
	err    error
}

var defaultV2Schema struct {
	once   sync.Once
	schema *Schema
	err    error
}

// Default returns the default schema of the merge engine: the embedded
// OpenAPI v3 documents (DefaultV3), whose list types and list-map-keys give
// the identities the API server uses (ports by containerPort and protocol).
// Code that must agree with kubectl's strategic merge patch, which reads
// only the v2 extensions, uses DefaultV2.
func Default() (*Schema, error) { return DefaultV3() }

// DefaultV3 returns the schema of Kubernetes DefaultKubernetesVersion built
// from its embedded OpenAPI v3 documents, one per group-version, so list
// types and list-map-keys apply (containers[].ports is keyed by
// containerPort and protocol, protocol defaulting to TCP). It is shared by
// every later call (and goroutine) of the process. Documents are parsed
// lazily and once: ForKind parses only the document of the asked
// group-version, and of its compiled form decodes only the types the kind
// reaches; ByName parses every document on first use and returns the
// type from the first document (in file name order) that has the name, so
// it may be a different pointer than the same definition reached through
// ForKind of another group-version. An embedded document that fails to
// parse (which the package's tests rule out) leaves its kinds unresolved.
func DefaultV3() (*Schema, error) {
	defaultV3Schema.once.Do(func() {
		defaultV3Schema.schema, defaultV3Schema.err = newLazyDefault()
	})
	return defaultV3Schema.schema, defaultV3Schema.err
}

// DefaultV2 returns the schema of Kubernetes DefaultKubernetesVersion built
// from its embedded OpenAPI v2 document (patch strategies and merge keys
// only, as strategicpatch reads them), loaded on first use and shared by
// every later call of the process.
func DefaultV2() (*Schema, error) {
	defaultV2Schema.once.Do(func() {
		defaultV2Schema.schema, defaultV2Schema.err = loadV2(defaultDocName, defaultDoc)
	})
	return defaultV2Schema.schema, defaultV2Schema.err
}

// lazyDocs is a schema made of documents, one per group-version, each
// parsed on first use.
type lazyDocs struct {
	byGV  map[string]*lazyDoc // apiVersion -> its document
	order []*lazyDoc          // sorted by file name, for ByName
	all   sync.Once           // ByName parses every document once
}

// lazyDoc is one document of a lazyDocs.
type lazyDoc struct {
	file  string // the embedded file name, or the document's server path
	name  string // the document name errors carry
	data  []byte // the document, when at hand (read is then not called)
	read  func() ([]byte, error)
	parse func(name string, data []byte) (*Schema, error) // nil: loadV3
	// load, when set, replaces read and parse; parsed reports whether the
	// document was read.
	load   func() (s *Schema, parsed bool, err error)
	once   sync.Once
	parsed atomic.Bool // set once the document has been read and parsed
	schema *Schema
	err    error
}

// get reads and parses the document on first use.
func (d *lazyDoc) get() (*Schema, error) {
	d.once.Do(func() {
		if d.load != nil {
			var parsed bool
			d.schema, parsed, d.err = d.load()
			d.parsed.Store(parsed)
			return
		}
		data := d.data
		if data == nil {
			var err error
			if data, err = d.read(); err != nil {
				d.err = &Error{Document: d.name, Msg: err.Error()}
				return
			}
		}
		parse := d.parse
		if parse == nil {
			parse = loadV3
		}
		d.schema, d.err = parse(d.name, data)
		d.parsed.Store(true)
	})
	return d.schema, d.err
}

// embeddedDoc makes d the lazyDoc of an embedded v3 document file: its
// compiled section when the compiled form has it (compiled.go), else the
// JSON document read with ply's own parser (loadV3Parsed).
func embeddedDoc(d *lazyDoc, file string, compiled []byte) {
	d.file, d.name = file, defaultV3DocName+file
	if compiled != nil {
		d.data, d.parse = compiled, readEmbedded
		return
	}
	d.read = func() ([]byte, error) { return fs.ReadFile(defaultV3, path.Join(defaultV3Dir, file)) }
	d.parse = loadV3Parsed
}

// newLazyDefault indexes the embedded v3 documents by the group-version
// their file names carry, parsing none of them.
func newLazyDefault() (*Schema, error) {
	entries, err := fs.ReadDir(defaultV3, defaultV3Dir)
	if err != nil {
		return nil, &Error{Document: defaultV3DocName, Msg: err.Error()}
	}
	// A compiled form that cannot be read (which the package's tests rule
	// out) leaves every document to be read from JSON.
	compiled, _ := compiledSections(defaultCompiled)
	l := &lazyDocs{byGV: make(map[string]*lazyDoc, len(entries)), order: make([]*lazyDoc, 0, len(entries))}
	docs := make([]lazyDoc, len(entries)) // one allocation for all
	for i, e := range entries {
		gv, ok := reduce.GroupVersion(e.Name())
		if !ok {
			continue
		}
		d := &docs[i]
		embeddedDoc(d, e.Name(), compiled[e.Name()])
		l.byGV[gv] = d
		l.order = append(l.order, d)
	}
	sort.Slice(l.order, func(i, j int) bool { return l.order[i].file < l.order[j].file })
	return &Schema{lazy: l}, nil
}

// forKind parses (once) the document of apiVersion and looks kind up in it.
func (l *lazyDocs) forKind(apiVersion, kind string) (*Type, bool) {
	d := l.byGV[apiVersion]
	if d == nil {
		return nil, false
	}
	s, err := d.get()
	if err != nil {
		return nil, false
	}
	return s.ForKind(apiVersion, kind)
}

// byName looks name up in every document, in file name order.
func (l *lazyDocs) byName(name string) (*Type, bool) {
	for _, d := range l.order {
		s, err := d.get()
		if err != nil {
			continue
		}
		if t, ok := s.ByName(name); ok {
			return t, true
		}
	}
	return nil, false
}

// check parses every document, decoding every type of a compiled one, and
// returns the first error.
func (l *lazyDocs) check() error {
	for _, d := range l.order {
		s, err := d.get()
		if err != nil {
			return err
		}
		if s.compiled != nil {
			if _, err := s.compiled.eager(); err != nil {
				return err
			}
		}
	}
	return nil
}

// parsedFiles lists, sorted, the files parsed so far.
func (l *lazyDocs) parsedFiles() []string {
	var out []string
	for _, d := range l.order {
		if d.parsed.Load() {
			out = append(out, d.file)
		}
	}
	return out
}

// groupVersions lists the apiVersions of the documents, sorted.
func (l *lazyDocs) groupVersions() []string {
	out := make([]string, 0, len(l.byGV))
	for gv := range l.byGV {
		out = append(out, gv)
	}
	sort.Strings(out)
	return out
}
