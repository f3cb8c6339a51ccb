package cluster

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
)

// FuzzSecretMessages checks that what ply prints about a Secret holds
// none of its values, in any form, on every failure path: the conflicts
// of a merge and of a three-way patch with Overwrite false (their error
// and each Describe line), the three-way patch (ply patch create),
// a server's refusal (a metav1.Status whose message and causes quote the
// values, as admission policies and validation do) as apply and diff
// report it, bare and inside an ImmutableError and a RecreateRefusedError,
// the unified diff of live against the merged object, and the object
// printed with -o.
//
// The values are the fuzzer's, short ones included ("443", "a", "7",
// ""), and a search for them would be meaningless: "443" can be part of
// unrelated text, "" is part of every text. So the check is in two parts.
// First, the output must not depend on the values at all: the same
// failures, made from twin Secrets whose every value v is replaced by v
// followed by twinSuffix (equal values stay equal, so the same fields
// conflict and change), must print byte for byte the same. That holds
// whatever the values' lengths, and catches a value leaking in any form
// (base64, decoded, quoted, cut). Second, in the twins' output none of
// the values, as written or base64-encoded, appears: with the suffix each
// is at least 12 bytes holding a character ply never prints itself, so an
// occurrence can only be a leak.
func FuzzSecretMessages(f *testing.F) {
	f.Add("443", "a", "7", "N3w-PW-5353", "OLD-PW-7777", uint8(0))
	f.Add("S3cr3t-PW-4242", "S3cr3t-PW-4242", "", "data", "Invalid", uint8(3))
	f.Add("1", "2", "3", "4", "5", uint8(255))
	f.Add("s", "secrets", "***", "422", "127.0.0.1", uint8(6))
	f.Add("é\n\"", "\x00", "a b", "{}", "null", uint8(9))
	sch, err := openapi.Default()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, v0, v1, v2, v3, v4 string, shape uint8) {
		vals := []string{v0, v1, v2, v3, v4}
		for i, v := range vals {
			vals[i] = strings.ToValidUTF8(v, "?")
		}
		twins := make([]string, len(vals))
		for i, v := range vals {
			twins[i] = v + twinSuffix
		}
		got := secretMessages(t, sch, vals, shape)
		twin := secretMessages(t, sch, twins, shape)
		if got != twin {
			t.Fatalf("the output depends on the Secret's values:\n%s\n--- with the twin values:\n%s", got, twin)
		}
		for _, v := range twins {
			for _, form := range []string{v, base64.StdEncoding.EncodeToString([]byte(v))} {
				if strings.Contains(twin, form) {
					t.Fatalf("the output holds %q:\n%s", form, twin)
				}
			}
		}
	})
}

// twinSuffix makes a value that no message ply writes can hold by chance.
const twinSuffix = "\u2603\u2603\u2603\u2603"

// fuzzSecrets are the recorded, local and live Secrets of
// FuzzSecretMessages made from vals: shape's bits say which values sit in
// data (base64-encoded, as the API holds them) or stringData, and whether
// live changed the values recorded set, so that some fields conflict.
func fuzzSecrets(vals []string, shape uint8) (recorded, local, live value.Value) {
	secret := func(fields map[string]string) value.Value {
		data, stringData := value.MustMap(), value.MustMap()
		for i, k := range []string{"a", "b", "c"} {
			s, ok := fields[k]
			if !ok {
				continue
			}
			if shape&(1<<i) != 0 {
				stringData = stringData.With(k, value.String(s))
			} else {
				data = data.With(k, value.String(base64.StdEncoding.EncodeToString([]byte(s))))
			}
		}
		return value.MustMap(value.Field{Key: "apiVersion", Value: value.String("v1")}, value.Field{Key: "kind", Value: value.String("Secret")},
			value.Field{Key: "metadata", Value: value.MustMap(value.Field{Key: "name", Value: value.String("s")},
				value.Field{Key: "namespace", Value: value.String("default")})},
			value.Field{Key: "data", Value: data}, value.Field{Key: "stringData", Value: stringData})
	}
	recorded = secret(map[string]string{"a": vals[0], "b": vals[1]})
	local = WithLastApplied(secret(map[string]string{"a": vals[2], "b": vals[1], "c": vals[3]}))
	liveVals := map[string]string{"a": vals[0], "b": vals[1], "c": vals[4]}
	if shape&8 != 0 {
		liveVals["a"], liveVals["b"] = vals[4], vals[3]
	}
	live = WithLastApplied(secret(liveVals))
	md, _ := live.Get("metadata")
	ann, _ := md.Get("annotations")
	live = live.With("metadata", md.With("annotations", ann.With(LastAppliedAnnotation, value.String(LastAppliedConfiguration(recorded)))))
	return recorded, local, live
}

// refusalOf is a server's refusal of the write of a Secret quoting vals
// in every form, in its message and its causes': shape picks the reason.
func refusalOf(vals []string, shape uint8) error {
	var quoted strings.Builder
	for _, v := range vals {
		quoted.WriteString(" " + v + " " + base64.StdEncoding.EncodeToString([]byte(v)) + " %q" + v)
	}
	reasons := []metav1.StatusReason{metav1.StatusReasonInvalid, metav1.StatusReasonForbidden, metav1.StatusReasonConflict, metav1.StatusReasonInternalError}
	reason := reasons[int(shape>>4)%len(reasons)]
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Reason: reason, Code: 422,
		Message: `secrets "s" is refused:` + quoted.String(),
		Details: &metav1.StatusDetails{Kind: "secrets", Name: "s", Causes: []metav1.StatusCause{
			{Type: metav1.CauseTypeFieldValueInvalid, Field: "data[a]", Message: "Invalid value: " + quoted.String()},
			{Type: metav1.CauseType("FieldValueForbidden"), Field: "data", Message: "field is immutable; was" + quoted.String()},
			{Message: "ValidatingAdmissionPolicy 'p' denied request:" + quoted.String()},
		}},
	}}
}

// secretMessages renders every failure path of FuzzSecretMessages for the
// Secrets made from vals.
func secretMessages(t *testing.T, sch *openapi.Schema, vals []string, shape uint8) string {
	recorded, local, live := fuzzSecrets(vals, shape)
	var out strings.Builder
	conflicts := func(what string, err error) {
		var ce *apply.ConflictError
		switch {
		case errors.As(err, &ce):
			out.WriteString(err.Error() + "\n")
			for _, c := range ce.Conflicts {
				out.WriteString(c.Describe(false) + "\n")
			}
		case err != nil:
			t.Fatalf("%s: %v", what, err)
		}
	}
	_, err := apply.Merge(recorded, local, live, apply.Options{Schema: sch})
	conflicts("merge", err)
	_, err = patchgen.ThreeWay(recorded, local, live, patchgen.Options{Schema: sch})
	conflicts("three-way patch", err)
	p, err := patchgen.ThreeWay(recorded, local, live, patchgen.Options{Schema: sch, Overwrite: true})
	if err != nil {
		t.Fatalf("three-way patch: %v", err)
	}
	out.Write(MaskPatch(p).JSON())
	c := &Client{}
	ref := Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, Namespace: "default", Name: "s", Resource: "secrets"}
	refused := c.maskStatus(ref, refusalOf(vals, shape))
	out.WriteString(refused.Error() + "\n")
	if ie := immutable(refused); ie != nil {
		out.WriteString(ie.Error() + "\n")
	}
	out.WriteString((&RecreateRefusedError{Err: refused}).Error() + "\n")

	res, err := apply.Merge(recorded, local, live, apply.Options{Schema: sch, Overwrite: true})
	if err != nil {
		t.Fatalf("merge: %v", err)
	}
	before, after := MaskSecrets(live, res.Object)
	out.WriteString(unifiedDiff("live/s", "merged/s", diffText(before), diffText(after)))
	out.Write(MaskSecret(res.Object).JSON())
	return out.String()
}
