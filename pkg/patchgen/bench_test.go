package patchgen_test

import (
	"strconv"
	"testing"

	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
)

// benchDeployment returns a Deployment whose one container has n env
// entries with values prefixed by tag, and a status when live.
func benchDeployment(n int, tag string, live bool) value.Value {
	env := make([]value.Value, n)
	for i := range env {
		env[i] = value.MustMap(
			value.Field{Key: "name", Value: value.String("ENV_" + strconv.Itoa(i))},
			value.Field{Key: "value", Value: value.String(tag + strconv.Itoa(i))},
		)
	}
	container := value.MustMap(
		value.Field{Key: "name", Value: value.String("app")},
		value.Field{Key: "image", Value: value.String("nginx:" + tag)},
		value.Field{Key: "env", Value: value.List(env)},
	)
	fields := []value.Field{
		{Key: "apiVersion", Value: value.String("apps/v1")},
		{Key: "kind", Value: value.String("Deployment")},
		{Key: "metadata", Value: value.MustMap(value.Field{Key: "name", Value: value.String("web")})},
		{Key: "spec", Value: value.MustMap(value.Field{Key: "template", Value: value.MustMap(value.Field{Key: "spec", Value: value.MustMap(
			value.Field{Key: "containers", Value: value.List([]value.Value{container})})})})},
	}
	if live {
		fields = append(fields, value.Field{Key: "status", Value: value.MustMap(value.Field{Key: "replicas", Value: value.Int(3)})})
	}
	return value.MustMap(fields...)
}

var benchSizes = []int{10, 100, 1000, 5000}

// BenchmarkTwoWay: every env entry changed.
func BenchmarkTwoWay(b *testing.B) {
	opts := patchgen.Options{Schema: fuzzSchema(b), TypeName: "io.k8s.api.apps.v1.Deployment"}
	for _, n := range benchSizes {
		original, modified := benchDeployment(n, "a", false), benchDeployment(n, "b", false)
		b.Run("items="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := patchgen.TwoWay(original, modified, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkThreeWay: every env entry changed since recorded and live.
func BenchmarkThreeWay(b *testing.B) {
	opts := patchgen.Options{Schema: fuzzSchema(b), TypeName: "io.k8s.api.apps.v1.Deployment", Overwrite: true}
	for _, n := range benchSizes {
		recorded, local, live := benchDeployment(n, "a", false), benchDeployment(n, "b", false), benchDeployment(n, "a", true)
		b.Run("items="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := patchgen.ThreeWay(recorded, local, live, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
