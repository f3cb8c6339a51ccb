package ssa

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Manager is the field manager the peers apply as.
const Manager = "ply-bench"

var embedded struct {
	once sync.Once
	tc   managedfields.TypeConverter
	err  error
}

// TypeConverter returns managedfields' type converter
// (managedfields.NewTypeConverter) over the schemas of ply's embedded
// OpenAPI v3 documents, built once. A schema several documents define is
// taken from the first in file name order (Kubernetes repeats shared
// schemas identically in every document).
func TypeConverter() (managedfields.TypeConverter, error) {
	embedded.once.Do(func() {
		embedded.tc, embedded.err = loadTypeConverter()
	})
	return embedded.tc, embedded.err
}

func loadTypeConverter() (managedfields.TypeConverter, error) {
	_, file, _, _ := runtime.Caller(0)
	files, err := filepath.Glob(filepath.Join(filepath.Dir(file), "..", "..", "openapi", "default", "v3", "*.json"))
	if err == nil && len(files) == 0 {
		err = errors.New("no document in openapi/default/v3")
	}
	if err != nil {
		return nil, fmt.Errorf("ssa: %w", err)
	}
	sort.Strings(files)
	schemas := map[string]*spec.Schema{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("ssa: %w", err)
		}
		var doc spec3.OpenAPI
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("ssa: %s: %w", filepath.Base(f), err)
		}
		if doc.Components == nil {
			continue
		}
		for name, s := range doc.Components.Schemas {
			if _, ok := schemas[name]; !ok {
				schemas[name] = s
			}
		}
	}
	tc, err := managedfields.NewTypeConverter(schemas, false)
	if err != nil {
		return nil, fmt.Errorf("ssa: NewTypeConverter: %w", err)
	}
	return tc, nil
}

// decode reads one JSON object as the API server's unstructured decoding
// does.
func decode(what string, data []byte) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("ssa: %s: %w", what, err)
	}
	return u, nil
}

// Ownership returns the field set of recorded (a JSON object of gvk's
// type) as the JSON the API server stores in a managedFields entry's
// fieldsV1: the fields an applier owns after applying recorded.
func Ownership(tc managedfields.TypeConverter, recorded []byte) ([]byte, error) {
	u, err := decode("recorded", recorded)
	if err != nil {
		return nil, err
	}
	tv, err := tc.ObjectToTyped(u, typed.AllowDuplicates)
	if err != nil {
		return nil, fmt.Errorf("ssa: recorded: %w", err)
	}
	set, err := tv.ToFieldSet()
	if err != nil {
		return nil, fmt.Errorf("ssa: recorded: %w", err)
	}
	return set.ToJSON()
}

// Updater applies with structured-merge-diff's merge.Updater, the core of
// server-side apply, on objects of one apiVersion.
type Updater struct {
	tc      managedfields.TypeConverter
	version fieldpath.APIVersion
	updater *merge.Updater
}

// NewUpdater returns an Updater for objects of apiVersion
// ("apps/v1") typed by tc.
func NewUpdater(tc managedfields.TypeConverter, apiVersion string) *Updater {
	v := fieldpath.APIVersion(apiVersion)
	b := merge.UpdaterBuilder{Converter: oneVersion(v), ReturnInputOnNoop: true}
	return &Updater{tc: tc, version: v, updater: b.BuildUpdater()}
}

// Apply applies local onto live as Manager with force, the manager owning
// the fields of owned (fieldsV1 JSON, see Ownership) before: it decodes
// live and local (JSON) and owned, converts both objects to typed values,
// runs merge.Updater.Apply and returns the merged object as JSON.
func (u *Updater) Apply(owned, local, live []byte) ([]byte, error) {
	liveObj, err := decode("live", live)
	if err != nil {
		return nil, err
	}
	localObj, err := decode("local", local)
	if err != nil {
		return nil, err
	}
	liveTV, err := u.tc.ObjectToTyped(liveObj, typed.AllowDuplicates)
	if err != nil {
		return nil, fmt.Errorf("ssa: live: %w", err)
	}
	localTV, err := u.tc.ObjectToTyped(localObj)
	if err != nil {
		return nil, fmt.Errorf("ssa: local: %w", err)
	}
	set := &fieldpath.Set{}
	if err := set.FromJSON(bytes.NewReader(owned)); err != nil {
		return nil, fmt.Errorf("ssa: owned fields: %w", err)
	}
	managers := fieldpath.ManagedFields{Manager: fieldpath.NewVersionedSet(set, u.version, true)}
	out, _, err := u.updater.Apply(liveTV, localTV, u.version, managers, Manager, true)
	if err != nil {
		return nil, fmt.Errorf("ssa: Apply: %w", err)
	}
	return value.ToJSON(out.AsValue())
}

// oneVersion is the merge.Converter of a type served in one version: an
// object of that version converts to itself, any other is missing.
type oneVersion fieldpath.APIVersion

func (c oneVersion) Convert(obj *typed.TypedValue, v fieldpath.APIVersion) (*typed.TypedValue, error) {
	if v != fieldpath.APIVersion(c) {
		return nil, missingVersion(v)
	}
	return obj, nil
}

func (c oneVersion) IsMissingVersionError(err error) bool {
	var mv missingVersion
	return errors.As(err, &mv)
}

// missingVersion is the error of a conversion to a version not served.
type missingVersion fieldpath.APIVersion

func (m missingVersion) Error() string { return "version " + string(m) + " is not served" }

// FieldManager is managedfields.FieldManager, what the API server runs for
// an apply request (ownership bookkeeping, managedFields encoding and
// decoding, structured-merge-diff's merge), for objects of one kind.
type FieldManager struct {
	fm  *managedfields.FieldManager
	gvk schema.GroupVersionKind
}

// NewFieldManager builds the FieldManager of gvk with managedfields'
// public constructor (NewDefaultFieldManager), for unstructured objects
// served in one version and not defaulted (ply does not default either).
func NewFieldManager(tc managedfields.TypeConverter, gvk schema.GroupVersionKind) (*FieldManager, error) {
	conv := unstructuredConverter{gv: gvk.GroupVersion()}
	fm, err := managedfields.NewDefaultFieldManager(tc, conv, noDefaults{}, unstructuredCreater{}, gvk, gvk.GroupVersion(), "", nil)
	if err != nil {
		return nil, fmt.Errorf("ssa: NewDefaultFieldManager: %w", err)
	}
	return &FieldManager{fm: fm, gvk: gvk}, nil
}

// Stored returns live as the API server would store it after Manager
// applied recorded to it: live (JSON) with metadata.managedFields, Manager
// owning recorded's fields.
func (f *FieldManager) Stored(recorded, live []byte) ([]byte, error) {
	liveObj, err := decode("live", live)
	if err != nil {
		return nil, err
	}
	recordedObj, err := decode("recorded", recorded)
	if err != nil {
		return nil, err
	}
	out, err := f.fm.Apply(liveObj, recordedObj, Manager, true)
	if err != nil {
		return nil, fmt.Errorf("ssa: FieldManager.Apply (recorded): %w", err)
	}
	return json.Marshal(out)
}

// Apply runs FieldManager.Apply of local (JSON) onto stored (JSON with
// metadata.managedFields, see Stored) as Manager with force and returns
// the object the API server would store, as JSON, managedFields included.
func (f *FieldManager) Apply(local, stored []byte) ([]byte, error) {
	liveObj, err := decode("live", stored)
	if err != nil {
		return nil, err
	}
	localObj, err := decode("local", local)
	if err != nil {
		return nil, err
	}
	out, err := f.fm.Apply(liveObj, localObj, Manager, true)
	if err != nil {
		return nil, fmt.Errorf("ssa: FieldManager.Apply: %w", err)
	}
	return json.Marshal(out)
}

// unstructuredConverter converts unstructured objects of the one version
// gv: an object of gv converts to itself (a copy for Convert), as the API
// server's converter of a single-version custom resource does.
type unstructuredConverter struct{ gv schema.GroupVersion }

func (c unstructuredConverter) Convert(in, out, _ any) error {
	src, ok := in.(*unstructured.Unstructured)
	dst, ok2 := out.(*unstructured.Unstructured)
	if !ok || !ok2 {
		return fmt.Errorf("ssa: cannot convert %T to %T", in, out)
	}
	if src.GroupVersionKind().GroupVersion() != c.gv {
		return fmt.Errorf("ssa: cannot convert %s, only %s is served", src.GroupVersionKind(), c.gv)
	}
	dst.Object = src.DeepCopy().Object
	return nil
}

func (c unstructuredConverter) ConvertToVersion(in k8sruntime.Object, target k8sruntime.GroupVersioner) (k8sruntime.Object, error) {
	gvk := in.GetObjectKind().GroupVersionKind()
	want, ok := target.KindForGroupVersionKinds([]schema.GroupVersionKind{gvk})
	if !ok || want != gvk || gvk.GroupVersion() != c.gv {
		return nil, fmt.Errorf("ssa: cannot convert %s to %v, only %s is served", gvk, target, c.gv)
	}
	return in, nil
}

func (c unstructuredConverter) ConvertFieldLabel(_ schema.GroupVersionKind, label, value string) (string, string, error) {
	return label, value, nil
}

// noDefaults is the defaulter of objects without defaults.
type noDefaults struct{}

func (noDefaults) Default(k8sruntime.Object) {}

// unstructuredCreater creates empty unstructured objects of a kind.
type unstructuredCreater struct{}

func (unstructuredCreater) New(kind schema.GroupVersionKind) (k8sruntime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kind)
	return u, nil
}
