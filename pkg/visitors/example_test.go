package visitors_test

import (
	"fmt"

	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

// Decide is the presence rule every visitor shares for values decided whole: local's value when local sets it; absent
// when local nulls it or dropped it since the last apply; else live's, another writer's.
func ExampleDecide() {
	for _, vals := range []elements.Values{
		{Local: value.Int(3), HasLocal: true, Live: value.Int(7), HasLive: true},
		{Recorded: value.Int(3), HasRecorded: true, Live: value.Int(7), HasLive: true},
		{Live: value.Int(7), HasLive: true},
	} {
		out := visitors.Decide(&elements.Node{Values: vals})
		fmt.Println(out.Present, out.Value.Short())
	}
	// Output:
	// true 3
	// false null
	// true 7
}
