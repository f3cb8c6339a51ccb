package openapi

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// Vendor extensions read from OpenAPI v2 documents.
const (
	extGVK           = "x-kubernetes-group-version-kind"
	extPatchStrategy = "x-kubernetes-patch-strategy"
	extPatchMergeKey = "x-kubernetes-patch-merge-key"
	extIntOrString   = "x-kubernetes-int-or-string"

	definitionsPrefix = "#/definitions/"
	formatIntOrString = "int-or-string"
)

// LoadV2 loads an OpenAPI v2 (swagger) document, JSON (or YAML), and
// resolves every definition into a Type:
//
//   - an object with properties is a KindStruct;
//   - an object with a schema-valued additionalProperties is a KindMap;
//   - an array is a KindList;
//   - string, integer, number and boolean are KindPrimitive (Primitive is
//     the JSON type, empty for int-or-string);
//   - anything else (no type, or type object with neither properties nor an
//     additionalProperties schema) is KindUnknown.
//
// A $ref (or an allOf holding a single $ref) resolves to the referenced
// definition's Type, the same pointer for every reference. A property's
// x-kubernetes-patch-strategy and x-kubernetes-patch-merge-key become its
// Field.Meta, its default becomes Field.Default; definitions are indexed by
// name and, through x-kubernetes-group-version-kind, by GVK.
//
// The document is read with ply's own parser (pkg/parse: JSON or YAML,
// duplicate keys rejected) and checked by readV2: swagger "2.0", Swagger
// 2.0 fields only, and in every schema object Swagger 2.0 keywords (or x-
// extensions) with values of the kinds the specification gives them. A
// value of another kind that kube-openapi (the reader of kubectl and
// strategicpatch, through gnostic) reads past is read as it reads it, with
// a Warning (Schema.Warnings): a schema, items or additionalProperties
// that is a string (strategicpatch's own test schema has
// "additionalProperties": "object"), a number or null reads as the empty
// schema (additionalProperties: as true), properties or allOf of another
// kind as none, a string keyword that is an integer or null as unused.
// Definitions and properties are visited in name order, so of several
// faults the first by name is reported.
//
// Errors are *Error values naming the document (by its info.title and
// info.version) and, when the fault is inside a definition, the definition
// and field path (and, for a keyword of the wrong kind, its JSON pointer):
// malformed input, a dangling or non-local $ref, an unknown patch strategy,
// a malformed extension or default, or two definitions claiming one GVK.
// LoadV2 never panics.
//
// The result is cached per document content, so loading the same bytes
// again returns the same *Schema without parsing; the Schema is immutable
// and safe for concurrent use.
func LoadV2(data []byte) (*Schema, error) { return loadCached("", data) }

// LoadV2Named is LoadV2 with errors naming the document name (a file path,
// a URL) instead of its info.title and info.version. It shares LoadV2's
// cache, keyed by name and content.
func LoadV2Named(name string, data []byte) (*Schema, error) { return loadCached(name, data) }

// loadV2 reads and converts one document, uncached.
func loadV2(name string, data []byte) (s *Schema, err error) {
	docName := name
	if docName == "" {
		docName = "OpenAPI v2 document"
	}
	defer func() {
		// A safety net: no input is known to panic the reader or the
		// loader; if one does, it is reported as bad input.
		if r := recover(); r != nil {
			s, err = nil, &Error{Document: docName, Msg: fmt.Sprint("the OpenAPI v2 loader failed on this input: ", r)}
		}
	}()
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{Document: docName, Msg: "the document is empty, want an OpenAPI v2 JSON document"}
	}
	doc, err := readV2(name, data)
	if err != nil {
		return nil, err
	}
	l := &loader{doc: doc.name, raw: doc.defs, warnings: doc.warnings}
	return l.load(doc.names)
}

// loader converts one document read by readV2.
type loader struct {
	doc      string
	raw      map[string]v2Schema // definition name -> its schema
	defs     map[string]*Type    // definition name -> its Type (aliases resolved)
	warnings []Warning           // readV2's, then the loader's own
}

func (l *loader) errorf(def, path, format string, args ...any) *Error {
	return &Error{Document: l.doc, Definition: def, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// load converts the definitions, names being their names sorted. Every
// pass reports the first fault in name order (definitions, and properties
// within them: value maps are sorted by key, so the document's order is
// not kept).
func (l *loader) load(names []string) (*Schema, error) {
	// Check every $ref first, so a dangling one is reported with its
	// definition and field (kube-openapi would report it too, as text).
	for _, name := range names {
		if err := l.checkRefs(l.raw[name], name, ""); err != nil {
			return nil, err
		}
	}
	// Then the shapes, with the checks of kubectl's reader of v2
	// documents (kube-openapi's proto models): what it rejects is
	// rejected here too, with its message.
	for _, name := range names {
		if err := checkShape(l.raw[name], name); err != nil {
			return nil, &Error{Document: l.doc, Msg: "invalid schema: " + err.Error()}
		}
	}

	// Shells first, so that references (and cycles) resolve to one pointer
	// before any definition is filled in.
	l.defs = make(map[string]*Type, len(names))
	for _, name := range names {
		if _, alias := refTarget(l.raw[name]); !alias {
			l.defs[name] = &Type{Name: name}
		}
	}
	for _, name := range names {
		if _, cycle := l.resolveAlias(name); cycle != "" {
			l.warnings = append(l.warnings, Warning{Document: l.doc, Definition: name, Msg: cycle})
		}
	}
	for _, name := range names {
		gs := l.raw[name]
		if _, alias := refTarget(gs); alias {
			continue
		}
		if err := l.fill(l.defs[name], gs, name, ""); err != nil {
			return nil, err
		}
	}

	byGVK, err := indexGVKs(l.doc, names, l.defs, func(name string) ([]GVK, error) { return l.gvks(l.raw[name], name) })
	if err != nil {
		return nil, err
	}
	return &Schema{byName: l.defs, byGVK: byGVK, warnings: l.warnings}, nil
}

// refTarget returns the definition a schema stands for when it is a
// reference: a $ref, or an allOf holding a single $ref and nothing else
// that shapes the value (the form generators use to put a default or a
// description beside a $ref). ok is false for any other schema.
func refTarget(gs v2Schema) (target string, ok bool) {
	if ref := gs.ref(); ref != "" {
		return strings.TrimPrefix(ref, definitionsPrefix), true
	}
	if !gs.has("allOf") || gs.has("properties") || gs.has("items") || gs.has("additionalProperties") ||
		len(gs.types()) != 0 {
		return "", false
	}
	if all := gs.allOf(); len(all) == 1 && all[0].ref() != "" {
		return strings.TrimPrefix(all[0].ref(), definitionsPrefix), true
	}
	return "", false
}

// checkRefs verifies that every $ref under gs points at a definition of
// this document.
func (l *loader) checkRefs(gs v2Schema, def, path string) error {
	if ref := gs.ref(); ref != "" {
		if !strings.HasPrefix(ref, definitionsPrefix) {
			return l.errorf(def, path, "$ref %q does not point into this document's definitions (want %s<name>)", ref, definitionsPrefix)
		}
		if _, ok := l.raw[strings.TrimPrefix(ref, definitionsPrefix)]; !ok {
			return l.errorf(def, path, "$ref %q names no definition of this document", ref)
		}
	}
	for _, p := range gs.properties() {
		if err := l.checkRefs(v2Schema{v: p.Value}, def, joinField(path, p.Key)); err != nil {
			return err
		}
	}
	if item, ok := gs.items(); ok {
		if err := l.checkRefs(item, def, path+"[]"); err != nil {
			return err
		}
	}
	if aps, ok := gs.additional(); ok {
		if err := l.checkRefs(aps, def, path+"{}"); err != nil {
			return err
		}
	}
	for _, sub := range gs.allOf() {
		if err := l.checkRefs(sub, def, path); err != nil {
			return err
		}
	}
	return nil
}

// resolveAlias returns the Type of definition name, following definitions
// that are only a reference to another one (and recording the result for
// every definition on the way); cycle is resolveAlias's.
func (l *loader) resolveAlias(name string) (t *Type, cycle string) {
	return resolveAlias(l.defs, name, func(n string) string {
		t, _ := refTarget(l.raw[n])
		return t
	})
}

// resolveAlias returns the Type of definition name in defs, which holds a
// shell for every definition that is not an alias; target returns the
// definition an alias refers to. Every alias on the way is recorded in defs.
// References that go round a cycle without reaching a schema, which
// kube-openapi reads (it follows references only when visiting), are read
// as any value (KindUnknown), and cycle says so, naming the chain; it is ""
// otherwise.
func resolveAlias(defs map[string]*Type, name string, target func(string) string) (t *Type, cycle string) {
	var chain []string
	seen := make(map[string]bool)
	cur := name
	for {
		if t, ok := defs[cur]; ok {
			for _, n := range chain {
				defs[n] = t
			}
			return t, cycle
		}
		if seen[cur] {
			cycle = "the definition is a cycle of $refs that never reaches a schema (" + strings.Join(append(chain, cur), " -> ") +
				"); read as any value, as kube-openapi reads the document"
			defs[cur] = &Type{Name: cur, Kind: KindUnknown}
			continue
		}
		seen[cur] = true
		chain = append(chain, cur)
		cur = target(cur) // a definition without a shell is an alias
	}
}

// typeOf returns the Type of one use of a schema: the referenced
// definition's Type for a reference, else a new anonymous Type.
func (l *loader) typeOf(gs v2Schema, def, path string) (*Type, error) {
	if target, ok := refTarget(gs); ok {
		return l.defs[target], nil
	}
	t := &Type{Name: joinName(def, path)}
	if err := l.fill(t, gs, def, path); err != nil {
		return nil, err
	}
	return t, nil
}

// fill sets t from the schema gs, which checkShape accepted: its shape
// (shapeOf) decides the Kind.
func (l *loader) fill(t *Type, gs v2Schema, def, path string) error {
	var err error
	switch shapeOf(gs) {
	case shapeStruct:
		err = l.fillStruct(t, gs, def, path)
	case shapeArray:
		// checkShape accepted the array, so it has items; a list of item
		// schemas is anySchema (any value).
		item, _ := gs.items()
		t.Kind = KindList
		t.Elem, err = l.typeOf(item, def, path+"[]")
	case shapeMap:
		aps, ok := gs.additional()
		if !ok {
			// type: object without properties, or additionalProperties
			// true/false: nothing to say about the values.
			t.Kind = KindUnknown
			break
		}
		t.Kind = KindMap
		t.Elem, err = l.typeOf(aps, def, path+"{}")
	case shapePrimitive:
		t.Kind, t.Primitive = KindPrimitive, gs.types()[0]
		if gs.format() == formatIntOrString {
			t.Primitive = "" // a string or an integer
		}
		var intOrString bool
		if intOrString, err = l.boolExtension(gs, extIntOrString, def, path); intOrString {
			t.Primitive = ""
		}
	default:
		t.Kind = KindUnknown
	}
	if err != nil {
		return err
	}
	t.Default, t.HasDefault = l.defaultOf(gs, def, path)
	return nil
}

// fillStruct sets t, a struct, from the properties of gs: one Field each,
// with its Type, merge metadata and default (a reference's own default, or
// the one of its inline Type).
func (l *loader) fillStruct(t *Type, gs v2Schema, def, path string) error {
	props := gs.properties()
	t.Kind = KindStruct
	t.Fields = make(map[string]*Field, len(props))
	t.FieldNames = make([]string, 0, len(props))
	for _, p := range props {
		ps, fpath := v2Schema{v: p.Value}, joinField(path, p.Key)
		ft, err := l.typeOf(ps, def, fpath)
		if err != nil {
			return err
		}
		f := &Field{Name: p.Key, Type: ft, NotAList: notAListV2(ps, p.Key, joinName(def, path))}
		if f.Meta, f.KubectlMeta, err = l.meta(ps, def, fpath); err != nil {
			return err
		}
		if _, ref := refTarget(ps); ref {
			f.Default, f.HasDefault = l.defaultOf(ps, def, fpath)
		} else {
			f.Default, f.HasDefault = ft.Default, ft.HasDefault
		}
		t.Fields[p.Key] = f
		t.FieldNames = append(t.FieldNames, p.Key) // sorted: value maps are
	}
	return nil
}

// meta reads the patch strategy and merge key declared on a property: as
// ply reads them (m) and as strategicpatch does (kubectl; see
// kubectlPatchMeta).
func (l *loader) meta(gs v2Schema, def, path string) (m, kubectl Meta, err error) {
	strategy, err := l.stringExtension(gs, extPatchStrategy, def, path)
	if err != nil {
		return Meta{}, Meta{}, err
	}
	var unknown []string
	if m.Strategy, unknown, err = parseStrategy(strategy); err != nil {
		return Meta{}, Meta{}, l.errorf(def, path, "%s: %v", extPatchStrategy, err)
	}
	if unknown != nil {
		l.warnings = append(l.warnings, Warning{Document: l.doc, Definition: def, Path: path, Msg: unknownStrategyWarning(strategy, unknown)})
	}
	mergeKey, err := l.stringExtension(gs, extPatchMergeKey, def, path)
	if err != nil {
		return Meta{}, Meta{}, err
	}
	if m.MergeKey, err = parseMergeKey(mergeKey); err != nil {
		return Meta{}, Meta{}, l.errorf(def, path, "%s: %v", extPatchMergeKey, err)
	}
	kubectl = kubectlPatchMeta(strategy, mergeKey)
	if v, ok := gs.extension(ExtMergeRule); ok {
		if m.Rule, err = parseRuleRef(v); err != nil {
			return Meta{}, Meta{}, l.errorf(def, path, "%s: %v", ExtMergeRule, err)
		}
		kubectl.Rule = m.Rule
	}
	return m, kubectl, nil
}

// kubectlPatchMeta is the merge metadata strategicpatch reads from the
// values of x-kubernetes-patch-strategy and x-kubernetes-patch-merge-key
// (Field.KubectlMeta): the strategy split at commas, each word compared
// exactly (" retainKeys", space included, is not retainKeys), and the
// merge key one field name, verbatim.
func kubectlPatchMeta(strategy, mergeKey string) Meta {
	var m Meta
	for _, w := range strings.Split(strategy, ",") {
		switch w {
		case "merge":
			m.Strategy |= StrategyMerge
		case "replace":
			m.Strategy |= StrategyReplace
		case "retainKeys":
			m.Strategy |= StrategyRetainKeys
		}
	}
	if mergeKey != "" {
		m.MergeKey = []string{mergeKey}
	}
	return m
}

// parseMergeKey parses an x-kubernetes-patch-merge-key value: field names
// separated by commas. Blank means no key.
func parseMergeKey(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	key := make([]string, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("%q has an empty field name, want field names separated by commas", s)
		}
		key[i] = p
	}
	return key, nil
}

// parseStrategy parses an x-kubernetes-patch-strategy value: words
// separated by commas, each merge, replace or retainKeys, merge and replace
// exclusive. Blank means no strategy. Other words are left out of st and
// returned in unknown, which the loaders warn of: strategicpatch ignores
// them, and kube-openapi reads the document.
func parseStrategy(s string) (st Strategy, unknown []string, err error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil, nil
	}
	for _, w := range strings.Split(s, ",") {
		switch w = strings.TrimSpace(w); w {
		case "merge":
			st |= StrategyMerge
		case "replace":
			st |= StrategyReplace
		case "retainKeys":
			st |= StrategyRetainKeys
		default:
			unknown = append(unknown, w)
		}
	}
	if st.Has(StrategyMerge | StrategyReplace) {
		return 0, nil, fmt.Errorf("%q declares both merge and replace, which exclude each other", s)
	}
	return st, unknown, nil
}

// unknownStrategyWarning is the message of the unknown words of an
// x-kubernetes-patch-strategy value s.
func unknownStrategyWarning(s string, unknown []string) string {
	return fmt.Sprintf("%s: unknown patch strategy %q in %q, want merge, replace, retainKeys or merge,retainKeys; "+
		"ignored, as strategicpatch ignores it", extPatchStrategy, strings.Join(unknown, ","), s)
}

// gvks reads a definition's x-kubernetes-group-version-kind, skipping
// malformed entries with a Warning each.
func (l *loader) gvks(gs v2Schema, def string) ([]GVK, error) {
	v, ok := gs.extension(extGVK)
	if !ok {
		return nil, nil
	}
	out, skipped := parseGVKs(v)
	for _, msg := range skipped {
		l.warnings = append(l.warnings, Warning{Document: l.doc, Definition: def, Msg: msg})
	}
	return out, nil
}

// parseGVKs reads the value of an x-kubernetes-group-version-kind
// extension: a list of {group, version, kind} (group may be left out).
// Malformed entries (a value that is no list is one) are left out, as
// kubectl leaves them out of its map of kinds, and kube-openapi reads the
// document; skipped says, for each, what is wrong.
func parseGVKs(v value.Value) (out []GVK, skipped []string) {
	const ignored = "; the entry is skipped, as kubectl skips it"
	if !v.IsList() {
		return nil, []string{extGVK + " is " + kindPhrase(v) + ", want a list of {group, version, kind}" + ignored}
	}
	out = make([]GVK, 0, v.Len())
items:
	for i, item := range v.Items() {
		var g GVK
		for _, f := range [...]struct {
			key      string
			dst      *string
			required bool
		}{{"group", &g.Group, false}, {"version", &g.Version, true}, {"kind", &g.Kind, true}} {
			fv, ok := item.Get(f.key)
			if !ok && !f.required {
				continue
			}
			s, isString := fv.AsString()
			if !ok || !isString || (f.required && s == "") {
				skipped = append(skipped, fmt.Sprintf("%s[%d].%s is missing or not a non-empty string, want {group, version, kind} strings%s",
					extGVK, i, f.key, ignored))
				continue items
			}
			*f.dst = s
		}
		out = append(out, g)
	}
	return out, skipped
}

// indexGVKs maps every GVK claimed by the definitions (in names order) to
// its Type; gvksOf reads a definition's claims. Two definitions claiming one
// GVK are an error.
func indexGVKs(doc string, names []string, defs map[string]*Type, gvksOf func(name string) ([]GVK, error)) (map[GVK]*Type, error) {
	byGVK := make(map[GVK]*Type)
	owner := make(map[GVK]string)
	for _, name := range names {
		gvks, err := gvksOf(name)
		if err != nil {
			return nil, err
		}
		for _, g := range gvks {
			if prev, ok := owner[g]; ok && prev != name {
				return nil, &Error{Document: doc, Definition: name, Msg: fmt.Sprintf(
					"%s claims group %q, version %q, kind %q, which definition %s claims too",
					extGVK, g.Group, g.Version, g.Kind, prev)}
			}
			owner[g] = name
			byGVK[g] = defs[name]
		}
	}
	return byGVK, nil
}

// stringExtension returns the string value of the vendor extension called
// name on gs, "" when absent.
func (l *loader) stringExtension(gs v2Schema, name, def, path string) (string, error) {
	v, ok := gs.extension(name)
	if !ok {
		return "", nil
	}
	s, ok := v.AsString()
	if !ok {
		return "", l.errorf(def, path, "%s is %s, want a string", name, kindPhrase(v))
	}
	return s, nil
}

// boolExtension returns the boolean value of the vendor extension called
// name on gs, false when absent.
func (l *loader) boolExtension(gs v2Schema, name, def, path string) (bool, error) {
	v, ok := gs.extension(name)
	if !ok {
		return false, nil
	}
	b, ok := v.AsBool()
	if !ok {
		return false, l.errorf(def, path, "%s is %s, want a boolean", name, kindPhrase(v))
	}
	return b, nil
}

// defaultOf returns the default declared on gs, as pkg/parse read it
// (integers beyond 64 bits are numbers, as kubectl's JSON reading has
// them). On an integer-typed schema, an integral number beyond the int64
// range can be no integer of the field: it is left out, with a Warning
// (kube-openapi reads the document, keeping the number).
func (l *loader) defaultOf(gs v2Schema, def, path string) (value.Value, bool) {
	v, ok := gs.v.Get("default")
	if !ok {
		return value.Value{}, false
	}
	if f, isFloat := v.AsFloat(); isFloat && v.Kind() == value.KindFloat && f == math.Trunc(f) &&
		(f >= 1<<63 || f < -(1<<63)) && slices.Contains(gs.types(), "integer") {
		l.warnings = append(l.warnings, Warning{Document: l.doc, Definition: def, Path: path,
			Msg: "default: integer " + string(v.JSON()) + " does not fit in 64 bits; " + defaultLeftOut})
		return value.Value{}, false
	}
	return v, true
}

// defaultLeftOut says how the loaders read a default that can be no value
// of its field.
const defaultLeftOut = "the default is left out, as kube-openapi reads the document (keeping the value)"

// joinField appends a field name to a path inside a definition.
func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// joinName names an anonymous type by its definition and path.
func joinName(def, path string) string {
	if path == "" || path[0] == '[' || path[0] == '{' {
		return def + path
	}
	return def + "." + path
}

// kindPhrase names the JSON kind of v with its article ("an integer").
func kindPhrase(v value.Value) string {
	k := v.Kind().String()
	if k != "" && strings.ContainsRune("aeiou", rune(k[0])) {
		return "an " + k
	}
	return "a " + k
}

// notAListV2 is the error kubectl's reader of v2 documents (kube-openapi's
// proto models, strategicpatch.PatchMetaFromOpenAPI) gives when it looks
// field up as a list, ps being the field's schema and in the path of the
// struct declaring it; empty where it finds the field: a reference (to any
// definition), an array, or a schema of no type and no properties. A
// primitive or a map (an object without properties) is refused; an inline
// struct is searched for a field of the same name, which is looked up in
// turn, as the visitor does.
func notAListV2(ps v2Schema, field, in string) string {
	if _, ref := refTarget(ps); ref {
		return ""
	}
	switch shapeOf(ps) {
	case shapePrimitive:
		return "expected slice, but got primitive"
	case shapeMap:
		return "expected slice, but got map"
	case shapeStruct:
		inner := joinField(in, field)
		for _, p := range ps.properties() {
			if p.Key == field {
				return notAListV2(v2Schema{v: p.Value}, field, inner)
			}
		}
		return "unable to find api field " + strconv.Quote(field) + " in " + inner
	}
	return ""
}
