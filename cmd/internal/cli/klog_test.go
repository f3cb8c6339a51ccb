package cli

import (
	"bytes"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/klog/v2"
)

var _ = Describe("client-go's klog lines", func() {
	It("become ply's warnings; verbose ones are dropped", func() {
		var buf bytes.Buffer
		routeKlog(&warningWriter{w: &buf})
		DeferCleanup(klog.ClearLogger)
		klog.Background().Error(errors.New("unexpected EOF"), "Unexpected error when reading response body")
		klog.Background().WithValues("host", "127.0.0.1").Info("Warning: unknown field \"spec.colour\"", "code", 299)
		klog.Background().V(2).Info("Stream error when reading response body")
		klog.Warning("a line\nof two")
		klog.Flush()
		Expect(buf.String()).To(Equal("Warning: Unexpected error when reading response body: unexpected EOF\n" +
			"Warning: unknown field \"spec.colour\" (host=127.0.0.1, code=299)\n" +
			"Warning: a line; of two\n"))
	})
})
