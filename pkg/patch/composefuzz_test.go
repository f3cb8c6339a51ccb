package patch_test

import (
	"errors"
	"testing"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
)

// FuzzComposeRepeat composes, with every gate off, a first patch holding a Pod's container v (named "c") with a
// second naming "c" twice, its repeat p: Compose merges p onto the outcome of v and the second's first item, from
// the patches' tree where Phase 2 can (pkg/visitors: composeCheck, composeFailure), else by collating it again. The
// same merge made as two Composes, the second's items one at a time (no key named twice), must give the same object,
// or both fail with an *elements.Error.
func FuzzComposeRepeat(f *testing.F) {
	for _, c := range [][2]string{
		{`{"env":[{"name":"E","valueFrom":{"secretKeyRef":{"key":"k","name":"s"}}},{"name":"F","value":"1"}]}`,
			`{"env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"},"secretKeyRef":{"optional":true,"name":null}}},{"name":"E","value":"2"}]}`},
		{`{"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80}]}`,
			`{"env":[{"name":"A","$patch":"delete"}],"tty":true}`},
		{`{"env":[{"name":"A","value":"1"}],"ports":[{"containerPort":80}]}`,
			`{"$setElementOrder/env":[{"name":"A"}],"$setElementOrder/ports":[{"containerPort":80}],"ports":null}`},
		{`{"resources":{"limits":{"cpu":"1"}},"volumeMounts":[{"mountPath":"/m","name":"v"}],"ports":null}`,
			`{"$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"resources":{"limits":{"cpu":null}},"volumeMounts":null}`},
		{`{"env":[],"args":["a"],"finalizers":["x"]}`, `{"env":[],"args":["b"],"$setElementOrder/ports":[{"containerPort":1}],"ports":[{"containerPort":1}]}`},
		{`{"env":[{"name":"A","value":"0"},{"name":"B"},{"name":"A","value":"1"},{"$patch":"delete","name":"Z"}]}`,
			`{"env":[{"name":"N","value":"n"},{"$patch":"delete","name":"A"},{"name":"B","value":"c"},{"name":"A"}]}`},
		{`{"env":[{"name":"A","value":"0"},{"name":"K"}],"ports":null}`,
			`{"env":[{"name":"B","value":"1"},{"$patch":"delete","name":"K"},{"$patch":"replace"},{"name":"B","value":"2"}],"ports":[{"$patch":"replace"}]}`},
		{`{"env":[{"name":"E","value":"1","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}`,
			`{"env":[{"name":"E","valueFrom":{"$patch":"replace","secretKeyRef":{"key":"k"}}},{"name":"F","valueFrom":{"$patch":"delete"}}]}`},
		{`{"envFrom":[{"prefix":"a"}],"args":["x"]}`,
			`{"envFrom":[{"configMapRef":{"name":"x"},"$patch":"delete"},{"prefix":"p","secretRef":{"$patch":"replace","name":"s"}}],"args":[["y"]]}`},
		{`{"env":[{"name":"A","value":"1"},{"$patch":"delete","name":"D"},{"name":"B"},{"name":"C"}]}`,
			`{"$setElementOrder/env":[{"name":"X"},{"name":"D"},{"name":"A"}],"env":[{"name":"B","$patch":"delete"},{"name":"X","value":"x"},{"name":"D"}]}`},
		{`{"env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"}}},{"name":"F","value":"1"}]}`,
			`{"env":[{"name":"E","valueFrom":{"$retainKeys":["secretKeyRef"],"secretKeyRef":{"key":"k"}}},{"name":"G","valueFrom":{"$retainKeys":[]}}]}`},
		{`{"env":[{"name":"E","value":"1"}],"ports":[]}`,
			`{"env":[{"name":"F","value":"2"},{"$patch":"merge","name":"E"}],"ports":[{"containerPort":1},{"protocol":"UDP"}]}`},
	} {
		f.Add([]byte(c[0]), []byte(`{"image":"i"}`), []byte(c[1]))
	}
	schema, err := openapi.Default()
	if err != nil {
		f.Fatal(err)
	}
	pod, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
	if !ok {
		f.Fatal("no Pod type")
	}
	f.Fuzz(func(t *testing.T, vDoc, firstItemDoc, pDoc []byte) {
		limits := parse.Limits{MaxBytes: 1 << 14}
		var items [3]value.Value
		for i, doc := range [][]byte{vDoc, firstItemDoc, pDoc} {
			if items[i], err = limits.Document(doc); err != nil || !items[i].IsMap() {
				return
			}
			items[i] = items[i].With("name", value.String("c"))
		}
		containers := func(items ...value.Value) value.Value {
			return value.MustMap().With("spec", value.MustMap().With("containers", value.List(items)))
		}
		first := containers(items[0])
		got, err := patch.Compose(first, containers(items[1], items[2]), pod, features.Kubectl())
		want, wantErr := patch.Compose(first, containers(items[1]), pod, features.Kubectl())
		if wantErr == nil {
			want, wantErr = patch.Compose(want, containers(items[2]), pod, features.Kubectl())
		}
		var ee *elements.Error
		switch {
		case err != nil && !errors.As(err, &ee):
			t.Fatalf("error %T %v is not an *elements.Error", err, err)
		case (err == nil) != (wantErr == nil):
			t.Fatalf("with the repeat: %v %s; one item at a time: %v %s", err, got.JSON(), wantErr, want.JSON())
		case err == nil && !value.Equal(got, want):
			t.Fatalf("with the repeat: %s; one item at a time: %s", got.JSON(), want.JSON())
		}
	})
}

// FuzzComposeRepeatSet composes, with every gate off, a first patch holding a Pod's volume "v" whose ephemeral claim's
// finalizers (a merged set of scalars) are first with a second naming "v" twice, its repeat's finalizers repeat:
// values drawn from a few strings, numbers and booleans, a value named twice in either list, of mixed classes, or an
// order by "$setElementOrder" (order, used where it is not empty). Compose merges the repeat onto the outcome of the
// first's volume and the second's first item from the patches' tree where Phase 2 can, else by collating it again;
// the same merge made as two Composes, the second's items one at a time, must give the same object, or both fail with
// an *elements.Error saying the same.
func FuzzComposeRepeatSet(f *testing.F) {
	for _, c := range [][3]string{{"ab", "cac", ""}, {"abadb", "cbec", ""}, {"ab", "01", ""}, {"a0", "b", ""},
		{"ab", "c", "bca"}, {"abc", "", "ca"}, {"", "aa", ""}, {"tf", "ft1", ""}} {
		f.Add(c[0], c[1], c[2])
	}
	schema, err := openapi.Default()
	if err != nil {
		f.Fatal(err)
	}
	pod, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
	if !ok {
		f.Fatal("no Pod type")
	}
	f.Fuzz(func(t *testing.T, first, repeat, order string) {
		if len(first) > 12 || len(repeat) > 12 || len(order) > 12 {
			return
		}
		volume := func(metadata value.Value) value.Value {
			return value.MustMap().With("name", value.String("v")).With("ephemeral",
				value.MustMap().With("volumeClaimTemplate", value.MustMap().With("metadata", metadata)))
		}
		volumes := func(items ...value.Value) value.Value {
			return value.MustMap().With("spec", value.MustMap().With("volumes", value.List(items)))
		}
		second := value.MustMap().With("finalizers", setValues(repeat))
		if order != "" {
			second = second.With("$setElementOrder/finalizers", setValues(order))
		}
		firstPatch := volumes(volume(value.MustMap().With("finalizers", setValues(first))))
		member := volume(value.MustMap().With("labels", value.MustMap().With("x", value.String("y"))))
		got, err := patch.Compose(firstPatch, volumes(member, volume(second)), pod, features.Kubectl())
		want, wantErr := patch.Compose(firstPatch, volumes(member), pod, features.Kubectl())
		if wantErr == nil {
			want, wantErr = patch.Compose(want, volumes(volume(second)), pod, features.Kubectl())
		}
		var ee *elements.Error
		switch {
		case err != nil && !errors.As(err, &ee):
			t.Fatalf("error %T %v is not an *elements.Error", err, err)
		case (err == nil) != (wantErr == nil):
			t.Fatalf("with the repeat: %v %s; one item at a time: %v %s", err, got.JSON(), wantErr, want.JSON())
		case err != nil && err.Error() != wantErr.Error():
			t.Fatalf("with the repeat: %v; one item at a time: %v", err, wantErr)
		case err == nil && !value.Equal(got, want):
			t.Fatalf("with the repeat: %s; one item at a time: %s", got.JSON(), want.JSON())
		}
	})
}

// setValues is the list of the values spelled by s, a byte each: '0' to '9' a number, 't' and 'f' a boolean, any
// other a one-letter string.
func setValues(s string) value.Value {
	items := make([]value.Value, 0, len(s))
	for _, b := range []byte(s) {
		switch {
		case b >= '0' && b <= '9':
			items = append(items, value.Int(int64(b-'0')))
		case b == 't' || b == 'f':
			items = append(items, value.Bool(b == 't'))
		default:
			items = append(items, value.String(string(rune(b))))
		}
	}
	return value.List(items)
}
