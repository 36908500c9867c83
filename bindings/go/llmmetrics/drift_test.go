package llmmetrics

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The drift test: every function the public headers export (LLMM_API) is called from the
// package source (C.llmm_x), or listed with a reason in drift_allow.txt. It fails when a
// module adds calls the binding does not wrap yet, and when the allow-list goes stale.

var (
	apiDecl = regexp.MustCompile(`LLMM_API\s[^;{]*?\b(llmm_[A-Za-z0-9_]+)\s*\(`)
	cCall   = regexp.MustCompile(`\bC\.(llmm_[A-Za-z0-9_]+)\s*\(`)
)

func headerFunctions(t *testing.T) map[string]string {
	t.Helper()
	headers, err := filepath.Glob(filepath.Join(sourceRoot(t), "include", "llmmetrics", "*.h"))
	if err != nil || len(headers) == 0 {
		t.Fatalf("no public headers found (%v)", err)
	}
	funcs := map[string]string{}
	for _, h := range headers {
		data, err := os.ReadFile(h)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		// The macro's own definition is not a declaration.
		text = strings.ReplaceAll(text, "#define LLMM_API", "#define LLMM_API_")
		for _, m := range apiDecl.FindAllStringSubmatch(text, -1) {
			funcs[m[1]] = filepath.Base(h)
		}
	}
	if len(funcs) == 0 {
		t.Fatal("no LLMM_API declarations found")
	}
	return funcs
}

func boundFunctions(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	bound := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cCall.FindAllStringSubmatch(string(data), -1) {
			bound[m[1]] = true
		}
	}
	return bound
}

// allowList reads drift_allow.txt: "function  reason" per line, # comments.
func allowList(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("drift_allow.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	allow := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) < 2 {
			t.Errorf("drift_allow.txt:%d: %q has no reason", line, text)
			continue
		}
		allow[fields[0]] = strings.Join(fields[1:], " ")
	}
	return allow
}

func TestDriftEveryAPIFunctionIsBound(t *testing.T) {
	funcs := headerFunctions(t)
	bound := boundFunctions(t)
	allow := allowList(t)
	var missing []string
	for name, header := range funcs {
		if !bound[name] && allow[name] == "" {
			missing = append(missing, header+": "+name)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("not bound in Go and not in drift_allow.txt: %s", m)
	}
	for name := range allow {
		if _, ok := funcs[name]; !ok {
			t.Errorf("drift_allow.txt lists %s, which no header declares", name)
		} else if bound[name] {
			t.Errorf("drift_allow.txt lists %s, which the package calls", name)
		}
	}
	t.Logf("%d API functions, %d bound, %d allow-listed", len(funcs), len(funcs)-len(allow), len(allow))
}
