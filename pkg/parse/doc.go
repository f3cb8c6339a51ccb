// Package parse reads YAML and JSON manifests into value.Values, the way
// kubectl reads them, so that ply and kubectl see the same objects in the
// same file.
//
// # Entry points
//
// Documents reads every document of a YAML stream ("---" separated) or of
// JSON text; Document reads input that must hold exactly one document. Both
// have Limits methods of the same name for other limits. Documents that are
// empty (comments only, a bare "---") or null are left out, as kubectl
// leaves them out. Every failure is a *Error with the document index, line
// and column where they are known; no input makes the package panic.
//
// # JSON or YAML
//
// Input whose first non-blank character is { or [ is read as a stream of
// JSON values with encoding/json first, as kubectl does for {; if that
// fails (a syntax error, or a number beyond float64) it is read as YAML,
// also as kubectl does. Reading JSON this way accepts the JSON escapes
// YAML lacks (\/ and UTF-16 surrogate pairs) and characters YAML forbids.
// Everything else is read with go.yaml.in/yaml/v3, whose node tree gives
// positions; the conversion to values is done here.
//
// # Scalars
//
// Plain YAML scalars resolve as kubectl resolves them (it reads YAML
// through sigs.k8s.io/yaml, that is YAML 1.1 rules of go.yaml.in/yaml/v2),
// checked against it by a differential test:
//
//   - null, Null, NULL, ~ and the empty value are null;
//   - y, yes, on, true, n, no, off, false in lower, Title and UPPER case are
//     booleans (so "on" must be quoted to stay a string);
//   - integers may be decimal, 0x hex, 0o or leading-0 octal (017 is 15),
//     0b binary, with a sign and _ separators, and are kept exact as int64;
//     an integer literal beyond int64 becomes the nearest float64, which is
//     what kubectl ends up with too;
//   - decimal floats (1.5, 1e3, .5) are float64; a float that overflows
//     (1e400) stays a string as in kubectl; .inf and .nan are an error,
//     since JSON cannot hold them (kubectl fails on them too);
//   - anything else is a string: 12:30, 2001-12-14, 1.20.3, 500m.
//
// Quoted and block scalars (| and >) are strings. Explicit tags work as in
// kubectl: !!str keeps the text, !!binary decodes base64, !!int, !!float,
// !!bool, !!null and !!timestamp require a text of their kind, and custom
// tags (and the non-specific "!") leave the text a string.
//
// # Maps
//
// A key that appears twice in one map is an error naming both lines:
// kubectl keeps one of the two silently. Keys that are not strings take
// kubectl's string form: 1 is "1", 0x10 is "16", true and yes are "true",
// 1.5 is "1.5" (floats in their shortest float32 form, 1e10 is "1e+10");
// two keys equal in that form are duplicates. Null keys, integer keys
// beyond int64 and map or list keys are errors.
//
// Anchors and aliases are expanded; an alias of an anchor in another
// document, or inside its own anchor, is an error. The merge key << takes a
// map, an alias of a map or a list of those, earlier maps winning, and the
// map's own keys win over merged ones. A merge key written after a key it
// also sets is an error, because kubectl lets the merged value win there
// while YAML lets the key win; so are two merge keys in one map.
//
// # Limits
//
// Limits bound what one parse may cost: MaxBytes (default 32 MiB) the input
// size; MaxDepth (default 1000) the nesting of maps and lists, counted after
// expanding aliases (the YAML library also stops at 10000 levels);
// MaxAliasExpansion (default 16 Mi) the size aliases add to an input, all
// its documents together, counted as one per node plus the bytes of its
// strings and keys, for each use of an alias; and MaxListItems (default 1,000,000) the items of one
// list, more than any object the API server can store holds. Anchored
// values are converted once and shared, so a "billion laughs" alias bomb
// fails in time linear in its size. JSON fails at MaxDepth and
// MaxListItems as soon as it gets there. docs/limits.md lists every limit
// of ply with measured figures.
//
// # Marks
//
// Every document read is marked with the MaxDepth it was held to
// (value.Bounded, for limits up to 2046) and, where none of its maps has a
// key beginning with '$', value.DollarFree, so that the merge's depth check
// and its search for patch directives answer without walking it. A value
// built from a document does not carry its marks.
//
// # Positions
//
// Lines and columns are 1-based and count characters. For YAML syntax
// errors the YAML library gives only a line: it is corrected to 1-based
// counting and, where the library names the start of the enclosing block
// instead of the offending line ("did not find expected key"), or names
// none (an unknown anchor, a bad character), searched for.
package parse
