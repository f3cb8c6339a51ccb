package differential_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
)

func TestScratchOracle(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	enc := func(v value.Value) []byte {
		if v.IsNull() {
			return nil
		}
		return v.JSON()
	}
	for _, name := range []string{"widget", "deployment", "pod", "service"} {
		tg, _ := difftest.LoadTarget(name)
		errs, conflicts, noop := 0, 0, 0
		for i := range 5000 {
			ow := i%4 != 0
			c := tg.Generate(difftest.CaseSeed(11, name, ow, i), ow)
			r, err := tg.Oracle.Apply(enc(c.Recorded), enc(c.Local), enc(c.Live), ow)
			if err != nil {
				errs++
				if errs < 4 {
					fmt.Println(name, c.ID(), err)
					fmt.Printf(" R %s\n L %s\n V %s\n", c.Recorded.JSON(), c.Local.JSON(), c.Live.JSON())
				}
			}
			if r.Conflict {
				conflicts++
			}
			if string(r.Object) == string(enc(c.Live)) {
				noop++
			}
		}
		fmt.Println(name, "oracle errors", errs, "conflicts", conflicts, "of", 5000/4, "patch-noop-ish", noop)
	}
}
