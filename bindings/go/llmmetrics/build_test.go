package llmmetrics

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The test binary must run against the library of the build tree meson made, not an
// installed copy: the version must be the project's and the mapped file must lie under
// the build root.
func TestLoadsBuildTreeLibrary(t *testing.T) {
	if Version() != HeaderVersion {
		t.Errorf("loaded library version %d, headers %d", Version(), HeaderVersion)
	}
	if want := os.Getenv("LLMM_EXPECT_VERSION"); want != "" && VersionString() != want {
		t.Errorf("VersionString() = %q, the project is %q", VersionString(), want)
	}
	root := os.Getenv("LLMM_BUILD_ROOT")
	if root == "" {
		t.Skip("LLMM_BUILD_ROOT not set (not run by meson)")
	}
	root, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps")
	}
	defer f.Close()
	var mapped string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 6 && strings.Contains(filepath.Base(fields[5]), "libllmmetrics.so") {
			mapped = fields[5]
			break
		}
	}
	if mapped == "" {
		t.Fatal("libllmmetrics.so is not mapped into the test process")
	}
	real, err := filepath.EvalSymlinks(mapped)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(real, root+string(filepath.Separator)) {
		t.Fatalf("loaded %s, not the build tree's library under %s", real, root)
	}
}

func TestNowIsMonotonic(t *testing.T) {
	a := Now()
	b := Now()
	if b < a {
		t.Fatalf("Now went backwards: %d then %d", a, b)
	}
}
