package cluster

import (
	"context"
	"errors"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/plyproject/ply/pkg/value"
)

// ForceAnnotation, set to "true" on an object in the manifest, asks for
// Options.Force for that object alone.
const ForceAnnotation = "ply.dev/force-recreate"

// ImmutableError is the server's refusal of an update that changes
// immutable fields (a Job's template, a Service's clusterIP, a
// Deployment's selector, a PersistentVolumeClaim's spec): Fields names
// them, Err is the server's answer.
type ImmutableError struct {
	Fields []string
	Err    error
	// Refused says why the object is not re-created even so ("" when
	// re-creating it was not asked for).
	Refused string
}

// Error names the fields and says what to do.
func (e *ImmutableError) Error() string {
	msg := "the server refuses to change immutable field"
	if len(e.Fields) > 1 {
		msg += "s"
	}
	msg += " " + strings.Join(e.Fields, ", ") + " (" + e.Err.Error() + ")"
	if e.Refused != "" {
		return msg + "; " + e.Refused
	}
	return msg + `; pass --force (or annotate the object ` + ForceAnnotation + `: "true") to delete it and create it again`
}

func (e *ImmutableError) Unwrap() error { return e.Err }

// immutable returns the ImmutableError of err when err is the server's
// refusal to change immutable fields, else nil.
func immutable(err error) *ImmutableError {
	var status apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &status) {
		return nil
	}
	d := status.Status().Details
	if d == nil {
		return nil
	}
	var fields []string
	for _, c := range d.Causes {
		if strings.Contains(c.Message, "immutable") {
			fields = append(fields, c.Field)
		}
	}
	if len(fields) == 0 {
		return nil
	}
	return &ImmutableError{Fields: fields, Err: err}
}

// forced reports whether local asks to be re-created when an update is
// refused for immutable fields: Options.Force, or ForceAnnotation.
func (c *Client) forced(local value.Value) bool {
	md, _ := local.Get("metadata")
	ann, _ := md.Get("annotations")
	v, _ := ann.Get(ForceAnnotation)
	s, _ := v.AsString()
	return c.opts.Force || s == "true"
}

// neverRecreated names the kinds whose deletion deletes what they hold.
var neverRecreated = map[string]string{
	"Namespace":                "deleting a Namespace deletes every object in it",
	"CustomResourceDefinition": "deleting a CustomResourceDefinition deletes every resource of it",
}

// recreate deletes the live object of p (the one read, by UID), waits
// until it is gone and creates the merged object in its place, without
// what the server set on the old one (uid, resourceVersion, status, ...).
// In a server dry run nothing is deleted: the create is tried as a dry
// run. ie is the refusal that led here; Namespaces and
// CustomResourceDefinitions are never re-created.
func (c *Client) recreate(ctx context.Context, t target, p planned, ie *ImmutableError) error {
	if why, ok := neverRecreated[t.ref.Kind]; ok && t.ref.Group == groupOf(t.ref.Kind) {
		ie.Refused = "not re-created: " + why
		return ie
	}
	obj := p.res.Object
	md, _ := obj.Get("metadata")
	for _, f := range [...]string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds"} {
		md = md.Without(f)
	}
	obj = obj.With("metadata", md).Without("status")
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(obj.JSON()); err != nil {
		return errors.New("cannot encode the merged object: " + err.Error())
	}
	if c.opts.DryRun == DryRunServer {
		// The old object stays: a dry-run create of the new one would
		// collide with it, so only the update's refusal is known.
		return nil
	}
	uidv, _ := p.live.Get("metadata")
	uidv, _ = uidv.Get("uid")
	uid, _ := uidv.AsString()
	background := metav1.DeletePropagationBackground
	opts := metav1.DeleteOptions{PropagationPolicy: &background}
	if uid != "" {
		u := types.UID(uid)
		opts.Preconditions = &metav1.Preconditions{UID: &u}
	}
	if err := t.ri.Delete(ctx, t.ref.Name, opts); err != nil && !apierrors.IsNotFound(err) {
		return errors.New("cannot delete the object to re-create it: " + err.Error())
	}
	for {
		got, err := t.ri.Get(ctx, t.ref.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) || (err == nil && string(got.GetUID()) != uid) {
			break
		}
		if err != nil {
			return errors.New("deleted the object to re-create it, then: " + err.Error())
		}
		select {
		case <-ctx.Done():
			return errors.New("deleted the object to re-create it, but it is not gone: " + ctx.Err().Error())
		case <-time.After(200 * time.Millisecond):
		}
	}
	if _, err := t.ri.Create(ctx, u, metav1.CreateOptions{FieldManager: c.fieldManager()}); err != nil {
		return errors.New("deleted the object to re-create it, but cannot create it: " + err.Error())
	}
	return nil
}

// groupOf is the API group of the kinds neverRecreated names.
func groupOf(kind string) string {
	if kind == "CustomResourceDefinition" {
		return "apiextensions.k8s.io"
	}
	return ""
}
