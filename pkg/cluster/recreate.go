package cluster

import (
	"context"
	"errors"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

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
	// Invalid names the fields of the refusal's other causes (plain
	// validation errors, such as a ConfigMap key with a space): a new
	// object would be refused for them too, so an object whose refusal
	// has any is never re-created.
	Invalid []string
	Err     error
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
	switch {
	case e.Refused != "":
		return msg + "; " + e.Refused
	case len(e.Invalid) > 0:
		return msg + "; " + e.alsoInvalid() + ": fix the manifest"
	}
	return msg + `; pass --force (or annotate the object ` + ForceAnnotation + `: "true") to delete it and create it again`
}

// alsoInvalid names the fields of the refusal that are invalid rather
// than immutable.
func (e *ImmutableError) alsoInvalid() string {
	return "the server also refuses " + strings.Join(e.Invalid, ", ") + ", not for being immutable"
}

func (e *ImmutableError) Unwrap() error { return e.Err }

// immutable returns the ImmutableError of err when err is the server's
// refusal to change immutable fields, else nil: the causes saying "field
// is immutable", or "may not change once set" (a Service's clusterIPs),
// are its Fields, the others its Invalid fields.
func immutable(err error) *ImmutableError {
	var status apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &status) {
		return nil
	}
	d := status.Status().Details
	if d == nil {
		return nil
	}
	var fields, invalid []string
	for _, c := range d.Causes {
		if strings.Contains(c.Message, "immutable") || strings.Contains(c.Message, "may not change once set") {
			fields = append(fields, c.Field)
		} else {
			invalid = append(invalid, c.Field)
		}
	}
	if len(fields) == 0 {
		return nil
	}
	return &ImmutableError{Fields: fields, Invalid: invalid, Err: err}
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

// notRecreated returns why the object of t, whose update the server
// refused as ie says, must not be re-created ("" when it may be):
// Namespaces and CustomResourceDefinitions never are, nor objects whose
// refusal also names fields that are invalid rather than immutable.
func notRecreated(t target, ie *ImmutableError) string {
	if why, ok := neverRecreated[t.ref.Kind]; ok && t.ref.Group == groupOf(t.ref.Kind) {
		return "not re-created: " + why
	}
	if len(ie.Invalid) > 0 {
		return "not re-created: " + ie.alsoInvalid() + ", and a new object would be refused for them too: fix the manifest"
	}
	return ""
}

// recreate replaces the live object of p, whose update the server refused
// as ie says, by the object apply would create if there were none
// (recreation), and returns the server's answer. The create is first
// sent as a dry run while the old object exists (validateRecreation): a
// refusal fails the object with nothing deleted. In a server dry run
// that is all, and the object sent is returned; otherwise replace deletes
// the old object and creates the new one, restoring the old one when the
// create fails even so.
func (c *Client) recreate(ctx context.Context, t target, p planned, ie *ImmutableError, sch *openapi.Schema) (value.Value, error) {
	if why := notRecreated(t, ie); why != "" {
		ie.Refused = why
		return value.Null, ie
	}
	obj, u, err := c.recreation(t, sch)
	if err != nil {
		return value.Null, err
	}
	if err := c.validateRecreation(ctx, t, u, c.opts.DryRun == DryRunServer); err != nil {
		return value.Null, err
	}
	if c.opts.DryRun == DryRunServer {
		return obj, nil
	}
	got, err := c.replace(ctx, t, p.live, u)
	if err != nil {
		return value.Null, err
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
// refusal is returned (dry says whether the run is a dry run, for its
// message): the re-creation would delete the object and then fail to
// create it.
func (c *Client) validateRecreation(ctx context.Context, t target, u *unstructured.Unstructured, dry bool) error {
	// A dry run writes nothing: repeated while it fails transiently.
	err := c.retrier().do(ctx, func(ctx context.Context) error {
		_, err := t.ri.Create(ctx, u, c.createOptions(true))
		return err
	})
	err = fieldValidationError(err)
	if err == nil || apierrors.IsAlreadyExists(err) || heldByOld(err) {
		return nil
	}
	return &RecreateRefusedError{Err: c.maskStatus(t.ref, err), DryRun: dry}
}

// RecreateRefusedError is the server's refusal of the create a
// re-creation would make, found by its dry run before anything is
// deleted: the old object would be deleted and the new one not created,
// so the old one is kept.
type RecreateRefusedError struct {
	Err error
	// DryRun is set when the run itself is a dry run (or a diff).
	DryRun bool
}

func (e *RecreateRefusedError) Error() string {
	if e.DryRun {
		return "the object would be deleted to re-create it, but the server refuses to create it: " + e.Err.Error()
	}
	return "not re-created, nothing deleted: the server refuses to create the new object (a dry-run create): " + e.Err.Error()
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
