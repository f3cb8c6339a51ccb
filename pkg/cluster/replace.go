package cluster

import (
	"context"
	"errors"
	"github.com/plyproject/ply/pkg/lastapplied"
	"os"
	"path/filepath"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/plyproject/ply/pkg/value"
)

// Replacing an object (--force) deletes it before the new one exists. What
// holds, so that the object is never lost:
//
//   - the old object, as it can be created again (restorable), is kept in
//     memory and saved in a file (BackupDir, mode 0600) before the delete;
//   - the file is removed once the new object, or the old one restored,
//     exists; it is kept, and the error names it, only when neither could
//     be created;
//   - a create refused after the delete (a race, a webhook) creates the
//     old object again, and the error says both what failed and that the
//     object was restored.
//
// No message quotes the saved object: it may be a Secret.

// restoreTimeout bounds the create that restores the old object, which
// runs even when the run's context is done.
const restoreTimeout = 30 * time.Second

// BackupDir returns the folder where an object about to be deleted to be
// re-created is saved until it exists again: "ply/recreate" in the user's
// cache folder (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux),
// else in os.TempDir.
func BackupDir() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "ply", "recreate")
	}
	return filepath.Join(os.TempDir(), "ply-recreate")
}

// replace deletes live, the object t read (by UID), waits until it is gone
// and creates u in its place, returning the server's answer. See the
// comment at the top of this file for what holds when a step fails.
func (c *Client) replace(ctx context.Context, t target, live value.Value, u *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	old := restorable(live)
	backup, err := saveBackup(t.ref, old)
	if err != nil {
		return nil, errors.New("not re-created, nothing deleted: cannot save the object before deleting it: " + err.Error())
	}
	uid := stringAt(live, "metadata", "uid")
	if err := c.deleteAndWait(ctx, t, uid); err != nil {
		if errors.Is(err, errNotDeleted) {
			os.Remove(backup)
			return nil, err
		}
		return nil, errors.New(err.Error() + "; the object as it was is saved in " + backup)
	}
	got, err := c.createRetried(ctx, t, u)
	if err == nil {
		os.Remove(backup)
		return got, nil
	}
	return nil, c.restore(ctx, t, old, backup, err)
}

// createRetried creates u, repeating the create while it fails transiently. A repeat that meets AlreadyExists after an
// answer was lost reads the object: if it records the configuration u carries (its last-applied annotation), the lost
// create stored it and it is the answer; else the AlreadyExists stands (another writer created the name meanwhile).
func (c *Client) createRetried(ctx context.Context, t target, u *unstructured.Unstructured) (got *unstructured.Unstructured, err error) {
	lost := false
	err = c.retrier().do(ctx, func(ctx context.Context) error {
		got, err = t.ri.Create(ctx, u, c.createOptions(false))
		if lost && apierrors.IsAlreadyExists(err) {
			if cur, gerr := t.ri.Get(ctx, t.ref.Name, metav1.GetOptions{}); gerr == nil &&
				cur.GetAnnotations()[lastapplied.Annotation] == u.GetAnnotations()[lastapplied.Annotation] {
				got, err = cur, nil
			}
		}
		lost = lost || transient(err)
		return err
	})
	return got, err
}

// errNotDeleted marks the errors of deleteAndWait after which the old
// object is untouched.
var errNotDeleted = errors.New("nothing deleted")

// deleteAndWait deletes the object of t whose UID is uid (propagation
// Background) and waits until it is gone or another object holds its name.
func (c *Client) deleteAndWait(ctx context.Context, t target, uid string) error {
	background := metav1.DeletePropagationBackground
	opts := metav1.DeleteOptions{PropagationPolicy: &background, GracePeriodSeconds: c.opts.GracePeriod}
	if uid != "" {
		u := types.UID(uid)
		opts.Preconditions = &metav1.Preconditions{UID: &u}
	}
	// The UID precondition makes a repeat safe: a repeat after a lost answer finds the object gone (404) or another of
	// the name (409), which it does not delete.
	lost := false
	err := c.retrier().do(ctx, func(ctx context.Context) error {
		err := t.ri.Delete(ctx, t.ref.Name, opts)
		if lost && apierrors.IsConflict(err) {
			err = nil
		}
		lost = lost || transient(err)
		return err
	})
	if err != nil && !apierrors.IsNotFound(err) {
		msg := "not re-created: cannot delete the object: " + c.maskStatus(t.ref, err).Error()
		if lost { // the object may be gone: not errNotDeleted, so the saved copy stays and is named
			return errors.New(msg + " (a delete was sent and its answer lost: the object may be deleted)")
		}
		return errors.Join(errNotDeleted, errors.New(msg))
	}
	if c.opts.DeleteTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.DeleteTimeout)
		defer cancel()
	}
	for {
		var got *unstructured.Unstructured
		err := c.retrier().do(ctx, func(ctx context.Context) error {
			var err error
			got, err = t.ri.Get(ctx, t.ref.Name, metav1.GetOptions{})
			return err
		})
		if apierrors.IsNotFound(err) || (err == nil && string(got.GetUID()) != uid) {
			return nil
		}
		if err != nil {
			return errors.New("deleted the object to re-create it, then: " + c.maskStatus(t.ref, err).Error())
		}
		if err := c.sleep(ctx, c.poll); err != nil {
			return errors.New("deleted the object to re-create it, but it is not gone: " + err.Error())
		}
	}
}

// restore creates old again after the create of the new object failed
// with createErr, and returns the error that says what failed and what was
// restored. It runs on a context of its own (restoreTimeout): the run's
// may be done already.
func (c *Client) restore(ctx context.Context, t target, old value.Value, backup string, createErr error) error {
	msg := "deleted the object to re-create it, but the server refused the new object: " + c.maskStatus(t.ref, createErr).Error()
	u := &unstructured.Unstructured{}
	err := u.UnmarshalJSON(old.JSON())
	if err == nil {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), restoreTimeout)
		_, err = t.ri.Create(rctx, u, metav1.CreateOptions{FieldManager: c.fieldManager()})
		cancel()
	}
	if err != nil {
		return errors.New(msg + "; restoring the object as it was failed too: " + c.maskStatus(t.ref, err).Error() +
			"; the object as it was is saved in " + backup + " (kubectl create -f " + backup + " restores it)")
	}
	os.Remove(backup)
	return errors.New(msg + "; restored the object as it was (with a new uid)")
}

// restorable returns live as it can be created again: without what the
// server sets on each object (resourceVersion, uid, creationTimestamp,
// generation, managedFields, deletion marks, selfLink) and without status,
// as kubectl apply --force re-creates the original when its create fails.
func restorable(live value.Value) value.Value {
	md, _ := live.Get("metadata")
	for _, f := range [...]string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields",
		"deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		md = md.Without(f)
	}
	return live.Without("status").With("metadata", md)
}

// saveBackup writes obj as JSON to a new file of mode 0600 in BackupDir
// (created with mode 0700) and returns its path.
func saveBackup(ref Ref, obj value.Value) (string, error) {
	dir := BackupDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	name := strings.ToLower(ref.Kind) + "-"
	if ref.Namespace != "" {
		name += ref.Namespace + "-"
	}
	f, err := os.CreateTemp(dir, name+ref.Name+"-*.json")
	if err != nil {
		return "", err
	}
	_, err = f.Write(obj.IndentJSON("  "))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
