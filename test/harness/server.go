package harness

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// ContextName is the kubeconfig context (and cluster) name of every
// kubeconfig the harness writes.
const ContextName = "ply-e2e"

// NobodyUser is the user every server knows besides the admin: it
// authenticates but has no RBAC rights, so every request it makes other than
// discovery is answered 403 Forbidden.
const NobodyUser = "nobody"

// Options configure Start. The zero value is valid.
type Options struct {
	// Name prefixes log lines and the temporary directory; default "ply".
	Name string
	// Dir is the parent of the server's temporary directory; default
	// os.TempDir().
	Dir string
	// ExtraAPIServerFlags are appended to the kube-apiserver command line
	// (a later flag overrides an earlier one).
	ExtraAPIServerFlags []string
	// Users are unprivileged users to create besides NobodyUser; each
	// gets a bearer token and UserKubeconfig works for it.
	Users []string
	// Log receives progress lines (ports, readiness, restarts); default
	// os.Stderr. Suites pass ginkgo.GinkgoWriter.
	Log io.Writer
	// StartTimeout bounds waiting for etcd and for the API server's
	// /readyz; default 3 minutes.
	StartTimeout time.Duration
	// APIServer is the kube-apiserver build to run: StockAPIServer, or
	// PlyAPIServer (strategic merge patches on ply's engine); empty means
	// what $PLY_TEST_APISERVER names (APIServerFromEnv), stock when unset.
	APIServer APIServer
}

// Server is a running etcd plus kube-apiserver pair on loopback. Its
// exported fields are set by Start and never change; all methods are safe
// for concurrent use.
type Server struct {
	// Name is Options.Name.
	Name string
	// APIServer is the kube-apiserver build running (Options.APIServer,
	// resolved).
	APIServer APIServer
	// Dir is the server's temporary directory (data, certificates,
	// kubeconfigs, logs); Stop removes it.
	Dir string
	// URL is the API server's base URL, https://127.0.0.1:PORT; the port
	// stays the same across RestartAPIServer.
	URL string
	// Kubeconfig is the path of a kubeconfig file (context ContextName)
	// that authenticates as the admin user (group system:masters) and
	// trusts the server's CA.
	Kubeconfig string
	// Config is the admin client configuration Kubeconfig describes, with
	// client-side rate limiting disabled. Callers copy it (rest.CopyConfig)
	// before changing it.
	Config *rest.Config
	// CAFile is the PEM file of the CA that signed the serving certificate;
	// CAData is its content.
	CAFile string
	CAData []byte
	// EtcdURL is etcd's client URL, http://127.0.0.1:PORT.
	EtcdURL string
	// APIServerLog and EtcdLog are the processes' log files.
	APIServerLog, EtcdLog string

	log     io.Writer
	timeout time.Duration
	apiBin  string
	apiArgs []string
	// etcdBin and etcdArgs start etcd again (RestartEtcd).
	etcdBin  string
	etcdArgs []string
	tokens   map[string]string // user -> token
	pki      *pki
	mapper   mapperState
	http     *http.Client

	mu        sync.Mutex
	etcd      *process
	apiserver *process
	dyn       dynamic.Interface
	stopped   bool
}

var (
	liveMu  sync.Mutex
	liveSet = map[*Server]struct{}{}
)

// Start runs PrepareAPIServer for Options.APIServer (so Prepare), then etcd
// and the kube-apiserver of Options.APIServer on free loopback ports,
// and returns when the API server's /readyz answers ok. On failure it stops
// whatever it started, removes the temporary directory and returns an error
// carrying the tail of the failed process's log. Call Stop (or StopAll)
// when done; the child processes also die with the calling process
// (Pdeathsig), so a killed test binary leaves no servers behind.
//
// Ports are picked free but not reserved, so another process may take one
// before etcd or the API server binds it; Start then tries again with new
// ports, up to three times.
func Start(opts Options) (*Server, error) {
	if opts.APIServer == "" {
		kind, err := APIServerFromEnv()
		if err != nil {
			return nil, err
		}
		opts.APIServer = kind
	}
	apiBin, err := PrepareAPIServer(opts.APIServer)
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		s, err := start(opts, apiBin)
		if err == nil || !errors.Is(err, errPortTaken) || attempt == 3 {
			return s, err
		}
	}
}

// errPortTaken marks a start that failed because a port picked as free was
// taken by the time a process bound it.
var errPortTaken = errors.New("harness: a port was taken before the server bound it")

// portTaken reports whether a start-up log says a bind failed.
func portTaken(log string) bool {
	return strings.Contains(log, "address already in use")
}

// start is one attempt of Start, running the kube-apiserver binary apiBin.
func start(opts Options, apiBin string) (*Server, error) {
	if opts.Name == "" {
		opts.Name = "ply"
	}
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 3 * time.Minute
	}
	etcdBin, err := etcdBinary(false)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(opts.Dir, "ply-harness-"+opts.Name+"-")
	if err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	s := &Server{
		Name:         opts.Name,
		APIServer:    opts.APIServer,
		Dir:          dir,
		APIServerLog: filepath.Join(dir, "kube-apiserver.log"),
		EtcdLog:      filepath.Join(dir, "etcd.log"),
		log:          opts.Log,
		timeout:      opts.StartTimeout,
		apiBin:       apiBin,
		tokens:       map[string]string{},
	}
	ok := false
	defer func() {
		if !ok {
			s.Stop()
		}
	}()
	began := time.Now()
	if err := s.bootstrap(opts, etcdBin); err != nil {
		return nil, err
	}
	fmt.Fprintf(s.log, "harness[%s]: kube-apiserver %s (%s) ready at %s (etcd %s) in %s; kubeconfig %s\n",
		s.Name, KubernetesVersion, s.APIServer, s.URL, s.EtcdURL, time.Since(began).Round(time.Millisecond), s.Kubeconfig)
	liveMu.Lock()
	liveSet[s] = struct{}{}
	liveMu.Unlock()
	ok = true
	return s, nil
}

// bootstrap starts s's etcd (etcdBin) on free loopback ports, makes its certificates and tokens, starts its
// kube-apiserver and writes its kubeconfig; on an error, the caller stops what was started.
func (s *Server) bootstrap(opts Options, etcdBin string) error {
	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	s.EtcdURL = "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	s.URL = "https://127.0.0.1:" + strconv.Itoa(ports[2])
	if err := s.startEtcd(etcdBin, peerURL); err != nil {
		return err
	}
	p, err := newPKI(filepath.Join(s.Dir, "pki"))
	if err != nil {
		return fmt.Errorf("harness[%s]: generating certificates: %w", s.Name, err)
	}
	s.CAFile, s.CAData, s.pki = p.caFile, p.caPEM, p
	tokenFile, err := s.writeTokens(opts.Users)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(p.caPEM)
	s.http = &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}
	s.apiArgs = append(apiServerFlags(s, p, ports[2], tokenFile), opts.ExtraAPIServerFlags...)
	if err := s.startAPIServer(); err != nil {
		return err
	}
	return s.writeClientConfig()
}

// startEtcd starts etcd for s, its client URL s.EtcdURL and its peer URL peerURL, and waits until it answers.
func (s *Server) startEtcd(etcdBin, peerURL string) error {
	s.etcdBin, s.etcdArgs = etcdBin, []string{
		"--name=ply",
		"--data-dir=" + filepath.Join(s.Dir, "etcd"),
		"--listen-client-urls=" + s.EtcdURL,
		"--advertise-client-urls=" + s.EtcdURL,
		"--listen-peer-urls=" + peerURL,
		"--initial-advertise-peer-urls=" + peerURL,
		"--initial-cluster=ply=" + peerURL,
		"--initial-cluster-state=new",
		"--logger=zap",
		"--log-outputs=stderr",
		"--quota-backend-bytes=4294967296",
	}
	var err error
	s.etcd, err = startProcess(s.etcdBin, s.etcdArgs, s.EtcdLog)
	if err != nil {
		return fmt.Errorf("harness[%s]: starting etcd: %w", s.Name, err)
	}
	return s.waitEtcd()
}

// apiServerFlags are the kube-apiserver flags of s: loopback on port, its etcd, p's certificates and keys, the static
// tokens of tokenFile, RBAC, and no controllers' prerequisites (service account admission, endpoints, APF).
func apiServerFlags(s *Server, p *pki, port int, tokenFile string) []string {
	return []string{
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--etcd-servers=" + s.EtcdURL,
		"--cert-dir=" + filepath.Join(s.Dir, "certs"),
		"--tls-cert-file=" + p.servingCert,
		"--tls-private-key-file=" + p.servingK,
		"--token-auth-file=" + tokenFile,
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + p.saPublic,
		"--service-account-signing-key-file=" + p.saPrivate,
		"--service-cluster-ip-range=10.96.0.0/24",
		"--disable-admission-plugins=ServiceAccount",
		"--endpoint-reconciler-type=none",
		"--enable-priority-and-fairness=false",
		"--allow-privileged=true",
		"--profiling=false",
		"--v=1",
	}
}

// writeTokens writes the static token file: the admin in system:masters,
// NobodyUser and users without groups.
func (s *Server) writeTokens(users []string) (string, error) {
	s.tokens["admin"] = newToken()
	var b strings.Builder
	b.WriteString(s.tokens["admin"] + ",admin,uid-admin,\"system:masters\"\n")
	all := append([]string{NobodyUser}, users...)
	for _, u := range all {
		if u == "" || u == "admin" || strings.ContainsAny(u, ",\"\n") {
			return "", fmt.Errorf("harness[%s]: invalid user name %q: want a non-empty name other than admin without commas, quotes or newlines", s.Name, u)
		}
		if _, dup := s.tokens[u]; dup {
			continue
		}
		s.tokens[u] = newToken()
		b.WriteString(s.tokens[u] + "," + u + ",uid-" + u + "\n")
	}
	path := filepath.Join(s.Dir, "pki", "tokens.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return "", fmt.Errorf("harness[%s]: %w", s.Name, err)
	}
	return path, nil
}

// writeClientConfig writes the admin kubeconfig and builds Config from it,
// so that Config is exactly what the file says.
func (s *Server) writeClientConfig() error {
	path, err := s.writeKubeconfig("admin", s.URL)
	if err != nil {
		return err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return fmt.Errorf("harness[%s]: reading back %s: %w", s.Name, path, err)
	}
	cfg.QPS = -1 // no client-side rate limiting
	cfg.Timeout = time.Minute
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("harness[%s]: dynamic client: %w", s.Name, err)
	}
	s.Kubeconfig, s.Config, s.dyn = path, cfg, dyn
	return nil
}

// writeKubeconfig writes Dir/kubeconfig-<user>[-<suffix>] for user's token
// against server.
func (s *Server) writeKubeconfig(user, server string) (string, error) {
	name := "kubeconfig-" + user
	if server != s.URL {
		name += "-" + strings.NewReplacer(":", "_", "/", "_").Replace(strings.TrimPrefix(server, "https://"))
	}
	path := filepath.Join(s.Dir, name)
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[ContextName] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: s.CAData}
	cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{Token: s.tokens[user]}
	cfg.Contexts[ContextName] = &clientcmdapi.Context{Cluster: ContextName, AuthInfo: user, Namespace: "default"}
	cfg.CurrentContext = ContextName
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		return "", fmt.Errorf("harness[%s]: writing %s: %w", s.Name, path, err)
	}
	return path, nil
}

// UserKubeconfig returns the path of a kubeconfig (context ContextName)
// that authenticates as user, which must be NobodyUser or one of
// Options.Users: a user without RBAC rights.
func (s *Server) UserKubeconfig(user string) (string, error) {
	if _, ok := s.tokens[user]; !ok || user == "admin" {
		return "", fmt.Errorf("harness[%s]: unknown user %q: UserKubeconfig knows %s and the users of Options.Users", s.Name, user, NobodyUser)
	}
	return s.writeKubeconfig(user, s.URL)
}

// Dynamic returns a dynamic client for the admin user (Config).
func (s *Server) Dynamic() dynamic.Interface { return s.dyn }

// startAPIServer starts kube-apiserver with s.apiArgs and waits for
// /readyz; the caller holds no lock.
func (s *Server) startAPIServer() error {
	p, err := startProcess(s.apiBin, s.apiArgs, s.APIServerLog)
	if err != nil {
		return fmt.Errorf("harness[%s]: starting kube-apiserver: %w", s.Name, err)
	}
	s.mu.Lock()
	if s.stopped { // Stop ran while this one started
		s.mu.Unlock()
		p.kill()
		return fmt.Errorf("harness[%s]: stopped while starting kube-apiserver", s.Name)
	}
	s.apiserver = p
	s.mu.Unlock()
	return s.waitReady(p)
}

// waitEtcd polls etcd's /health until it reports healthy.
func (s *Server) waitEtcd() error {
	deadline := time.Now().Add(s.timeout)
	c := &http.Client{Timeout: 2 * time.Second}
	for {
		if s.etcd.exited() {
			log := tailFile(s.EtcdLog, 30)
			err := fmt.Errorf("harness[%s]: etcd exited during start-up (%v); last lines of %s:\n%s", s.Name, s.etcd.waitErr(), s.EtcdLog, log)
			if portTaken(log) {
				err = errors.Join(errPortTaken, err)
			}
			return err
		}
		resp, err := c.Get(s.EtcdURL + "/health")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.Contains(string(body), `"health":"true"`) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("harness[%s]: etcd not healthy after %s; last lines of %s:\n%s", s.Name, s.timeout, s.EtcdLog, tailFile(s.EtcdLog, 30))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitReady polls the API server's /readyz until it answers 200 ok.
func (s *Server) waitReady(p *process) error {
	deadline := time.Now().Add(s.timeout)
	var last string
	for {
		if p.exited() {
			log := tailFile(s.APIServerLog, 40)
			err := fmt.Errorf("harness[%s]: kube-apiserver exited during start-up (%v); last lines of %s:\n%s", s.Name, p.waitErr(), s.APIServerLog, log)
			if portTaken(log) {
				err = errors.Join(errPortTaken, err)
			}
			return err
		}
		req, _ := http.NewRequest(http.MethodGet, s.URL+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+s.tokens["admin"])
		resp, err := s.http.Do(req)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = resp.Status + ": " + tail(body, 5)
		} else {
			last = err.Error()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("harness[%s]: kube-apiserver not ready after %s (last /readyz: %s); last lines of %s:\n%s", s.Name, s.timeout, last, s.APIServerLog, tailFile(s.APIServerLog, 40))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// KillAPIServer sends SIGKILL to the API server (etcd keeps running) and
// waits for it to exit. Requests fail with connection errors until
// RestartAPIServer. Killing a stopped API server is a no-op.
func (s *Server) KillAPIServer() error {
	s.mu.Lock()
	p := s.apiserver
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	p.kill()
	fmt.Fprintf(s.log, "harness[%s]: kube-apiserver killed\n", s.Name)
	return nil
}

// RestartAPIServer kills the API server if it runs and starts it again with
// the same flags, port, certificates and etcd data, returning when it is
// ready. Objects written before the restart are still there.
func (s *Server) RestartAPIServer() error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return fmt.Errorf("harness[%s]: RestartAPIServer after Stop", s.Name)
	}
	s.mu.Unlock()
	if err := s.KillAPIServer(); err != nil {
		return err
	}
	start := time.Now()
	if err := s.startAPIServer(); err != nil {
		return err
	}
	fmt.Fprintf(s.log, "harness[%s]: kube-apiserver restarted in %s\n", s.Name, time.Since(start).Round(time.Millisecond))
	return nil
}

// RestartEtcd SIGKILLs etcd, leaves it down for downtime and starts it
// again with the same flags, ports and data, returning when it is healthy.
// Meanwhile the API server answers requests that need etcd with errors
// (500, 503 or 504, or after its own timeout); it reconnects by itself.
func (s *Server) RestartEtcd(downtime time.Duration) error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return fmt.Errorf("harness[%s]: RestartEtcd after Stop", s.Name)
	}
	p := s.etcd
	s.mu.Unlock()
	start := time.Now()
	p.kill()
	time.Sleep(downtime)
	np, err := startProcess(s.etcdBin, s.etcdArgs, s.EtcdLog)
	if err != nil {
		return fmt.Errorf("harness[%s]: restarting etcd: %w", s.Name, err)
	}
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		np.kill()
		return fmt.Errorf("harness[%s]: stopped while restarting etcd", s.Name)
	}
	s.etcd = np
	s.mu.Unlock()
	if err := s.waitEtcd(); err != nil {
		return err
	}
	fmt.Fprintf(s.log, "harness[%s]: etcd restarted (down %s)\n", s.Name, time.Since(start).Round(time.Millisecond))
	return nil
}

// APIServerRunning reports whether the API server process is alive.
func (s *Server) APIServerRunning() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.apiserver != nil && !s.apiserver.exited()
}

// APIServerLogTail returns the last n lines of the API server's log, for
// failure messages.
func (s *Server) APIServerLogTail(n int) string { return tailFile(s.APIServerLog, n) }

// Stop kills the API server and etcd (SIGKILL to their process groups),
// waits for them to exit and removes Dir unless PLY_HARNESS_KEEP is set
// (then it says where Dir is). It is idempotent.
func (s *Server) Stop() error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	api, etcd := s.apiserver, s.etcd
	s.mu.Unlock()
	if api != nil {
		api.kill()
	}
	if etcd != nil {
		etcd.kill()
	}
	liveMu.Lock()
	delete(liveSet, s)
	liveMu.Unlock()
	if os.Getenv("PLY_HARNESS_KEEP") != "" {
		fmt.Fprintf(s.log, "harness[%s]: stopped; PLY_HARNESS_KEEP is set, keeping %s\n", s.Name, s.Dir)
		return nil
	}
	if err := os.RemoveAll(s.Dir); err != nil {
		return fmt.Errorf("harness[%s]: removing %s: %w", s.Name, s.Dir, err)
	}
	return nil
}

// StopAll stops every server Start returned that is not stopped yet, in
// start order of their directories, and returns the first error. Suites
// call it in AfterSuite (or a SynchronizedAfterSuite) as a safety net.
func StopAll() error {
	liveMu.Lock()
	servers := make([]*Server, 0, len(liveSet))
	for s := range liveSet {
		servers = append(servers, s)
	}
	liveMu.Unlock()
	sort.Slice(servers, func(i, j int) bool { return servers[i].Dir < servers[j].Dir })
	var first error
	for _, s := range servers {
		if err := s.Stop(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// process is a child process in its own process group that dies with the
// test process.
type process struct {
	cmd  *exec.Cmd
	log  *os.File
	done chan struct{}
	err  error
}

func startProcess(bin string, args []string, logPath string) (*process, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(logf, "=== %s %s\n", time.Now().UTC().Format(time.RFC3339Nano), strings.Join(append([]string{bin}, args...), " "))
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	p := &process{cmd: cmd, log: logf, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		logf.Close()
		close(p.done)
	}()
	return p, nil
}

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *process) waitErr() error {
	<-p.done
	return p.err
}

// kill sends SIGKILL to the process group and waits for the process.
func (p *process) kill() {
	if !p.exited() {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
	<-p.done
}

// freePorts returns n distinct free TCP ports on 127.0.0.1, holding all
// listeners open until every port is picked. They are chosen below the
// kernel's range for the local ports of outgoing connections
// (ip_local_port_range), so that no client connection on the machine can
// take one while its server is down for a restart (RestartAPIServer keeps
// its port).
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	const lowest = 10000
	below := outgoingPortsStart()
	for tries := 0; len(ports) < n && tries < 1000; tries++ {
		addr := "127.0.0.1:0" // the kernel's choice, when no range is left below
		if below > lowest+1000 {
			addr = "127.0.0.1:" + strconv.Itoa(lowest+rand.IntN(below-lowest))
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			continue // taken: another
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	if len(ports) < n {
		return nil, fmt.Errorf("harness: no free loopback port after 1000 tries")
	}
	return ports, nil
}

// outgoingPortsStart returns the first local port the kernel gives
// outgoing connections (32768, Linux's default, when it cannot be read).
func outgoingPortsStart() int {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	fields := strings.Fields(string(data))
	if len(fields) != 2 {
		return 32768
	}
	start, err := strconv.Atoi(fields[0])
	if err != nil {
		return 32768
	}
	return start
}
