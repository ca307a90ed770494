package main

import (
	"context"
	"errors"
	"io"

	"github.com/kubewire/kubewire/bench/internal/etcdsettle"
)

// settle compacts etcd after the fill, as a cluster that has run for
// minutes is (see package etcdsettle).
func (s *server) settle(ctx context.Context, log io.Writer) error {
	if s.cluster == nil || s.cluster.info.EtcdURL == "" {
		return errors.New("-settle needs -server kube-apiserver")
	}
	return etcdsettle.Settle(ctx, s.local, s.cluster.info.EtcdURL, "crinformer", log)
}
