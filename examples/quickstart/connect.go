package main

import (
	"context"
	"fmt"
	"os"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// connect returns the client configuration to use, a function that makes
// changes while the example watches (nothing on a real cluster), and a
// cleanup.
func connect(kubeconfigPath, namespace string, objects int) (client.Config, func(context.Context), func(), error) {
	if kubeconfigPath != "" || os.Getenv("KUBECONFIG") != "" {
		var paths []string // nil: the KUBECONFIG list, merged as kubectl does
		if kubeconfigPath != "" {
			paths = []string{kubeconfigPath}
		}
		cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: paths})
		return cfg, func(context.Context) {}, func() {}, err
	}
	s, cfg := fakeclient.Start(fake.Options{Namespaces: []string{"default", namespace}})
	seed := make([]any, objects)
	for i := range seed {
		seed[i] = configMap(namespace, i, "v1")
	}
	if err := s.Add(seed...); err != nil {
		s.Close()
		return client.Config{}, nil, nil, err
	}
	churn := func(ctx context.Context) {
		c, err := client.New(cfg)
		if err != nil {
			return
		}
		cms := client.For[*corev1.ConfigMap](c).Namespace(namespace)
		for i := 0; ctx.Err() == nil; i++ {
			cm := configMap(namespace, objects+i, "new")
			_, _ = cms.Create(ctx, cm, client.CreateOptions{})
			_ = cms.Delete(ctx, fmt.Sprintf("config-%05d", i), client.DeleteOptions{})
			time.Sleep(50 * time.Millisecond)
		}
	}
	return cfg, churn, s.Close, nil
}

func configMap(namespace string, i int, value string) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{Data: map[string]string{"value": value}}
	cm.Name = fmt.Sprintf("config-%05d", i)
	cm.Namespace = namespace
	cm.Labels = map[string]string{"app": fmt.Sprintf("app-%d", i%10)}
	return cm
}
