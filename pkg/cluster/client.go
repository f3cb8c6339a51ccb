package cluster

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/cluster/internal/resmap"
	"github.com/plyproject/ply/pkg/features"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// DryRun selects whether Apply writes.
type DryRun int

const (
	// DryRunNone writes the objects.
	DryRunNone DryRun = iota
	// DryRunClient computes every result but sends no write.
	DryRunClient
	// DryRunServer sends the writes with dryRun=All: the server validates
	// and admits them but persists nothing.
	DryRunServer
)

// String names the mode as kubectl's --dry-run flag does: "none",
// "client", "server".
func (d DryRun) String() string {
	switch d {
	case DryRunNone:
		return "none"
	case DryRunClient:
		return "client"
	case DryRunServer:
		return "server"
	}
	return "invalid"
}

// ParseDryRun parses the value of a --dry-run flag: "none", "client" or
// "server".
func ParseDryRun(s string) (DryRun, error) {
	switch s {
	case "none":
		return DryRunNone, nil
	case "client":
		return DryRunClient, nil
	case "server":
		return DryRunServer, nil
	}
	return DryRunNone, errors.New(`invalid dry-run value "` + s + `", want none, client or server`)
}

// Default rate limits of the clients New creates when the rest.Config sets
// none. The worker pool (Options.Workers) is what bounds the load ply puts
// on a server; the client-side limit only guards against runaway loops, so
// it sits far above what DefaultWorkers concurrent applies (a GET and a
// PUT each, a few milliseconds apart on a healthy server) can issue: a
// limit of 200 capped the CLI at about 100 objects/s on a loopback server.
// kubectl's are 50 and 300.
const (
	DefaultQPS   = 2000
	DefaultBurst = 4000
)

// DefaultWorkers is the number of objects applied concurrently when
// Options.Workers is zero.
const DefaultWorkers = 8

// DefaultNamespace is the namespace of namespaced objects that name none,
// when neither Options.Namespace nor the kubeconfig context sets one.
const DefaultNamespace = "default"

// Options configure a Client.
type Options struct {
	// Kubeconfig is the kubeconfig file NewFromKubeconfig reads; empty
	// means kubectl's rules (the KUBECONFIG variable, else
	// ~/.kube/config, else the in-cluster configuration).
	Kubeconfig string
	// Context is the kubeconfig context to use; empty means the current
	// context.
	Context string
	// Namespace, when set, is the namespace of namespaced objects (an
	// object naming another namespace is an error, as with kubectl -n);
	// empty means the context's namespace, else DefaultNamespace.
	Namespace string
	// Overwrite lets local win over changes made on the server; false makes
	// such a conflict fail the object with an *apply.ConflictError.
	Overwrite bool
	// Ordering is the order of merged list items while the SeedOrdering
	// gate is on (see apply.Options.Ordering).
	Ordering apply.Ordering
	// Gates switch ply's deliberate departures from kubectl apply; the
	// zero value has all on, features.Kubectl() all off, so that Apply
	// and Diff compute what kubectl apply would. They are passed to every
	// merge (apply.Options.Gates says what each changes), which resolves
	// the server's schema under them: with MultiFieldMergeKeys off, its
	// kubectl view.
	Gates features.Gates
	// DryRun selects whether Apply writes.
	DryRun DryRun
	// Force deletes and creates again an object whose update the server
	// refuses for immutable fields (never a Namespace or a
	// CustomResourceDefinition, whose deletion deletes their contents);
	// ForceAnnotation asks the same for one object.
	Force bool
	// GracePeriod, when not nil, is the grace period in seconds of the
	// deletions Apply sends (prune deletes, re-creations with Force), as
	// kubectl apply's --grace-period; nil leaves each object's default.
	GracePeriod *int64
	// DeleteTimeout, when positive, bounds the wait of a re-creation
	// (Force) for the old object to be gone, as kubectl apply's --timeout
	// bounds its delete; zero waits as long as the run's context allows.
	DeleteTimeout time.Duration
	// Workers is the number of objects applied concurrently; zero means
	// DefaultWorkers.
	Workers int
	// ListThreshold is the fewest objects of one resource in one namespace
	// that Apply reads with one paged LIST instead of a GET each; zero
	// means DefaultListThreshold, a negative value turns LISTs off. Writes
	// and the reads after a conflict are the same either way.
	ListThreshold int
	// MaxAttempts bounds the writes of one object when the server reports
	// a conflict with a concurrent writer; zero means DefaultMaxAttempts.
	MaxAttempts int
	// RetryTimeout is how long a request that fails transiently (429, 5xx,
	// a connection refused or reset, an answer cut short, no answer within
	// the request timeout) is retried, from its first failure; zero means
	// DefaultRetryTimeout, a negative value turns retries off. Reads are
	// repeated as they are; a write whose answer was lost is not repeated
	// blindly: the object is read again and written again only if it
	// still differs (see Apply). Once every request to the server has
	// failed for this long, the requests that follow fail without being
	// sent. Each request is bounded by the rest.Config's Timeout, else
	// DefaultRequestTimeout.
	RetryTimeout time.Duration
	// Progress, when not nil, receives progress lines while Apply runs.
	Progress io.Writer
	// Report, when not nil, is called with the index and Outcome of each
	// object as soon as Apply has finished it (concurrently, from the
	// workers, in the order objects finish).
	Report func(i int, o Outcome)
	// Expect, when not nil, is called by Apply with each live object it
	// reads before merging (its resourceVersion, "" and exists false when
	// it does not exist), the reads after a conflict included; an error
	// fails the object, writing nothing. Since the write carries the
	// resourceVersion read, an object Expect accepted is written only if
	// it has not changed since. Plan.Expect holds live to a saved plan.
	// The server-side lane reads each object before its patch for Expect,
	// and the patch of an object that exists carries the resourceVersion
	// read (metadata.resourceVersion of an apply patch is a precondition:
	// the server refuses it with a conflict once live moved).
	Expect func(ref Ref, resourceVersion string, exists bool) error
	// ExpectPrune, when not nil, gives ApplyPrune the resourceVersion each
	// object it deletes must still have (Plan.ExpectPrune: the one a saved
	// plan listed): the delete carries it as a precondition beside the
	// UID, so an object changed since is not deleted and fails. planned
	// false fails the object, deleting nothing: the plan does not delete
	// it.
	ExpectPrune func(ref Ref) (resourceVersion string, planned bool)
	// StageDone, when not nil, is called by Apply when the objects of
	// stage s have been applied and another stage follows (outs holds
	// the outcomes of every stage so far, by input index); an error
	// stops the run: the objects of the later stages fail with it and
	// nothing is written for them. The CLI's --wait waits there until
	// the stage's objects are Current.
	StageDone func(ctx context.Context, s Stage, outs []Outcome) error
	// ShowSecrets turns off the masking of Secrets: without it, the
	// unified diffs of Diff show the values of a Secret's data and
	// stringData (also in its last-applied annotation) as MaskSecrets
	// does, and the server's refusals of a Secret are rendered without
	// the server's text (SecretStatusError) in the errors of its Outcome
	// or DiffResult. Objects (Live, Merged, Result) are never masked.
	ShowSecrets bool
	// FieldManager is the manager name writes record in managedFields;
	// empty means DefaultFieldManager (kubectl's client-side apply's) in
	// the client-side lane and DefaultServerSideFieldManager ("kubectl")
	// in the server-side lane.
	FieldManager string
	// Lane selects how objects are written: LaneClientSide (ply's
	// three-way merge and PUT), LaneServerSide (one server-side apply
	// patch each) or LaneAuto (each in the lane it was last applied in).
	Lane Lane
	// ForceConflicts makes server-side applies take over fields other
	// managers own with other values; without it the object fails with a
	// *ManagerConflictError.
	ForceConflicts bool
	// LargeObjects selects the lane of objects whose configuration would
	// push their annotations over AnnotationsLimit (client-side and auto
	// lanes): server-side by default.
	LargeObjects LargeObjects
	// FieldRules declare merge rules a program registered
	// (pkg/elements.RegisterRule) on fields of the server's kinds; they
	// apply to the server's schema each time it is read
	// (openapi.Schema.WithRules), so merges and diffs decide those fields
	// by the rules. A rule naming a kind the server does not serve fails
	// the run as an unreadable schema does.
	FieldRules []openapi.FieldRule
	// IgnoreFields are fields of a kind ply leaves to other writers, and
	// IgnoreManagers the managers whose fields (by the live object's
	// managedFields) it leaves to them: the merge keeps live's values of
	// those fields (ignore.go; also IgnoreFieldsAnnotation).
	IgnoreFields   []IgnoreField
	IgnoreManagers []string
	// FieldValidation is the server's handling of unknown and duplicate
	// fields in every write and dry run of an object (validate.go); empty
	// means FieldValidationStrict, kubectl's default.
	FieldValidation FieldValidation
	// Warn receives the server's warnings (Warning headers) of the
	// requests about no one object: discovery, the schema, an ApplySet's
	// parent, a prune. Those about one object are in its
	// Outcome.Warnings and DiffResult.Warnings. Nil drops them; client-go
	// never logs them.
	Warn func(text string)
}

// Client applies objects to one cluster. It is safe for concurrent use.
type Client struct {
	opts Options
	// namespace is the default namespace; enforce is set when it came
	// from Options.Namespace, so that objects may not name another one.
	namespace string
	enforce   bool

	dyn dynamic.Interface
	// raw, when not nil, sends Apply's reads and writes as JSON bytes
	// (wire.go); nil means through dyn.
	raw    rest.Interface
	mapper meta.ResettableRESTMapper
	// schema loads the server's schema; each call reads the current
	// OpenAPI index (documents are cached per process).
	schema func(ctx context.Context) (*openapi.Schema, error)

	backoff Backoff
	random  func() float64
	sleep   func(ctx context.Context, d time.Duration) error
	now     func() time.Time
	// requestTimeout bounds each attempt of a request; retryTimeout is
	// Options.RetryTimeout resolved; health tracks the server's answers.
	requestTimeout time.Duration
	retryTimeout   time.Duration
	health         health
	// patchVerb holds the patchKeys of the resources whose updates are
	// sent as patches (patchverb.go).
	patchVerb sync.Map
	// ignoreSchemas caches the schemas derived for ignored fields.
	ignoreSchemas ignoreSchemas
	// poll is the interval of the waits for CRDs; waitTimeout bounds each.
	poll        time.Duration
	waitTimeout time.Duration
}

// New returns a Client for the cluster cfg reaches. cfg is copied; a QPS or
// Burst of zero becomes DefaultQPS or DefaultBurst. The namespace of
// namespaced objects that name none is opts.Namespace, else
// DefaultNamespace. New makes no request: discovery and the schema are
// read on first use.
func New(cfg *rest.Config, opts Options) (*Client, error) {
	if cfg == nil {
		return nil, errors.New("cluster.New: nil rest.Config")
	}
	ns := opts.Namespace
	if ns == "" {
		ns = DefaultNamespace
	}
	return newFromConfig(cfg, opts, ns, opts.Namespace != "")
}

// NewFromKubeconfig returns a Client configured the way kubectl is:
// opts.Kubeconfig (else the KUBECONFIG variable, else ~/.kube/config, else
// the in-cluster configuration) and opts.Context (else the current
// context). The namespace of namespaced objects that name none is
// opts.Namespace, else the context's namespace, else DefaultNamespace.
func NewFromKubeconfig(opts Options) (*Client, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = opts.Kubeconfig
	overrides := &clientcmd.ConfigOverrides{CurrentContext: opts.Context}
	overrides.Context.Namespace = opts.Namespace
	return NewFromClientConfig(clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides), opts)
}

// NewFromClientConfig returns a Client for the cluster cc reaches (such as
// the one k8s.io/cli-runtime's ConfigFlags build from kubectl's connection
// flags). The namespace of namespaced objects that name none is cc's
// namespace, else DefaultNamespace; objects may name another namespace
// only when opts.Namespace is empty (as with kubectl -n, which the caller
// passes both in cc and in opts.Namespace).
func NewFromClientConfig(cc clientcmd.ClientConfig, opts Options) (*Client, error) {
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, errors.New("cannot load the kubeconfig: " + err.Error())
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, errors.New("cannot read the namespace of the kubeconfig context: " + err.Error())
	}
	if ns == "" {
		ns = DefaultNamespace
	}
	return newFromConfig(cfg, opts, ns, opts.Namespace != "")
}

func newFromConfig(cfg *rest.Config, opts Options, ns string, enforce bool) (*Client, error) {
	cfg = rest.CopyConfig(cfg)
	if cfg.QPS == 0 {
		cfg.QPS = DefaultQPS
	}
	if cfg.Burst == 0 {
		cfg.Burst = DefaultBurst
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "ply"
	}
	cfg.WarningHandler, cfg.WarningHandlerWithContext = nil, serverWarnings{other: opts.Warn}
	root, err := resmap.NewRootClient(cfg)
	if err != nil {
		return nil, errors.New("cannot create the discovery client: " + err.Error())
	}
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, errors.New("cannot create the client: " + err.Error())
	}
	dyn, err := dynamic.NewForConfigAndClient(cfg, hc)
	if err != nil {
		return nil, errors.New("cannot create the client: " + err.Error())
	}
	raw, err := rest.UnversionedRESTClientForConfigAndClient(dynamic.ConfigFor(cfg), hc)
	if err != nil {
		return nil, errors.New("cannot create the client: " + err.Error())
	}
	fetcher := &restFetcher{rc: root}
	mapper := resmap.New(root)
	c := newClient(opts, ns, enforce, dyn, mapper, func(ctx context.Context) (*openapi.Schema, error) {
		s, err := openapi.FromServer(ctx, fetcher)
		if err != nil || len(opts.FieldRules) == 0 {
			return s, err
		}
		return s.WithRules(opts.FieldRules...)
	})
	// Discovery and the OpenAPI documents are reads: repeated while they
	// fail transiently, as Apply's are.
	retry := func(ctx context.Context, op func(context.Context) error) error { return c.retrier().do(ctx, op) }
	mapper.Retry, fetcher.retry = retry, retry
	c.raw = raw
	if cfg.Timeout > 0 {
		c.requestTimeout = cfg.Timeout
	}
	return c, nil
}

// newClient assembles a Client from its parts (tests pass fakes).
func newClient(opts Options, ns string, enforce bool, dyn dynamic.Interface, mapper meta.ResettableRESTMapper,
	schema func(context.Context) (*openapi.Schema, error)) *Client {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = DefaultMaxAttempts
	}
	retryTimeout := opts.RetryTimeout
	if retryTimeout == 0 {
		retryTimeout = DefaultRetryTimeout
	}
	return &Client{
		opts: opts, namespace: ns, enforce: enforce,
		dyn: dyn, mapper: mapper, schema: schema,
		backoff:        DefaultBackoff(),
		random:         rand.Float64,
		sleep:          sleepCtx,
		now:            time.Now,
		requestTimeout: DefaultRequestTimeout,
		retryTimeout:   retryTimeout,
		poll:           200 * time.Millisecond,
		waitTimeout:    60 * time.Second,
	}
}

// Namespace returns the namespace namespaced objects that name none are
// applied in.
func (c *Client) Namespace() string { return c.namespace }

// sleepCtx waits d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
