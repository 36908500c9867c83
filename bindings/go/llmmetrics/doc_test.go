package llmmetrics

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Every exported name of the package has a doc comment: functions, methods and types their
// own; constants and variables their own or a line comment, or the comment of their group.
func TestEveryExportedNameIsDocumented(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if file.Doc == nil && f == "llmmetrics.go" {
			t.Errorf("%s: no package documentation", f)
		}
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && d.Doc == nil && exportedReceiver(d) {
					t.Errorf("%s: func %s has no doc comment", fset.Position(d.Pos()), d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() && s.Doc == nil && d.Doc == nil {
							t.Errorf("%s: type %s has no doc comment", fset.Position(s.Pos()), s.Name.Name)
						}
						if st, ok := s.Type.(*ast.StructType); ok && s.Name.IsExported() {
							for _, field := range st.Fields.List {
								for _, n := range field.Names {
									if n.IsExported() && field.Doc == nil && field.Comment == nil {
										t.Errorf("%s: field %s.%s has no comment", fset.Position(n.Pos()), s.Name.Name, n.Name)
									}
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
								t.Errorf("%s: %s has no doc comment", fset.Position(n.Pos()), n.Name)
							}
						}
					}
				}
			}
		}
	}
}

// exportedReceiver reports whether a method's receiver type is exported (plain functions
// count as exported).
func exportedReceiver(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return true
	}
	typ := d.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	id, ok := typ.(*ast.Ident)
	return !ok || id.IsExported()
}

// Every type with a constructor (NewT, or NewTSomething, returning *T) has a runnable
// example named ExampleT, so that `go doc` and pkg.go.dev show how to use each main type.
func TestEveryConstructedTypeHasAnExample(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	constructed := map[string]bool{}
	examples := map[string]bool{}
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok || d.Recv != nil {
				continue
			}
			name := d.Name.Name
			if strings.HasPrefix(name, "Example") && strings.HasSuffix(f, "_test.go") {
				examples[strings.SplitN(strings.TrimPrefix(name, "Example"), "_", 2)[0]] = true
			}
			if !strings.HasPrefix(name, "New") || strings.HasSuffix(f, "_test.go") ||
				d.Type.Results == nil || len(d.Type.Results.List) == 0 {
				continue
			}
			if star, ok := d.Type.Results.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok && strings.HasPrefix(name, "New"+id.Name) {
					constructed[id.Name] = true
				}
			}
		}
	}
	if len(constructed) < 15 {
		t.Fatalf("found only %d constructed types: %v", len(constructed), constructed)
	}
	for typ := range constructed {
		if !examples[typ] {
			t.Errorf("type %s has a constructor but no Example%s", typ, typ)
		}
	}
}
