// Package quantity holds Quantity, the fixed-point number with a unit suffix
// ("100m", "128Mi", "1e3") used for resource requests, limits, capacities
// and quotas. It mirrors k8s.io/apimachinery/pkg/api/resource as of
// Kubernetes v1.36: the same parsing rules and errors, the same strings
// (canonical ones, and the few spellings upstream keeps as parsed, such as
// "1.500"), the same formats, arithmetic, JSON and protobuf encodings.
//
// What differs, and why:
//
//   - A Quantity is 16 bytes and holds only its string (upstream's is 56);
//     values are parsed from it when read. ResourceList maps in large
//     caches are the reason.
//   - The format is read with GetFormat and changed with SetFormat instead
//     of through an exported Format field, which would add 16 bytes. An
//     unknown format is stored as DecimalExponent, the way upstream prints
//     it.
//   - Read-only methods have value receivers, so list["cpu"].MilliValue()
//     works on map values.
//   - There is no inf.Dec form: AsDec, ToDec, AsScale, RoundUp and Mul are
//     missing. AsInt64 answers true for every whole number that fits.
//   - Value, MilliValue and ScaledValue always round away from zero and
//     saturate at the int64 limits; v1.36 returns wrong values for some
//     negative and some overflowing quantities.
//   - Values with no suffix for their exponent (DecimalSI past E or below n,
//     BinarySI past Ei) are written in exponent notation, as later upstream
//     releases do; v1.36 drops the suffix and so changes the value.
//   - Exponents beyond ±(2^31-1) and values of 10^2147483648 or more are
//     rejected, and Add and Sub drop an operand more than 100,000 decimal
//     places smaller than the other, so that no input makes an operation
//     run unbounded (upstream can hang on such input).
package quantity
