"""The phaedrus driver's command line: the main steps and its errors."""

import subprocess
import sys
from pathlib import Path

from phaedrus.tools import REPO_ROOT

WORDFREQ = REPO_ROOT / "examples" / "demo" / "wordfreq.c"


def phaedrus(*args, cwd=None):
    env = {"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "phaedrus", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=env)


def test_help_lists_commands():
    result = phaedrus("--help")
    assert result.returncode == 0
    for command in ["ir", "instrument", "compile", "run"]:
        assert command in result.stdout


def test_ir_instrument_run(tmp_path):
    assert phaedrus("ir", WORDFREQ, "-o", tmp_path / "w.mlir").returncode == 0
    result = phaedrus("instrument", tmp_path / "w.mlir", "-o", tmp_path / "w.inst",
                      "--granularity", "path")
    assert result.returncode == 0, result.stderr
    assert "fingerprint" in result.stderr
    result = phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r.wpp",
                      "--import", tmp_path / "r.mlir", "--", WORDFREQ)
    assert result.returncode == 0, result.stderr
    assert "imported" in result.stderr and "events" in result.stderr
    assert "phaedrus.trace @run" in (tmp_path / "r.mlir").read_text()
    assert len(result.stdout.splitlines()) == 10  # the ten most frequent words


def test_errors_are_clear(tmp_path):
    result = phaedrus("ir", tmp_path / "missing.c", "-o", tmp_path / "x.mlir")
    assert result.returncode == 1
    assert "phaedrus ir: error: source file not found" in result.stderr
    result = phaedrus("run", tmp_path / "nothere", "-o", tmp_path / "x.wpp")
    assert result.returncode == 1
    assert "phaedrus run: error: program not found" in result.stderr
    result = phaedrus("instrument", tmp_path / "nothere.mlir", "-o", tmp_path / "x")
    assert result.returncode == 1
    assert "phaedrus instrument: error: phaedrus-opt --phaedrus-instrument failed" in result.stderr
    # A binary that was not instrumented writes no trace.
    plain = tmp_path / "true"
    plain.write_text("#!/bin/sh\nexit 0\n")
    plain.chmod(0o755)
    result = phaedrus("run", plain, "-o", tmp_path / "t.wpp")
    assert result.returncode == 1
    assert "the program wrote no trace" in result.stderr
    assert "Traceback" not in result.stderr
