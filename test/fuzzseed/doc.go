// Package fuzzseed seeds Go fuzz targets with the test fixtures (see
// Files). It lives outside test/internal because the fuzz targets live in
// the packages they test, under pkg/ and openapi/.
package fuzzseed
