// Package table renders objects as kube-apiserver's meta.k8s.io Tables
// (what kubectl get shows): for built-in kinds the column definitions
// recorded from kube-apiserver v1.36.3 and the cells of its printers,
// for custom resources their definitions' printer columns, and Name and
// Age for kinds without a printer here. A Printer keeps no state of its
// own and is safe for concurrent use.
package table
