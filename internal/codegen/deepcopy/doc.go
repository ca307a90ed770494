// Package deepcopy writes DeepCopyInto and DeepCopy methods for named Go
// types, from their go/types description: after out := in.DeepCopy(),
// in and out share no memory, so a copy of a cached object may be
// changed freely.
//
// Fields are copied by what their type is:
//   - values without references (numbers, strings, bools, structs of
//     them, time.Time): by assignment;
//   - pointers, slices, maps: new memory, elements copied deeply
//     (nil stays nil, empty stays empty);
//   - named types with their own DeepCopyInto (types of this package,
//     kubewire's api types, resource.Quantity...): through it;
//   - interfaces (any): with runtime.DeepCopyJSONValue, for values
//     decoded from JSON.
//
// A type holding a channel or a function, or a struct from another
// package that holds references but has no DeepCopyInto, is an error
// naming the field.
package deepcopy
