package cborwire

import "testing"

func TestReadHead(t *testing.T) {
	cases := []struct {
		name           string
		in             []byte
		want           Head
		size           int
		complete       bool
		indef, reserve bool
	}{
		{"empty", nil, Head{}, 1, false, false, false},
		{"small int", []byte{0x17}, Head{0, 23, 23}, 1, true, false, false},
		{"one byte arg", []byte{0x38, 0xff}, Head{1, 24, 0xff}, 2, true, false, false},
		{"two byte arg", []byte{0x59, 0x01, 0x02, 0xaa}, Head{2, 25, 0x0102}, 3, true, false, false},
		{"four byte arg", []byte{0x9a, 0, 1, 0, 0}, Head{4, 26, 1 << 16}, 5, true, false, false},
		{"eight byte arg", []byte{0xbb, 0x80, 0, 0, 0, 0, 0, 0, 1}, Head{5, 27, 1<<63 | 1}, 9, true, false, false},
		{"self-described tag", []byte{0xd9, 0xd9, 0xf7}, Head{6, 25, TagSelfDescribed}, 3, true, false, false},
		{"cut argument", []byte{0x7a, 0, 0}, Head{3, 26, 0}, 5, false, false, false},
		{"indefinite map", []byte{0xbf}, Head{5, 31, 0}, 1, true, true, false},
		{"indefinite text", []byte{0x7f}, Head{3, 31, 0}, 1, true, true, false},
		{"break", []byte{0xff}, Head{7, 31, 0}, 1, true, false, false},
		{"reserved 28", []byte{0x1c}, Head{0, 28, 0}, 1, true, false, true},
		{"reserved 30 on a string", []byte{0x5e}, Head{2, 30, 0}, 1, true, false, true},
		{"indefinite integer", []byte{0x3f}, Head{1, 31, 0}, 1, true, false, true},
		{"indefinite tag", []byte{0xdf}, Head{6, 31, 0}, 1, true, false, true},
	}
	for _, c := range cases {
		h, size, complete := ReadHead(c.in)
		if h != c.want || size != c.size || complete != c.complete {
			t.Errorf("%s: ReadHead(% x) = %+v, %d, %v; want %+v, %d, %v", c.name, c.in, h, size, complete, c.want, c.size, c.complete)
		}
		if h.Indefinite() != c.indef || h.Reserved() != c.reserve {
			t.Errorf("%s: indefinite %v reserved %v; want %v %v", c.name, h.Indefinite(), h.Reserved(), c.indef, c.reserve)
		}
	}
}

// Every complete head agrees with the Decoder's own reading of it.
func TestReadHeadAgreesWithDecoder(t *testing.T) {
	for first := 0; first < 256; first++ {
		in := []byte{byte(first), 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0}
		h, size, complete := ReadHead(in)
		if !complete {
			t.Fatalf("% x: incomplete with 9 bytes", in)
		}
		d := Decoder{buf: in}
		major, arg, indefinite, ok := d.head()
		if ok != !(h.Reserved() || h.Major == 7 && h.Info == 31) {
			t.Errorf("%#x: decoder ok %v, ReadHead reserved %v", first, ok, h.Reserved())
			continue
		}
		if ok && (major != h.Major || arg != h.Arg || indefinite != h.Indefinite() || d.pos != size) {
			t.Errorf("%#x: decoder %d %d %v %d; ReadHead %+v size %d", first, major, arg, indefinite, d.pos, h, size)
		}
	}
}

// AppendHead writes what ReadHead reads, in the fewest bytes.
func TestAppendHeadReadsBack(t *testing.T) {
	for _, arg := range []uint64{0, 23, 24, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, 1<<64 - 1} {
		for major := byte(0); major < 8; major++ {
			b := AppendHead(nil, major, arg)
			h, size, complete := ReadHead(b)
			if !complete || size != len(b) || h.Major != major || h.Arg != arg {
				t.Errorf("AppendHead(%d, %d) = % x, read back as %+v, %d, %v", major, arg, b, h, size, complete)
			}
			if want := map[bool]int{true: 1, false: 0}[arg >= 24] + 1; arg < 256 && len(b) != want {
				t.Errorf("AppendHead(%d, %d) took %d bytes, want %d", major, arg, len(b), want)
			}
		}
	}
}
