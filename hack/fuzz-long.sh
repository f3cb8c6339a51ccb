#!/usr/bin/env bash
# fuzz-long.sh PACKAGE TARGET [DURATION]
#
# One long fuzz run, as docs/fuzzing.md reports them: runs TARGET of
# PACKAGE (e.g. ./pkg/apply FuzzMerge) for DURATION (default 30m) with one
# worker, then measures statement coverage twice in a scratch clone of
# HEAD: with the checked-in seeds and corpus alone, and with the corpus the
# fuzzer keeps in the Go build cache added. Prints the executions, the
# corpus growth and both coverage figures. A failing input is written by
# go test to PACKAGE/testdata/fuzz/TARGET as usual, and the script exits 1.
set -euo pipefail
pkg=${1:?package, e.g. ./pkg/apply}
target=${2:?fuzz target, e.g. FuzzMerge}
duration=${3:-30m}
top=$(git rev-parse --show-toplevel)
cd "$top"
export GOTOOLCHAIN=local
module=$(go list -m)
rel=${pkg#./}
log=$(mktemp)
echo "fuzzing $target in $pkg for $duration (log: $log)"
status=0
go test "$pkg" -run '^$' -fuzz "^$target\$" -fuzztime "$duration" -parallel 1 >"$log" 2>&1 || status=$?
grep -m1 'gathering baseline coverage: [0-9]*/[0-9]* completed, now' "$log" || true
grep 'elapsed:' "$log" | tail -n 1
tail -n 3 "$log"
if [ "$status" -ne 0 ]; then
  echo "the fuzz run failed (exit $status): see $log and $pkg/testdata/fuzz/$target"
  exit 1
fi

# coverage: statements of the ply packages the test links, seeds alone
# and seeds plus the cached corpus.
cache=$(go env GOCACHE)/fuzz/$module/$rel/$target
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git clone -q "$top" "$scratch/ply"
cover() { # label
  (cd "$scratch/ply" && go test -count=1 -run "^$target\$" -coverpkg="$module/..." \
    -coverprofile="$scratch/$1.out" "$pkg" >/dev/null 2>&1)
  awk -v own="$module/$rel/" '
    NR > 1 {
      split($1, loc, ":"); file = loc[1]
      dir = file; sub(/\/[^\/]*$/, "/", dir)
      if (!($1 in n)) { n[$1] = $2; d[$1] = dir }
      if ($3 > 0) hit[$1] = 1
    }
    END {
      for (k in n) { tot += n[k]; if (k in hit) cov += n[k]
        if (d[k] == own) { ptot += n[k]; if (k in hit) pcov += n[k] } }
      printf "%s: own package %.1f%% (%d/%d statements), all linked ply packages %.1f%% (%d/%d)\n", label, 100*pcov/(ptot?ptot:1), pcov, ptot, 100*cov/(tot?tot:1), cov, tot
    }' label="$1" "$scratch/$1.out"
}
cover "seeds"
mkdir -p "$scratch/ply/$rel/testdata/fuzz/$target"
if [ -d "$cache" ]; then
  cp -n "$cache"/* "$scratch/ply/$rel/testdata/fuzz/$target/"
  echo "cached corpus: $(ls "$cache" | wc -l) entries"
fi
cover "seeds + corpus"
