// Command smpmerge is the strategic-merge-patch peer of "ply merge" for
// start-up timing: a Go program that does what kubectl apply and the API
// server do with the files benchfiles writes, and nothing else. It reads
// recorded, local and live (JSON), computes kubectl's three-way patch
// (strategicpatch.CreateThreeWayMergePatch) and applies it to live
// (strategicpatch.StrategicMergePatch, with the merge metadata of the
// apps/v1 Deployment Go type, as kubectl's built-in types carry it), and
// prints the result as JSON.
//
//	smpmerge recorded.json local.json live.json
//
// It is test-only: ply never calls strategicpatch. hack/startup.sh times
// it side by side with ply merge.
package main

import (
	"fmt"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: smpmerge RECORDED LOCAL LIVE")
		os.Exit(2)
	}
	var docs [3][]byte
	for i, f := range os.Args[1:] {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "smpmerge:", err)
			os.Exit(1)
		}
		docs[i] = b
	}
	meta, err := strategicpatch.NewPatchMetaFromStruct(appsv1.Deployment{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "smpmerge:", err)
		os.Exit(1)
	}
	patch, err := strategicpatch.CreateThreeWayMergePatch(docs[0], docs[1], docs[2], meta, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, "smpmerge: CreateThreeWayMergePatch:", err)
		os.Exit(1)
	}
	out, err := strategicpatch.StrategicMergePatch(docs[2], patch, appsv1.Deployment{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "smpmerge: StrategicMergePatch:", err)
		os.Exit(1)
	}
	os.Stdout.Write(append(out, '\n'))
}
