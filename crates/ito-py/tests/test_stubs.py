"""The .pyi stubs match the runtime module (mypy's stubtest)."""

import subprocess
import sys

import pytest


def test_stubs_match_runtime():
    pytest.importorskip("mypy")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "ito_codecs"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
