// Package strategy is the one dispatch point of Phase 2: the Walker hands
// each Element to the visitor of internal/visitors its merge rule
// (internal/strategy/rule) selects. In patch mode (Options.Patch, used by
// pkg/patch) a map's $retainKeys directive, not its schema strategy,
// selects RetainKeys. Adding a strategy means adding a visitor and a rule.
package strategy
