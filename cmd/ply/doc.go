// Command ply is the command-line front end of ply's three-way apply
// engine.
//
//	ply merge --local F [--recorded F] --live F [--schema F]... [--type NAME]
//	          [--overwrite=false] [--ordering seed|kubectl] [-o yaml|json] [--changes]
//
// merge reads the configuration applied last time (recorded), the one
// applied now (local) and the object on the server (live), and prints what
// the server should hold after the apply. Each file holds one YAML or JSON
// document; "-" reads one of them from standard input. Without --recorded
// (or with an empty or null one) the apply is a first apply; an empty or
// null live means the object does not exist yet.
//
// --schema, repeatable, names a file or folder of OpenAPI v2 JSON, OpenAPI
// v3 JSON or CustomResourceDefinition manifests ("-": standard input); a
// kind resolves from the first that defines it, then from the embedded
// Kubernetes schema.
//
// Exit codes: 0 success, 1 bad input (unreadable or malformed file, bad
// schema, invalid object) with a one-line message naming the input and
// field path, 2 usage errors, 3 conflicts with changes made on the server
// (only with --overwrite=false), one conflicting path per line.
//
// ply help, ply merge -h and ply version print help and version
// information.
package main
