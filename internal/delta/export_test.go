package delta

// Exported for the external tests.
var KeyOfItem = keyOfItem
