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


def test_corpus_train_predict_on_the_demo_program(tmp_path):
    """The whole model path through the driver, on the bundled example: runs
    on three inputs, a corpus, an mlp, a prediction for a fourth input."""
    assert phaedrus("ir", WORDFREQ, "-o", tmp_path / "w.mlir").returncode == 0
    assert phaedrus("instrument", tmp_path / "w.mlir", "-o",
                    tmp_path / "w.inst").returncode == 0
    texts = {"a": "x y z\n" * 50, "b": "the cat the dog\n" * 400,
             "c": "lorem ipsum dolor sit amet\n" * 3000, "new": "a b\n" * 900}
    for name, text in texts.items():
        (tmp_path / f"{name}.txt").write_text(text)
    for name in ["a", "b", "c"]:
        result = phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "runs" / f"{name}.wpp",
                          "--", tmp_path / f"{name}.txt")
        assert result.returncode == 0, result.stderr
        assert (tmp_path / "runs" / f"{name}.wpp.input.json").exists()
    result = phaedrus("corpus", *sorted((tmp_path / "runs").glob("*.wpp")),
                      "--program", tmp_path / "w.inst.mlir", "-o", tmp_path / "corpus.json")
    assert result.returncode == 0, result.stderr
    assert "3 runs" in result.stderr
    result = phaedrus("train", tmp_path / "corpus.json", "-o", tmp_path / "m.mlir",
                      "--kind", "mlp", "--epochs", "50")
    assert result.returncode == 0, result.stderr
    assert "mlp model" in result.stderr and "validation loss" in result.stderr
    result = phaedrus("predict", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "p.mlir", "--", "wordfreq", tmp_path / "new.txt")
    assert result.returncode == 0, result.stderr
    assert "phaedrus.entry_count = #phaedrus.entry_count<" in (tmp_path / "p.mlir").read_text()
    # And a binary built with that profile, which behaves like the plain one.
    result = phaedrus("build", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "w.pgo", "--keep-ir", tmp_path / "w.pgo.mlir",
                      "--", "wordfreq", tmp_path / "new.txt")
    assert result.returncode == 0, result.stderr
    assert "function_entry_count" in (tmp_path / "w.pgo.mlir").read_text()
    assert phaedrus("compile", tmp_path / "w.mlir", "-o", tmp_path / "w.plain").returncode == 0
    pgo = subprocess.run([tmp_path / "w.pgo", tmp_path / "new.txt"], capture_output=True)
    plain = subprocess.run([tmp_path / "w.plain", tmp_path / "new.txt"], capture_output=True)
    assert pgo.returncode == 0 and pgo.stdout == plain.stdout


def test_corpus_train_predict_errors(tmp_path):
    trace = tmp_path / "r.wpp"
    trace.write_bytes(b"PHDRWPP\n")
    result = phaedrus("corpus", tmp_path / "absent.wpp", "-o", tmp_path / "c.json")
    assert result.returncode == 1
    assert "phaedrus corpus: error: trace not found" in result.stderr
    result = phaedrus("corpus", trace, "-o", tmp_path / "c.json")
    assert result.returncode == 1
    assert "has no input description" in result.stderr and "phaedrus run" in result.stderr

    result = phaedrus("train", tmp_path / "absent.json", "-o", tmp_path / "m.mlir")
    assert result.returncode == 1
    assert "phaedrus train: error: corpus not found" in result.stderr
    (tmp_path / "bad.json").write_text("{\"format\": \"something else\"}")
    result = phaedrus("train", tmp_path / "bad.json", "-o", tmp_path / "m.mlir")
    assert result.returncode == 1
    assert "is not a phaedrus corpus" in result.stderr
    (tmp_path / "v9.json").write_text("{\"format\": \"phaedrus-corpus\", \"version\": 9}")
    result = phaedrus("train", tmp_path / "v9.json", "-o", tmp_path / "m.mlir")
    assert result.returncode == 1
    assert "corpus version 9 is not supported" in result.stderr

    result = phaedrus("predict", tmp_path / "p.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "o.mlir")
    assert result.returncode == 1
    assert "give the command line of the run to predict" in result.stderr
    result = phaedrus("build", tmp_path / "p.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "o")
    assert result.returncode == 1
    assert "give the command line of the run to build for" in result.stderr
    result = phaedrus("build", tmp_path / "p.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "o", "--", "prog")
    assert result.returncode == 1
    assert "phaedrus build: error: model not found" in result.stderr
    result = phaedrus("predict", tmp_path / "p.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "o.mlir", "--", "prog")
    assert result.returncode == 1
    assert "model not found" in result.stderr
    result = phaedrus("predict", tmp_path / "p.mlir", "--model", tmp_path / "m.mlir",
                      "--stdin", tmp_path / "absent.txt", "-o", tmp_path / "o.mlir",
                      "--", "prog")
    assert result.returncode == 1
    assert "standard input file not found" in result.stderr
    for r in [result]:
        assert "Traceback" not in r.stderr
