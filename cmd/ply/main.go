package main

import "os"

func main() {
	args := os.Args[1:]
	if cluster, name := forCluster(args); name != "" {
		execCluster(cluster)
	}
	growStack(len(args))
	os.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
}

// stackPad is the stack frame growStack takes: with what main has used,
// it doubles the goroutine's stack to 32 KB, the most ply merge and ply
// patch apply use on a small object.
const stackPad = 16 << 10

// growStack grows the stack of the calling goroutine in one step, while it
// holds a few frames: a merge recursing through an object would otherwise
// grow it twice (8 to 16 to 32 KB), each time copying its frames and
// reading their stack maps. i is any index below stackPad; the result is
// meaningless.
//
//go:noinline
func growStack(i int) byte {
	var pad [stackPad]byte
	pad[i%stackPad] = 1
	return pad[(i+1)%stackPad]
}
