package cli

import (
	"bytes"
	"errors"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

var _ = Describe("the wait's output", func() {
	web := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, Name: "web"}}
	cm := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Name: "old"}}
	state := func(it cluster.WaitItem, st status.Status, msg string, done bool, err error) cluster.WaitResult {
		return cluster.WaitResult{Item: it, Status: st, Message: msg, Done: done, Err: err}
	}
	timedOut := &cluster.WaitError{Ref: web.Ref, Failure: cluster.WaitTimedOut, Timeout: 2 * time.Second,
		Status: status.InProgressStatus, Message: "Replicas: 0/1"}

	It("prints final lines in input order when standard error is not a terminal, then the errors", func() {
		var out, errb bytes.Buffer
		p := newWaitPrinter(&out, &errb, &errb)
		Expect(p.live).To(BeNil())
		p.start([]cluster.WaitItem{web, cm})
		p.report(0, state(web, status.InProgressStatus, "Replicas: 0/1", false, nil))
		p.report(1, state(cm, status.NotFoundStatus, "deleted", true, nil))
		Expect(out.String()).To(BeEmpty(), "held back behind the first object")
		final := state(web, status.InProgressStatus, "Replicas: 0/1", true, timedOut)
		p.report(0, final)
		Expect(out.String()).To(BeEmpty(), "a timeout is said once, as an error; an object gone when first read is summarised")
		code := p.finish([]cluster.WaitResult{final, state(cm, status.NotFoundStatus, "deleted", true, nil)})
		Expect(code).To(Equal(command.ExitFailed))
		Expect(errb.String()).To(Equal("error: timed out after 2s waiting for deployment.apps/web to be Current; last status InProgress: Replicas: 0/1\n"))
		Expect(out.String()).To(Equal("1 object NotFound when first read (configmap: 1)\n"))
	})

	It("on a terminal, redraws a line per object still waited for in place and prints final lines as objects finish", func() {
		var out, term bytes.Buffer
		p := &waitPrinter{out: &out, errw: &term, live: &term, width: 60}
		p.start([]cluster.WaitItem{web, cm})
		p.report(1, state(cm, status.TerminatingStatus, "Resource scheduled for deletion", false, nil))
		Expect(term.String()).To(Equal(
			"deployment.apps/web Unknown: not read yet\n"+
				"configmap/old Terminating: Resource scheduled for deletion\n"), "within the width")
		term.Reset()
		p.report(1, state(cm, status.NotFoundStatus, "deleted", true, nil))
		Expect(out.String()).To(Equal("configmap/old NotFound: deleted\n"), "printed as it finishes")
		Expect(term.String()).To(Equal("\x1b[2A\x1b[J" + "deployment.apps/web Unknown: not read yet\n"))
		p.report(0, state(web, status.InProgressStatus, "Replicas: 0/1", false, nil))
		term.Reset()
		final := state(web, status.CurrentStatus, "Deployment is available. Replicas: 1", true, nil)
		p.report(0, final)
		Expect(term.String()).To(Equal("\x1b[1A\x1b[J"), "the block is gone")
		Expect(p.finish([]cluster.WaitResult{final, state(cm, status.NotFoundStatus, "deleted", true, nil)})).To(Equal(command.ExitOK))
		Expect(out.String()).To(Equal("configmap/old NotFound: deleted\ndeployment.apps/web Current: Deployment is available. Replicas: 1\n"))
	})

	It("shows at most maxLiveLines objects, counting the others", func() {
		var out, term bytes.Buffer
		p := &waitPrinter{out: &out, errw: &term, live: &term, width: 200}
		items := make([]cluster.WaitItem, maxLiveLines+5)
		for i := range items {
			items[i] = web
		}
		p.start(items)
		p.report(0, state(web, status.InProgressStatus, "Replicas: 0/1", false, nil))
		Expect(strings.Count(term.String(), "\n")).To(Equal(maxLiveLines + 1))
		Expect(term.String()).To(HaveSuffix("waiting: 5 more objects\n"))
	})

	It("keeps the names of live lines on a narrow terminal, cutting the messages", func() {
		a := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, Name: "payments-api"}}
		b := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, Name: "payments-worker"}}
		Expect(liveLine(state(a, status.InProgressStatus, "Replicas: 0/3, waiting for the rollout", false, nil), 50)).
			To(Equal("deployment.apps/payments-api InProgress: Replicas…"))
		Expect(liveLine(state(b, status.InProgressStatus, "Replicas: 0/3", false, nil), 30)).
			To(Equal("…ps/payments-worker InProgress"), "too narrow for the name: its end stays")
	})

	It("summarises the objects ready when first read in one line, not a line each", func() {
		var out, errb bytes.Buffer
		p := newWaitPrinter(&out, &errb, &errb)
		cm1 := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Name: "a", Resource: "configmaps"}}
		cm2 := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Name: "b", Resource: "configmaps"}}
		svc := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "Service"}, Name: "web", Resource: "services"}}
		items := []cluster.WaitItem{web, cm1, cm2, svc}
		p.start(items)
		p.report(0, state(web, status.InProgressStatus, "Replicas: 0/1", false, nil))
		rs := []cluster.WaitResult{state(web, status.CurrentStatus, "Deployment is available. Replicas: 1", true, nil)}
		for _, it := range items[1:] {
			r := state(it, status.CurrentStatus, "Resource is always ready", true, nil)
			p.report(len(rs), r)
			rs = append(rs, r)
		}
		p.report(0, rs[0])
		Expect(p.finish(rs)).To(Equal(command.ExitOK))
		Expect(out.String()).To(Equal("deployment.apps/web Current: Deployment is available. Replicas: 1\n" +
			"3 objects Current when first read (configmaps: 2, services: 1)\n"))
		Expect(errb.String()).To(BeEmpty())
	})

	It("on Ctrl-C, says so once and exits as kubectl does (130)", func() {
		var out, errb bytes.Buffer
		p := newWaitPrinter(&out, &errb, &errb)
		p.start([]cluster.WaitItem{web, cm})
		stopped := func(it cluster.WaitItem) cluster.WaitResult {
			return state(it, status.InProgressStatus, "", true, &cluster.WaitError{Ref: it.Ref, Failure: cluster.WaitCanceled, Err: errors.New("context canceled")})
		}
		Expect(p.finish([]cluster.WaitResult{stopped(web), stopped(cm)})).To(Equal(ExitInterrupted))
		Expect(errb.String()).To(Equal("error: interrupted, 2 objects not waited for to the end\n"))
		Expect(out.String()).To(BeEmpty())
	})

	It("names a Failed object with kstatus' message, and one that cannot be watched", func() {
		failed := &cluster.WaitError{Ref: web.Ref, Failure: cluster.WaitFailed, Status: status.FailedStatus, Message: "Progress deadline exceeded"}
		Expect(failed.Error()).To(Equal("deployment.apps/web is Failed: Progress deadline exceeded"))
		unwatchable := &cluster.WaitError{Ref: web.Ref, Failure: cluster.WaitUnwatchable, Err: errors.New("forbidden")}
		Expect(unwatchable.Error()).To(Equal("cannot watch deployment.apps/web: forbidden"))
		Expect(cluster.WaitLine(state(web, status.UnknownStatus, "not read yet", true, unwatchable))).
			To(Equal("deployment.apps/web Unknown: not read yet (cannot watch: forbidden)"))
	})
})
