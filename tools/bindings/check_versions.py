#!/usr/bin/env python3
"""The bindings carry the meson project version and write it nowhere else by hand. TAP.

The one place a version is written is meson.build's project(). The checks:

- Rust: the `version` of both crates and the version the safe crate requires of
  llmmetrics-sys are the meson version (Cargo needs them written in Cargo.toml);
- Python: pyproject.toml takes the version from meson (`dynamic = ["version"]`, no
  `version` of its own), and `llmmetrics.__version__` is the generated declarations'
  LLMM_VERSION_STRING, which must be the meson version (the Rust declarations' too);
- Go: the module declares no version (go.mod has none; the package reads the headers').

--self-test also proves the check on altered copies: a crate one version behind, a stale
dependency requirement, a static version in pyproject.toml and a literal __version__ must
each be reported.

usage: check_versions.py SOURCE_ROOT MESON_VERSION [--self-test]
"""

from __future__ import annotations

import os
import re
import sys
from typing import Callable, Dict, List, Tuple

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None  # type: ignore[assignment]

FILES = {
    "sys": "bindings/rust/llmmetrics-sys/Cargo.toml",
    "safe": "bindings/rust/llmmetrics/Cargo.toml",
    "pyproject": "pyproject.toml",
    "init": "bindings/python/llmmetrics/__init__.py",
    "api": "bindings/python/llmmetrics/_api.py",
    "ffi": "bindings/rust/llmmetrics-sys/src/ffi.rs",
    "gomod": "bindings/go/llmmetrics/go.mod",
}

Texts = Dict[str, str]


def cargo_versions(t: Texts) -> List[str]:
    """Problems of the two Cargo.toml files."""
    out = []
    sys_toml, safe = tomllib.loads(t["sys"]), tomllib.loads(t["safe"])
    for name, doc in (("llmmetrics-sys", sys_toml), ("llmmetrics", safe)):
        if doc["package"]["version"] != t["version"]:
            out.append("%s is version %s" % (name, doc["package"]["version"]))
    dep = safe["dependencies"]["llmmetrics-sys"]
    if dep.get("version") != t["version"]:
        out.append("llmmetrics requires llmmetrics-sys %s" % dep.get("version"))
    return out


def python_version(t: Texts) -> List[str]:
    """Problems of pyproject.toml and the package's __version__."""
    out = []
    project = tomllib.loads(t["pyproject"])["project"]
    if "version" in project or "version" not in project.get("dynamic", []):
        out.append("pyproject.toml does not take its version from meson (dynamic)")
    if not re.search(r"^__version__: str = _lib\.LLMM_VERSION_STRING$", t["init"], re.M):
        out.append("llmmetrics.__version__ is not the generated LLMM_VERSION_STRING")
    return out


def generated_versions(t: Texts) -> List[str]:
    """Problems of the generated declarations (Python and Rust) and go.mod."""
    out = []
    if "'LLMM_VERSION_STRING': '%s'," % t["version"] not in t["api"]:
        out.append("_api.py's LLMM_VERSION_STRING is not %s (regenerate)" % t["version"])
    if 'LLMM_VERSION_STRING: &[u8] = b"%s\\0";' % t["version"] not in t["ffi"]:
        out.append("ffi.rs's LLMM_VERSION_STRING is not %s (regenerate)" % t["version"])
    if re.search(r"^\s*(version|v\d)", t["gomod"], re.M):
        out.append("go.mod declares a version")
    return out


CHECKS: List[Tuple[str, Callable[[Texts], List[str]]]] = [
    ("the Rust crates and their dependency are the meson version", cargo_versions),
    ("Python: the distribution and __version__ come from meson", python_version),
    ("the generated declarations carry the meson version; go.mod has none",
     generated_versions),
]

# (file, text replaced, replacement, check that must then report it)
MUTATIONS = [
    ("sys", '\nversion = "{v}"', '\nversion = "1.0.0"', cargo_versions),
    ("safe", 'version = "{v}" }}', 'version = "1.0.0" }}', cargo_versions),
    ("pyproject", 'dynamic = ["version"]', 'version = "{v}"', python_version),
    ("init", "__version__: str = _lib.LLMM_VERSION_STRING", '__version__: str = "{v}"',
     python_version),
    ("api", "'LLMM_VERSION_STRING': '{v}',", "'LLMM_VERSION_STRING': '0.9.0',",
     generated_versions),
]


def main() -> int:
    root, version = sys.argv[1], sys.argv[2]
    if tomllib is None:
        print("1..0 # SKIP tomllib needs Python 3.11")
        return 0
    texts: Texts = {"version": version}
    for key, rel in FILES.items():
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            texts[key] = f.read()
    results = [(what, check(texts)) for what, check in CHECKS]
    if "--self-test" in sys.argv:
        for key, old, new, check in MUTATIONS:
            old, new = old.format(v=version), new.format(v=version)
            altered = dict(texts, **{key: texts[key].replace(old, new, 1)})
            caught = old in texts[key] and check(altered) != check(texts)
            results.append(("self-test: %s altered (%r) is reported" % (FILES[key], new),
                            [] if caught else ["not reported"]))
    for n, (what, problems) in enumerate(results, 1):
        print("%s %d - %s" % ("not ok" if problems else "ok", n, what))
        for p in problems:
            print("# " + p)
    print("1..%d" % len(results))
    return 1 if any(p for _, p in results) else 0


if __name__ == "__main__":
    sys.exit(main())
