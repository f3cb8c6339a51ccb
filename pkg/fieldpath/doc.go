// Package fieldpath names a place inside an object: a field of a map, an
// item of a keyed list (by its merge-key tuple), an item of a set (by value)
// or an item of an atomic list (by index).
//
// Paths render the way users read them in error messages and change lists:
//
//	spec.template.spec.containers[name=web].ports[containerPort=80,protocol=UDP]
package fieldpath
