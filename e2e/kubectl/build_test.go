package kubectl

import (
	"regexp"
	"testing"
)

func TestSourcesSumNamesTheEmbeddedFiles(t *testing.T) {
	a, err := sourcesSum()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := sourcesSum()
	if a != b || !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(a) {
		t.Errorf("sourcesSum = %q then %q, want one 12-digit hex string", a, b)
	}
}

func TestKubectlVersion(t *testing.T) {
	tests := []struct {
		name, gomod, want string
		wantErr           bool
	}{
		{"require block", "module m\n\nrequire (\n\tk8s.io/kubectl v0.36.3\n)\n", "v1.36.3", false},
		{"single require", "module m\nrequire k8s.io/kubectl v0.35.1\n", "", true}, // only the block form is read
		{"missing", "module m\n", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := kubectlVersion([]byte(tt.gomod))
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("kubectlVersion = %q, %v; want %q (error %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
