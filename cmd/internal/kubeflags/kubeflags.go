// Package kubeflags is kubectl's connection flags (--kubeconfig, --context,
// -n, --server, --token, --as, ...) and print flags (-o, --template,
// --allow-missing-template-keys, --show-managed-fields) as the commands
// that talk to a cluster take them: the same flags, help and behaviour as
// k8s.io/cli-runtime's ConfigFlags and PrintFlags, without linking
// genericclioptions. That package links client-go's discovery and every
// built-in API type (k8s.io/client-go/kubernetes/scheme, k8s.io/api/...),
// whose registration runs when any command of the binary starts,
// `ply merge` included.
//
// One source of truth: the flags' names, shorthands, types, defaults, help
// and annotations are generated from cli-runtime (zz_generated.go,
// `go generate ./cmd/internal/kubeflags/`), and the package's tests check
// the table, the client configuration the flags build and the printers
// they select against genericclioptions itself.
package kubeflags

//go:generate go run ./gen

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// flagSpec is one flag of the generated table.
type flagSpec struct {
	name, shorthand, typ, defValue, noOptDefVal, usage string
	annotations                                        map[string][]string
}

// register adds the flag of spec to fs, bound to p (a *string, *bool or
// *[]string matching spec.typ). A spec whose type the package does not
// know, or that p does not match, is a programming error the tests catch:
// it is left out.
func register(fs *pflag.FlagSet, spec flagSpec, p any) {
	switch v := p.(type) {
	case *string:
		if spec.typ != "string" {
			return
		}
		fs.StringVarP(v, spec.name, spec.shorthand, spec.defValue, spec.usage)
	case *bool:
		if spec.typ != "bool" {
			return
		}
		def, _ := strconv.ParseBool(spec.defValue)
		fs.BoolVarP(v, spec.name, spec.shorthand, def, spec.usage)
	case *[]string:
		if spec.typ != "stringArray" {
			return
		}
		fs.StringArrayVarP(v, spec.name, spec.shorthand, nil, spec.usage)
	default:
		return
	}
	f := fs.Lookup(spec.name)
	if spec.noOptDefVal != "" {
		f.NoOptDefVal = spec.noOptDefVal
	}
	for k, v := range spec.annotations {
		fs.SetAnnotation(spec.name, k, v)
	}
}

// ConfigFlags are kubectl's connection flags. The zero value is ready to
// register.
type ConfigFlags struct {
	KubeConfig, Context, ClusterName, AuthInfoName, Namespace string
	APIServer, TLSServerName, CAFile, CertFile, KeyFile       string
	BearerToken, Impersonate, ImpersonateUID                  string
	ImpersonateGroup, ImpersonateUserExtra                    []string
	Insecure, DisableCompression                              bool
	Timeout                                                   string
}

// fields binds each flag name to its field.
func (f *ConfigFlags) fields() map[string]any {
	return map[string]any{
		"kubeconfig": &f.KubeConfig, "context": &f.Context, "cluster": &f.ClusterName, "user": &f.AuthInfoName,
		"namespace": &f.Namespace, "server": &f.APIServer, "tls-server-name": &f.TLSServerName,
		"certificate-authority": &f.CAFile, "client-certificate": &f.CertFile, "client-key": &f.KeyFile,
		"token": &f.BearerToken, "as": &f.Impersonate, "as-uid": &f.ImpersonateUID, "as-group": &f.ImpersonateGroup,
		"as-user-extra": &f.ImpersonateUserExtra, "insecure-skip-tls-verify": &f.Insecure,
		"disable-compression": &f.DisableCompression, "request-timeout": &f.Timeout,
	}
}

// AddFlags registers the connection flags on fs.
func (f *ConfigFlags) AddFlags(fs *pflag.FlagSet) {
	fields := f.fields()
	for _, spec := range connectionFlags {
		register(fs, spec, fields[spec.name])
	}
}

// ToRawKubeConfigLoader returns the client configuration the flags select,
// loaded the way kubectl loads it: the --kubeconfig file, else the
// KUBECONFIG variable's files, else ~/.kube/config, else the in-cluster
// configuration; each flag overrides its setting. Loading is deferred to
// the first call of a method; a missing configuration is reported with
// kubectl's message.
func (f *ConfigFlags) ToRawKubeConfigLoader() clientcmd.ClientConfig {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.DefaultClientConfig = &clientcmd.DefaultClientConfig
	rules.ExplicitPath = f.KubeConfig

	o := &clientcmd.ConfigOverrides{ClusterDefaults: clientcmd.ClusterDefaults}
	o.AuthInfo.ClientCertificate = f.CertFile
	o.AuthInfo.ClientKey = f.KeyFile
	o.AuthInfo.Token = f.BearerToken
	o.AuthInfo.Impersonate = f.Impersonate
	o.AuthInfo.ImpersonateUID = f.ImpersonateUID
	o.AuthInfo.ImpersonateGroups = f.ImpersonateGroup
	if o.AuthInfo.ImpersonateGroups == nil {
		o.AuthInfo.ImpersonateGroups = []string{}
	}
	if len(f.ImpersonateUserExtra) > 0 {
		// key=value, repeatable; an entry without "=" is ignored.
		extra := map[string][]string{}
		for _, e := range f.ImpersonateUserExtra {
			if k, v, ok := strings.Cut(e, "="); ok {
				extra[k] = append(extra[k], v)
			}
		}
		o.AuthInfo.ImpersonateUserExtra = extra
	}
	o.ClusterInfo.Server = f.APIServer
	o.ClusterInfo.TLSServerName = f.TLSServerName
	o.ClusterInfo.CertificateAuthority = f.CAFile
	o.ClusterInfo.InsecureSkipTLSVerify = f.Insecure
	o.ClusterInfo.DisableCompression = f.DisableCompression
	o.CurrentContext = f.Context
	o.Context.Cluster = f.ClusterName
	o.Context.AuthInfo = f.AuthInfoName
	o.Context.Namespace = f.Namespace
	o.Timeout = f.Timeout
	return kubectlConfig{clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, o)}
}

// errEmptyConfig is kubectl's error for a missing configuration.
var errEmptyConfig = clientcmd.NewEmptyConfigError(emptyConfigMessage)

// kubectlConfig is a ClientConfig whose missing-configuration error is
// kubectl's message.
type kubectlConfig struct{ cc clientcmd.ClientConfig }

func emptyConfig(err error) error {
	if clientcmd.IsEmptyConfig(err) {
		return errEmptyConfig
	}
	return err
}

func (c kubectlConfig) RawConfig() (clientcmdapi.Config, error) {
	cfg, err := c.cc.RawConfig()
	return cfg, emptyConfig(err)
}

func (c kubectlConfig) ClientConfig() (*rest.Config, error) {
	cfg, err := c.cc.ClientConfig()
	return cfg, emptyConfig(err)
}

func (c kubectlConfig) Namespace() (string, bool, error) {
	ns, ok, err := c.cc.Namespace()
	return ns, ok, emptyConfig(err)
}

func (c kubectlConfig) ConfigAccess() clientcmd.ConfigAccess { return c.cc.ConfigAccess() }

// PrintFlags are kubectl's print flags for printing objects: -o with
// json, yaml, kyaml (unless KUBECTL_KYAML=false), name, the go-template
// and jsonpath formats, and --template alone meaning -o go-template.
type PrintFlags struct {
	Output            string
	Template          string
	AllowMissingKeys  bool
	ShowManagedFields bool
	outputChanged     func() bool
}

// AddFlags registers the print flags on c.
func (f *PrintFlags) AddFlags(c *cobra.Command) {
	fs := c.Flags()
	fields := map[string]any{"template": &f.Template, "allow-missing-template-keys": &f.AllowMissingKeys,
		"show-managed-fields": &f.ShowManagedFields}
	for _, spec := range printFlags {
		register(fs, spec, fields[spec.name])
	}
	out := outputFlag[0]
	out.usage = fmt.Sprintf(outputUsage, strings.Join(allowedFormats(), ", "))
	register(fs, out, &f.Output)
	f.outputChanged = func() bool { return fs.Changed("output") }
}

// Wanted reports whether the flags ask for objects to be printed: -o or
// --template given.
func (f *PrintFlags) Wanted() bool { return f.Output != "" || f.Template != "" }

// Format families, as kubectl lists them.
var (
	templateFormats = []string{"go-template", "go-template-file", "template", "templatefile"}
	jsonPathFormats = []string{"jsonpath", "jsonpath-as-json", "jsonpath-file"}
)

// jsonYAMLFormats are json and yaml, and kyaml unless KUBECTL_KYAML is
// false.
func jsonYAMLFormats() []string {
	if strings.ToLower(os.Getenv("KUBECTL_KYAML")) != "false" {
		return []string{"json", "yaml", "kyaml"}
	}
	return []string{"json", "yaml"}
}

// Formats lists the -o formats, in kubectl's order, for completion.
func Formats() []string { return allowedFormats() }

// allowedFormats lists every format in kubectl's order.
func allowedFormats() []string {
	out := append(jsonYAMLFormats(), "name")
	out = append(out, templateFormats...)
	return append(out, jsonPathFormats...)
}

// noPrinterError is the error of an output format no printer takes.
func noPrinterError(format string) error {
	formats := allowedFormats()
	sort.Strings(formats)
	return fmt.Errorf("unable to match a printer suitable for the output format %q, allowed formats are: %s", format, strings.Join(formats, ","))
}

// ToPrinter returns the printer the flags select, or kubectl's error for
// an unknown format, a template format without a template, or a template
// that cannot be read or parsed.
func (f *PrintFlags) ToPrinter() (printers.ResourcePrinter, error) {
	format := f.Output
	if f.Template != "" && (f.outputChanged == nil || !f.outputChanged()) {
		format = "go-template"
	}
	switch lower := strings.ToLower(format); {
	case slices.Contains(jsonYAMLFormats(), lower):
		var p printers.ResourcePrinter
		switch lower {
		case "json":
			p = &printers.JSONPrinter{}
		case "yaml":
			p = &printers.YAMLPrinter{}
		default:
			p = &printers.KYAMLPrinter{}
		}
		if !f.ShowManagedFields {
			p = &printers.OmitManagedFieldsPrinter{Delegate: p}
		}
		return p, nil
	case lower == "name" || lower == "":
		return &printers.NamePrinter{ShortOutput: lower == "name"}, nil
	}
	if p, ok, err := f.jsonPathPrinter(format); ok {
		return p, err
	}
	if p, ok, err := f.goTemplatePrinter(format); ok {
		return p, err
	}
	return nil, noPrinterError(f.Output)
}

// templateOf splits "FORMAT=TEMPLATE" for the formats of a family, unless
// --template gives the template; ok is false when format is not of the
// family.
func (f *PrintFlags) templateOf(format string, family []string) (name, template string, ok bool) {
	name, template = format, f.Template
	if f.Template == "" {
		for _, fam := range family {
			if rest, found := strings.CutPrefix(format, fam+"="); found {
				name, template = fam, rest
				break
			}
		}
	}
	return name, template, slices.Contains(family, name)
}

// readTemplate reads the template file of a -file format.
func readTemplate(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("error reading --template %s, %v", path, err)
	}
	return string(data), nil
}

var errNoTemplate = errors.New("template format specified but no template given")

func (f *PrintFlags) jsonPathPrinter(format string) (printers.ResourcePrinter, bool, error) {
	name, tmpl, ok := f.templateOf(format, jsonPathFormats)
	if !ok {
		return nil, false, nil
	}
	if tmpl == "" {
		return nil, true, errNoTemplate
	}
	if name == "jsonpath-file" {
		var err error
		if tmpl, err = readTemplate(tmpl); err != nil {
			return nil, true, err
		}
	}
	p, err := printers.NewJSONPathPrinter(tmpl)
	if err != nil {
		return nil, true, fmt.Errorf("error parsing jsonpath %s, %v", tmpl, err)
	}
	p.AllowMissingKeys(f.AllowMissingKeys)
	if name == "jsonpath-as-json" {
		p.EnableJSONOutput(true)
	}
	return p, true, nil
}

func (f *PrintFlags) goTemplatePrinter(format string) (printers.ResourcePrinter, bool, error) {
	name, tmpl, ok := f.templateOf(format, templateFormats)
	if !ok {
		return nil, false, nil
	}
	if tmpl == "" {
		return nil, true, errNoTemplate
	}
	if name == "templatefile" || name == "go-template-file" {
		var err error
		if tmpl, err = readTemplate(tmpl); err != nil {
			return nil, true, err
		}
	}
	p, err := printers.NewGoTemplatePrinter([]byte(tmpl))
	if err != nil {
		return nil, true, fmt.Errorf("error parsing template %s, %v", tmpl, err)
	}
	p.AllowMissingKeys(f.AllowMissingKeys)
	return p, true, nil
}
