// Package gofile builds one generated Go source file: the "Code
// generated ... DO NOT EDIT." header, the package clause, imports with
// aliases chosen deterministically, and a body, formatted with gofmt.
//
// A File is not safe for concurrent use. Its zero value is not usable;
// call New.
package gofile
