//go:build unix

package smallfile

import "syscall"

// openNoWait opens a FIFO without waiting for a writer.
const openNoWait = syscall.O_NONBLOCK
