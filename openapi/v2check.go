package openapi

import (
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// keywordKind is the kind of value a Swagger 2.0 schema keyword takes.
type keywordKind uint8

const (
	kwAny        keywordKind = iota // default, example
	kwString                        // $ref, format, title, description, pattern, discriminator
	kwNumber                        // multipleOf, maximum, minimum
	kwInteger                       // maxLength, minItems, ...
	kwBool                          // exclusiveMaximum, uniqueItems, readOnly, ...
	kwObject                        // xml, externalDocs
	kwList                          // enum
	kwStringList                    // required
	kwType                          // type: a string or a list of strings
	kwSchemaList                    // allOf
	kwSchemaMap                     // properties
	kwItems                         // items: a schema or a list of schemas
	kwAdditional                    // additionalProperties: a boolean or a schema
)

// want names the kinds of value k accepts, for messages.
var keywordWant = [...]string{
	kwAny: "any value", kwString: "a string", kwNumber: "a number", kwInteger: "an integer",
	kwBool: "a boolean", kwObject: "an object", kwList: "a list", kwStringList: "a list of strings",
	kwType: "a string or a list of strings", kwSchemaList: "a list of schemas", kwSchemaMap: "an object of schemas",
	kwItems: "a schema or a list of schemas", kwAdditional: "a boolean or a schema",
}

// schemaKeyword returns the kind of the Swagger 2.0 schema keyword key
// (the fixed fields of the Schema Object); ok is false for any other key.
// A switch, not a map, so that nothing is built at program start.
func schemaKeyword(key string) (k keywordKind, ok bool) {
	switch key {
	case "default", "example":
		return kwAny, true
	case "$ref", "format", "title", "description", "pattern", "discriminator":
		return kwString, true
	case "multipleOf", "maximum", "minimum":
		return kwNumber, true
	case "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties":
		return kwInteger, true
	case "exclusiveMaximum", "exclusiveMinimum", "uniqueItems", "readOnly":
		return kwBool, true
	case "xml", "externalDocs":
		return kwObject, true
	case "enum":
		return kwList, true
	case "required":
		return kwStringList, true
	case "type":
		return kwType, true
	case "allOf":
		return kwSchemaList, true
	case "properties":
		return kwSchemaMap, true
	case "items":
		return kwItems, true
	case "additionalProperties":
		return kwAdditional, true
	}
	return 0, false
}

// checkSchema checks that v, the schema at JSON pointer ptr (in definition
// def, at field path), is a schema object whose keywords are Swagger 2.0
// schema keywords (or x- extensions, whose values are checked where they
// are read) with values of the kinds the specification gives them, and so
// on for the schemas under it. Keywords are visited in name order (value
// maps are sorted), so of several faults the first by name is reported.
func (r *v2Reader) checkSchema(v value.Value, def, path, ptr string) error {
	if !v.IsMap() {
		// gnostic, kube-openapi's parser, reads any value where a schema
		// belongs as a schema object, which holds no keyword unless it is
		// one; so does v2Schema.
		r.warnKind(def, path, ptr, "the schema", v, "a schema object", "read as the empty schema (any value)")
		return nil
	}
	for _, f := range v.Fields() {
		if strings.HasPrefix(f.Key, "x-") {
			continue
		}
		kptr := ptr + "/" + pointerToken(f.Key)
		k, ok := schemaKeyword(f.Key)
		if !ok {
			return r.fail(def, path, kptr, "unknown schema keyword "+strconv.Quote(f.Key)+
				", want a Swagger 2.0 schema keyword or an x- extension")
		}
		if err := r.checkKeyword(k, f, def, path, kptr); err != nil {
			return err
		}
	}
	return nil
}

// checkKeyword checks the value of one keyword f of kind k (at ptr), and
// the schemas it holds.
func (r *v2Reader) checkKeyword(k keywordKind, f value.Field, def, path, ptr string) error {
	v := f.Value
	switch {
	case k == kwSchemaMap && v.IsMap():
		for _, p := range v.Fields() {
			if err := r.checkSchema(p.Value, def, joinField(path, p.Key), ptr+"/"+pointerToken(p.Key)); err != nil {
				return err
			}
		}
		return nil
	case k == kwItems && v.IsMap():
		return r.checkSchema(v, def, path+"[]", ptr)
	case k == kwAdditional && v.IsMap():
		return r.checkSchema(v, def, path+"{}", ptr)
	case (k == kwSchemaList || k == kwItems) && v.IsList():
		sub := path
		if k == kwItems {
			sub += "[]"
		}
		for i, item := range v.Items() {
			if err := r.checkSchema(item, def, sub, ptr+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		return nil
	case k == kwStringList || k == kwType && v.IsList():
		for i, item := range v.Items() {
			iptr, what := ptr+"/"+strconv.Itoa(i), f.Key+"["+strconv.Itoa(i)+"]"
			switch {
			case item.Kind() == value.KindString:
			case k == kwStringList:
				r.warnKind(def, path, iptr, what, item, "a string", "ignored, as the loader does not use it")
				return nil
			default:
				return r.kindFault(def, path, iptr, what, item, "a string")
			}
		}
		if v.IsList() {
			return nil
		}
	case scalarKindOK(k, v.Kind()):
		return nil
	}
	if reading := readAnyway(k, f.Key, v); reading != "" {
		r.warnKind(def, path, ptr, f.Key, v, keywordWant[k], reading)
		return nil
	}
	return r.kindFault(def, path, ptr, f.Key, v, keywordWant[k])
}

// readAnyway says how kube-openapi (gnostic, its parser) reads v, a value of
// the wrong kind for keyword key of kind k, and so how the loader reads it
// (v2Schema's accessors find nothing of the wrong kind); "" when
// kube-openapi refuses it too, and so does the loader.
func readAnyway(k keywordKind, key string, v value.Value) string {
	switch {
	case k == kwString && v.IsNull():
		return "read as absent"
	case k == kwString && v.Kind() == value.KindInt && key != "$ref":
		return "read as the string " + strconv.Quote(string(v.JSON())) + ", which the loader does not use"
	case key == "xml" || k == kwList:
		return "ignored, as the loader does not use it"
	case k == kwSchemaList:
		return "read as no allOf"
	case k == kwSchemaMap:
		return "read as an object declaring no properties"
	case k == kwItems:
		return "read as the empty schema (items of any value)"
	case k == kwAdditional:
		return "read as true (values of any kind)"
	}
	return ""
}

// scalarKindOK reports whether a value of kind vk suits a keyword of kind
// k that holds no schema.
func scalarKindOK(k keywordKind, vk value.Kind) bool {
	switch k {
	case kwAny:
		return true
	case kwString, kwType:
		return vk == value.KindString
	case kwNumber:
		return vk == value.KindInt || vk == value.KindFloat
	case kwInteger:
		return vk == value.KindInt
	case kwBool, kwAdditional:
		return vk == value.KindBool
	case kwObject:
		return vk == value.KindMap
	case kwList:
		return vk == value.KindList
	}
	return false
}
