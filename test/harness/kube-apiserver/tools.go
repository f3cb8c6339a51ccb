//go:build tools

// Package tools records the API server build as a dependency of this module so
// that go.mod and go.sum keep every module the build needs.
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver/app"
