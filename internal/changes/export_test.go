package changes

// Segments counts the pieces a detached change's path is rebuilt from (0
// before Detach).
func Segments(c Change) int {
	n := 0
	for s := c.path; s != nil; s = s.up {
		n++
	}
	return n
}
