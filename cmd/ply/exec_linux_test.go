package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("ply apply and ply diff on Linux", func() {
	It("replace ply by kubectl-ply (one process, ply's streams and signals as they are)", func() {
		cmd := exec.Command(plyBin, "diff", "-f", "-", "--kubeconfig", "/nonexistent")
		stdin, err := cmd.StdinPipe()
		Expect(err).NotTo(HaveOccurred())
		Expect(cmd.Start()).To(Succeed())
		want, err := filepath.EvalSymlinks(kubectlPlyBin)
		Expect(err).NotTo(HaveOccurred())
		// diff reads its input first: the process waits on stdin, as kubectl-ply.
		Eventually(func() string {
			exe, _ := os.Readlink("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/exe")
			return exe
		}).WithTimeout(30 * time.Second).Should(Equal(want))
		stdin.Write([]byte("kind: [\n"))
		stdin.Close()
		err = cmd.Wait()
		Expect(exitCodeOf(err)).To(Equal(2))
	})
})
