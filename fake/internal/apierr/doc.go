// Package apierr builds the failures the fake answers with a Status
// body, with kube-apiserver's codes, reasons, messages and details: not
// found, already exists, conflicts, invalid objects and options (one
// Cause per field), bad requests, 404s of unknown paths and the faults
// a test injects. Every constructor returns a new *Error the caller
// owns.
package apierr
