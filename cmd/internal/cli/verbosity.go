package cli

import (
	"flag"
	"strconv"
	"sync/atomic"

	"k8s.io/klog/v2"
)

// verbosity is the -v level of the run: klog's messages up to it are
// printed (routeKlog). client-go logs each request's method and URL and
// each response's status and time from 6, the request headers
// (credentials masked by client-go) from 7, the bodies of requests and
// responses from 8 and a curl command line from 9.
var verbosity atomic.Int32

// bodyKey is the key client-go logs request and response bodies under.
const bodyKey = "body"

// omittedBody replaces every body in ply's -v lines: a body can hold a
// Secret's values, and which Secret a request is about cannot be told
// where client-go logs it, so ply prints no body at any level (kubectl
// prints them from -v=8).
const omittedBody = "(omitted: ply never prints request or response bodies)"

// setVerbosity sets the -v level: the sink's and klog's own, which
// client-go reads to decide whether to log requests at all.
func setVerbosity(level int) {
	verbosity.Store(int32(level))
	var fs flag.FlagSet
	klog.InitFlags(&fs)
	fs.Set("v", strconv.Itoa(level))
}
