//go:build race

package harness

// raceBuild: tests run with -race build the programs they measure with -race
// too, so that they reuse what `go test -race` already compiled.
const raceBuild = true
