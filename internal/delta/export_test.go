package delta

// Exported for the external tests.
var (
	CombineThreeWay = combineThreeWay
	KeyOfItem       = keyOfItem
)
