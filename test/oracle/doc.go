// Package oracle runs kubectl's client-side apply algorithm — strategic
// merge patch from k8s.io/apimachinery — as the reference the differential
// tests and benchmarks compare ply with.
//
// An Oracle computes exactly what kubectl apply sends and what the server
// then stores: patch := CreateThreeWayMergePatch(recorded, local, live),
// result := StrategicMergePatchUsingLookupPatchMeta(live, patch), with merge
// metadata looked up in the same OpenAPI v2 document ply loads (Load,
// Default), or, as kubectl does with a server that publishes OpenAPI v3,
// in the same v3 documents (LoadV3, DefaultV3). A missing
// recorded configuration (first apply) is passed as nil, as kubectl does
// when the last-applied annotation is absent.
//
// This package is test tooling: it is the only place in the module that
// imports strategicpatch, and no engine package may import it.
package oracle
