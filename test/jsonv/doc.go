// Package jsonv converts between JSON text and ply's value.Value for the
// differential tests and benchmarks. It is test tooling, deliberately
// independent of pkg/parse so that the harness checks the engine against an
// input path it does not share.
//
// Numbers follow the rule the engine expects of its parser: a JSON number
// written without fraction or exponent that fits an int64 becomes value.Int;
// every other number becomes value.Float.
package jsonv
