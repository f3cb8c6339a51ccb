package main

import "os"

func main() {
	args := os.Args[1:]
	if cluster, name := forCluster(args); name != "" {
		execCluster(cluster)
	}
	os.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
}
