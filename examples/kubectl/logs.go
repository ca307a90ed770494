package main

import (
	"context"
	"errors"
	"flag"
	"io"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
)

// logs copies a container's log to the output, as kubectl logs does:
// -c picks the container, -f follows it until interrupted, -tail keeps
// its last lines.
func logs(ctx context.Context, k *cli, args []string) error {
	fs := flag.NewFlagSet("logs", flag.ContinueOnError)
	namespace := k.namespaceFlag(fs)
	container := fs.String("c", "", "container (needed when the Pod has several)")
	follow := fs.Bool("f", false, "follow the log as it is written")
	tail := fs.Int64("tail", -1, "only the last lines (-1: all)")
	timestamps := fs.Bool("timestamps", false, "prefix each line with its time")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("logs: POD is needed")
	}
	opts := client.LogOptions{Container: *container, Follow: *follow, Timestamps: *timestamps}
	if *tail >= 0 {
		opts.TailLines = tail
	}
	ns := namespace()
	if ns == "" {
		ns = k.c.Namespace()
	}
	r, err := client.For[*corev1.Pod](k.c).Namespace(ns).Logs(ctx, pos[0], opts)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(k.out, r)
	if *follow && ctx.Err() != nil {
		return nil // interrupted, as kubectl logs -f is left
	}
	return err
}
