package differential_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/plyproject/ply/test/internal/difftest"
)

func TestScratchGen(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	for _, name := range []string{"widget", "deployment", "pod", "service"} {
		tg, err := difftest.LoadTarget(name)
		if err != nil {
			t.Fatal(err)
		}
		tot := 0
		for i := range 200 {
			c := tg.Generate(difftest.CaseSeed(5, name, true, i), true)
			tot += c.Size()
			if i < 3 {
				fmt.Printf("%s %s\n R %s\n L %s\n V %s\n", name, c.ID(), c.Recorded.JSON(), c.Local.JSON(), c.Live.JSON())
			}
		}
		fmt.Println(name, "avg size", tot/200)
	}
}
