#!/usr/bin/python3
"""Execute a notebook cell by cell with nbclient and report each code cell as TAP.

A cell fails when it raises, and when it is tagged (cell metadata ``tags``) with what it must
show and did not: ``expect-html`` (a text/html output), ``expect-svg`` (image/svg+xml),
``expect-text`` (printed or plain-text output), ``expect-html-or-text``. The kernel is
ipykernel on this interpreter (a kernel spec written for the run, so that a venv's
interpreter runs the notebook in that venv), started in the notebook's directory; the
environment is passed on (PYTHONPATH, $LLMMETRICS_LIBRARY).

usage: run_notebook.py NOTEBOOK.ipynb   ($LLMM_NOTEBOOK_OUT: also write the executed notebook)
Skipped (TAP plan 1..0) when nbclient, nbformat or ipykernel is missing.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any, List

WANTS = {
    "expect-html": ("text/html",),
    "expect-svg": ("image/svg+xml",),
    "expect-text": ("stream", "text/plain"),
    "expect-html-or-text": ("text/html", "stream", "text/plain"),
}


def shown(cell: Any) -> List[str]:
    """What a cell's outputs hold: 'stream', 'error' or the MIME types of its results."""
    out: List[str] = []
    for o in cell.get("outputs", []):
        if o["output_type"] in ("stream", "error"):
            out.append(o["output_type"])
        else:
            out += list(o.get("data", {}))
    return out


def kernel_spec(root: str) -> None:
    """A kernel spec 'python3' for this interpreter under root (first on JUPYTER_PATH)."""
    d = os.path.join(root, "kernels", "python3")
    os.makedirs(d)
    with open(os.path.join(d, "kernel.json"), "w", encoding="utf-8") as f:
        json.dump({"argv": [sys.executable, "-m", "ipykernel_launcher", "-f",
                            "{connection_file}"],
                   "display_name": "Python 3 (%s)" % sys.executable, "language": "python"}, f)


def main() -> int:
    path = os.path.abspath(sys.argv[1])
    try:
        import ipykernel  # noqa: F401 - the kernel the notebook runs in
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError
    except ImportError as e:
        print("1..0 # SKIP %s: %s (Debian: python3-nbclient python3-ipykernel)"
              % (sys.executable, e))
        return 0
    nb = nbformat.read(path, as_version=4)
    code = [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    print("1..%d" % len(code))
    with tempfile.TemporaryDirectory(prefix="llmm-nb-") as tmp:
        kernel_spec(os.path.join(tmp, "jupyter"))
        os.environ.update(JUPYTER_PATH=os.path.join(tmp, "jupyter"),
                          JUPYTER_RUNTIME_DIR=os.path.join(tmp, "runtime"),
                          IPYTHONDIR=os.path.join(tmp, "ipython"),
                          JUPYTER_PLATFORM_DIRS="1", PYDEVD_DISABLE_FILE_VALIDATION="1")
        client = NotebookClient(nb, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": os.path.dirname(path)}})
        failed = 0
        with client.setup_kernel():
            for n, (i, cell) in enumerate(code, 1):
                first = cell.source.splitlines()[0] if cell.source else ""
                try:
                    client.execute_cell(cell, i)
                except CellExecutionError as e:
                    failed += 1
                    print("not ok %d - cell %d: %s" % (n, i, first))
                    print("\n".join("# " + line for line in str(e).splitlines()[-30:]))
                    continue
                missing = [t for t in cell.metadata.get("tags", []) if t in WANTS
                           and not set(WANTS[t]) & set(shown(cell))]
                if missing:
                    failed += 1
                    print("not ok %d - cell %d: %s: shows %s, tagged %s"
                          % (n, i, first, shown(cell), missing))
                else:
                    print("ok %d - cell %d: %s (%s)" % (n, i, first,
                                                        ", ".join(shown(cell)) or "no output"))
        if os.environ.get("LLMM_NOTEBOOK_OUT"):
            nbformat.write(nb, os.environ["LLMM_NOTEBOOK_OUT"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
