package openapi

import (
	"crypto/sha256"
	"sync"
)

// maxCached bounds the documents LoadV2 remembers; the oldest is forgotten
// first.
const maxCached = 16

type cacheKey struct {
	name string
	sum  [sha256.Size]byte
}

// cacheEntry holds one document's result; once makes concurrent loads of
// the same document parse it once.
type cacheEntry struct {
	once   sync.Once
	schema *Schema
	err    error
}

var cache struct {
	sync.Mutex
	entries map[cacheKey]*cacheEntry
	order   []cacheKey // insertion order, for eviction
}

// loadCached returns the result of loadV2(name, data), computing it once
// per (name, content).
func loadCached(name string, data []byte) (*Schema, error) {
	key := cacheKey{name: name, sum: sha256.Sum256(data)}
	cache.Lock()
	e, ok := cache.entries[key]
	if !ok {
		if cache.entries == nil {
			cache.entries = make(map[cacheKey]*cacheEntry)
		}
		if len(cache.order) >= maxCached {
			delete(cache.entries, cache.order[0])
			cache.order = append(cache.order[:0], cache.order[1:]...)
		}
		e = &cacheEntry{}
		cache.entries[key] = e
		cache.order = append(cache.order, key)
	}
	cache.Unlock()
	e.once.Do(func() { e.schema, e.err = loadV2(name, data) })
	return e.schema, e.err
}
