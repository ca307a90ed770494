//go:build race

package fake

// raceEnabled is set when the tests run under the race detector, which
// makes deep bodies slow enough to scale them down.
const raceEnabled = true
