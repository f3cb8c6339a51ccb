package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScratch(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		v, err := Documents(data)
		var out []string
		for _, d := range v {
			out = append(out, string(d.JSON()))
		}
		fmt.Printf("%s\n   [%s]\n   err=%v\n", f, strings.Join(out, ","), err)
	}
}
