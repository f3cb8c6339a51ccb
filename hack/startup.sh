#!/usr/bin/env bash
# Times ply's start-up as whole processes: `ply merge` and `ply patch apply`
# on the 10-entry Deployment of the three-way benchmarks (test/bench, the
# input env=10/change=one), side by side with a Go program that does
# kubectl's strategic merge patch on the same files
# (test/bench/cmd/smpmerge), and sums the package initialisation
# GODEBUG=inittrace=1 reports; with more rows: a Go hello-world (the
# floor any Go program pays on the machine), the same importing net (the
# floor of a default build, which links it dynamically) and ply built
# static (CGO_ENABLED=0, as kubectl's releases are built: no dynamic
# loader).
# docs/benchmarks.md ("CLI start-up") holds its output.
#
#   hack/startup.sh [BASE_REV]   # e.g. hack/startup.sh 1e3a139
#
# With BASE_REV, ply is also built from that revision (git archive, in a
# temporary folder) and timed as "before". Runs are interleaved (one of
# each command per round, ROUNDS rounds, default 40) so that a machine
# whose speed drifts slows every command alike; each cell is the median of
# the rounds, each ratio the median of the per-round ratios. Needs Go, git
# and bash 5; nothing is installed.
set -euo pipefail

cd "$(dirname "$0")/.."
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
rounds=${ROUNDS:-40}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go run ./test/bench/cmd/benchfiles -dir "$work/in" -env 10 -change one
go build -o "$work/ply" ./cmd/ply
CGO_ENABLED=0 go build -o "$work/ply-static" ./cmd/ply
go build -o "$work/smpmerge" ./test/bench/cmd/smpmerge
# The floor: a Go program that prints a line and exits; and the same
# program importing net, as pflag does, which a default (cgo) build links
# dynamically: the floor of ply's default build.
mkdir "$work/hello" "$work/hello-net"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' >"$work/hello/main.go"
printf 'module hello\n\ngo 1.21\n' >"$work/hello/go.mod"
(cd "$work/hello" && go build -o "$work/hello-world" .)
printf 'package main\n\nimport (\n\t"net"\n\t"os"\n)\n\nvar _ = net.ParseIP\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' >"$work/hello-net/main.go"
printf 'module hellonet\n\ngo 1.21\n' >"$work/hello-net/go.mod"
(cd "$work/hello-net" && go build -o "$work/hello-net-world" .)
impls=(ply ply-static)
if [[ $# -ge 1 ]]; then
	mkdir "$work/base"
	git archive "$1" | tar -x -C "$work/base"
	(cd "$work/base" && go build -o "$work/ply-before" ./cmd/ply)
	impls=(ply-before ply ply-static)
fi

in=$work/in
declare -A cmds
for p in "${impls[@]}"; do
	cmds["$p merge"]="$work/$p merge --recorded $in/recorded.json --local $in/local.json --live $in/live.json"
	cmds["$p patch"]="$work/$p patch apply --live $in/live.json --patch $in/patch.json"
done
cmds[smpmerge]="$work/smpmerge $in/recorded.json $in/local.json $in/live.json"
cmds[hello]="$work/hello-world"
cmds[hello-net]="$work/hello-net-world"
names=(smpmerge hello hello-net)
for p in "${impls[@]}"; do names+=("$p merge" "$p patch"); done

# The outputs must agree before anything is timed.
for p in "${impls[@]}"; do
	${cmds["$p merge"]} -o json >"$work/out.json"
	${cmds["$p patch"]} -o json >"$work/out-patch.json"
	cmp -s "$work/out.json" "$work/out-patch.json" || { echo "startup: $p merge and patch apply disagree" >&2; exit 1; }
done

# Rounds read bash's own clock in microseconds ($EPOCHREALTIME, bash 5,
# its decimal separator removed): no process is started to read it, so a
# round times the command alone (date +%s%N around it added two forks,
# about 2 ms, to every cell).

declare -A times
for ((r = 0; r < rounds + 2; r++)); do
	for n in "${names[@]}"; do
		t0=${EPOCHREALTIME/[.,]/}
		${cmds[$n]} >/dev/null
		t1=${EPOCHREALTIME/[.,]/}
		((r < 2)) && continue # warm-up rounds
		times[$n]+="$((10#$t1 - 10#$t0)) "
	done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "linux/$(uname -m), $(nproc) CPUs, $(go version | awk '{print $3}'), $rounds interleaved rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | wall ms (median) | min | max | ÷ strategicpatch program (median of per-round ratios) | init ms (sum of per-package medians) | packages initialised |"
echo "|---|---:|---:|---:|---:|---:|---:|"
read -r -a base <<<"${times[smpmerge]}"
for n in "${names[@]}"; do
	read -r -a ts <<<"${times[$n]}"
	med=$(echo "${times[$n]}" | median)
	min=$(echo "${times[$n]}" | tr ' ' '\n' | grep . | sort -n | head -1)
	max=$(echo "${times[$n]}" | tr ' ' '\n' | grep . | sort -n | tail -1)
	ratio=$(for i in "${!ts[@]}"; do awk -v a="${ts[$i]}" -v b="${base[$i]}" 'BEGIN {printf "%.4f ", a/b}'; done | tr ' ' '\n' | grep . | sort -n |
		awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]}')
	# Package initialisation: the median of each package over 15 runs, summed.
	init=$(for i in $(seq 15); do GODEBUG=inittrace=1 ${cmds[$n]} 2>&1 >/dev/null | grep '^init ' | awk -v r="$i" '{print r, $2, $5}'; done |
		awk '{v[$2] = v[$2] " " $3} END {for (p in v) print p, v[p]}' |
		while read -r p vals; do echo "$vals" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; done |
		awk '{s += $1; n++} END {printf "%.2f %d", s, n}')
	label=$n
	[[ $n == smpmerge ]] && label="strategicpatch program (test/bench/cmd/smpmerge)"
	[[ $n == hello ]] && label="Go hello-world (the floor)"
	[[ $n == hello-net ]] && label="Go hello-world importing net (dynamically linked: the floor of a default build)"
	[[ $n == ply-static* ]] && label="${n/ply-static/ply} (static build, CGO_ENABLED=0)"
	awk -v l="$label" -v med="$med" -v min="$min" -v max="$max" -v r="$ratio" -v i="${init% *}" -v n="${init#* }" \
		'BEGIN {printf "| %s | %.1f | %.1f | %.1f | %s× | %s | %s |\n", l, med / 1000, min / 1000, max / 1000, r, i, n}'
done

echo
for n in "${names[@]}"; do
	[[ $n == smpmerge || $n == hello* || $n == ply-static* || $n == *patch ]] && continue
	echo "GODEBUG=inittrace=1 $n, the ten costliest packages (median of 15 runs, ms):"
	for i in $(seq 15); do GODEBUG=inittrace=1 ${cmds[$n]} 2>&1 >/dev/null | grep '^init ' | awk '{print $2, $5}'; done |
		awk '{v[$1] = v[$1] " " $2} END {for (p in v) print p, v[p]}' |
		while read -r p vals; do echo "$(echo "$vals" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') $p"; done |
		sort -rn | head -10 | sed 's/^/    /'
	echo
done
