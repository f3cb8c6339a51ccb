package parse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/plyproject/ply/pkg/value"
)

// parseYAML reads data as a YAML stream, one document at a time, so that
// only one document's node tree is held at once.
func (l Limits) parseYAML(data []byte) ([]doc, *Error) {
	if err := yamlSeparators(data, l.MaxYAMLSeparators, l.MaxYAMLStreamSeparators); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	src := newSource(data)
	var docs []doc
	expanded := 0 // what aliases added so far, all documents together
	for index := 1; ; index++ {
		n, err := decodeNode(dec)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, yamlSyntaxError(data, err, index)
		}
		v, perr := l.yamlDocument(n, src, &expanded)
		if perr != nil {
			perr.Doc = index
			if index == 1 {
				// Name the document if the stream goes on after it.
				if _, err := decodeNode(dec); err == nil {
					perr.multi = true
				}
			}
			return nil, perr
		}
		if !v.IsNull() {
			docs = append(docs, doc{v: value.Bounded(v, l.MaxDepth), index: index, line: n.Line})
		}
	}
}

// decodeNode reads the next document of the stream as a node tree. It turns
// a panic of the YAML library into an error, so that no input can crash
// the caller.
func decodeNode(dec *yaml.Decoder) (n *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, fmt.Errorf("yaml: the YAML library failed on this input: %v", r)
		}
	}()
	var node yaml.Node
	if err := dec.Decode(&node); err != nil {
		return nil, err
	}
	return &node, nil
}

// yamlDocument converts the node tree of one document; expanded is what
// aliases added to the documents before it, and is updated. A document none
// of whose map keys begins with '$' is marked value.DollarFree.
func (l Limits) yamlDocument(n *yaml.Node, src *source, expanded *int) (value.Value, *Error) {
	if n.Kind != yaml.DocumentNode || len(n.Content) == 0 {
		return value.Null, nil
	}
	w := walker{lim: l, src: src, expanded: *expanded}
	src.setDocument(n)
	r, err := w.node(n.Content[0], 0)
	*expanded = w.expanded
	if err == nil && !w.dollar {
		r.v = value.DollarFree(r.v)
	}
	return r.v, err
}

// walker converts the node tree of one YAML document into a Value. It
// converts each anchored node once and shares the Value among the aliases
// of it, while counting what the aliases would add to the expanded
// document, so that an alias bomb is detected in time linear in the input.
type walker struct {
	lim Limits
	src *source
	// anchors holds the anchored nodes met so far in this document. The
	// YAML library resolves an alias to the node of the latest anchor of
	// that name, which may lie in an earlier document or (for an alias
	// inside its own anchor) be unfinished; neither is in anchors as done.
	anchors map[*yaml.Node]*anchored
	// expanded is what aliases added, in this document and the stream's
	// documents before it: every consumer of the documents (encoding,
	// merging, recording) works on them expanded, so the limit bounds the
	// input's work as a whole, not one document's.
	expanded int
	// dollar reports a map key beginning with '$' in the document (an
	// alias's keys, converted in it, included).
	dollar bool
}

type anchored struct {
	active  bool // being converted: an alias to it is recursive
	done    bool // r holds its value
	r       result
	keyDone bool // key holds its form as a map key (scalars only)
	key     string
}

// result is a converted node: its value, its size (1 per node plus the
// bytes of its strings and keys, as Limits.MaxAliasExpansion counts) and
// its height (the levels of maps and lists in it: 0 for a scalar).
type result struct {
	v      value.Value
	size   int
	height int
}

func (w *walker) mark(n *yaml.Node) *anchored {
	if w.anchors == nil {
		w.anchors = make(map[*yaml.Node]*anchored)
	}
	a := &anchored{}
	w.anchors[n] = a
	return a
}

func errAt(n *yaml.Node, msg string) *Error {
	return &Error{Line: n.Line, Column: n.Column, Msg: msg}
}

func (w *walker) tooDeep(n *yaml.Node) *Error {
	return errAt(n, "nesting is deeper than the limit of "+strconv.Itoa(w.lim.MaxDepth)+" levels of maps and lists")
}

// node converts n, which lies inside depth maps and lists.
func (w *walker) node(n *yaml.Node, depth int) (result, *Error) {
	switch n.Kind {
	case yaml.AliasNode:
		return w.alias(n, depth)
	case yaml.ScalarNode:
		r, err := w.scalarValue(n)
		if err == nil && n.Anchor != "" {
			a := w.mark(n)
			a.done, a.r = true, r
		}
		return r, err
	case yaml.MappingNode, yaml.SequenceNode:
		if depth >= w.lim.MaxDepth {
			return result{}, w.tooDeep(n)
		}
		var a *anchored
		if n.Anchor != "" {
			a = w.mark(n)
			a.active = true
		}
		var r result
		var err *Error
		if n.Kind == yaml.MappingNode {
			r, err = w.mapping(n, depth)
		} else {
			r, err = w.sequence(n, depth)
		}
		if err != nil {
			return result{}, err
		}
		if a != nil {
			a.active, a.done, a.r = false, true, r
		}
		return r, nil
	}
	return result{}, errAt(n, "unexpected YAML node")
}

// alias returns the value of the anchor alias n refers to, counting its
// size against the expansion limit.
func (w *walker) alias(n *yaml.Node, depth int) (result, *Error) {
	a, err := w.target(n)
	if err != nil {
		return result{}, err
	}
	if !a.done {
		r, err := w.scalarValue(n.Alias)
		if err != nil {
			return result{}, err
		}
		a.done, a.r = true, r
	}
	if depth+a.r.height > w.lim.MaxDepth {
		return result{}, w.tooDeep(n)
	}
	if err := w.expand(n, a.r.size); err != nil {
		return result{}, err
	}
	return a.r, nil
}

// target finds the anchor alias n refers to. The result is done, or is a
// scalar met as a map key and not converted as a value yet.
func (w *walker) target(n *yaml.Node) (*anchored, *Error) {
	a := w.anchors[n.Alias]
	switch {
	case n.Alias == nil || a == nil:
		return nil, errAt(n, "alias *"+n.Value+" refers to an anchor outside this document")
	case a.active:
		return nil, errAt(n, "alias *"+n.Value+" refers to the map or list that contains it")
	case !a.done && n.Alias.Kind != yaml.ScalarNode:
		return nil, errAt(n, "alias *"+n.Value+" refers to an unfinished node")
	}
	return a, nil
}

func (w *walker) expand(n *yaml.Node, size int) *Error {
	w.expanded += size
	if w.expanded > w.lim.MaxAliasExpansion {
		return errAt(n, "aliases expand the input beyond the limit of "+strconv.Itoa(w.lim.MaxAliasExpansion)+
			", all its documents together (each use of an alias copies the whole value of its anchor)")
	}
	return nil
}

// resolveNode resolves a scalar node: explicitly tagged ones by their tag,
// quoted and block (| and >) ones as strings, plain ones as kubectl does
// (resolvePlain), except that a plain scalar with the non-specific tag "!"
// is a string, as YAML and kubectl have it.
func (w *walker) resolveNode(n *yaml.Node) (scalar, error) {
	switch {
	case n.Style&yaml.TaggedStyle != 0:
		return resolveTagged(n.Tag, n.Value)
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0,
		w.src.bareTag(n):
		return scalar{tag: tagStr, val: value.String(n.Value)}, nil
	}
	return resolvePlain(n.Value, true), nil
}

// scalarValue converts a scalar node in value position.
func (w *walker) scalarValue(n *yaml.Node) (result, *Error) {
	s, err := w.resolveNode(n)
	if errors.Is(err, errNotTag) {
		// The value is not repeated: it may be a Secret's, and the
		// document's kind is not known yet. The position names it.
		return result{}, errAt(n, "the value is not a valid "+n.Tag)
	}
	if err != nil {
		return result{}, errAt(n, err.Error())
	}
	if f, ok := s.val.AsFloat(); ok && s.val.Kind() == value.KindFloat && (math.IsInf(f, 0) || math.IsNaN(f)) {
		return result{}, errAt(n, n.Value+" is not a finite number, which JSON cannot hold (quote it to keep it as a string)")
	}
	str, _ := s.val.AsString()
	return result{v: s.val, size: 1 + len(str)}, nil
}

// key converts a map key node: a scalar, or an alias of one, rendered as
// kubectl renders non-string keys (keyString). The key of an anchored
// scalar is computed once and reused by its aliases.
func (w *walker) key(k *yaml.Node) (string, *Error) {
	if k.Kind != yaml.AliasNode {
		str, err := w.keyOf(k, k)
		if err == nil && k.Anchor != "" {
			a := w.mark(k)
			a.keyDone, a.key = true, str
		}
		return str, err
	}
	a, err := w.target(k)
	if err != nil {
		return "", err
	}
	if !a.keyDone {
		str, err := w.keyOf(k.Alias, k)
		if err != nil {
			return "", err
		}
		a.keyDone, a.key = true, str
	}
	if err := w.expand(k, 1+len(a.key)); err != nil {
		return "", err
	}
	return a.key, nil
}

// keyOf renders node t as a map key; errors are located at node at.
func (w *walker) keyOf(t, at *yaml.Node) (string, *Error) {
	if t.Kind != yaml.ScalarNode {
		kind := "list"
		if t.Kind == yaml.MappingNode {
			kind = "map"
		}
		return "", errAt(at, "a map key must be a string, number or boolean, not a "+kind)
	}
	s, err := w.resolveNode(t)
	if errors.Is(err, errNotTag) {
		return "", errAt(at, "key "+strconv.Quote(t.Value)+" is not a valid "+t.Tag)
	}
	if err != nil {
		return "", errAt(at, err.Error())
	}
	str, ok := keyString(s)
	switch {
	case !ok && s.big:
		return "", errAt(at, "map key "+t.Value+" is an integer beyond the 64-bit range")
	case !ok:
		return "", errAt(at, "a map key must be a string, number or boolean, not null")
	}
	return str, nil
}

// isMergeKey reports whether k is the merge key: a plain << or one tagged
// !!merge.
func isMergeKey(k *yaml.Node) bool {
	if k.Kind != yaml.ScalarNode || k.Value != "<<" {
		return false
	}
	if k.Style&yaml.TaggedStyle != 0 {
		return k.Tag == tagMerge
	}
	return k.Style == 0
}

// entry is one explicit key of a map being built.
type entry struct {
	key string
	val value.Value
	pos int        // index of the pair in the map, in input order
	at  *yaml.Node // the key node (nil when read from JSON)
	// line and off locate the key when read from JSON.
	line, off int
}

func compareEntries(a, b entry) int { return strings.Compare(a.key, b.key) }

// sortEntries sorts entries by key, keeping input order among equal keys,
// and returns the indexes of the first and second occurrence of the
// duplicated key whose second occurrence comes first in the input; ok is
// false when there is none.
func sortEntries(entries []entry) (first, second int, ok bool) {
	if !slices.IsSortedFunc(entries, compareEntries) {
		slices.SortStableFunc(entries, compareEntries)
	}
	for i := 1; i < len(entries); i++ {
		if entries[i].key != entries[i-1].key || (i >= 2 && entries[i-2].key == entries[i].key) {
			continue
		}
		if !ok || entries[i].pos < entries[second].pos {
			first, second, ok = i-1, i, true
		}
	}
	return first, second, ok
}

func duplicateMsg(key string, firstLine int) string {
	return "duplicate key " + strconv.Quote(key) + " (first at line " + strconv.Itoa(firstLine) + ")"
}

func (w *walker) mapping(n *yaml.Node, depth int) (result, *Error) {
	pairs := n.Content
	entries := make([]entry, 0, len(pairs)/2)
	var mergeKey *yaml.Node
	var merged []value.Field
	mergePos := 0
	size, height := 1, 1
	for i := 0; i+1 < len(pairs); i += 2 {
		k, v := pairs[i], pairs[i+1]
		if isMergeKey(k) {
			if mergeKey != nil {
				return result{}, errAt(k, duplicateMsg("<<", mergeKey.Line))
			}
			if k.Anchor != "" {
				w.mark(k)
			}
			fields, r, err := w.mergeSources(v, depth)
			if err != nil {
				return result{}, err
			}
			mergeKey, merged, mergePos = k, fields, i
			size += r.size
			height = max(height, r.height)
			continue
		}
		key, err := w.key(k)
		if err != nil {
			return result{}, err
		}
		if len(key) > 0 && key[0] == '$' {
			w.dollar = true
		}
		r, err := w.node(v, depth+1)
		if err != nil {
			return result{}, err
		}
		entries = append(entries, entry{key: key, val: r.v, pos: i, at: k})
		size += len(key) + r.size
		height = max(height, r.height+1)
	}
	if first, second, dup := sortEntries(entries); dup {
		return result{}, errAt(entries[second].at, duplicateMsg(entries[second].key, entries[first].at.Line))
	}
	if mergeKey == nil {
		fields := make([]value.Field, len(entries))
		for i, e := range entries {
			fields[i] = value.Field{Key: e.key, Value: e.val}
		}
		return result{v: value.MapFromSorted(fields), size: size, height: height}, nil
	}
	fields, err := mergeFields(entries, merged, mergeKey, mergePos)
	if err != nil {
		return result{}, err
	}
	return result{v: value.MapFromSorted(fields), size: size, height: height}, nil
}

// mergeFields combines the explicit entries of a map (sorted, unique) with
// the fields its merge key brings in (sorted, unique). An explicit key
// written after the merge key wins, as both YAML and kubectl have it; an
// explicit key written before it that the merge also sets is an error,
// because kubectl lets the merged value win there and YAML the explicit
// one.
func mergeFields(entries []entry, merged []value.Field, mergeKey *yaml.Node, mergePos int) ([]value.Field, *Error) {
	out := make([]value.Field, 0, len(entries)+len(merged))
	var conflict *entry
	i, j := 0, 0
	for i < len(entries) || j < len(merged) {
		switch {
		case j == len(merged) || (i < len(entries) && entries[i].key < merged[j].Key):
			out = append(out, value.Field{Key: entries[i].key, Value: entries[i].val})
			i++
		case i == len(entries) || merged[j].Key < entries[i].key:
			out = append(out, merged[j])
			j++
		default:
			if entries[i].pos < mergePos && (conflict == nil || entries[i].pos < conflict.pos) {
				conflict = &entries[i]
			}
			out = append(out, value.Field{Key: entries[i].key, Value: entries[i].val})
			i++
			j++
		}
	}
	if conflict != nil {
		return nil, errAt(mergeKey, "merge key \"<<\" would override "+strconv.Quote(conflict.key)+" set above it at line "+
			strconv.Itoa(conflict.at.Line)+"; kubectl and YAML disagree on which wins, so put \"<<\" before "+strconv.Quote(conflict.key))
	}
	return out, nil
}

// mergeSources converts the value of a merge key: a map, an alias of a map,
// or a list of those. It returns their fields, sorted, where a key several
// of them set takes its value from the first; and their combined size and
// height. The maps count as the enclosing map's own level (depth).
func (w *walker) mergeSources(v *yaml.Node, depth int) ([]value.Field, result, *Error) {
	srcs := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		if len(v.Content) > w.lim.MaxListItems {
			return nil, result{}, errAt(v.Content[w.lim.MaxListItems], tooManyItemsMsg(w.lim.MaxListItems))
		}
		srcs = v.Content
	}
	var list *anchored
	if v.Kind == yaml.SequenceNode && v.Anchor != "" {
		list = w.mark(v)
		list.active = true
	}
	var all []value.Field
	var items []value.Value
	total := result{size: 1}
	for _, s := range srcs {
		t := s
		if s.Kind == yaml.AliasNode {
			t = s.Alias
		}
		if t == nil || t.Kind != yaml.MappingNode {
			return nil, result{}, errAt(s, "the value of merge key \"<<\" must be a map, an alias of a map, or a list of those")
		}
		r, err := w.node(s, depth)
		if err != nil {
			return nil, result{}, err
		}
		all = append(all, r.v.Fields()...)
		items = append(items, r.v)
		total.size += r.size
		total.height = max(total.height, r.height)
	}
	if list != nil {
		list.active, list.done = false, true
		list.r = result{v: value.List(items), size: total.size, height: total.height + 1}
	}
	if len(srcs) > 1 {
		slices.SortStableFunc(all, func(a, b value.Field) int { return strings.Compare(a.Key, b.Key) })
		all = slices.CompactFunc(all, func(a, b value.Field) bool { return a.Key == b.Key })
	}
	return all, total, nil
}

// tooManyItemsMsg is the message of a list longer than the limit; the
// error is located at the first item beyond it.
func tooManyItemsMsg(limit int) string {
	return "list has more than the limit of " + strconv.Itoa(limit) + " items"
}

func (w *walker) sequence(n *yaml.Node, depth int) (result, *Error) {
	if len(n.Content) > w.lim.MaxListItems {
		return result{}, errAt(n.Content[w.lim.MaxListItems], tooManyItemsMsg(w.lim.MaxListItems))
	}
	items := make([]value.Value, len(n.Content))
	size, height := 1, 1
	for i, c := range n.Content {
		r, err := w.node(c, depth+1)
		if err != nil {
			return result{}, err
		}
		items[i] = r.v
		size += r.size
		height = max(height, r.height+1)
	}
	return result{v: value.List(items), size: size, height: height}, nil
}

// yamlSeparators checks that no document of the YAML stream data has more
// than max line breaks and flow separators, and the whole stream no more
// than maxStream (see Limits.MaxYAMLSeparators and MaxYAMLStreamSeparators).
// Documents are told apart by "---" at the start of a line; a "---" line
// inside a block scalar only splits the count, and the lines of a block
// scalar are one value anyway. It reads data once per separator byte with
// bytes.Count, which is vectorised.
func yamlSeparators(data []byte, max, maxStream int) *Error {
	line, total := 1, 0
	for start := 0; start < len(data); {
		end := len(data)
		for from := start; ; {
			i := bytes.Index(data[from:], []byte("\n---"))
			if i < 0 {
				break
			}
			at := from + i + 1 // the '-' that starts the marker line
			if after := at + 3; after == len(data) || data[after] == '\n' || data[after] == '\r' || data[after] == ' ' || data[after] == '\t' {
				end = at
				break
			}
			from = at
		}
		seg := data[start:end]
		breaks := bytes.Count(seg, []byte{'\n'})
		n := breaks + bytes.Count(seg, []byte{','}) + bytes.Count(seg, []byte{'['}) + bytes.Count(seg, []byte{'{'})
		if n > max {
			return &Error{Line: line, Msg: "the YAML document starting here has " + strconv.Itoa(n) +
				" line breaks and flow separators (, [ {), more than the limit of " + strconv.Itoa(max) +
				": each can start a value the YAML library builds before ply's other limits apply; split the document, or write it as JSON"}
		}
		if total += n; total > maxStream {
			return &Error{Line: line, Msg: "the YAML stream has " + strconv.Itoa(total) +
				" line breaks and flow separators (, [ {) up to the end of the document starting here, more than the limit of " +
				strconv.Itoa(maxStream) + " for a whole input: the YAML library builds a value for each; split the input into several files, or write it as JSON"}
		}
		line += breaks
		start = end
	}
	return nil
}
