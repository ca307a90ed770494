// Command kwchild is the child process measuring kubewire in the CR
// informer benchmark (cmd/crinformer builds and runs it): kubewire's
// side alone, so that its memory is what a kubewire program's is, with
// no client-go package initialized (they take about 12 MB of RSS).
package main

import (
	"fmt"
	"os"

	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/kwside"
	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/run"
)

func main() {
	if err := run.Main(os.Args[1:], os.Stdin, os.Stdout, kwside.NewSubject); err != nil {
		fmt.Fprintln(os.Stderr, "crinformer kwchild:", err)
		os.Exit(1)
	}
}
