// Package catalogue keeps docs/errors.md, the catalogue of ply's errors,
// true to the code.
//
// Its tests (there is no non-test code) build the ply command, run every
// example of testdata/examples.yaml on the inputs the example gives, and
// check the exit code and the standard error lines against the table; then
// they check that docs/errors.md shows each example under the anchor the
// example names, as the command line "$ ply ARGS" followed by exactly those
// lines in a console block, and that every command and output line of the
// catalogue's console blocks is one of these examples. A change to an
// error message therefore fails this package until the catalogue and the
// table are updated together, and the catalogue cannot show an output ply
// does not print.
package catalogue
