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

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
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
// refusal to change immutable fields, else nil: the causes saying "field
// is immutable", or "may not change once set" (a Service's clusterIPs).
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
		if strings.Contains(c.Message, "immutable") || strings.Contains(c.Message, "may not change once set") {
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
// until it is gone and creates in its place the object apply would create
// if there were none (recreation), and returns the server's answer. In a
// server dry run nothing is deleted: the create is sent as a dry run to
// validate the new object (validateRecreation), and the object sent is
// returned. ie is the refusal that led here; Namespaces and
// CustomResourceDefinitions are never re-created.
func (c *Client) recreate(ctx context.Context, t target, p planned, ie *ImmutableError, sch *openapi.Schema) (value.Value, error) {
	if why, ok := neverRecreated[t.ref.Kind]; ok && t.ref.Group == groupOf(t.ref.Kind) {
		ie.Refused = "not re-created: " + why
		return value.Null, ie
	}
	obj, u, err := c.recreation(t, sch)
	if err != nil {
		return value.Null, err
	}
	if c.opts.DryRun == DryRunServer {
		return obj, c.validateRecreation(ctx, t, u)
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
		return value.Null, errors.New("cannot delete the object to re-create it: " + c.maskStatus(t.ref, err).Error())
	}
	for {
		got, err := t.ri.Get(ctx, t.ref.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) || (err == nil && string(got.GetUID()) != uid) {
			break
		}
		if err != nil {
			return value.Null, errors.New("deleted the object to re-create it, then: " + c.maskStatus(t.ref, err).Error())
		}
		select {
		case <-ctx.Done():
			return value.Null, errors.New("deleted the object to re-create it, but it is not gone: " + ctx.Err().Error())
		case <-time.After(200 * time.Millisecond):
		}
	}
	got, err := t.ri.Create(ctx, u, metav1.CreateOptions{FieldManager: c.fieldManager()})
	if err != nil {
		return value.Null, errors.New("deleted the object to re-create it, but cannot create it: " + c.maskStatus(t.ref, err).Error())
	}
	if res, err := toValue(got); err == nil {
		return res, nil
	}
	return obj, nil
}

// recreation returns the object re-creating t creates, as a value and
// encoded: what apply creates when no object exists (local merged with no
// recorded and no live configuration), so that nothing the server or
// other writers set on the old object is carried over (a Job's generated
// selector, a Service's clusterIPs), as kubectl apply --force creates the
// manifest.
func (c *Client) recreation(t target, sch *openapi.Schema) (value.Value, *unstructured.Unstructured, error) {
	res, err := apply.Merge(value.Null, t.local, value.Null, apply.Options{Schema: sch, Overwrite: c.opts.Overwrite, Ordering: c.opts.Ordering, Gates: c.opts.Gates})
	if err != nil {
		return value.Null, nil, err
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(res.Object.JSON()); err != nil {
		return value.Null, nil, errors.New("cannot encode the object to re-create: " + err.Error())
	}
	return res.Object, u, nil
}

// validateRecreation sends the create of u, the object a re-creation of t
// would create, as a dry run while the old object still exists. The server
// validates and admits an object before it looks for one of the same
// name, so AlreadyExists means the create would pass once the old object
// is gone; so does a refusal whose every cause is a port or IP already
// allocated (the old object holds them until it is deleted). Any other
// refusal is returned: the re-creation would delete the object and then
// fail to create it.
func (c *Client) validateRecreation(ctx context.Context, t target, u *unstructured.Unstructured) error {
	_, err := t.ri.Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldManager: c.fieldManager()})
	if err == nil || apierrors.IsAlreadyExists(err) || heldByOld(err) {
		return nil
	}
	return &RecreateRefusedError{Err: c.maskStatus(t.ref, err)}
}

// RecreateRefusedError is the server's refusal of the create a
// re-creation would make, found by its dry run: the old object would be
// deleted and the new one not created.
type RecreateRefusedError struct{ Err error }

func (e *RecreateRefusedError) Error() string {
	return "the object would be deleted to re-create it, but the server refuses to create it: " + e.Err.Error()
}

func (e *RecreateRefusedError) Unwrap() error { return e.Err }

// heldByOld reports whether err refuses a create only for ports or IPs
// already allocated.
func heldByOld(err error) bool {
	var status apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &status) || status.Status().Details == nil {
		return false
	}
	causes := status.Status().Details.Causes
	for _, c := range causes {
		if !strings.Contains(c.Message, "already allocated") {
			return false
		}
	}
	return len(causes) > 0
}

// groupOf is the API group of the kinds neverRecreated names.
func groupOf(kind string) string {
	if kind == "CustomResourceDefinition" {
		return "apiextensions.k8s.io"
	}
	return ""
}
