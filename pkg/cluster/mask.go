package cluster

import (
	"errors"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SecretStatusError is the server's refusal (a metav1.Status) of a request
// about a Secret, its message rendered by ply from the Status's structure
// alone: the reason, the code, the resource and name it names, and the
// field path and type of each cause. The server's free text, its message
// and the causes' messages, is left out: a ValidatingAdmissionPolicy's
// messageExpression, a webhook or a validation cause can quote the
// Secret's values, in any form (as sent, base64, decoded, quoted, part of
// one), and ply cannot tell, so it prints none of it (--show-secrets
// does: the error is then the server's own). Nothing is searched for
// values and no text is rewritten.
//
// errors.As finds the server's error it wraps, which pkg/cluster decides
// by (conflicts, immutable fields); printing that error's message would
// print the server's text.
type SecretStatusError struct {
	status metav1.Status
	err    error
}

// Error renders the Status without its free text: `the server refused
// secrets "db": Invalid (422) at data[bad key!] (FieldValueInvalid); its
// message is not shown, as it can quote the Secret's values
// (--show-secrets shows it)`.
func (e *SecretStatusError) Error() string {
	var sb strings.Builder
	sb.WriteString("the server refused ")
	d := e.status.Details
	switch {
	case d != nil && d.Kind != "" && d.Name != "":
		sb.WriteString(d.Kind + " " + strconv.Quote(d.Name))
	case d != nil && d.Name != "":
		sb.WriteString(strconv.Quote(d.Name))
	default:
		sb.WriteString("the request")
	}
	sb.WriteString(": ")
	reason := string(e.status.Reason)
	if reason == "" {
		reason = string(metav1.StatusFailure)
	}
	sb.WriteString(reason)
	if e.status.Code != 0 {
		sb.WriteString(" (" + strconv.Itoa(int(e.status.Code)) + ")")
	}
	if d != nil {
		sep := " at "
		for _, c := range d.Causes {
			if c.Field == "" && c.Type == "" {
				continue // a cause of message alone (an admission policy's)
			}
			sb.WriteString(sep)
			sep = ", "
			if c.Field == "" {
				sb.WriteString(string(c.Type))
				continue
			}
			sb.WriteString(c.Field)
			if c.Type != "" {
				sb.WriteString(" (" + string(c.Type) + ")")
			}
		}
	}
	sb.WriteString("; its message is not shown, as it can quote the Secret's values (--show-secrets shows it)")
	return sb.String()
}

// Unwrap returns the server's error.
func (e *SecretStatusError) Unwrap() error { return e.err }

// maskStatus returns err, an error of a request about the object of ref,
// with the server's Status (if err carries one) rendered as a
// *SecretStatusError when the object is a Secret, unless
// Options.ShowSecrets. It is called where the requests answer, so that
// every message built on err (ImmutableError, RecreateRefusedError, the
// retries', the prune's) is built from the masked rendering. Errors of the
// connection (a refused dial, a reset) name the request's method and URL,
// never the object's content, and are returned as they are.
func (c *Client) maskStatus(ref Ref, err error) error {
	if err == nil || c.opts.ShowSecrets || ref.Kind != "Secret" || ref.Group != "" {
		return err
	}
	var masked *SecretStatusError
	if errors.As(err, &masked) {
		return err
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return err
	}
	return &SecretStatusError{status: status.Status(), err: err}
}
