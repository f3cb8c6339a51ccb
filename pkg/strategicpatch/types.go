package strategicpatch

import (
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"
)

// The schema and option types are apimachinery's, so that values a caller already has fit.
type (
	// LookupPatchMeta walks a schema key by key.
	LookupPatchMeta = sp.LookupPatchMeta
	// PatchMeta is one field's patch strategies and merge key.
	PatchMeta = sp.PatchMeta
	// PatchMetaFromStruct reads the schema from Go struct tags.
	PatchMetaFromStruct = sp.PatchMetaFromStruct
	// PatchMetaFromOpenAPI reads the schema from kube-openapi's OpenAPI v2 models.
	PatchMetaFromOpenAPI = sp.PatchMetaFromOpenAPI
	// PatchMetaFromOpenAPIV3 reads the schema from OpenAPI v3 components.
	PatchMetaFromOpenAPIV3 = sp.PatchMetaFromOpenAPIV3
	// JSONMap is a JSON object held as Go values.
	JSONMap = sp.JSONMap
	// DiffOptions is apimachinery's (ply's patch creation takes no options: its functions fix them as apimachinery's do).
	DiffOptions = sp.DiffOptions
	// MergeOptions is apimachinery's (likewise).
	MergeOptions = sp.MergeOptions
	// LookupPatchMetaError, FieldNotFoundError and InvalidTypeError are the schema's errors.
	LookupPatchMetaError = sp.LookupPatchMetaError
	FieldNotFoundError   = sp.FieldNotFoundError
	InvalidTypeError     = sp.InvalidTypeError
	// SortableSliceOfMaps and SortableSliceOfScalars are apimachinery's sort helpers.
	SortableSliceOfMaps    = sp.SortableSliceOfMaps
	SortableSliceOfScalars = sp.SortableSliceOfScalars
)

// The schema constructors are apimachinery's: they build schema values (and the visitors of OpenAPI v2 models that
// PatchMetaFromOpenAPI looks keys up with), never merge.
var (
	NewPatchMetaFromStruct  = sp.NewPatchMetaFromStruct
	NewPatchMetaFromOpenAPI = sp.NewPatchMetaFromOpenAPI
	GetTagStructTypeOrDie   = sp.GetTagStructTypeOrDie
	NewKindItem             = sp.NewKindItem
	NewSliceItem            = sp.NewSliceItem
)

// LookupPatchItem is apimachinery's visitor of OpenAPI v2 models for look-ups.
type LookupPatchItem = sp.LookupPatchItem
