package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "kubewire-gen:", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "rbac" {
		return runRBAC(args[1:], stderr)
	}
	fs := flag.NewFlagSet("kubewire-gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.crdDir, "crd-dir", "", "folder for the CustomResourceDefinition YAML files (default: config/crd in the module root of the first package)")
	fs.BoolVar(&o.applyConfig, "applyconfig", true, "write apply configurations into an applyconfig package under each package")
	fs.StringVar(&o.headerFile, "header-file", "", "file whose text (a license comment) starts every generated Go file")
	fs.BoolVar(&o.allowFloats, "allow-floats", false, "accept float fields without +kubebuilder:validation:Type=number")
	fs.StringVar(&o.webhookDir, "webhook-dir", "", "folder for the webhook configurations, manifests.yaml (default: config/webhook in the module root of the first package)")
	fs.StringVar(&o.webhookService, "webhook-service", "system/webhook-service", "namespace/name of the Service kube-apiserver calls webhooks and conversions through")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: kubewire-gen [flags] packages...\n       kubewire-gen rbac [flags] packages...")
		fmt.Fprintln(stderr, "\nGenerates kind info, deep copies, list types, apply configurations and CustomResourceDefinitions\nfor the API types of the packages (see go doc github.com/kubewire/kubewire/cmd/kubewire-gen).")
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.patterns = fs.Args()
	if len(o.patterns) == 0 {
		fs.Usage()
		return fmt.Errorf("no packages given")
	}
	if o.headerFile != "" {
		b, err := os.ReadFile(o.headerFile)
		if err != nil {
			return err
		}
		o.header = string(b)
	}
	out, err := generate(o)
	if err != nil {
		return err
	}
	return out.write()
}
