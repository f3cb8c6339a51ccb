// Package harness runs a real Kubernetes API server for ply's cluster test
// suites (test/e2e, and the kubectl-parity, load and benchmark suites):
// etcd plus kube-apiserver (KubernetesVersion), on loopback only, with no
// controller-manager, scheduler or kubelet.
//
// # Prerequisites
//
// Prepare installs etcd (`apt-get install -y etcd-server` when missing and
// running as root) and builds kube-apiserver from the separate module in
// test/harness/kube-apiserver (which pins k8s.io/kubernetes, so ply itself
// never depends on it) into CacheDir() — $PLY_CACHE_DIR, else ~/.cache/ply —
// as kube-apiserver-<KubernetesVersion>, stamped with that version. The build
// takes 5-10 minutes cold; it runs under a flock(2), so parallel test
// packages build it once. CI runs it up front with
//
//	go run ./test/harness/cmd/prepare
//
// Start calls PrepareAPIServer (and so Prepare) itself. A missing
// prerequisite is an error with a message saying what to install; suites
// fail on it, they never skip.
// Kubectl finds a kubectl 1.32 client ($PLY_KUBECTL, the Cloud SDK's
// kubectl.1.32, or kubectl on PATH) and BuildPly builds ./cmd/ply and
// ./cmd/kubectl-ply.
//
// # The kube-apiserver built on ply
//
// PrepareAPIServer(PlyAPIServer) builds a second kube-apiserver, the same
// build with k8s.io/apimachinery replaced by a copy whose strategicpatch
// package is ply's pkg/strategicpatch/api.go (test/internal/patchedmachinery),
// so that every PATCH with application/strategic-merge-patch+json (kubectl
// apply's, edit's and patch's) merges with ply's engine. The build module is
// written to CacheDir()/build-ply (go.mod's replaces: apimachinery by the
// copy, ply by the source tree) and the binary cached as
// kube-apiserver-<KubernetesVersion>-ply-<PlySourceHash>, the hash of ply's
// sources the build reads, so an unchanged tree reuses it; the three newest
// are kept. The first build recompiles every package that imports
// apimachinery (10 minutes on the shared 2-CPU machine, the stock build
// cached); after a change of ply's sources, the build directory being the
// same, it recompiles what the change reaches and links (2 min 42 s for a
// changed comment in pkg/strategicpatch/engine).
// Options.APIServer picks the server Start runs; empty means
// $PLY_TEST_APISERVER ("stock" or unset, or "ply"), so a suite runs on the
// ply-built server with
//
//	go run ./test/harness/cmd/prepare -ply
//	PLY_TEST_APISERVER=ply go test ./test/e2e ./test/parity
//
// # A server
//
// Start(Options) returns a *Server once /readyz answers ok (about 3-5 s):
//
//   - etcd on random free 127.0.0.1 client and peer ports, data in a temp
//     directory;
//   - kube-apiserver on 127.0.0.1:<free port> with a self-signed CA and
//     serving certificate generated at start (clients verify it: the CA is
//     in every kubeconfig, nothing is insecure), static bearer tokens
//     (--token-auth-file), --authorization-mode=RBAC, service account
//     signing keys generated at start, the ServiceAccount admission plugin
//     disabled (no controller-manager creates default service accounts),
//     API priority and fairness off;
//   - Server.Kubeconfig: an admin kubeconfig (group system:masters, context
//     ContextName "ply-e2e"); Server.Config the same as a *rest.Config
//     without client-side rate limiting; Server.Dynamic() a dynamic client;
//   - UserKubeconfig(NobodyUser) (or a user of Options.Users): a kubeconfig
//     of a user who authenticates but has no RBAC rights, for 403 tests.
//
// Server.CreateNamespace gives each spec its own namespace;
// Server.Mapping and Server.Get resolve apiVersion/kind through discovery
// (re-reading it on a miss, so CRDs created later resolve) and read live
// objects.
//
// Faults: KillAPIServer SIGKILLs the API server (etcd keeps the data);
// RestartAPIServer starts it again on the same port with the same flags.
// StartProxy puts a TLS reverse proxy in front of the server (Proxy.URL,
// Proxy.Kubeconfig, Proxy.Config) that counts requests by method and path
// (Count) and records the status each was answered with, or Abandoned
// where the client went away first (Statuses), runs a hook once before the first request matching a method and
// path (OnFirst; e.g. a competing update through Server.Dynamic between a
// client's GET and PUT, to force a 409), and lets interceptors answer
// requests themselves (Intercept). Proxy.InjectFaults applies a FaultPlan
// to every request: connection resets, 429 and 503 before forwarding,
// stalls and hangs, and after forwarding a 503 (with or without
// Retry-After), a reset or a body cut in half, so that the server carried
// the request out and the client cannot know; Proxy.Exchanges records
// each request's fault and the server's answer (Exchange.Stored).
// RestartEtcd kills etcd and starts it again on the same data after a
// downtime. ObjectPath renders the paths client-go requests.
//
// Stop kills both processes (SIGKILL to their process groups) and removes
// the temporary directory (kept, and its path logged, when PLY_HARNESS_KEEP
// is set); StopAll stops every server still running and belongs in
// AfterSuite. Children are started with Setpgid and Pdeathsig=SIGKILL, so a
// test binary that dies leaves no servers behind. Logs are in
// Server.APIServerLog and Server.EtcdLog; start failures include their
// tail.
//
// Run runs a command (the built ply, kubectl) and returns its stdout,
// stderr and exit code.
//
// Typical suite:
//
//	var srv *harness.Server
//	var _ = BeforeSuite(func() {
//		var err error
//		srv, err = harness.Start(harness.Options{Name: "e2e", Log: GinkgoWriter})
//		Expect(err).NotTo(HaveOccurred())
//	})
//	var _ = AfterSuite(func() { Expect(harness.StopAll()).To(Succeed()) })
package harness
