package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

// warningWriter writes ply's warning lines to standard error, one whole
// line per write, from any goroutine.
type warningWriter struct {
	mu sync.Mutex
	w  io.Writer
	n  int
}

// printed is the number of lines warn wrote.
func (w *warningWriter) printed() int {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// warn writes "Warning: <text>" on one line.
func (w *warningWriter) warn(text string) {
	w.line("Warning: " + oneLine(text))
	w.mu.Lock()
	w.n++
	w.mu.Unlock()
}

// line writes text, one line, as it is.
func (w *warningWriter) line(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	io.WriteString(w.w, text+"\n")
}

// routeKlog makes klog, which client-go logs through, write ply's warning
// lines to w instead of its own ("E1129 12:00:00.000000 123
// request.go:1196] ..."): a message at klog's level 0 (Info, Warning,
// Error) becomes "Warning: <message>[: <error>][ (<key>=<value>, ...)]";
// verbose ones (V(1) and up) are dropped. The server's warnings do not come
// this way: pkg/cluster hands them to the objects they concern (or
// Options.Warn).
func routeKlog(w *warningWriter) {
	klog.SetLogger(logr.New(&klogSink{w: w}))
}

// klogSink is the logr.LogSink of routeKlog.
type klogSink struct {
	w      *warningWriter
	values []any
}

func (s *klogSink) Init(logr.RuntimeInfo) {}

// Enabled keeps klog's level 0 and the levels up to -v.
func (s *klogSink) Enabled(level int) bool { return level <= int(verbosity.Load()) }

func (s *klogSink) Info(level int, msg string, kv ...any) {
	if !s.Enabled(level) {
		return
	}
	if level > 0 {
		s.w.line("I" + strconv.Itoa(level) + "] " + oneLine(msg+s.render(kv)))
		return
	}
	s.w.warn(strings.TrimPrefix(msg, "Warning: ") + s.render(kv))
}

func (s *klogSink) Error(err error, msg string, kv ...any) {
	if err != nil {
		msg += ": " + err.Error()
	}
	s.w.warn(msg + s.render(kv))
}

func (s *klogSink) WithValues(kv ...any) logr.LogSink {
	return &klogSink{w: s.w, values: append(s.values[:len(s.values):len(s.values)], kv...)}
}

func (s *klogSink) WithName(string) logr.LogSink { return s }

// render writes the key-value pairs of the sink and of one call as
// " (key=value, ...)", "" when there are none.
func (s *klogSink) render(kv []any) string {
	all := append(s.values[:len(s.values):len(s.values)], kv...)
	if len(all) == 0 {
		return ""
	}
	parts := make([]string, 0, (len(all)+1)/2)
	for i := 0; i < len(all); i += 2 {
		switch {
		case i+1 < len(all) && all[i] == bodyKey:
			parts = append(parts, bodyKey+"="+omittedBody)
		case i+1 < len(all):
			parts = append(parts, fmt.Sprint(all[i])+"="+fmt.Sprint(all[i+1]))
		default:
			parts = append(parts, fmt.Sprint(all[i]))
		}
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
