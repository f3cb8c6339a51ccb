package cli

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// manifestExtensions are the file name extensions -f completes (and
// folders), as kubectl's -f.
var manifestExtensions = []string{"yaml", "yml", "json"}

// completionTimeout bounds the request that lists the server's namespaces
// while the shell waits.
const completionTimeout = 5 * time.Second

// registerCompletions gives the flags of c that name something their
// completions: -f manifests and folders, -k folders, -n the server's
// namespaces (those of the kubeconfig's contexts when the server does not
// answer), --context, --cluster and --user the kubeconfig's entries.
func (f *commonFlags) registerCompletions(c *cobra.Command) {
	files := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return manifestExtensions, cobra.ShellCompDirectiveFilterFileExt
	}
	folders := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	fixed := func(list func() []string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return withPrefix(list(), toComplete), cobra.ShellCompDirectiveNoFileComp
		}
	}
	c.RegisterFlagCompletionFunc("filename", files)
	c.RegisterFlagCompletionFunc("kustomize", folders)
	c.RegisterFlagCompletionFunc("namespace", fixed(f.namespaces))
	c.RegisterFlagCompletionFunc("context", fixed(f.kubeconfigNames(contextNames)))
	c.RegisterFlagCompletionFunc("cluster", fixed(f.kubeconfigNames(clusterNames)))
	c.RegisterFlagCompletionFunc("user", fixed(f.kubeconfigNames(userNames)))
}

// registerOutputCompletion completes -o with formats.
func registerOutputCompletion(c *cobra.Command, formats []string) {
	c.RegisterFlagCompletionFunc("output", func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return withPrefix(formats, toComplete), cobra.ShellCompDirectiveNoFileComp
	})
}

// withPrefix returns the names that start with prefix.
func withPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// kubeconfigEntry selects the names of one section of a kubeconfig.
type kubeconfigEntry int

const (
	contextNames kubeconfigEntry = iota
	clusterNames
	userNames
)

// kubeconfigNames returns a function listing the names of one section of
// the kubeconfig the connection flags select, sorted; none when it cannot
// be read.
func (f *commonFlags) kubeconfigNames(which kubeconfigEntry) func() []string {
	return func() []string {
		cfg, err := f.config.ToRawKubeConfigLoader().RawConfig()
		if err != nil {
			return nil
		}
		var names []string
		switch which {
		case contextNames:
			for n := range cfg.Contexts {
				names = append(names, n)
			}
		case clusterNames:
			for n := range cfg.Clusters {
				names = append(names, n)
			}
		case userNames:
			for n := range cfg.AuthInfos {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		return names
	}
}

// namespaces lists the namespaces of the server the connection flags
// select, as kubectl completes -n; when the server cannot be asked, the
// namespaces the kubeconfig's contexts name.
func (f *commonFlags) namespaces() []string {
	if names, err := f.serverNamespaces(); err == nil {
		return names
	}
	cfg, err := f.config.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var names []string
	for _, c := range cfg.Contexts {
		if c.Namespace != "" && !seen[c.Namespace] {
			seen[c.Namespace] = true
			names = append(names, c.Namespace)
		}
	}
	sort.Strings(names)
	return names
}

// serverNamespaces lists the server's namespaces, sorted.
func (f *commonFlags) serverNamespaces() ([]string, error) {
	rc, err := f.config.ToRawKubeConfigLoader().ClientConfig()
	if err != nil {
		return nil, err
	}
	rc.Timeout = completionTimeout
	dyn, err := dynamic.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
	defer cancel()
	list, err := dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(list.Items))
	for _, it := range list.Items {
		names = append(names, it.GetName())
	}
	sort.Strings(names)
	return names, nil
}
