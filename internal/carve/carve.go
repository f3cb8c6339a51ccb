// Package carve hands out slices of reused chunks of memory: a walk that builds many small slices (a patch's or a
// merge's maps and lists) carves them from a few chunks instead of allocating each, and resets the chunks for the
// next walk once nothing refers to what it carved.
//
// Invariants: a slice Carve returns has the length and capacity asked, shares memory with no other slice carved since
// the last Reset, and is zero when handed out; Reset clears everything carved since the last Reset, so that the chunks
// refer to no value of an earlier walk; Chunks are not safe for concurrent use.
package carve

// ChunkSize bounds a chunk, in elements: a request of more than half of it gets memory of its own. ChunksKept bounds
// the chunks Reset keeps.
const (
	ChunkSize  = 4096
	ChunksKept = 16
)

// Chunks hands out slices of its chunks in turn; the zero Chunks is ready to use. Invariant: list[:used] hold what was
// handed out since the last reset, the last of them maybe partly; the others are empty, and every chunk is zero beyond
// its length.
type Chunks[T any] struct {
	list [][]T
	used int
}

// Carve returns n elements, with capacity n: from the chunk in use, else the next one (made, or made larger, if it has
// not room), or memory of their own when n is more than half of ChunkSize. A nil c gives memory of their own.
func (c *Chunks[T]) Carve(n int) []T {
	if c == nil || n > ChunkSize/2 {
		return make([]T, n)
	}
	if c.used == 0 || cap(c.list[c.used-1])-len(c.list[c.used-1]) < n {
		c.next(n)
	}
	chunk := &c.list[c.used-1]
	at := len(*chunk)
	*chunk = (*chunk)[:at+n]
	return (*chunk)[at : at+n : at+n]
}

// next makes the chunk after the one in use the one in use, made (or made larger) to hold at least n elements: twice
// the size of the one before, up to ChunkSize, 8 for the first.
func (c *Chunks[T]) next(n int) {
	if c.used == len(c.list) || cap(c.list[c.used]) < n {
		size := 8
		if c.used > 0 {
			size = min(2*cap(c.list[c.used-1]), ChunkSize)
		}
		chunk := make([]T, 0, max(n, size))
		if c.used == len(c.list) {
			c.list = append(c.list, chunk)
		} else {
			c.list[c.used] = chunk
		}
	}
	c.used++
}

// Reset clears what c handed out and makes its chunks available again, keeping at most ChunksKept.
func (c *Chunks[T]) Reset() {
	for i, chunk := range c.list[:c.used] {
		clear(chunk)
		c.list[i] = chunk[:0]
	}
	kept := min(len(c.list), ChunksKept)
	clear(c.list[kept:])
	c.list, c.used = c.list[:kept], 0
}
