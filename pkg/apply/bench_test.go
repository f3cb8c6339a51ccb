package apply_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// deployment returns a Deployment whose one container has n env entries
// with values prefixed by tag, and a server-added field when live.
func deployment(n int, tag string, live bool) value.Value {
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
	spec := value.MustMap(
		value.Field{Key: "replicas", Value: value.Int(3)},
		value.Field{Key: "template", Value: value.MustMap(value.Field{Key: "spec", Value: value.MustMap(
			value.Field{Key: "containers", Value: value.List([]value.Value{container})})})},
	)
	fields := []value.Field{
		{Key: "apiVersion", Value: value.String("apps/v1")},
		{Key: "kind", Value: value.String("Deployment")},
		{Key: "metadata", Value: value.MustMap(value.Field{Key: "name", Value: value.String("web")})},
		{Key: "spec", Value: spec},
	}
	if live {
		fields = append(fields, value.Field{Key: "status", Value: value.MustMap(value.Field{Key: "replicas", Value: value.Int(3)})})
	}
	return value.MustMap(fields...)
}

// BenchmarkMerge measures Merge alone (inputs already parsed) on a
// Deployment with n env entries whose every value changes.
func BenchmarkMerge(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 5000} {
		recorded, local, live := deployment(n, "a", false), deployment(n, "b", false), deployment(n, "a", true)
		for _, o := range []apply.Ordering{apply.OrderingSeed, apply.OrderingKubectl} {
			name := "env=" + strconv.Itoa(n) + "/ordering=seed"
			if o == apply.OrderingKubectl {
				name = "env=" + strconv.Itoa(n) + "/ordering=kubectl"
			}
			opts := apply.DefaultOptions()
			opts.Ordering = o
			b.Run(name, func(b *testing.B) { benchMerge(b, recorded, local, live, opts) })
		}
	}
}

// BenchmarkMergeNoOverwrite measures Merge with Overwrite false (kubectl apply --overwrite=false: the three-way patch
// and the conflict check besides the merge) on the Deployments of BenchmarkMerge.
func BenchmarkMergeNoOverwrite(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 5000} {
		recorded, local, live := deployment(n, "a", false), deployment(n, "b", false), deployment(n, "a", true)
		opts := apply.DefaultOptions()
		opts.Overwrite = false
		b.Run("env="+strconv.Itoa(n), func(b *testing.B) { benchMerge(b, recorded, local, live, opts) })
	}
}

// benchMerge measures Merge of the three objects with opts, after one merge outside the measure.
func benchMerge(b *testing.B, recorded, local, live value.Value, opts apply.Options) {
	if _, err := apply.Merge(recorded, local, live, opts); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := apply.Merge(recorded, local, live, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMergeRanked measures Merge with gate UniqueMergeKeys off (features.Kubectl()) where local repeats an env
// key, so that the env list is Ranked and merges as kubectl's three-way patch applied to live does, on the Deployments
// of BenchmarkMerge.
func BenchmarkMergeRanked(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		recorded, local, live := deployment(n, "a", false), deployment(n, "b", false), deployment(n, "a", true)
		local = repeatFirstEnv(local)
		opts := apply.DefaultOptions()
		opts.Gates = features.Kubectl()
		b.Run("env="+strconv.Itoa(n), func(b *testing.B) { benchMerge(b, recorded, local, live, opts) })
	}
}

// repeatFirstEnv returns Deployment d (deployment's) with its container's first env entry repeated right after it,
// its value changed: a list repeating a merge key.
func repeatFirstEnv(d value.Value) value.Value {
	spec, _ := d.Get("spec")
	tmpl, _ := spec.Get("template")
	pod, _ := tmpl.Get("spec")
	containers, _ := pod.Get("containers")
	c := containers.Items()[0]
	env, _ := c.Get("env")
	first := env.Items()[0]
	name, _ := first.Get("name")
	items := slices.Insert(slices.Clone(env.Items()), 1,
		value.MustMap(value.Field{Key: "name", Value: name}, value.Field{Key: "value", Value: value.String("again")}))
	c = c.With("env", value.List(items))
	pod = pod.With("containers", value.List([]value.Value{c}))
	return d.With("spec", spec.With("template", tmpl.With("spec", pod)))
}
