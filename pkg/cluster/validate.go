package cluster

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Field validation: every write of an object and every dry run of one
// (PUT, POST, PATCH, the dry runs of Diff and of a re-creation) carries
// fieldValidation=Strict, Warn or Ignore (Options.FieldValidation), as
// kubectl's --validate sends it. Under Strict the server refuses an object
// with a field its schema does not declare, or a field given twice; the
// refusal becomes a *FieldValidationError naming each field. Under Warn the
// server stores the object without those fields and says so in warnings,
// which join the object's Outcome.Warnings (warnings.go).

// FieldValidation is the server's handling of unknown and duplicate
// fields in the objects ply writes: the value of the fieldValidation query
// parameter.
type FieldValidation string

const (
	// FieldValidationStrict refuses the object.
	FieldValidationStrict FieldValidation = metav1.FieldValidationStrict
	// FieldValidationWarn stores the object without the fields, with a
	// warning for each.
	FieldValidationWarn FieldValidation = metav1.FieldValidationWarn
	// FieldValidationIgnore stores the object without the fields, silently.
	FieldValidationIgnore FieldValidation = metav1.FieldValidationIgnore
)

// ParseValidate parses the value of a --validate flag as kubectl 1.32
// reads it: strict (or true), warn, ignore (or false); the boolean
// spellings strconv.ParseBool knows ("1", "t", "TRUE", ...) count as true
// and false, as in kubectl.
func ParseValidate(s string) (FieldValidation, error) {
	switch s {
	case "strict":
		return FieldValidationStrict, nil
	case "warn":
		return FieldValidationWarn, nil
	case "ignore":
		return FieldValidationIgnore, nil
	case "1", "t", "T", "true", "TRUE", "True":
		return FieldValidationStrict, nil
	case "0", "f", "F", "false", "FALSE", "False":
		return FieldValidationIgnore, nil
	}
	return FieldValidationStrict, errors.New(`invalid --validate value "` + s + `": want strict (or true), warn or ignore (or false)`)
}

// fieldValidation is the fieldValidation parameter of ply's writes:
// Options.FieldValidation, Strict when empty.
func (c *Client) fieldValidation() string {
	if c.opts.FieldValidation == "" {
		return string(FieldValidationStrict)
	}
	return string(c.opts.FieldValidation)
}

// createOptions are the options of a create of an object: ply's field
// manager and field validation, and dryRun=All when dry.
func (c *Client) createOptions(dry bool) metav1.CreateOptions {
	o := metav1.CreateOptions{FieldManager: c.fieldManager(), FieldValidation: c.fieldValidation()}
	if dry {
		o.DryRun = []string{metav1.DryRunAll}
	}
	return o
}

// updateOptions are createOptions for an update.
func (c *Client) updateOptions(dry bool) metav1.UpdateOptions {
	o := c.createOptions(dry)
	return metav1.UpdateOptions{FieldManager: o.FieldManager, FieldValidation: o.FieldValidation, DryRun: o.DryRun}
}

// FieldValidationError is the server's refusal of an object under strict
// field validation: Fields are its unknown and duplicate fields, each as
// the server names it (`unknown field "spec.replcas"`, `duplicate field
// "replicas"`), the path from the object's root.
type FieldValidationError struct {
	Fields []string
	// Err is the server's refusal.
	Err error
}

func (e *FieldValidationError) Error() string { return strings.Join(e.Fields, ", ") }

func (e *FieldValidationError) Unwrap() error { return e.Err }

// strictDecoding is the text before the fields of the server's strict
// refusal: `Deployment in version "v1" cannot be handled as a Deployment:
// strict decoding error: unknown field "spec.replcas", unknown field ...`.
const strictDecoding = "strict decoding error: "

// strictField matches one field of the server's strict refusal: the
// Go-quoted path after "unknown field" or "duplicate field".
var strictField = regexp.MustCompile(`(unknown|duplicate) field "(?:[^"\\]|\\.)*"`)

// typedPatchText is what the server's answer to a server-side apply says
// when the configuration does not fit the kind's schema (a 500, whatever
// fieldValidation says): `failed to create typed patch object (ns/name;
// apps/v1, Kind=Deployment): .spec.replcas: field not declared in schema`.
// No repeat cures it.
const typedPatchText = "failed to create typed patch object"

// undeclaredField matches one field of that answer: its path, with a
// leading dot, before ": field not declared in schema".
var undeclaredField = regexp.MustCompile(`\.([^\s:]+): field not declared in schema`)

// typedPatchRefusal reports whether msg is the server's refusal of an apply
// configuration that does not fit the schema (typedPatchText).
func typedPatchRefusal(msg string) bool { return strings.Contains(msg, typedPatchText) }

// fieldValidationError returns err as a *FieldValidationError when it is
// the server's strict refusal of unknown or duplicate fields, or its
// refusal of an apply configuration naming fields the schema does not
// declare, else err.
func fieldValidationError(err error) error {
	if err != nil && apierrors.IsInternalError(err) && typedPatchRefusal(err.Error()) {
		var fields []string
		for _, m := range undeclaredField.FindAllStringSubmatch(err.Error(), -1) {
			fields = append(fields, "unknown field "+strconv.Quote(m[1]))
		}
		if len(fields) > 0 {
			return &FieldValidationError{Fields: fields, Err: err}
		}
		return err
	}
	if err == nil || !apierrors.IsBadRequest(err) {
		return err
	}
	msg := err.Error()
	at := strings.LastIndex(msg, strictDecoding)
	if at < 0 {
		return err
	}
	fields := strictField.FindAllString(msg[at+len(strictDecoding):], -1)
	if len(fields) == 0 {
		return err
	}
	return &FieldValidationError{Fields: fields, Err: err}
}
