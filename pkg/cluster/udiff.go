package cluster

import (
	"strconv"
	"strings"
)

// diffContext is the number of unchanged lines shown around changes, as
// diff -u shows.
const diffContext = 3

// maxEditDistance bounds the search of the shortest edit script: past it,
// the differing middle is shown as removed and added whole (a correct,
// longer diff), keeping the work O(n + maxEditDistance^2).
const maxEditDistance = 2000

// lineOp is one line of an edit script: ' ' kept, '-' removed, '+' added.
type lineOp struct {
	kind byte
	line string
}

// unifiedDiff renders the unified diff (diff -u format, 3 lines of
// context) turning text a into text b, with the file names aName and
// bName; it is empty when the texts are equal. A text not ending in a
// newline is marked as diff marks it.
func unifiedDiff(aName, bName, a, b string) string {
	if a == b {
		return ""
	}
	al, bl := splitLines(a), splitLines(b)
	ops := editScript(al, bl)
	var sb strings.Builder
	sb.WriteString("--- ")
	sb.WriteString(aName)
	sb.WriteString("\n+++ ")
	sb.WriteString(bName)
	sb.WriteByte('\n')
	// Positions of each op in a and b (1-based line numbers of the next line).
	for i := 0; i < len(ops); {
		// Find the next change.
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-diffContext, 0)
		// Extend the hunk while changes are at most 2*context apart.
		end := i
		for {
			for end < len(ops) && ops[end].kind != ' ' {
				end++
			}
			next := end
			for next < len(ops) && ops[next].kind == ' ' {
				next++
			}
			if next == len(ops) || next-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = next
		}
		writeHunk(&sb, ops, start, end)
		i = end
	}
	return sb.String()
}

// writeHunk writes the hunk of ops[start:end].
func writeHunk(sb *strings.Builder, ops []lineOp, start, end int) {
	aLine, bLine := 1, 1
	for _, op := range ops[:start] {
		if op.kind != '+' {
			aLine++
		}
		if op.kind != '-' {
			bLine++
		}
	}
	aCount, bCount := 0, 0
	for _, op := range ops[start:end] {
		if op.kind != '+' {
			aCount++
		}
		if op.kind != '-' {
			bCount++
		}
	}
	sb.WriteString("@@ -")
	writeRange(sb, aLine, aCount)
	sb.WriteString(" +")
	writeRange(sb, bLine, bCount)
	sb.WriteString(" @@\n")
	for _, op := range ops[start:end] {
		sb.WriteByte(op.kind)
		if strings.HasSuffix(op.line, "\n") {
			sb.WriteString(op.line)
		} else {
			sb.WriteString(op.line)
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// writeRange writes a hunk range as diff -u does: "start,count", "start"
// for one line, and the line before for an empty range.
func writeRange(sb *strings.Builder, start, count int) {
	switch count {
	case 0:
		sb.WriteString(strconv.Itoa(start - 1))
		sb.WriteString(",0")
	case 1:
		sb.WriteString(strconv.Itoa(start))
	default:
		sb.WriteString(strconv.Itoa(start))
		sb.WriteByte(',')
		sb.WriteString(strconv.Itoa(count))
	}
}

// splitLines splits s into lines, each keeping its newline (the last may
// lack it).
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// editScript returns a shortest edit script turning a into b (Myers'
// O(ND) algorithm on the part between the common prefix and suffix),
// removals before additions within a change.
func editScript(a, b []string) []lineOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]lineOp, 0, len(a)+len(b))
	for _, l := range a[:pre] {
		ops = append(ops, lineOp{' ', l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, lineOp{' ', l})
	}
	return ops
}

// myers computes the edit script of a and b, falling back to removing all
// of a and adding all of b past maxEditDistance.
func myers(a, b []string) []lineOp {
	if len(a) == 0 || len(b) == 0 {
		return replaceWhole(a, b)
	}
	trace := myersTrace(a, b, min(len(a)+len(b), maxEditDistance))
	if trace == nil {
		return replaceWhole(a, b)
	}
	return reorderChanges(myersBacktrack(a, b, trace))
}

// replaceWhole is the edit script that removes every line of a, then adds
// every line of b.
func replaceWhole(a, b []string) []lineOp {
	ops := make([]lineOp, 0, len(a)+len(b))
	for _, l := range a {
		ops = append(ops, lineOp{'-', l})
	}
	for _, l := range b {
		ops = append(ops, lineOp{'+', l})
	}
	return ops
}

// myersTrace runs the forward search of Myers' algorithm for at most maxD
// edits: trace[d][k+d], for each diagonal k = x-y in -d..d, is the
// furthest x reached with d edits. The last step stops at the diagonal
// that reaches (len(a), len(b)), so len(trace)-1 is the edit distance;
// the trace is nil when that takes more than maxD edits.
func myersTrace(a, b []string, maxD int) [][]int {
	n, m := len(a), len(b)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := false
	for d := 0; d <= maxD && !found; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
		snap := make([]int, 2*d+1)
		copy(snap, v[off-d:off+d+1])
		trace = append(trace, snap)
	}
	if !found {
		return nil
	}
	return trace
}

// myersBacktrack walks trace (myersTrace's) back from (len(a), len(b)) to
// (0, 0) and returns the edit script it describes, in order: kept lines
// along diagonals, and one removal or addition for each edit.
func myersBacktrack(a, b []string, trace [][]int) []lineOp {
	rev := make([]lineOp, 0, len(a)+len(b))
	x, y := len(a), len(b)
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1]
		get := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || (k != d && get(k-1) < get(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := get(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, lineOp{' ', a[x]})
		}
		if pk == k+1 {
			y--
			rev = append(rev, lineOp{'+', b[y]})
		} else {
			x--
			rev = append(rev, lineOp{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, lineOp{' ', a[x]})
	}
	ops := make([]lineOp, len(rev))
	for i := range rev {
		ops[i] = rev[len(rev)-1-i]
	}
	return ops
}

// reorderChanges puts the removals of each run of changes before its
// additions, as diff -u shows them.
func reorderChanges(ops []lineOp) []lineOp {
	out := make([]lineOp, 0, len(ops))
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			out = append(out, ops[i])
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != ' ' {
			j++
		}
		for _, op := range ops[i:j] {
			if op.kind == '-' {
				out = append(out, op)
			}
		}
		for _, op := range ops[i:j] {
			if op.kind == '+' {
				out = append(out, op)
			}
		}
		i = j
	}
	return out
}
