// Package deep has a type shared by two fields at each of 40 levels:
// its structural schema would hold 2^40 copies of the deepest type.
// (Pointers keep the Go types small.)
package deep

type L0 struct {
	A *L1 `json:"a"`
	B *L1 `json:"b"`
}

type L1 struct {
	A *L2 `json:"a"`
	B *L2 `json:"b"`
}

type L2 struct {
	A *L3 `json:"a"`
	B *L3 `json:"b"`
}

type L3 struct {
	A *L4 `json:"a"`
	B *L4 `json:"b"`
}

type L4 struct {
	A *L5 `json:"a"`
	B *L5 `json:"b"`
}

type L5 struct {
	A *L6 `json:"a"`
	B *L6 `json:"b"`
}

type L6 struct {
	A *L7 `json:"a"`
	B *L7 `json:"b"`
}

type L7 struct {
	A *L8 `json:"a"`
	B *L8 `json:"b"`
}

type L8 struct {
	A *L9 `json:"a"`
	B *L9 `json:"b"`
}

type L9 struct {
	A *L10 `json:"a"`
	B *L10 `json:"b"`
}

type L10 struct {
	A *L11 `json:"a"`
	B *L11 `json:"b"`
}

type L11 struct {
	A *L12 `json:"a"`
	B *L12 `json:"b"`
}

type L12 struct {
	A *L13 `json:"a"`
	B *L13 `json:"b"`
}

type L13 struct {
	A *L14 `json:"a"`
	B *L14 `json:"b"`
}

type L14 struct {
	A *L15 `json:"a"`
	B *L15 `json:"b"`
}

type L15 struct {
	A *L16 `json:"a"`
	B *L16 `json:"b"`
}

type L16 struct {
	A *L17 `json:"a"`
	B *L17 `json:"b"`
}

type L17 struct {
	A *L18 `json:"a"`
	B *L18 `json:"b"`
}

type L18 struct {
	A *L19 `json:"a"`
	B *L19 `json:"b"`
}

type L19 struct {
	A *L20 `json:"a"`
	B *L20 `json:"b"`
}

type L20 struct {
	A *L21 `json:"a"`
	B *L21 `json:"b"`
}

type L21 struct {
	A *L22 `json:"a"`
	B *L22 `json:"b"`
}

type L22 struct {
	A *L23 `json:"a"`
	B *L23 `json:"b"`
}

type L23 struct {
	A *L24 `json:"a"`
	B *L24 `json:"b"`
}

type L24 struct {
	A *L25 `json:"a"`
	B *L25 `json:"b"`
}

type L25 struct {
	A *L26 `json:"a"`
	B *L26 `json:"b"`
}

type L26 struct {
	A *L27 `json:"a"`
	B *L27 `json:"b"`
}

type L27 struct {
	A *L28 `json:"a"`
	B *L28 `json:"b"`
}

type L28 struct {
	A *L29 `json:"a"`
	B *L29 `json:"b"`
}

type L29 struct {
	A *L30 `json:"a"`
	B *L30 `json:"b"`
}

type L30 struct {
	A *L31 `json:"a"`
	B *L31 `json:"b"`
}

type L31 struct {
	A *L32 `json:"a"`
	B *L32 `json:"b"`
}

type L32 struct {
	A *L33 `json:"a"`
	B *L33 `json:"b"`
}

type L33 struct {
	A *L34 `json:"a"`
	B *L34 `json:"b"`
}

type L34 struct {
	A *L35 `json:"a"`
	B *L35 `json:"b"`
}

type L35 struct {
	A *L36 `json:"a"`
	B *L36 `json:"b"`
}

type L36 struct {
	A *L37 `json:"a"`
	B *L37 `json:"b"`
}

type L37 struct {
	A *L38 `json:"a"`
	B *L38 `json:"b"`
}

type L38 struct {
	A *L39 `json:"a"`
	B *L39 `json:"b"`
}

type L39 struct {
	A *L40 `json:"a"`
	B *L40 `json:"b"`
}

type L40 struct {
	X string `json:"x"`
}
