package cluster

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// Object is one object to apply, as read from a manifest.
type Object struct {
	// Value is the object: a map with apiVersion, kind and metadata.name.
	Value value.Value
	// Source names where the object was read, for messages: the file and
	// the 1-based index of the object's document among the file's
	// non-empty documents ("web.yaml#2"),
	// followed by ".items[i]" for the items of a List ("all.yaml#1.items[0]").
	// Standard input is "-".
	Source string
}

// StdinName is the path that makes ReadObjects read standard input.
const StdinName = "-"

// manifestExts are the file name endings ReadObjects reads in folders (a
// file named explicitly is read whatever its name), as kubectl does.
var manifestExts = [...]string{".json", ".yaml", ".yml"}

// ReadObjects reads the objects of paths in order: each path is a file, a
// folder (its files ending .json, .yaml or .yml in lexical order; with
// recursive, also those of its sub-folders), an http:// or https:// URL
// (downloaded, with the size limit of files, within URLTimeout) or
// StdinName ("-", read from stdin, at most once). A file holds a multi-document YAML stream or JSON
// text; empty and null documents are skipped, and a document of a List
// kind (kind ending in "List" with an items list, such as v1 List or
// ConfigMapList) is expanded into its items.
//
// Every object is checked to be a map with non-empty string apiVersion,
// kind and metadata.name; a problem is an error naming the file, the
// document (and line and column for syntax errors) and the field. All
// problems of all files are reported, joined; no objects are returned when
// there is any.
func ReadObjects(paths []string, recursive bool, stdin io.Reader) ([]Object, error) {
	var out []Object
	var errs []error
	stdinRead := false
	for _, p := range paths {
		if p == StdinName {
			if stdinRead {
				errs = append(errs, errors.New("standard input (-) can be read only once"))
				continue
			}
			stdinRead = true
			if stdin == nil {
				errs = append(errs, errors.New("standard input (-): no input available"))
				continue
			}
			data, err := readLimited(stdin)
			if err != nil {
				errs = append(errs, errors.New("standard input (-): "+err.Error()))
				continue
			}
			objs, err := decodeObjects(StdinName, data)
			out = append(out, objs...)
			if err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if IsURL(p) {
			data, err := readURL(p)
			if err != nil {
				errs = append(errs, errors.New(p+": "+err.Error()))
				continue
			}
			objs, err := decodeObjects(p, data)
			out = append(out, objs...)
			if err != nil {
				errs = append(errs, err)
			}
			continue
		}
		files, err := manifestFiles(p, recursive)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range files {
			data, err := readFileLimited(f)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			objs, err := decodeObjects(f, data)
			out = append(out, objs...)
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// manifestFiles lists the files path names: path itself when it is a file,
// else the manifest files of the folder (recursively with recursive), in
// lexical order.
func manifestFiles(path string, recursive bool) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("the path \"" + path + "\" does not exist")
		}
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != path && !recursive {
				return filepath.SkipDir
			}
			return nil
		}
		for _, ext := range manifestExts {
			if strings.HasSuffix(p, ext) {
				files = append(files, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// decodeObjects parses the documents of one file named name.
func decodeObjects(name string, data []byte) ([]Object, error) {
	docs, err := parse.Documents(data)
	if err != nil {
		return nil, errors.New(name + ": " + err.Error())
	}
	var out []Object
	var errs []error
	for i, d := range docs {
		src := name + "#" + strconv.Itoa(i+1)
		if isList(d) {
			items, _ := d.Get("items")
			for j, it := range items.Items() {
				isrc := src + ".items[" + strconv.Itoa(j) + "]"
				if err := checkObject(it); err != nil {
					errs = append(errs, errors.New(isrc+": "+err.Error()))
					continue
				}
				out = append(out, Object{Value: it, Source: isrc})
			}
			continue
		}
		if err := checkObject(d); err != nil {
			errs = append(errs, errors.New(src+": "+err.Error()))
			continue
		}
		out = append(out, Object{Value: d, Source: src})
	}
	return out, errors.Join(errs...)
}

// isList reports whether v is a List document: its kind ends in "List" and
// it has an items list.
func isList(v value.Value) bool {
	k, _ := v.Get("kind")
	kind, _ := k.AsString()
	items, ok := v.Get("items")
	return strings.HasSuffix(kind, "List") && ok && items.IsList()
}

// unquotedScalar is the error of a field that must be a string and that
// YAML read as a boolean or a number (present is whether the field is
// there): kubectl refuses such an object too ("cannot unmarshal bool into
// ... of type string"); nil when x is not one.
func unquotedScalar(field string, x value.Value, present bool) error {
	if !present {
		return nil
	}
	switch x.Kind() {
	case value.KindBool:
		return errors.New(field + ": a boolean, not a string: YAML reads an unquoted y, n, yes, no, on, off, true or false " +
			"as a boolean; quote it (\"y\")")
	case value.KindInt, value.KindFloat:
		return errors.New(field + ": a number, not a string: quote it")
	}
	return nil
}

// checkObject checks that v is an object with apiVersion, kind and
// metadata.name, and that the metadata fields ply reads have their types.
func checkObject(v value.Value) error {
	if !v.IsMap() {
		return errors.New("expected an object (a map with apiVersion, kind and metadata), got " + v.Kind().String())
	}
	for _, f := range [...]string{"apiVersion", "kind"} {
		x, ok := v.Get(f)
		if err := unquotedScalar(f, x, ok); err != nil {
			return err
		}
		if s, isStr := x.AsString(); !ok || !isStr || s == "" {
			return errors.New(f + ": missing or not a non-empty string: every object needs apiVersion and kind")
		}
	}
	md, ok := v.Get("metadata")
	if !ok || !md.IsMap() {
		return errors.New("metadata: missing or not an object: every object needs metadata.name")
	}
	name, ok := md.Get("name")
	if err := unquotedScalar("metadata.name", name, ok); err != nil {
		return err
	}
	if s, ok := name.AsString(); !ok || s == "" {
		return errors.New("metadata.name: missing or not a non-empty string (generateName is not supported by apply)")
	}
	if ns, ok := md.Get("namespace"); ok && !ns.IsNull() {
		if _, isStr := ns.AsString(); !isStr {
			return errors.New("metadata.namespace: expected a string, got " + ns.Kind().String())
		}
	}
	if ann, ok := md.Get("annotations"); ok && !ann.IsNull() {
		if !ann.IsMap() {
			return errors.New("metadata.annotations: expected a map of strings, got " + ann.Kind().String())
		}
		for _, f := range ann.Fields() {
			if _, isStr := f.Value.AsString(); !isStr {
				return errors.New("metadata.annotations." + f.Key + ": expected a string, got " + f.Value.Kind().String())
			}
		}
	}
	return nil
}

// IsURL reports whether ReadObjects reads path from the web: it starts
// with http:// or https://.
func IsURL(path string) bool {
	return strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://")
}

// URLTimeout bounds the download of one manifest URL.
const URLTimeout = 60 * time.Second

// readURL downloads the manifest at url with readLimited's limit (as for
// files); a status other than 200 is an error.
func readURL(url string) ([]byte, error) {
	client := &http.Client{Timeout: URLTimeout}
	resp, err := client.Get(url)
	if err != nil {
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, errors.New("cannot download: " + err.Error())
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, errors.New("cannot download: the server answered " + resp.Status)
	}
	data, err := readLimited(resp.Body)
	if err != nil {
		return nil, errors.New("cannot download: " + err.Error())
	}
	return data, nil
}

// ParseObjects reads the objects of data, a multi-document YAML stream or
// JSON text named name in messages, as ReadObjects reads a file (such as
// the output of kustomize).
func ParseObjects(name string, data []byte) ([]Object, error) {
	if len(data) > parse.DefaultMaxBytes {
		data = data[:parse.DefaultMaxBytes+1]
	}
	return decodeObjects(name, data)
}

// readLimited reads r up to one byte past parse.DefaultMaxBytes: enough
// for the parser to reject an input that is too large, without holding
// all of a huge one in memory.
func readLimited(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, parse.DefaultMaxBytes+1))
}

// readFileLimited is readLimited for the file named name, with its buffer
// sized from the file's size once (io.ReadAll's growth would allocate
// several times the bytes read).
func readFileLimited(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(parse.DefaultMaxBytes + 1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() < size {
		size = st.Size()
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err = buf.ReadFrom(io.LimitReader(f, parse.DefaultMaxBytes+1))
	return buf.Bytes(), err
}
