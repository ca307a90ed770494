//go:build race

package reflector_test

const raceEnabled = true
