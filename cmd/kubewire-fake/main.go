package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(mainCode()) }

// mainCode runs the command with the process's arguments and returns its
// exit code (tests re-executing the test binary as the command call it).
func mainCode() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		fmt.Fprintln(os.Stderr, "kubewire-fake:", err)
		return 1
	}
	return 0
}

// run runs the command until ctx ends: it serves in the foreground, or
// with --print-env starts a background server and returns once it is
// ready. Everything a user reads goes to stdout; logs go to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if o.printEnv && os.Getenv(envBackground) == "" {
		return startBackground(ctx, args, stdout)
	}
	return serve(ctx, o, stdout, stderr)
}
