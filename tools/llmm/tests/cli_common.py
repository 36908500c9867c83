"""What the scripts of suite 'cli' share: the llmm under test, a runner, a test base with a
temporary directory, the sketches' error bound and the entry point.

usage of a script: SCRIPT.py PATH/TO/llmm
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

LLMM = None  # the binary under test, set by main()

# Worst relative error of a scale-6 sketch: (b - 1) / (b + 1), b = 2^(2^-6).
BASE = 2.0 ** (2.0 ** -6)
REL = (BASE - 1.0) / (BASE + 1.0)


def run(*args, stdin=None):
    return subprocess.run([LLMM, *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w" if isinstance(text, str) else "wb") as f:
            f.write(text)
        return path

    def tls_cert(self):
        """A self-signed certificate for 127.0.0.1 and its key, made by the openssl command,
        and the answer of `llmm sim` to a key it cannot read: (cert, key, probe). Skips the
        test where there is no openssl command or the tool was built without TLS."""
        if not shutil.which("openssl"):
            self.skipTest("no openssl command to make a certificate")
        cert, key = os.path.join(self.dir, "cert.pem"), os.path.join(self.dir, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                        "2", "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
                       check=True, capture_output=True)
        probe = run("sim", "--port", "0", "--tls-cert", cert, "--tls-key", cert + "x")
        if "without TLS" in probe.stderr:
            self.skipTest("llmm built without TLS")
        return cert, key, probe


def main():
    """Run the calling script's tests against the llmm named by its first argument."""
    global LLMM
    LLMM = os.path.abspath(sys.argv.pop(1))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TMPDIR"] = tmp  # `llmm demo` without --dir keeps its directory there
        prog = unittest.main(verbosity=2, exit=False)
    sys.exit(0 if prog.result.wasSuccessful() else 1)
