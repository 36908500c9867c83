"""The walkthrough example runs to completion and renders its HTML."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)


class Examples(unittest.TestCase):
    def test_notebook_walkthrough(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "walk.html")
            env = dict(os.environ, PYTHONPATH=PKG)
            r = subprocess.run([sys.executable,
                                os.path.join(PKG, "examples", "notebook_walkthrough.py"),
                                "--html", out], env=env, capture_output=True, text=True,
                               timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("fleet == one sketch of everything (but the float sum): True",
                          r.stdout)
            self.assertIn("refused: LLMM_E_INVALID", r.stdout)
            with open(out, encoding="utf-8") as f:
                page = f.read()
            self.assertIn("<svg", page)
            self.assertIn("llmmetrics.Scorecard", page)


if __name__ == "__main__":
    unittest.main()
