package collate

// slab hands out the nodes of one kind for a tree, from chunks of at most slabChunk nodes, and keeps its chunks
// across trees (collator.release): a pooled collator building trees of n nodes allocates no node memory once its
// chunks hold n. Invariant: chunks[:used] hold the nodes handed out since the last reset, the last of them maybe
// partly; the others are empty, and every chunk is zero beyond its length.
type slab[T any] struct {
	chunks [][]T
	used   int
}

// slabChunk bounds a chunk, in nodes; slabChunksKept bounds the chunks reset keeps (the nodes of the larger trees
// a pooled collator built stay allocated only that far).
const (
	slabChunk      = 512
	slabChunksKept = 64
)

// alloc returns a new zero T from s.
func alloc[T any](s *slab[T]) *T {
	if s.used == 0 || len(s.chunks[s.used-1]) == cap(s.chunks[s.used-1]) {
		if s.used == len(s.chunks) {
			size := 4
			if s.used > 0 {
				size = min(2*cap(s.chunks[s.used-1]), slabChunk)
			}
			s.chunks = append(s.chunks, make([]T, 0, size))
		}
		s.used++
	}
	chunk := &s.chunks[s.used-1]
	*chunk = (*chunk)[:len(*chunk)+1]
	return &(*chunk)[len(*chunk)-1]
}

// reset clears the nodes handed out (so that no tree's input stays referenced) and makes the chunks available again,
// keeping at most slabChunksKept.
func (s *slab[T]) reset() {
	for i, chunk := range s.chunks[:s.used] {
		clear(chunk)
		s.chunks[i] = chunk[:0]
	}
	clear(s.chunks[min(len(s.chunks), slabChunksKept):])
	s.chunks = s.chunks[:min(len(s.chunks), slabChunksKept)]
	s.used = 0
}
