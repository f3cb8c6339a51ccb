package cluster

import (
	"context"
	"strings"

	"github.com/plyproject/ply/pkg/value"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
)

// The patch verb: a role that lets kubectl apply (get, list, patch) lets
// ply apply. An update is a PUT of the merged object with the
// resourceVersion read; when the server refuses the PUT because the user
// may not update the resource (RBAC's 403 "cannot update resource"), the
// same update is sent as a JSON merge patch (RFC 7386) from the live
// object read to the merged object, computed here (updatePatch), carrying
// metadata.resourceVersion: the server takes a resourceVersion in a patch
// as a precondition, so a concurrent write still makes it answer 409 and
// the object is read and merged again, as after a PUT's conflict. The
// patch is exact: applied to the object read, it gives the merged object
// (maps are merged key by key, a key the merged object lacks is null,
// lists and scalars are replaced whole), so the server stores what a PUT
// would have stored. The resources (by namespace) whose PUT was refused
// are remembered for the Client's life: their later updates are patches
// at once, so the refusal costs one request per resource and namespace.

// patchKey names a resource in a namespace, the scope of RBAC's answer.
type patchKey struct{ group, resource, namespace string }

func patchKeyOf(ref Ref) patchKey { return patchKey{ref.Group, ref.Resource, ref.Namespace} }

// patching reports whether updates of ref's resource are sent as patches.
func (c *Client) patching(ref Ref) bool {
	_, ok := c.patchVerb.Load(patchKeyOf(ref))
	return ok
}

// updateForbidden reports whether err is the authorizer's refusal of the
// update verb (not an admission webhook's 403, which a patch meets too).
func updateForbidden(err error) bool {
	return apierrors.IsForbidden(err) && strings.Contains(err.Error(), " cannot update resource ")
}

// updatePatch returns the JSON merge patch that turns live into merged,
// with metadata.resourceVersion set to rv (the precondition) when rv is
// not empty.
func updatePatch(live, merged value.Value, rv string) value.Value {
	patch := mergePatch(live, merged)
	if rv == "" {
		return patch
	}
	md, _ := patch.Get("metadata")
	if !md.IsMap() {
		md = value.MustMap()
	}
	return patch.With("metadata", md.With("resourceVersion", value.String(rv)))
}

// mergePatch returns the JSON merge patch from a to b, two maps: the keys
// of b whose values differ from a's (recursively for two maps), and null
// for the keys of a that b lacks.
func mergePatch(a, b value.Value) value.Value {
	af, bf := a.Fields(), b.Fields()
	var out []value.Field
	i, j := 0, 0
	for i < len(af) || j < len(bf) {
		switch {
		case j == len(bf) || (i < len(af) && af[i].Key < bf[j].Key):
			out = append(out, value.Field{Key: af[i].Key, Value: value.Null})
			i++
		case i == len(af) || bf[j].Key < af[i].Key:
			out = append(out, bf[j])
			j++
		default:
			av, bv := af[i].Value, bf[j].Value
			switch {
			case value.Equal(av, bv):
			case av.IsMap() && bv.IsMap():
				out = append(out, value.Field{Key: bf[j].Key, Value: mergePatch(av, bv)})
			default:
				out = append(out, bf[j])
			}
			i, j = i+1, j+1
		}
	}
	return value.MapFromSorted(out)
}

// updateRaw sends the update of p (obj: the merged object with the
// resourceVersion read) through raw: a PUT, else the patch.
func (c *Client) updateRaw(ctx context.Context, t target, p planned, obj value.Value, dry bool) (value.Value, error) {
	if !c.patching(t.ref) {
		res, err := c.writeRaw(ctx, c.raw, t.ref, false, obj.JSON(), dry)
		if !updateForbidden(err) {
			return res, err
		}
		c.patchVerb.Store(patchKeyOf(t.ref), true)
	}
	return c.mergePatchRaw(ctx, c.raw, t.ref, updatePatch(p.live, obj, p.rv).JSON(), dry)
}

// mergePatchRaw sends body as a JSON merge patch of the object ref names and
// returns the server's answer.
func (c *Client) mergePatchRaw(ctx context.Context, raw rest.Interface, ref Ref, body []byte, dry bool) (value.Value, error) {
	answer, err := do(ctx, c.writeParams(raw.Patch(types.MergePatchType).AbsPath(refPath(ref)...).Body(body), c.fieldManager(), dry))
	if err != nil {
		return value.Null, err
	}
	return decodeAnswer(answer, "server's answer")
}

// updateDynamic is updateRaw through the dynamic client (u: obj decoded).
func (c *Client) updateDynamic(ctx context.Context, t target, p planned, u *unstructured.Unstructured, obj value.Value, dry bool) (*unstructured.Unstructured, error) {
	if !c.patching(t.ref) {
		got, err := t.ri.Update(ctx, u, c.updateOptions(dry))
		if !updateForbidden(err) {
			return got, err
		}
		c.patchVerb.Store(patchKeyOf(t.ref), true)
	}
	o := c.updateOptions(dry)
	return t.ri.Patch(ctx, t.ref.Name, types.MergePatchType, updatePatch(p.live, obj, p.rv).JSON(),
		metav1.PatchOptions{DryRun: o.DryRun, FieldManager: o.FieldManager, FieldValidation: o.FieldValidation})
}
