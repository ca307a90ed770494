//go:build !unix

package smallfile

// openNoWait is nothing where FIFOs are not files.
const openNoWait = 0
