#!/usr/bin/env bash
# The project's test command: formatting, vet, every test suite under the
# race detector (the differential tests against strategicpatch included),
# the fuzz targets for a bounded time, and a smoke run of the benchmarks.
# It installs what it needs itself: Go modules, Debian's etcd-server and
# bash-completion (as root, when missing) and the kube-apiserver binaries, built
# once from the k8s.io/kubernetes module (test/harness/kube-apiserver) and
# cached in $PLY_CACHE_DIR or ~/.cache/ply: the stock one, and the one whose
# strategic merge patches run on ply (rebuilt when ply's sources it links
# change), against which the e2e and kubectl-parity suites run a second
# time. Set PLY_FUZZTIME to change the time each fuzz target runs (default
# 20s).
set -euo pipefail
cd "$(dirname "$0")/.."

export GONOSUMDB="${GONOSUMDB:-k8s.io/kubernetes}"
export GOTOOLCHAIN=local
fuzztime="${PLY_FUZZTIME:-20s}"

step() { printf '\n== %s\n' "$*"; }

step "go version"
go version

step "download modules"
go mod download
go mod verify

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt -l lists:"; echo "$unformatted"; exit 1
fi

step "go vet"
go vet ./...

step "examples/extend: a module of its own that adds merge rules through ply's public API (vet, tests under -race)"
(cd examples/extend && go mod download && go vet ./... && go test -race -count=1 ./...)

step "cluster test prerequisites (etcd-server and bash-completion from Debian, kube-apiserver built from k8s.io/kubernetes and cached, stock and on ply, kubectl 1.32)"
go run ./test/harness/cmd/prepare -ply

step "tests (race detector on; the cluster suites start their own etcd + kube-apiserver on loopback)"
go test -race -count=1 -timeout 40m ./...

step "e2e and kubectl-parity suites again, against the kube-apiserver whose strategic merge patches run on ply"
PLY_TEST_APISERVER=ply go test -race -count=1 -timeout 40m ./test/e2e ./test/parity

step "fuzz targets (${fuzztime} each)"
fuzz() { # package target
  echo "-- $2 in $1"
  local out status=0
  out=$(mktemp)
  # -fuzzminimizetime 0: no minimising, of new inputs or of failing ones.
  # Go's fuzzer ends a run with "context deadline exceeded" when the time
  # runs out while it minimises a new input (the progress lines show no
  # executions meanwhile), which at 20s a target can happen twice in a
  # row and so failed the step; a failing input is still written
  # (testdata/fuzz/<target>/), as found, and fails the step.
  go test "$1" -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime" -fuzzminimizetime 0 2>&1 | tee "$out" || status=$?
  # Should the deadline still end a run without a failing input written,
  # that is the time limit, not a finding: run once more.
  if [ "$status" -ne 0 ] && grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written' "$out"; then
    echo "-- $2: the fuzzer hit its time limit; running it again"
    status=0
    go test "$1" -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime" -fuzzminimizetime 0 || status=$?
  fi
  rm -f "$out"
  return "$status"
}
while read -r pkg target; do
  fuzz "$pkg" "$target"
done < <(grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do
  dir=$(dirname "$f")
  grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //' | sed "s#^#$dir #"
done)

step "benchmarks (one iteration each, to prove they run)"
go test -run '^$' -bench . -benchtime 1x ./... > /tmp/ply-bench-smoke.txt
grep -c '^Benchmark' /tmp/ply-bench-smoke.txt | sed 's/^/benchmarks run: /'
