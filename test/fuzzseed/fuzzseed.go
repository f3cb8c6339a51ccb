package fuzzseed

import (
	"os"
	"path/filepath"
	"testing"
)

// Files adds the content of every regular file matching the glob patterns
// to f's seed corpus, pattern by pattern in the sorted order filepath.Glob
// gives; folders are passed over. A pattern that matches no file (or
// folders only), or a file that cannot be read, fails f:
// a fixture folder that moved must not leave a target seedless unnoticed.
func Files(f *testing.F, patterns ...string) {
	f.Helper()
	for _, pat := range patterns {
		files, err := filepath.Glob(pat)
		if err != nil {
			f.Fatalf("seed pattern %s: %v", pat, err)
		}
		added := 0
		for _, file := range files {
			if fi, err := os.Stat(file); err == nil && fi.IsDir() {
				continue
			}
			added++
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatalf("seed %s: %v", file, err)
			}
			f.Add(data)
		}
		if added == 0 {
			f.Fatalf("seed pattern %s matches folders only", pat)
		}
	}
}
