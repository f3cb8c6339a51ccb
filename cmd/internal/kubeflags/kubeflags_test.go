package kubeflags

import (
	"bytes"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/plyproject/ply/cmd/internal/kubeflags/internal/extract"
)

// setenv sets an environment variable for one spec ("" unsets it).
func setenv(name, value string) {
	prev, had := os.LookupEnv(name)
	if value == "" {
		os.Unsetenv(name)
	} else {
		os.Setenv(name, value)
	}
	DeferCleanup(func() {
		if had {
			os.Setenv(name, prev)
		} else {
			os.Unsetenv(name)
		}
	})
}

var _ = Describe("the generated flag table", func() {
	It("is what the generator writes from cli-runtime now", func() {
		want, err := extract.Source()
		Expect(err).NotTo(HaveOccurred())
		got, err := os.ReadFile("zz_generated.go")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(string(want)), "run go generate ./cmd/internal/kubeflags/")
	})
})

var _ = Describe("ConfigFlags", func() {
	It("registers ConfigFlags' flags: names, shorthands, types, defaults, help", func() {
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		(&ConfigFlags{}).AddFlags(fs)
		Expect(extract.Of(fs)).To(Equal(extract.ConnectionFlags()))
		Expect(len(extract.Of(fs))).To(BeNumerically(">=", 18))
	})

	// theirs parses args with cli-runtime's ConfigFlags, ours with
	// ConfigFlags; both return the configuration loader.
	load := func(args ...string) (ours, theirs clientcmd.ClientConfig) {
		GinkgoHelper()
		var f ConfigFlags
		fs := pflag.NewFlagSet("ours", pflag.ContinueOnError)
		f.AddFlags(fs)
		Expect(fs.Parse(args)).To(Succeed())
		cf := genericclioptions.NewConfigFlags(false)
		cf.CacheDir = nil
		tfs := pflag.NewFlagSet("theirs", pflag.ContinueOnError)
		cf.AddFlags(tfs)
		Expect(tfs.Parse(args)).To(Succeed())
		return f.ToRawKubeConfigLoader(), cf.ToRawKubeConfigLoader()
	}

	DescribeTable("builds the client configuration ConfigFlags builds",
		func(args ...string) {
			setenv("KUBECONFIG", "")
			ours, theirs := load(args...)
			oursCfg, oursErr := ours.ClientConfig()
			theirsCfg, theirsErr := theirs.ClientConfig()
			if theirsErr != nil {
				Expect(oursErr).To(MatchError(theirsErr.Error()))
			} else {
				Expect(oursErr).NotTo(HaveOccurred())
				Expect(*oursCfg).To(Equal(*theirsCfg))
			}
			oursNS, oursOverridden, oursErr := ours.Namespace()
			theirsNS, theirsOverridden, theirsErr := theirs.Namespace()
			Expect(oursNS).To(Equal(theirsNS))
			Expect(oursOverridden).To(Equal(theirsOverridden))
			Expect(oursErr == nil).To(Equal(theirsErr == nil))
			oursRaw, _ := ours.RawConfig()
			theirsRaw, _ := theirs.RawConfig()
			Expect(oursRaw).To(Equal(theirsRaw))
		},
		Entry("the file's current context", "--kubeconfig", "testdata/kubeconfig"),
		Entry("another context", "--kubeconfig", "testdata/kubeconfig", "--context", "second"),
		Entry("a namespace", "--kubeconfig", "testdata/kubeconfig", "-n", "team"),
		Entry("cluster and user by name", "--kubeconfig", "testdata/kubeconfig", "--cluster", "other", "--user", "token-user"),
		Entry("server, TLS and timeout", "--kubeconfig", "testdata/kubeconfig", "-s", "https://example.test:8443", "--tls-server-name", "api",
			"--insecure-skip-tls-verify", "--request-timeout", "5s", "--disable-compression"),
		Entry("credentials", "--kubeconfig", "testdata/kubeconfig", "--token", "t0k3n", "--client-certificate", "c.crt", "--client-key", "c.key",
			"--certificate-authority", "ca.crt"),
		Entry("impersonation", "--kubeconfig", "testdata/kubeconfig", "--as", "alice", "--as-uid", "42", "--as-group", "dev", "--as-group", "ops",
			"--as-user-extra", "scopes=view", "--as-user-extra", "scopes=edit", "--as-user-extra", "ignored"),
		Entry("a server alone", "--server", "https://example.test", "--token", "t"),
		Entry("a missing kubeconfig file", "--kubeconfig", "testdata/missing"),
		Entry("an unknown context", "--kubeconfig", "testdata/kubeconfig", "--context", "nope"),
	)

	It("falls back to kubectl's defaults when there is no configuration, as ConfigFlags does", func() {
		setenv("KUBECONFIG", "testdata/missing")
		setenv("KUBERNETES_SERVICE_HOST", "")
		setenv("HOME", GinkgoT().TempDir())
		ours, theirs := load()
		oursCfg, oursErr := ours.ClientConfig()
		theirsCfg, theirsErr := theirs.ClientConfig()
		Expect(oursErr).NotTo(HaveOccurred())
		Expect(theirsErr).NotTo(HaveOccurred())
		Expect(*oursCfg).To(Equal(*theirsCfg))
		Expect(oursCfg.Host).To(Equal("http://localhost:8080"))
	})

	It("reports a missing configuration with kubectl's message", func() {
		err := emptyConfig(clientcmd.ErrEmptyConfig)
		Expect(err).To(MatchError(genericclioptions.ErrEmptyConfig.Error()))
		Expect(clientcmd.IsEmptyConfig(err)).To(BeTrue())
		Expect(emptyConfig(nil)).To(BeNil())
	})
})

var _ = Describe("PrintFlags", func() {
	for _, kyaml := range []string{"", "false"} {
		It("registers PrintFlags' flags, KUBECTL_KYAML="+kyaml, func() {
			setenv("KUBECTL_KYAML", kyaml)
			ours, theirs := &cobra.Command{Use: "x"}, &cobra.Command{Use: "x"}
			(&PrintFlags{}).AddFlags(ours)
			genericclioptions.NewPrintFlags("").AddFlags(theirs)
			Expect(extract.Of(ours.Flags())).To(Equal(extract.Of(theirs.Flags())))
			Expect(ours.Flags().Lookup("output").Usage).To(ContainSubstring("jsonpath-file"))
		})
	}

	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings", "namespace": "team",
			"managedFields": []any{map[string]any{"manager": "ply", "operation": "Update"}}},
		"data": map[string]any{"a": "1"},
	}}

	// print parses args with both print flags and prints obj with the
	// printer each selects; it returns the output or the error of each.
	print := func(args ...string) (ours, theirs string) {
		GinkgoHelper()
		var f PrintFlags
		oc := &cobra.Command{Use: "x"}
		f.AddFlags(oc)
		Expect(oc.Flags().Parse(args)).To(Succeed())
		pf := genericclioptions.NewPrintFlags("")
		tc := &cobra.Command{Use: "x"}
		pf.AddFlags(tc)
		Expect(tc.Flags().Parse(args)).To(Succeed())
		run := func(p printers.ResourcePrinter, err error) string {
			if err != nil {
				return "error: " + err.Error()
			}
			var b bytes.Buffer
			if err := p.PrintObj(obj.DeepCopy(), &b); err != nil {
				return b.String() + "print error: " + err.Error()
			}
			return b.String()
		}
		return run(f.ToPrinter()), run(pf.ToPrinter())
	}

	DescribeTable("selects the printer PrintFlags selects",
		func(want string, args ...string) {
			setenv("KUBECTL_KYAML", "")
			ours, theirs := print(args...)
			Expect(ours).To(Equal(theirs))
			Expect(ours).To(ContainSubstring(want))
		},
		Entry("json", `"name": "settings"`, "-o", "json"),
		Entry("JSON, any case", `"name": "settings"`, "-o", "JSON"),
		Entry("yaml", "name: settings", "-o", "yaml"),
		Entry("kyaml", "settings", "-o", "kyaml"),
		Entry("managed fields kept", "manager", "-o", "yaml", "--show-managed-fields"),
		Entry("name", "configmap/settings", "-o", "name"),
		Entry("jsonpath", "settings/team", "-o", "jsonpath={.metadata.name}/{.metadata.namespace}"),
		Entry("jsonpath-as-json", `"settings"`, "-o", "jsonpath-as-json={.metadata.name}"),
		Entry("jsonpath-file", "ConfigMap/settings", "-o", "jsonpath-file=testdata/kind.jsonpath"),
		Entry("jsonpath with --template", "team", "-o", "jsonpath", "--template", "{.metadata.namespace}"),
		Entry("go-template", "settings!", "-o", "go-template={{.metadata.name}}!"),
		Entry("template", "settings?", "-o", "template={{.metadata.name}}?"),
		Entry("--template alone", "a=1", "--template", "{{range $k, $v := .data}}{{$k}}={{$v}}{{end}}"),
		Entry("templatefile", "settings from a file", "-o", "templatefile=testdata/name.tmpl"),
		Entry("go-template-file", "settings from a file", "-o", "go-template-file=testdata/name.tmpl"),
		Entry("a missing key allowed", "<no value>", "-o", "go-template={{.spec}}"),
		Entry("a missing key refused", "map has no entry for key", "-o", "go-template={{.spec}}", "--allow-missing-template-keys=false"),
		Entry("a jsonpath missing key refused", "not found", "-o", "jsonpath={.spec}", "--allow-missing-template-keys=false"),
		Entry("an unknown format", `unable to match a printer suitable for the output format "wide"`, "-o", "wide"),
		Entry("no template", "template format specified but no template given", "-o", "go-template"),
		Entry("no jsonpath", "template format specified but no template given", "-o", "jsonpath="),
		Entry("a missing template file", "error reading --template testdata/missing", "-o", "go-template-file=testdata/missing"),
		Entry("a bad template", "error parsing template {{.x", "-o", "go-template={{.x"),
		Entry("a bad jsonpath", "error parsing jsonpath {.x", "-o", "jsonpath={.x"),
	)

	It("lists no kyaml when KUBECTL_KYAML is false, as PrintFlags does", func() {
		setenv("KUBECTL_KYAML", "false")
		ours, theirs := print("-o", "kyaml")
		Expect(ours).To(Equal(theirs))
		Expect(ours).To(HavePrefix("error: unable to match a printer"))
		_, allowed, _ := strings.Cut(ours, "allowed formats are: ")
		Expect(allowed).To(ContainSubstring("jsonpath"))
		Expect(allowed).NotTo(ContainSubstring("kyaml"))
	})

	It("asks for printing only with -o or --template", func() {
		var f PrintFlags
		c := &cobra.Command{Use: "x"}
		f.AddFlags(c)
		Expect(f.Wanted()).To(BeFalse())
		Expect(c.Flags().Parse([]string{"--template", "{{.kind}}"})).To(Succeed())
		Expect(f.Wanted()).To(BeTrue())
	})
})
