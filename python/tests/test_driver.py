"""The phaedrus driver's command line: the main steps and its errors."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from phaedrus.tools import REPO_ROOT, ToolError, phaedrus_tool, run as run_tool

WORDFREQ = REPO_ROOT / "examples" / "demo" / "wordfreq.c"


def phaedrus(*args, cwd=None):
    env = {"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "phaedrus", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=env)


def _instrumented(tmp_path, name, source_text):
    """A C program of `source_text` through ir and instrument:
    tmp_path/NAME.inst (and NAME.mlir, NAME.inst.mlir)."""
    source = tmp_path / f"{name}.c"
    source.write_text(source_text)
    assert phaedrus("ir", source, "-o", tmp_path / f"{name}.mlir").returncode == 0
    assert phaedrus("instrument", tmp_path / f"{name}.mlir", "-o",
                    tmp_path / f"{name}.inst").returncode == 0


def test_help_lists_commands():
    result = phaedrus("--help")
    assert result.returncode == 0
    for command in ["ir", "instrument", "compile", "run"]:
        assert command in result.stdout


def test_version_names_the_driver_tools_and_formats(tmp_path):
    """One version in CMakeLists.txt, the driver and the tools; a driver
    beside tools of another version says so."""
    import re
    from phaedrus import __version__ as driver_version
    project = re.search(r"project\(phaedrus VERSION (\S+)",
                        (REPO_ROOT / "CMakeLists.txt").read_text()).group(1)
    assert driver_version == project
    result = phaedrus("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"phaedrus {project} (driver: ")
    assert f"  Phaedrus version {project}\n" in result.stdout
    assert "path numbering ball-larus-" in result.stdout
    assert "LLVM version 22." in result.stdout
    assert "warning" not in result.stdout

    # A build directory whose phaedrus-opt is another version (as a stale
    # build of an older checkout would be).
    other = tmp_path / "other-build"
    (other / "bin").mkdir(parents=True)
    fake = other / "bin" / "phaedrus-opt"
    fake.write_text("#!/bin/sh\necho 'Phaedrus version 0.0.9'\n")
    fake.chmod(0o755)
    env = {"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin",
           "PHAEDRUS_BUILD_DIR": str(other)}
    result = subprocess.run([sys.executable, "-m", "phaedrus", "--version"],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0
    assert (f"warning: the tools are Phaedrus 0.0.9 and the driver {project}"
            in result.stdout)
    # No build at all: the driver's line, and where the tools were looked for.
    env["PHAEDRUS_BUILD_DIR"] = str(tmp_path / "none")
    result = subprocess.run([sys.executable, "-m", "phaedrus", "--version"],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0
    assert "tools: phaedrus-opt not found at" in result.stdout


def test_missing_runtime_and_llvm_tools_say_what_to_do(tmp_path, monkeypatch):
    """A build directory with the tools but not the runtime library (a
    partial build), and an LLVM that is not installed where setup.sh puts
    it: the errors say what to run."""
    from phaedrus import tools
    partial = tmp_path / "partial"
    (partial / "bin").mkdir(parents=True)
    monkeypatch.setenv("PHAEDRUS_BUILD_DIR", str(partial))
    with pytest.raises(ToolError, match=re.escape(
            f"libphaedrus_rt.a not found at {partial / 'lib' / 'libphaedrus_rt.a'}: "
            f"build Phaedrus first")):
        tools.runtime_library()
    monkeypatch.setattr(tools, "LLVM_BIN", tmp_path / "no-llvm")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(ToolError, match=re.escape(
            f"clang not found in {tmp_path / 'no-llvm'}: run ./scripts/setup.sh")):
        tools.llvm_tool("clang")


def test_ir_instrument_run(tmp_path):
    assert phaedrus("ir", WORDFREQ, "-o", tmp_path / "w.mlir").returncode == 0
    # (Into a directory not made yet, as compile's output may go: it failed
    # with "cannot open output file" after the instrumenting.)
    result = phaedrus("instrument", tmp_path / "w.mlir", "-o", tmp_path / "bin" / "w.inst",
                      "--granularity", "path")
    assert result.returncode == 0, result.stderr
    assert "fingerprint" in result.stderr
    (tmp_path / "bin" / "w.inst").rename(tmp_path / "w.inst")
    result = phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r.wpp",
                      "--import", tmp_path / "r.mlir", "--", WORDFREQ)
    assert result.returncode == 0, result.stderr
    assert "imported" in result.stderr and "events" in result.stderr
    assert "phaedrus.trace @run" in (tmp_path / "r.mlir").read_text()
    assert len(result.stdout.splitlines()) == 10  # the ten most frequent words
    # Named .mlirbc, the import is MLIR bytecode of the same IR.
    result = phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r2.wpp",
                      "--import", tmp_path / "r2.mlirbc", "--", WORDFREQ)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "r2.mlirbc").read_bytes()[:4] == b"ML\xefR"
    as_text = run_tool([phaedrus_tool("phaedrus-opt"), tmp_path / "r2.mlirbc"]).stdout
    assert b"phaedrus.trace @run" in as_text
    # A trace file whose name has a % in it is written by that name (the
    # runtime takes %p for the process id).
    result = phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r%p.wpp",
                      "--", WORDFREQ)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "r%p.wpp").read_bytes()[:8] == b"PHDRWPP\n"


def test_errors_are_clear(tmp_path):
    result = phaedrus("ir", tmp_path / "missing.c", "-o", tmp_path / "x.mlir")
    assert result.returncode == 1
    assert "phaedrus ir: error: source file not found" in result.stderr
    result = phaedrus("run", tmp_path / "nothere", "-o", tmp_path / "x.wpp")
    assert result.returncode == 1
    assert "phaedrus run: error: program not found" in result.stderr
    result = phaedrus("instrument", tmp_path / "nothere.mlir", "-o", tmp_path / "x")
    assert result.returncode == 1
    assert "phaedrus instrument: error: program module not found" in result.stderr
    (tmp_path / "bad.mlir").write_text("not MLIR\n")
    result = phaedrus("instrument", tmp_path / "bad.mlir", "-o", tmp_path / "x")
    assert result.returncode == 1
    assert "phaedrus instrument: error: phaedrus-opt --phaedrus-instrument failed" in result.stderr
    # A binary that was not instrumented writes no trace.
    plain = tmp_path / "true"
    plain.write_text("#!/bin/sh\nexit 0\n")
    plain.chmod(0o755)
    result = phaedrus("run", plain, "-o", tmp_path / "t.wpp")
    assert result.returncode == 1
    assert "the program wrote no trace" in result.stderr
    # (A script may start an instrumented program: no warning before.)
    assert "no Phaedrus recording runtime" not in result.stderr
    # A program without the runtime is named before it runs (a SQLite
    # user's plain build ran a whole script first), and still runs.
    result = phaedrus("run", "/bin/true", "-o", tmp_path / "t.wpp")
    assert result.returncode == 1
    warning = "warning: /bin/true has no Phaedrus recording runtime in it: it " \
        "will likely write no trace"
    assert warning in result.stderr
    assert result.stderr.index(warning) < result.stderr.index("the program wrote no trace")
    assert "Traceback" not in result.stderr


def test_tool_errors_about_a_module_quote_no_line_and_long_quotes_are_cut(tmp_path):
    """MLIR quotes the source line of an error. For an error about a whole
    module that was `module attributes {dlti.dl_spec = ...}`, 800
    characters and more: such errors are now said at the file, line 0, and
    quote nothing. An op's own line can be as long (a function's
    attributes), and the driver cuts it (tools.shorten_lines)."""
    from phaedrus.tools import MAX_QUOTED_LINE, ToolError
    module = tmp_path / "wordfreq.mlir"
    assert phaedrus("ir", WORDFREQ, "-o", module).returncode == 0
    long_line = max(module.read_text().splitlines(), key=len)
    assert long_line.startswith("module attributes") and len(long_line) > 400
    with pytest.raises(ToolError) as failed:
        run_tool([phaedrus_tool("phaedrus-opt"), module, "--phaedrus-trace-profile"])
    message = str(failed.value)
    assert f"{module}:0:0: error: phaedrus-trace-profile: the module has no trace" \
        in message
    assert "module attributes" not in message
    # An error at a function, whose line holds its attributes.
    text = module.read_text()
    main = next(line for line in text.splitlines()
                if line.startswith("  llvm.func @main("))
    assert len(main) > MAX_QUOTED_LINE
    bad = main.replace(" attributes {", " attributes {phaedrus.entry_count = 12 : i64, ", 1)
    module.write_text(text.replace(main, bad))
    with pytest.raises(ToolError) as failed:
        run_tool([phaedrus_tool("phaedrus-opt"), module])
    message = str(failed.value)
    assert "error: 'llvm.func' op 'phaedrus.entry_count' must be a " \
        "#phaedrus.entry_count" in message
    assert "  llvm.func @main(" in message and f"({len(bad)} characters)" in message
    assert max(len(line) for line in message.splitlines()[1:]) <= MAX_QUOTED_LINE


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
                      "--program", tmp_path / "w.inst.mlir", "-o", tmp_path / "corpus.json",
                      "--sequences", tmp_path / "seq")
    assert result.returncode == 0, result.stderr
    assert "3 runs" in result.stderr and "bytes packed" in result.stderr
    # Each run's sequence is kept, packed (folded, call groups included),
    # and unpacks to all its events: the recorded tokens, and the counts.
    from phaedrus import pipeline
    translate = phaedrus_tool("phaedrus-translate")
    for run in json.loads((tmp_path / "corpus.json").read_text())["runs"]:
        packed = Path(run["sequence"])
        assert packed == tmp_path / "seq" / f"{run['name']}.phpk"
        unpacked = tmp_path / f"{run['name']}.unpacked.mlir"
        run_tool([translate, "--import-packed", packed, "-o", unpacked])
        trace = pipeline.trace_counts(unpacked)["traces"][0]
        assert trace["events"] == run["events"] and trace["name"] == run["name"]
        imported = tmp_path / f"{run['name']}.imported.mlir"
        pipeline.import_trace(tmp_path / "runs" / f"{run['name']}.wpp", imported,
                              name=run["name"])
        assert trace["entry_counts"] == \
            pipeline.trace_counts(imported)["traces"][0]["entry_counts"]
        got, want = (run_tool([translate, "--export-tokens", ir]).stdout
                     for ir in (unpacked, imported))
        assert got == want and len(got) == 4 * run["events"]
    result = phaedrus("train", tmp_path / "corpus.json", "-o", tmp_path / "m.mlir",
                      "--kind", "mlp", "--epochs", "50", "--blend-floor", "0.1")
    assert result.returncode == 0, result.stderr
    assert "mlp model" in result.stderr
    # An option of another kind of model is said to go unused.
    assert "warning: --blend-floor applies to retrieval models only: an mlp " \
        "model does not use it" in result.stderr
    # Three runs, none held out: the message says what its loss is not.
    assert "no runs held out for validation" in result.stderr
    result = phaedrus("predict", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "p.mlir", "--", "wordfreq", tmp_path / "new.txt")
    assert result.returncode == 0, result.stderr
    assert "phaedrus.entry_count = #phaedrus.entry_count<" in (tmp_path / "p.mlir").read_text()
    # A model and a working directory whose paths have a space in them
    # (phaedrus-opt's option parser split them: "no such option dir/m.mlir").
    spaced = tmp_path / "a dir"
    spaced.mkdir()
    (spaced / "m.mlir").write_bytes((tmp_path / "m.mlir").read_bytes())
    (spaced / "new.txt").write_bytes((tmp_path / "new.txt").read_bytes())
    result = phaedrus("predict", tmp_path / "w.mlir", "--model", spaced / "m.mlir",
                      "--cwd", spaced, "-o", tmp_path / "p2.mlir", "--", "wordfreq",
                      "new.txt")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "p2.mlir").read_text() == (tmp_path / "p.mlir").read_text()
    # And a binary built with that profile, which behaves like the plain one.
    # (--keep-ir named as the compiler's LLVM IR beside the output once was,
    # w.pgo.ll, which that deleted.)
    result = phaedrus("build", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "w.pgo", "--keep-ir", tmp_path / "w.pgo.ll",
                      "--", "wordfreq", tmp_path / "new.txt")
    assert result.returncode == 0, result.stderr
    kept = (tmp_path / "w.pgo.ll").read_text()
    assert "function_entry_count" in kept
    # It is the module compiled, without phaedrus IR: phaedrus-translate
    # --mlir-to-llvmir takes it as it is, as the help says (a gawk user's
    # kept module held the vocabulary and the model, 20 MB, and failed).
    assert "phaedrus.model" not in kept and "phaedrus.vocabulary" not in kept
    translated = subprocess.run([phaedrus_tool("phaedrus-translate"), "--mlir-to-llvmir",
                                 tmp_path / "w.pgo.ll"], capture_output=True, text=True)
    assert translated.returncode == 0, translated.stderr
    assert "!prof" in translated.stdout
    assert phaedrus("compile", tmp_path / "w.mlir", "-o", tmp_path / "w.plain").returncode == 0
    pgo = subprocess.run([tmp_path / "w.pgo", tmp_path / "new.txt"], capture_output=True)
    plain = subprocess.run([tmp_path / "w.plain", tmp_path / "new.txt"], capture_output=True)
    assert pgo.returncode == 0 and pgo.stdout == plain.stdout
    # compile of the predicted module lowers its profile first, where it
    # stripped the profile with the phaedrus IR and said nothing: the same
    # binary as build's, and not the plain one.
    result = phaedrus("compile", tmp_path / "p.mlir", "-o", tmp_path / "p.bin")
    assert result.returncode == 0, result.stderr
    assert "holds a profile that is not lowered yet: lowering it" in result.stderr
    assert "optimised with its profile" in result.stderr
    assert (tmp_path / "p.bin").read_bytes() == (tmp_path / "w.pgo").read_bytes()
    assert (tmp_path / "p.bin").read_bytes() != (tmp_path / "w.plain").read_bytes()


def test_predicted_sample_profile_builds_the_sources(tmp_path):
    """predict --sample-profile, for a build of the sources outside
    Phaedrus: with a module that has debug lines (ir --cflags
    -gline-tables-only) its records name lines and discriminators, clang's
    sample loader applies them, and the binary runs like the plain one;
    the lines also reach the binary 'phaedrus build' makes. Without debug
    lines, a warning says how to get them."""
    texts = {"a": "x y z\n" * 50, "b": "the cat the dog\n" * 400,
             "c": "lorem ipsum dolor sit amet\n" * 3000, "new": "a b c\n" * 900}
    for name, text in texts.items():
        (tmp_path / f"{name}.txt").write_text(text)
    result = phaedrus("ir", WORDFREQ, "-o", tmp_path / "w.mlir",
                      "--cflags", "-gline-tables-only")
    assert result.returncode == 0, result.stderr
    assert phaedrus("instrument", tmp_path / "w.mlir", "-o",
                    tmp_path / "w.inst").returncode == 0
    for name in ["a", "b", "c"]:
        result = phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "runs" / f"{name}.wpp",
                          "--", tmp_path / f"{name}.txt")
        assert result.returncode == 0, result.stderr
    assert phaedrus("corpus", *sorted((tmp_path / "runs").glob("*.wpp")), "--program",
                    tmp_path / "w.inst.mlir", "-o", tmp_path / "corpus.json").returncode == 0
    assert phaedrus("train", tmp_path / "corpus.json", "-o",
                    tmp_path / "m.mlir").returncode == 0
    prof = tmp_path / "w.prof"
    result = phaedrus("predict", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "p.mlir", "--sample-profile", prof,
                      "--", "wordfreq", tmp_path / "new.txt")
    assert result.returncode == 0, result.stderr
    assert "debug lines" not in result.stderr and f"wrote {prof}" in result.stderr
    assert f"-fprofile-sample-use={prof} -fprofile-sample-accurate" in result.stderr
    text = prof.read_text()
    # insert's entry block: its first lines after the function's own.
    assert "\ninsert:" in text and "\n 1: " in text, text
    shown = run_tool(["/usr/lib/llvm-22/bin/llvm-profdata", "show", "--sample", prof])
    assert b"Function: insert:" in shown.stdout
    # clang applies it to the sources: by_count, qsort's comparator, which
    # no inlining removes, gets the predicted count (its head samples).
    import re
    head = int(re.search(r"^by_count:\d+:(\d+)$", text, re.M).group(1))
    ll = tmp_path / "w.ll"
    run_tool(["/usr/lib/llvm-22/bin/clang", "-O2", "-gline-tables-only",
              "-fdebug-info-for-profiling", f"-fprofile-sample-use={prof}", "-S",
              "-emit-llvm", WORDFREQ, "-o", ll])
    applied = ll.read_text()
    entry = re.search(r"define internal i32 @by_count\(.*!prof (!\d+)", applied).group(1)
    assert f'{entry} = !{{!"function_entry_count", i64 {head}}}' in applied
    # The lines reach the binary phaedrus build makes.
    result = phaedrus("build", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "w.pgo", "--keep-ir", tmp_path / "w.pgo.ll",
                      "--", "wordfreq", tmp_path / "new.txt")
    assert result.returncode == 0, result.stderr
    lines = run_tool(["/usr/lib/llvm-22/bin/llvm-dwarfdump", "--debug-line",
                      tmp_path / "w.pgo"]).stdout
    assert b"wordfreq.c" in lines
    # A module without debug lines: the profile is written, with a warning.
    assert phaedrus("ir", WORDFREQ, "-o", tmp_path / "n.mlir").returncode == 0
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "np.mlir", "--sample-profile", tmp_path / "n.prof",
                      "--", "wordfreq", tmp_path / "new.txt")
    assert result.returncode == 0, result.stderr
    assert "the module has no debug lines" in result.stderr
    assert "-gline-tables-only" in result.stderr and (tmp_path / "n.prof").exists()
    # A path with a typo describes the run with a word where a file was
    # meant: a warning (a session testing as a user saw only "never seen in
    # training").
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "np.mlir", "--", "wordfreq", tmp_path / "new.tx")
    assert result.returncode == 0, result.stderr
    assert f"warning: {tmp_path / 'new.tx'} names no file, but " \
        f"{tmp_path / 'new.txt'} exists" in result.stderr
    # Nothing like it there: an input given wrong, or an output the run will
    # write; a note that says how the run is described (a session trying lz4
    # got only "never seen in training" for an input it had mistyped).
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "np.mlir", "--", "wordfreq", tmp_path / "x.tar")
    assert result.returncode == 0, result.stderr
    assert f"warning: {tmp_path / 'x.tar'} names no file (yet): the run " \
        "is described with it as a word" in result.stderr
    # A run in another directory (a grep user predicted from elsewhere):
    # --cwd reads its relative arguments from there, as the run would, and
    # predicts what naming the file from here predicts.
    import re
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "here.mlir", "--", "wordfreq", tmp_path / "new.txt")
    assert result.returncode == 0, result.stderr
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "there.mlir", "--cwd", tmp_path, "--",
                      "wordfreq", "new.txt", cwd="/")
    assert result.returncode == 0 and "names no file" not in result.stderr, result.stderr
    counts = [re.findall(r"phaedrus\.entry_count<(\d+)", (tmp_path / f).read_text())
              for f in ("here.mlir", "there.mlir")]
    assert counts[0] and counts[0] == counts[1]
    # Without it, from elsewhere, the warning says where to give it.
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "np.mlir", "--", "wordfreq", "new.txt", cwd="/")
    assert "new.txt names no file (yet)" in result.stderr
    assert "a run in another directory takes --cwd DIR" in result.stderr
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "np.mlir", "--cwd", tmp_path / "new.txt", "--",
                      "wordfreq", "new.txt")
    assert result.returncode == 1
    assert f"--cwd {tmp_path / 'new.txt'} is not a directory" in result.stderr
    # Words that are not paths get no note (a fraction, a sed script, a URL,
    # an abbreviation, a path in a directory that is not there).
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "np.mlir", "--", "wordfreq", "-v", "3.14", "the",
                      "1/2", "s/a/b/", "http://example.org/x.txt", "e.g",
                      tmp_path / "out" / "x.tar")
    assert result.returncode == 0 and "names no file" not in result.stderr, result.stderr
    # The program's name left out (phaedrus run takes the arguments without
    # it): the first word is an option.
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "np.mlir", "--", "-12", "-c")
    assert result.returncode == 1
    assert "the command line after '--' starts with '-12', an option: give the " \
        "program's name first" in result.stderr
    # ... or a file the program reads (a SQLite user's database).
    (tmp_path / "db.sqlite").write_text("data\n")
    result = phaedrus("predict", tmp_path / "n.mlir", "--model", tmp_path / "m.mlir",
                      "-o", tmp_path / "np.mlir", "--cwd", tmp_path, "--",
                      "db.sqlite")
    assert result.returncode == 1
    assert "the command line after '--' starts with 'db.sqlite', a file that is " \
        "not a program: give the program's name first" in result.stderr


def test_corpus_train_predict_errors(tmp_path):
    trace = tmp_path / "r.wpp"
    trace.write_bytes(b"PHDRWPP\n")
    result = phaedrus("corpus", tmp_path / "absent.wpp", "-o", tmp_path / "c.json")
    assert result.returncode == 1
    assert "phaedrus corpus: error: trace not found" in result.stderr
    result = phaedrus("corpus", trace, "-o", tmp_path / "c.json")
    assert result.returncode == 1
    assert "has no input description" in result.stderr and "phaedrus run" in result.stderr
    # Not a trace at all (a module, an input description): said first, not
    # that its own description is missing.
    for other in (tmp_path / "prog.mlir", tmp_path / "r.wpp.input.json"):
        other.write_text("module {}\n")
        result = phaedrus("corpus", other, "-o", tmp_path / "c.json")
        assert result.returncode == 1
        assert f"phaedrus corpus: error: {other} is not a trace file (traces start " \
            "with the header 'phaedrus run' writes)" in result.stderr, result.stderr
    # A trace cut short in its first records: the reader's diagnostics, not
    # the tool's command line.
    (tmp_path / "r.wpp.input.json").write_text(
        json.dumps({"argv": ["p"], "descriptor": [], "featurizer": 6}))
    trace.write_bytes(b"PHDRWPP\n\x01\x00")
    result = phaedrus("corpus", trace, "-o", tmp_path / "c.json")
    assert result.returncode == 1
    assert f"phaedrus corpus: error: cannot count the events of {trace}:" \
        in result.stderr, result.stderr
    assert "cannot import trace" in result.stderr
    assert "failed (exit" not in result.stderr and "--wpp-trace-counts" not in result.stderr
    trace.write_bytes(b"PHDRWPP\n")
    result = phaedrus("corpus", trace, "-o", tmp_path / "c.json", "--sequences", trace)
    assert result.returncode == 1
    assert "phaedrus corpus: error: cannot make the sequences directory" in result.stderr

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
    (tmp_path / "p.mlir").write_text("module {}\n")
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


def _demo_corpus(tmp_path, granularity, training, held_out, kind="mlp", cflags=""):
    """wordfreq (compiled with `cflags`) instrumented at `granularity`, run
    on the `training` texts (a corpus and a model of `kind` trained on it)
    and described on the `held_out` ones. Returns the held-out input
    descriptions."""
    assert phaedrus("ir", WORDFREQ, "-o", tmp_path / "w.mlir",
                    f"--cflags={cflags}").returncode == 0
    result = phaedrus("instrument", tmp_path / "w.mlir", "-o", tmp_path / "w.inst",
                      "--granularity", granularity)
    assert result.returncode == 0, result.stderr
    for name, text in {**training, **held_out}.items():
        (tmp_path / f"{name}.txt").write_text(text)
    for name in [*training, *held_out]:
        out = tmp_path / ("runs" if name in training else "held") / f"{name}.wpp"
        result = phaedrus("run", tmp_path / "w.inst", "-o", out, "--",
                          tmp_path / f"{name}.txt")
        assert result.returncode == 0, result.stderr
    result = phaedrus("corpus", *sorted((tmp_path / "runs").glob("*.wpp")),
                      "--program", tmp_path / "w.inst.mlir", "-o", tmp_path / "corpus.json")
    assert result.returncode == 0, result.stderr
    result = phaedrus("train", tmp_path / "corpus.json", "-o", tmp_path / "m.mlir",
                      "--kind", kind, "--epochs", "100")
    assert result.returncode == 0, result.stderr
    return [tmp_path / "held" / f"{name}.wpp.input.json" for name in held_out]


def test_eval_on_the_demo_program(tmp_path):
    """phaedrus eval on the bundled example: every build behaves like the
    plain one, the exact measured profile lowers to what clang's own PGO
    gives the optimiser (overlap 1), the report has every row and summary
    key, and the retrieval model's blend of training runs is reported."""
    import json
    held = _demo_corpus(
        tmp_path, "path",
        {"few": "x y z\n" * 50, "pets": "the cat the dog\n" * 400,
         "latin": "lorem ipsum dolor sit amet\n" * 3000},
        # (`plain` is also the name of eval's plain build: an input's own
        # directory clashed with it, a traceback.)
        {"plain": "a b\n" * 900, "mixed": "one two three two one\n" * 2000},
        kind="retrieval", cflags="-gline-tables-only")
    # A relative work directory, from a directory other than the inputs'
    # (their runs named another place, and clang's profile went missing);
    # with a space in its name (phaedrus-opt's pass options split at it), a
    # comma (a list option's too) and a % (clang's runtime took %p for its
    # process id, and wrote the profile elsewhere).
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # The held-out inputs recorded by the user's instrumented build, not
    # one eval builds again.
    result = phaedrus("eval", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "--corpus", tmp_path / "corpus.json", "--held-out", *held,
                      "--pgo-input", "pets", "-o", tmp_path / "eval.json",
                      "--plot", tmp_path / "eval.png", "--workdir", "eval %p, wd",
                      "--instrumented", tmp_path / "w.inst", cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    assert (elsewhere / "eval %p, wd" / "plain").exists()
    assert f"eval: recording the held-out inputs with {tmp_path / 'w.inst'}" \
        in result.stderr
    assert not (elsewhere / "eval %p, wd" / "instrumented").exists()
    # ... and says it builds none.
    assert "eval: building plain and clang-instrumented binaries of" in result.stderr
    assert "path-instrumented binaries" not in result.stderr
    # The module has debug lines, and every build keeps them (a session
    # trying xz as a user found the builds of measured and training-run
    # profiles without them, 35% smaller files for it).
    binaries = [f for f in (elsewhere / "eval %p, wd").rglob("*")
                if f.is_file() and f.suffix != ".o" and f.read_bytes()[:4] == b"\x7fELF"]
    assert len(binaries) >= 7 + 2 * 3
    for binary in binaries:
        assert b".debug_line" in binary.read_bytes(), binary
    assert "oracle recovery" in result.stderr and "hot coverage" in result.stderr
    report = json.loads((tmp_path / "eval.json").read_text())
    assert report["format"] == "phaedrus-eval" and report["granularity"] == "path"
    assert "incomplete" not in report
    assert report["version"] == 2 and report["clock"] == "cpu"
    # The timed runs were pinned to one CPU, where there is more than one.
    allowed = sorted(os.sched_getaffinity(0))
    assert report["cpu"] == "auto"
    for row in report["rows"]:
        assert (row["cpu"] in allowed) if len(allowed) > 1 else row["cpu"] is None
    assert "(CPU time, median of 5 runs)" in result.stdout
    # The speedup is not the ratio of the medians beside it, and says so.
    assert "speedup over plain (median of the rounds' ratios, so not always " \
        "the medians' ratio)" in result.stdout
    assert report["compared_counters"] == "entry counts and branch weights"
    assert [r["input"] for r in report["rows"]] == ["plain", "mixed"]
    variants = ["plain", "mismatch", "predicted", "oracle", "measured", "nearest", "mean",
                "static"]
    for row in report["rows"]:
        assert sorted(row["median_s"]) == sorted(variants)
        assert all(len(row["times_s"][v]) == 5 for v in variants)
        # Timed by CPU time (the default clock); the wall times are kept.
        assert row["times_s"] == row["times_cpu_s"]
        assert row["wall_over_cpu"] > 0.5
        assert all(len(row["times_wall_s"][v]) == 5 for v in variants)
        assert row["pgo_input"] == "pets" and row["nearest_input"] in ("few", "pets", "latin")
        # The measured trace of the run, lowered, gives LLVM the counters
        # clang's instrumentation gives it: entry counts and branch weights.
        assert row["overlap"]["measured"] > 0.999, row["overlap"]
        assert row["hot_coverage"]["measured"] == 1.0
        assert row["overlap"]["oracle"] > 0.999
        assert 0 <= row["overlap"]["predicted"] <= 1.0 + 1e-9
        assert all(0 < row["text_bytes"][v] < row["size_bytes"][v] for v in variants)
        for v in variants:
            lo, hi = row["speedup_interval"][v]
            assert lo <= row["speedup"][v] <= hi
        # The nearest run's profile is one of the blends the ceiling tries.
        ceiling = row["blend_ceiling"]
        assert row["overlap"]["nearest"] - 1e-9 <= ceiling["overlap"] <= 1.0 + 1e-9
        assert set(ceiling["weights"]) <= {"few", "pets", "latin"}
        assert 0.98 <= sum(ceiling["weights"].values()) <= 1.0 + 1e-9
        for split in row["mass_and_shape"].values():
            assert 0 <= split["shape"] <= 1 + 1e-9
            assert row["overlap"]["predicted"] <= row["mass_and_shape"]["predicted"]["mass"] + 1e-9
        # The runs the prediction blends (phaedrus-model's weights), as
        # --phaedrus-predict's remark names them.
        # The measured profile has the oracle's counts, in all; the
        # prediction's total comes from the training runs' (the size law:
        # these inputs lie between the training runs' sizes).
        assert row["total_ratio"]["measured"] == pytest.approx(1.0, rel=0.02)
        # The static estimate's counts follow no run: no ratio.
        assert row["total_ratio"]["static"] is None
        assert 0.25 < row["total_ratio"]["predicted"] < 4, row["total_ratio"]
        blend = row["predicted_blend"]
        assert set(blend) <= {"few", "pets", "latin"}
        assert 0.98 <= sum(blend.values()) <= 1.0 + 1e-6
        heaviest = max(blend, key=blend.get)
        assert (f"the prediction blends the training runs {heaviest} "
                f"{blend[heaviest]:.2f}") in result.stderr, result.stderr
    assert result.stderr.count("the prediction blends the training runs") == 2
    for key in ["oracle_recovery_mean", "lowering_recovery_mean", "mismatch_loses_count",
                "predicted_beats_mismatch_count", "overlap_predicted_mean",
                "overlap_mismatch_mean", "hot_coverage_mean", "overlap_blend_ceiling_mean",
                "oracle_recovery_interval", "lowering_recovery_interval",
                "total_ratio_predicted_median", "overlap_static_mean"]:
        assert key in report["summary"]
    assert (tmp_path / "eval.png").read_bytes()[:4] == b"\x89PNG"
    assert report["build_steps"]["reused"] == 0 and report["build_steps"]["built"] > 0

    # Again in the same work directory: the builds are reused (nothing of
    # them changed), the runs and timings made again, and every profile
    # measure comes out the same.
    stamps = {b: b.stat().st_mtime_ns for b in binaries}
    result = phaedrus("eval", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "--corpus", tmp_path / "corpus.json", "--held-out", *held,
                      "--pgo-input", "pets", "-o", tmp_path / "again.json",
                      "--workdir", "eval %p, wd", "--instrumented", tmp_path / "w.inst",
                      cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    again = json.loads((tmp_path / "again.json").read_text())
    steps = again["build_steps"]
    assert steps["built"] == 0 and steps["reused"] == report["build_steps"]["built"], steps
    assert "shared build steps from an earlier eval in" in result.stderr
    assert {b: b.stat().st_mtime_ns for b in binaries} == stamps
    for first, second in zip(report["rows"], again["rows"]):
        # (Equal up to the order of float sums, which follows string hashing.)
        for measure in ("overlap", "hot_coverage", "total_ratio", "size_bytes"):
            numbers = {v: x for v, x in first[measure].items() if x is not None}
            assert numbers == pytest.approx({v: second[measure][v] for v in numbers},
                                            rel=1e-12), measure
        assert first["times_s"] != second["times_s"]
    # An input that fails after another was done (its plain run exits
    # otherwise than its recorded run: an input file gone): the report has
    # the row of the one done, marked incomplete (a failure at the last
    # input lost all of them).
    broken = tmp_path / "held" / "gone.input.json"
    broken.write_text(json.dumps(dict(json.loads(held[1].read_text()), exit_status=3)))
    result = phaedrus("eval", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "--corpus", tmp_path / "corpus.json", "--held-out", held[0], broken,
                      "--pgo-input", "pets", "-o", tmp_path / "partial.json",
                      "--workdir", "eval %p, wd", "--instrumented", tmp_path / "w.inst",
                      cwd=elsewhere)
    assert result.returncode == 1
    assert "gone: the plain build exited with 0, where the recorded run exited " \
        "with 3" in result.stderr, result.stderr
    partial = json.loads((tmp_path / "partial.json").read_text())
    assert partial["incomplete"] == {"inputs_done": 1, "inputs": 2}
    assert [r["input"] for r in partial["rows"]] == ["plain"]
    # --rebuild: everything built again.
    result = phaedrus("eval", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "--corpus", tmp_path / "corpus.json", "--held-out", held[0],
                      "--pgo-input", "pets", "-o", tmp_path / "rebuilt.json",
                      "--workdir", "eval %p, wd", "--rebuild", cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    assert "earlier eval" not in result.stderr
    steps = json.loads((tmp_path / "rebuilt.json").read_text())["build_steps"]
    assert steps["reused"] == 0 and steps["built"] > 0, steps


def test_eval_errors(tmp_path):
    held = _demo_corpus(tmp_path, "function", {"a": "x y\n" * 30, "b": "p q r\n" * 60},
                        {"new": "a b\n" * 90}, kind="retrieval")
    base = [tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
            "--corpus", tmp_path / "corpus.json", "-o", tmp_path / "e.json"]
    # A description kept beside another run's trace: a sed user's corpus
    # paired one run's command line with another run's events.
    import shutil
    swapped = tmp_path / "swapped"
    swapped.mkdir()
    for name in ("a", "b"):
        shutil.copy(tmp_path / "runs" / f"{name}.wpp", swapped / f"{name}.wpp")
        shutil.copy(tmp_path / "runs" / "b.wpp.input.json",
                    swapped / f"{name}.wpp.input.json")
    result = phaedrus("corpus", swapped / "a.wpp", swapped / "b.wpp",
                      "-o", tmp_path / "swapped.json")
    assert result.returncode == 1
    assert f"{swapped / 'a.wpp'} recorded the command line " in result.stderr \
        and f"but {swapped / 'a.wpp.input.json'} describes " in result.stderr \
        and "the description is of another run" in result.stderr, result.stderr
    # A training run is not held out.
    (tmp_path / "a.input.json").write_text(
        (tmp_path / "runs" / "a.wpp.input.json").read_text())
    result = phaedrus("eval", *base, "--held-out", tmp_path / "a.input.json")
    assert result.returncode == 1
    assert "a is a training run of the corpus" in result.stderr
    # ... nor is one under another name, its input a copy elsewhere (a zstd
    # user's copied description was taken as held out).
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "a-again.txt").write_text((tmp_path / "a.txt").read_text())
    again = json.loads((tmp_path / "runs" / "a.wpp.input.json").read_text())
    again["argv"] = [a.replace(str(tmp_path / "a.txt"), str(tmp_path / "copy" / "a-again.txt"))
                     for a in again["argv"]]
    (tmp_path / "dup.input.json").write_text(json.dumps(again))
    result = phaedrus("eval", *base, "--held-out", tmp_path / "dup.input.json")
    assert result.returncode == 1
    assert ("dup is the training run a of the corpus under another name (the same "
            "arguments, input files and locale)") in result.stderr, result.stderr
    # Two held-out inputs of one name.
    other = tmp_path / "again" / held[0].name
    other.parent.mkdir()
    other.write_text(held[0].read_text())
    result = phaedrus("eval", *base, "--held-out", held[0], other)
    assert result.returncode == 1
    assert "held-out input names must be unique" in result.stderr
    result = phaedrus("eval", *base, "--held-out", *held, "--rounds", "3")
    assert result.returncode == 1 and "--rounds must be at least 5" in result.stderr
    result = phaedrus("eval", *base, "--held-out", *held, "--clock", "tsc")
    assert result.returncode == 2 and "invalid choice: 'tsc'" in result.stderr
    # A CPU eval may not run on, or not a CPU at all.
    absent = max(os.sched_getaffinity(0)) + 1
    result = phaedrus("eval", *base, "--held-out", *held, "--cpu", str(absent))
    assert result.returncode == 1, result.stderr
    assert f"--cpu: CPU {absent} is not one this process may run on" in result.stderr
    result = phaedrus("eval", *base, "--held-out", *held, "--cpu", "fast")
    assert result.returncode == 1
    assert "--cpu: CPU 'fast': give auto, none or a CPU's number" in result.stderr
    result = phaedrus("eval", *base, "--held-out", tmp_path / "absent.json")
    assert result.returncode == 1 and "input description not found" in result.stderr
    (tmp_path / "bad.json").write_text("{\"argv\": \"prog\"}")
    result = phaedrus("eval", *base, "--held-out", tmp_path / "bad.json")
    assert result.returncode == 1 and "needs \"argv\": a list of strings" in result.stderr
    # A command line without the program name (a session trying xz as a
    # user: eval started, and would have run `xz -c`).
    (tmp_path / "noname.json").write_text('{"argv": ["-5", "-c"]}')
    result = phaedrus("eval", *base, "--held-out", tmp_path / "noname.json")
    assert result.returncode == 1 and "noname.json: its \"argv\" starts with " \
        "'-5', an option: the program name comes first" in result.stderr
    # The trace where its description belongs.
    trace = next(tmp_path.glob("runs/*.wpp"))
    result = phaedrus("eval", *base, "--held-out", trace)
    assert result.returncode == 1 and "it is a trace file (as 'phaedrus run' " \
        "writes them): give the description " \
        f"'phaedrus run' kept beside it, {trace.name}.input.json" in result.stderr
    (tmp_path / "nostdin.json").write_text(
        '{"argv": ["w"], "stdin": "%s"}' % (tmp_path / "absent.txt"))
    result = phaedrus("eval", *base, "--held-out", tmp_path / "nostdin.json")
    assert result.returncode == 1 and "standard input file not found" in result.stderr
    # A model of another corpus (its fingerprint is not the corpus's).
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    corpus["fingerprint"] = corpus["vocabulary"]["fingerprint"] = "1"
    (tmp_path / "other-corpus.json").write_text(json.dumps(corpus))
    result = phaedrus("eval", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                      "--corpus", tmp_path / "other-corpus.json", "-o", tmp_path / "e.json",
                      "--held-out", *held)
    assert result.returncode == 1 and "was trained on another build" in result.stderr
    # A model of another corpus of the same build: the other granularity's
    # (its vocabulary is another), or other runs (a gawk user's eval built
    # for minutes before anything said so).
    def other_corpus(change):
        corpus = json.loads((tmp_path / "corpus.json").read_text())
        change(corpus)
        (tmp_path / "other-corpus.json").write_text(json.dumps(corpus))
        return phaedrus("eval", tmp_path / "w.mlir", "--model", tmp_path / "m.mlir",
                        "--corpus", tmp_path / "other-corpus.json", "-o",
                        tmp_path / "e.json", "--held-out", *held,
                        "--workdir", tmp_path / "othercorpuswd")
    # Not a model at all (an instrumented module has the corpus's
    # fingerprint, and a jq user's eval built for minutes before saying so).
    instrumented = next(tmp_path.glob("*.inst.mlir"))
    for wrong, says in [(instrumented, "it is an instrumented module (MLIR)"),
                        (tmp_path / "w.mlir", "it is an MLIR module"),
                        (tmp_path / "corpus.json", "it is JSON (a corpus?)")]:
        result = phaedrus("eval", tmp_path / "w.mlir", "--model", wrong, *base[3:],
                          "--held-out", *held, "--workdir", tmp_path / "wrongmodelwd")
        assert result.returncode == 1
        assert f"{wrong} is not a model file: {says}" in result.stderr, result.stderr
        assert not (tmp_path / "wrongmodelwd" / "instrumented.mlir").exists()
    result = other_corpus(lambda c: c["vocabulary"]["entries"].append(
        dict(c["vocabulary"]["entries"][-1], id=len(c["vocabulary"]["entries"]))))
    assert result.returncode == 1
    assert "was trained on a corpus of another vocabulary" in result.stderr
    result = other_corpus(lambda c: c["runs"][0].update(name="renamed"))
    assert result.returncode == 1
    assert "was trained on runs the corpus does not have (a)" in result.stderr
    assert not (tmp_path / "othercorpuswd" / "plain").exists()
    result = phaedrus("eval", *base, "--held-out", *held, "--pgo-input", "zzz")
    assert result.returncode == 1 and "--pgo-input zzz is not a run of the corpus" in result.stderr
    # --instrumented: a binary, of the corpus's granularity.
    result = phaedrus("eval", *base, "--held-out", *held, "--instrumented",
                      tmp_path / "absent.inst")
    assert result.returncode == 1 and "--instrumented " in result.stderr and \
        "absent.inst: no such file (give the binary 'phaedrus instrument' wrote)" \
        in result.stderr, result.stderr
    result = phaedrus("eval", *base, "--held-out", *held, "--instrumented",
                      tmp_path / "w.inst.mlir")
    assert result.returncode == 1 and "is not executable (give the binary" in result.stderr
    assert phaedrus("instrument", tmp_path / "w.mlir", "-o", tmp_path / "wp.inst",
                    "--granularity", "path").returncode == 0
    result = phaedrus("eval", *base, "--held-out", *held, "--instrumented",
                      tmp_path / "wp.inst", "--workdir", tmp_path / "granwd")
    assert result.returncode == 1
    assert (f"{tmp_path / 'wp.inst'} records path-granularity traces, and the corpus "
            f"is of function-granularity ones: give the binary of 'phaedrus "
            f"instrument --granularity function'") in result.stderr, result.stderr
    assert not (tmp_path / "granwd" / "instrumented").exists()
    # A program of another build than the corpus's.
    other = tmp_path / "other.c"
    other.write_text(WORDFREQ.read_text() + "\nint phaedrus_extra(void) { return 1; }\n")
    assert phaedrus("ir", other, "-o", tmp_path / "other.mlir").returncode == 0
    result = phaedrus("eval", tmp_path / "other.mlir", *base[1:], "--held-out", *held,
                      "--workdir", tmp_path / "otherwd")
    assert result.returncode == 1
    assert "the corpus was recorded from another build" in result.stderr
    # ... said before anything is built, and without saying it builds.
    assert "eval: building" not in result.stderr
    assert not (tmp_path / "otherwd" / "plain").exists()
    assert not (tmp_path / "otherwd" / "pgo-gen").exists()
    for r in [result]:
        assert "Traceback" not in r.stderr


def test_mistakes_of_a_first_users_session(tmp_path):
    """Found by a session that used the driver on a program of its own: each
    mistake gets an error that says what to do, and no file of the user's
    is touched."""
    # Flags as the README gives them: a value that starts with '-' (argparse
    # took it for an option: "expected one argument").
    result = phaedrus("ir", WORDFREQ, "-o", tmp_path / "w.mlir", "--cflags", "-DNDEBUG")
    assert result.returncode == 0, result.stderr
    # ... and after an abbreviation argparse accepts ("expected one argument").
    result = phaedrus("ir", WORDFREQ, "-o", tmp_path / "w2.mlir", "--cflag", "-DNDEBUG")
    assert result.returncode == 0, result.stderr
    # An option the subcommand does not have: its own usage, not the top
    # level's.
    result = phaedrus("ir", WORDFREQ, "-o", tmp_path / "w3.mlir", "--bogus")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: phaedrus ir ") and \
        "phaedrus ir: error: unrecognized arguments: --bogus" in result.stderr
    # Words after '--' for a command that runs no program (they were dropped:
    # `train c.json -- --kind lstm` trained a retrieval model).
    result = phaedrus("train", tmp_path / "c.json", "-o", tmp_path / "m.mlir",
                      "--", "--kind", "lstm")
    assert result.returncode == 2
    assert "phaedrus train: error: unrecognized arguments after '--': --kind " \
        "lstm (only run, predict and build take a program's command line " \
        "there; phaedrus train's own options go before it)" in result.stderr
    # The program's command line without '--' (a sed user's first run):
    # where it goes.
    result = phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r.wpp",
                      "-n", "/ERROR/p", "FILE")
    assert result.returncode == 2
    assert "phaedrus run: error: unrecognized arguments: -n /ERROR/p FILE (the " \
        "program's command line goes after '--': phaedrus run ... -- ARGS)" \
        in result.stderr, result.stderr
    assert phaedrus("instrument", tmp_path / "w.mlir", "-o", tmp_path / "w.inst",
                    "--ldflags", "-lm").returncode == 0
    results = []
    # A standard input that does not exist (was a FileNotFoundError).
    results.append(phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r.wpp",
                            "--stdin", tmp_path / "absent.txt", "--"))
    assert results[-1].returncode == 1
    assert "phaedrus run: error: standard input file not found" in results[-1].stderr
    assert not (tmp_path / "r.wpp").exists()
    # One that is not a regular file, which a run's description cannot name
    # (the featurizer refused it, after the program had run).
    results.append(phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r.wpp",
                            "--stdin", "/dev/null", "--"))
    assert results[-1].returncode == 1
    assert "standard input /dev/null is not a regular file" in results[-1].stderr
    assert not (tmp_path / "r.wpp").exists()
    # Standard input given to phaedrus run itself (a shell redirection) does
    # not reach the program: a warning that names --stdin.
    (tmp_path / "in.txt").write_text("a b a\n")
    with open(tmp_path / "in.txt") as redirected:
        results.append(subprocess.run(
            [sys.executable, "-m", "phaedrus", "run", str(tmp_path / "w.inst"),
             "-o", str(tmp_path / "r0.wpp"), "--"], stdin=redirected,
            capture_output=True, text=True,
            env={"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin"}))
    assert results[-1].returncode == 0, results[-1].stderr
    assert "give the file with --stdin FILE" in results[-1].stderr
    # Runs of the function and the path build of one program (which share
    # its fingerprint) in one corpus: the error says that is what happened.
    assert phaedrus("instrument", tmp_path / "w.mlir", "-o", tmp_path / "w.path",
                    "--granularity", "path").returncode == 0
    for binary, name in [("w.inst", "f"), ("w.path", "p")]:
        assert phaedrus("run", tmp_path / binary, "-o", tmp_path / "mixed" / f"{name}.wpp",
                        "--", tmp_path / "in.txt").returncode == 0
    results.append(phaedrus("corpus", tmp_path / "mixed" / "f.wpp",
                            tmp_path / "mixed" / "p.wpp", "-o", tmp_path / "m.json"))
    assert results[-1].returncode == 1
    assert "p.wpp was recorded by the path-granularity build" in results[-1].stderr
    assert "f.wpp by the function-granularity one: a corpus holds runs of " \
        "one build" in results[-1].stderr
    # A run killed by a signal: which one, and what its trace may lack. The
    # runtime ends the trace on SIGABRT; SIGKILL ends the run before it can
    # (a session trying xz as a user was told such a trace counts as
    # complete).
    for name, header, kill in [("crash", "stdlib.h", "abort()"),
                               ("killed", "signal.h", "raise(SIGKILL)")]:
        _instrumented(tmp_path, name,
                      f"#include <{header}>\n"
                      "static int f(int x) { return x + 1; }\n"
                      "int main(void) {\n"
                      "  int s = 0;\n"
                      "  for (int i = 0; i < 100; ++i) s = f(s);\n"
                      f"  if (s) {kill};\n"
                      "  return 0;\n"
                      "}\n")
        results.append(phaedrus("run", tmp_path / f"{name}.inst", "-o",
                                tmp_path / f"{name}.wpp", "--"))
    aborted, killed = results[-2:]
    assert "program was killed by SIGABRT" in aborted.stderr
    # Its status as a shell gives it: 128 + the signal (was 256 - it).
    assert (aborted.returncode, killed.returncode) == (128 + 6, 128 + 9)
    assert "keeps the crashing thread's events only up to its last call out " \
        "of the module" in aborted.stderr
    assert "program was killed by SIGKILL" in killed.stderr
    assert "warning: the trace has no end: the runtime could not end it " \
        "(SIGKILL" in killed.stderr
    assert "counts as complete" not in killed.stderr
    results.append(phaedrus("corpus", tmp_path / "killed.wpp", "-o", tmp_path / "k.json"))
    assert results[-1].returncode == 1 and "incomplete" in results[-1].stderr
    assert (f"warning: {tmp_path / 'killed.wpp'}: the run was killed by signal 9: its "
            f"profile is of a run that did not finish") in results[-1].stderr
    assert (f"{tmp_path / 'killed.wpp'} is not a complete trace; a corpus takes only "
            f"complete runs") in results[-1].stderr
    # The program's own name after '--', as predict takes it: a warning.
    (tmp_path / "in.txt").write_text("a b a\n")
    results.append(phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r.wpp",
                            "--", "w.inst", tmp_path / "in.txt"))
    assert "the program's first argument is 'w.inst', its own name" in results[-1].stderr
    # ... and the program's name without the build's suffixes (jq for
    # jq.path.inst: a jq user's mistake went unnoticed).
    results.append(phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r.wpp",
                            "--", "w", tmp_path / "in.txt"))
    assert "the program's first argument is 'w', its own name" in results[-1].stderr
    # ... and the binary's own path, which exists (it was then run on
    # itself, without a word).
    results.append(phaedrus("run", tmp_path / "w.inst", "-o", tmp_path / "r.wpp",
                            "--", tmp_path / "w.inst", tmp_path / "in.txt"))
    assert f"the program's first argument is '{tmp_path / 'w.inst'}', its own " \
        "name" in results[-1].stderr
    # An instrumented module that does not exist (was a FileNotFoundError).
    results.append(phaedrus("corpus", tmp_path / "r.wpp", "-o", tmp_path / "c.json",
                            "--program", tmp_path / "absent.inst.mlir"))
    assert results[-1].returncode == 1
    assert "phaedrus corpus: error: instrumented module not found" in results[-1].stderr
    # One that cannot be read as text (a directory).
    results.append(phaedrus("corpus", tmp_path / "r.wpp", "-o", tmp_path / "c.json",
                            "--program", tmp_path))
    assert results[-1].returncode == 1
    assert f"phaedrus corpus: error: cannot read {tmp_path}" in results[-1].stderr
    # The plain module where the instrumented one belongs.
    results.append(phaedrus("corpus", tmp_path / "r.wpp", "-o", tmp_path / "c.json",
                            "--program", tmp_path / "w.mlir"))
    assert results[-1].returncode == 1
    assert (f"phaedrus corpus: error: {tmp_path / 'w.mlir'} has no phaedrus.vocabulary: "
            f"it was not made by 'phaedrus instrument'") in results[-1].stderr
    # C source where the module belongs; the instrumented module where the
    # plain one belongs.
    results.append(phaedrus("instrument", WORDFREQ, "-o", tmp_path / "x"))
    assert results[-1].returncode == 1
    assert f"{WORDFREQ} is source code: make the program's module with 'phaedrus ir" \
        in results[-1].stderr
    # (As text or as MLIR bytecode.)
    run_tool([phaedrus_tool("phaedrus-opt"), tmp_path / "w.inst.mlir",
              "--emit-bytecode", "-o", tmp_path / "w.inst.mlirbc"])
    for command, module in [("predict", "w.inst.mlir"), ("build", "w.inst.mlir"),
                            ("predict", "w.inst.mlirbc")]:
        results.append(phaedrus(command, tmp_path / module, "--model",
                                tmp_path / "m.mlir", "-o", tmp_path / "o", "--",
                                "wordfreq", tmp_path / "in.txt"))
        assert results[-1].returncode == 1
        assert f"{module} is an instrumented module" in results[-1].stderr
    # A binary where the module belongs (a user trying gawk gave the plain
    # build to predict and instrument: the parser's error quoted ELF bytes).
    for command in ("instrument", "compile", "predict", "build"):
        extra = ["--model", tmp_path / "m.mlir", "--", "wordfreq"] \
            if command in ("predict", "build") else []
        results.append(phaedrus(command, tmp_path / "w.inst", "-o", tmp_path / "o",
                                *extra))
        assert results[-1].returncode == 1
        assert (f"{tmp_path / 'w.inst'} is not an MLIR module, it is an executable "
                f"or object file (ELF): give the module from 'phaedrus ir'") \
            in results[-1].stderr, (command, results[-1].stderr)
        assert "\x7fELF" not in results[-1].stderr and "unexpected character" \
            not in results[-1].stderr
    # A file beside the output named as the compiler's LLVM IR once was
    # (OUTPUT.ll) is the user's: compile and build leave it alone, and
    # build's --keep-ir may have that name.
    notes = tmp_path / "w.plain.ll"
    notes.write_text("my notes\n")
    assert phaedrus("compile", tmp_path / "w.mlir", "-o", tmp_path / "w.plain").returncode == 0
    assert notes.read_text() == "my notes\n"
    assert (tmp_path / "w.plain").exists()
    # Malformed IR, and a module that parses but is not in the LLVM
    # dialect: compile says which step refused it and why.
    (tmp_path / "bad.mlir").write_text("llvm.func @f(\n")
    results.append(phaedrus("compile", tmp_path / "bad.mlir", "-o", tmp_path / "bad"))
    assert results[-1].returncode == 1
    assert "phaedrus compile: error: phaedrus-opt --phaedrus-strip failed:" in results[-1].stderr
    assert "bad.mlir:1:14: error: expected non-function type" in results[-1].stderr
    (tmp_path / "func.mlir").write_text("func.func @f() {\n  return\n}\n")
    results.append(phaedrus("compile", tmp_path / "func.mlir", "-o", tmp_path / "func"))
    assert results[-1].returncode == 1
    assert "phaedrus-translate --mlir-to-llvmir failed:" in results[-1].stderr, \
        results[-1].stderr
    assert not (tmp_path / "bad").exists() and not (tmp_path / "func").exists()
    # An executable file that cannot be executed (its interpreter is missing).
    script = tmp_path / "script.inst"
    script.write_text("#!/nonexistent/interpreter\n")
    script.chmod(0o755)
    results.append(phaedrus("run", script, "-o", tmp_path / "s.wpp", "--"))
    assert results[-1].returncode == 1
    assert f"phaedrus run: error: cannot run {script}: No such file or directory" \
        in results[-1].stderr, results[-1].stderr
    for r in results:
        assert "Traceback" not in r.stderr


def test_bad_arguments_and_files_get_errors_not_tracebacks(tmp_path):
    """Found by running every command on wrong files and numbers: a file that
    is not C, a program that cannot run, training for no epochs."""
    text = tmp_path / "notes.txt"
    text.write_text("not C\n")
    result = phaedrus("ir", text, "-o", tmp_path / "p.mlir")
    assert result.returncode == 1
    assert f"phaedrus ir: error: {text} is not a C or C++ source" in result.stderr
    result = phaedrus("run", text, "-o", tmp_path / "r.wpp", "--", "a")
    assert result.returncode == 1
    assert f"phaedrus run: error: {text} is not a program to run: give the binary " \
        "'phaedrus instrument' wrote" in result.stderr
    corpus = tmp_path / "c.json"
    corpus.write_text("{}")
    for option, value, words in [("--epochs", "0", "must be at least 1, not 0"),
                                 ("--patience", "-1", "must be at least 1, not -1"),
                                 ("--hidden-size", "x", "'x' is not an integer"),
                                 ("--learning-rate", "0", "must be above 0, not 0"),
                                 ("--learning-rate", "nan", "must be above 0, not nan"),
                                 ("--blend-floor", "1", "must be at least 0 and below 1, not 1"),
                                 ("--blend-floor", "-0.1", "must be at least 0 and below 1, not -0.1"),
                                 ("--blend-floor", "x", "'x' is not a number")]:
        result = phaedrus("train", corpus, "-o", tmp_path / "m.mlir", option, value)
        assert result.returncode == 2
        assert f"phaedrus train: error: argument {option}: {words}" in result.stderr
    for r in [result]:
        assert "Traceback" not in r.stderr


def test_run_describes_the_input_before_the_program_changes_it(tmp_path):
    """A program that replaces its input (as gzip replaces a.txt with
    a.txt.gz): the run's description is of the file it was given, read
    before it ran (a session testing zlib's minigzip as a user found the
    description made afterwards, of a file that was gone)."""
    _instrumented(tmp_path, "c",
                  '#include <stdio.h>\n'
                  'int main(int argc, char **argv) {\n'
                  '  FILE *f = fopen(argv[1], "r");\n'
                  '  int c, n = 0;\n'
                  '  while ((c = fgetc(f)) != EOF) n++;\n'
                  '  fclose(f);\n'
                  '  remove(argv[1]);\n'
                  '  printf("%d\\n", n);\n'
                  '  return 0;\n'
                  '}\n')
    data = tmp_path / "data.txt"
    data.write_text("some words to count\n" * 100)
    result = phaedrus("run", tmp_path / "c.inst", "-o", tmp_path / "r.wpp", "--", data)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2000" and not data.exists()
    descriptor = json.loads((tmp_path / "r.wpp.input.json").read_text())["descriptor"]
    assert "operand1=file" in descriptor and "file0.kind=text" in descriptor, descriptor


def test_run_warns_about_its_own_standard_input_unless_told(tmp_path):
    """Data given to phaedrus run on its standard input does not reach the
    program (the run's description could not name it): a warning says to
    give it with --stdin. In a loop that reads its list on standard input,
    --no-stdin says the input is the loop's (a grep user's trial got the
    warning once per run)."""
    _instrumented(tmp_path, "q", "#include <stdio.h>\n"
                  "int main(void) { return getchar() != EOF; }\n")
    listing = tmp_path / "list"
    listing.write_text("a\nb\n")
    env = {"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin"}
    for extra, warned in [([], True), (["--no-stdin"], False)]:
        with open(listing) as stdin:
            result = subprocess.run(
                [sys.executable, "-m", "phaedrus", "run", tmp_path / "q.inst", "-o",
                 tmp_path / "q.wpp", *extra], stdin=stdin, capture_output=True,
                text=True, env=env)
        # The program read nothing: its standard input was empty.
        assert result.returncode == 0, result.stderr
        assert ("warning: the program does not get phaedrus run's own standard "
                "input" in result.stderr) == warned, result.stderr
        assert ("--no-stdin says the input is the loop's" in result.stderr) == warned
    result = phaedrus("run", tmp_path / "q.inst", "-o", tmp_path / "q.wpp",
                      "--stdin", listing, "--no-stdin")
    assert result.returncode == 1
    assert "--stdin FILE and --no-stdin contradict each other" in result.stderr


def test_run_takes_a_program_not_its_ir(tmp_path):
    """phaedrus run given the instrumented module's IR (NAME.inst.mlir) or
    another file that is no program: says what to give, where it said
    "Permission denied"."""
    _instrumented(tmp_path, "p", "int main(void) { return 0; }\n")
    result = phaedrus("run", tmp_path / "p.inst.mlir", "-o", tmp_path / "p.wpp")
    assert result.returncode == 1
    assert (f"{tmp_path / 'p.inst.mlir'} is not a program to run: give the binary "
            f"'phaedrus instrument' wrote (p.inst, of which p.inst.mlir is the IR)"
            in result.stderr), result.stderr
    result = phaedrus("run", tmp_path, "-o", tmp_path / "p.wpp")
    assert result.returncode == 1 and "is not a program to run" in result.stderr
    assert not (tmp_path / "p.wpp").exists()


def test_run_stops_a_program_that_runs_past_its_timeout(tmp_path):
    """phaedrus run --timeout: a run that hangs (a zstd user's trial had
    every run hang, with nothing to say why) is stopped, the command fails
    naming the limit, and the cut-short run's trace is removed; a run within
    its limit is recorded as always."""
    _instrumented(tmp_path, "spin", "#include <stdlib.h>\n"
                  "static volatile unsigned long n;\n"
                  "static void step(void) { ++n; }\n"
                  "int main(int argc, char **argv) {\n"
                  "  while (argc > 1 || n < 1000) step();\n  return 0;\n}\n")
    result = phaedrus("run", tmp_path / "spin.inst", "-o", tmp_path / "s.wpp",
                      "--timeout", "1", "--", "forever")
    assert result.returncode == 1
    assert f"{tmp_path / 'spin.inst'} did not finish within 1 s: stopped it with " \
        "SIGTERM (--timeout); removed its trace" in result.stderr, result.stderr
    assert not (tmp_path / "s.wpp").exists()
    assert "Traceback" not in result.stderr
    result = phaedrus("run", tmp_path / "spin.inst", "-o", tmp_path / "s.wpp",
                      "--timeout", "60")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "s.wpp").stat().st_size > 0
    result = phaedrus("run", tmp_path / "spin.inst", "-o", tmp_path / "s.wpp",
                      "--timeout", "0")
    assert result.returncode == 1
    assert "--timeout must be a number of seconds above 0 (got 0)" in result.stderr


def test_instrument_says_which_functions_record_only_their_entries(tmp_path, capsys):
    """A function whose paths cannot be numbered (here: a landing pad that
    the code after it reaches again, so that an unwind edge, which can
    carry no code, would end a path) records only its entries: the driver's
    instrument step prints the pass's warning, naming it, where it used to
    print nothing."""
    from phaedrus import pipeline
    module = tmp_path / "m.mlir"
    module.write_text("""
llvm.func @may_throw()
llvm.func @__gxx_personality_v0(...) -> i32
llvm.func @unwind_loop() attributes {personality = @__gxx_personality_v0} {
  llvm.invoke @may_throw() to ^done unwind ^pad : () -> ()
^done:
  llvm.return
^pad:
  %lp = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.invoke @may_throw() to ^done unwind ^pad : () -> ()
}
llvm.func @main() {
  llvm.call @unwind_loop() : () -> ()
  llvm.return
}
""")
    pipeline.instrument_mlir(module, tmp_path / "m.inst.mlir", granularity="path")
    err = capsys.readouterr().err
    assert ("warning: phaedrus-instrument: recording only the entries of "
            "@unwind_loop: a loop closes through the unwind edge") in err
    assert "@main" not in err


def test_corpus_warns_about_runs_that_failed(tmp_path):
    """phaedrus run keeps how the run ended (exit_status); phaedrus corpus
    warns about a run that did not exit with 0, whose profile is of an error
    path (a session trying lz4 as a user had `lz4 -d` on data that was not
    compressed go into its corpus without a word)."""
    _instrumented(tmp_path, "st", "#include <stdlib.h>\n"
                  "int main(int argc, char **argv) { return argc > 1 ? atoi(argv[1]) : 0; }\n")
    for name, code in [("ok", "0"), ("bad", "44")]:
        result = phaedrus("run", tmp_path / "st.inst", "-o", tmp_path / "runs" / f"{name}.wpp",
                          "--", code)
        assert result.returncode == int(code), result.stderr
        info = json.loads((tmp_path / "runs" / f"{name}.wpp.input.json").read_text())
        assert info["exit_status"] == int(code)
    result = phaedrus("corpus", tmp_path / "runs" / "ok.wpp", tmp_path / "runs" / "bad.wpp",
                      "-o", tmp_path / "corpus.json")
    assert result.returncode == 0, result.stderr
    # (Not called a failure outright: grep exits 1 after a whole scan that
    # found nothing, a grep user's trial found.)
    assert f"warning: {tmp_path / 'runs' / 'bad.wpp'}: the run exited with 44: if " \
        "that is an error (most programs' non-zero exit), its profile is of an " \
        "error path" in result.stderr
    assert "if it is an answer (grep found nothing, diff found differences), " \
        "keep it" in result.stderr
    assert "ok.wpp: the run" not in result.stderr

    # Names are the file names up to the first dot: two traces that give one
    # name are refused, both named (the docs said "stems", which differ).
    for version in ("v1", "v2"):
        for suffix in ("", ".input.json"):
            (tmp_path / "runs" / f"ok.{version}.wpp{suffix}").write_bytes(
                (tmp_path / "runs" / f"ok.wpp{suffix}").read_bytes())
    result = phaedrus("corpus", tmp_path / "runs" / "ok.v1.wpp",
                      tmp_path / "runs" / "ok.v2.wpp", "-o", tmp_path / "c2.json")
    assert result.returncode == 1
    assert (f"{tmp_path / 'runs' / 'ok.v1.wpp'} and {tmp_path / 'runs' / 'ok.v2.wpp'} "
            f"both give the run name 'ok'") in result.stderr
    # The same trace twice is said to be that.
    result = phaedrus("corpus", tmp_path / "runs" / "ok.v1.wpp",
                      tmp_path / "runs" / ".." / "runs" / "ok.v1.wpp", "-o", tmp_path / "c2.json")
    assert result.returncode == 1
    assert "ok.v1.wpp is given twice: give each run's trace once" in result.stderr

    # A trace where the corpus belongs, the binary where its module belongs
    # (a session trying xz as a user got a traceback and a UTF-8 error).
    result = phaedrus("train", tmp_path / "runs" / "ok.wpp", "-o", tmp_path / "m.mlir")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert (f"{tmp_path / 'runs' / 'ok.wpp'} is not a phaedrus corpus, it is a "
            f"trace file (as 'phaedrus run' writes them)") in result.stderr
    # A module where the corpus belongs is named as one.
    result = phaedrus("train", tmp_path / "st.mlir", "-o", tmp_path / "m.mlir")
    assert result.returncode == 1
    assert "st.mlir is not a phaedrus corpus, it is an MLIR module" in result.stderr
    result = phaedrus("corpus", tmp_path / "runs" / "ok.wpp", "--program",
                      tmp_path / "st.inst", "-o", tmp_path / "c3.json")
    assert result.returncode == 1
    assert (f"{tmp_path / 'st.inst'} is an executable or object file (ELF), not "
            f"the module 'phaedrus instrument' wrote: give {tmp_path / 'st.inst.mlir'}"
            ) in result.stderr


def test_long_steps_on_a_large_module_say_what_they_do(tmp_path, capsys, monkeypatch):
    """Instrumenting and compiling a large module take minutes (SQLite's
    35 MB: 90-140 s), silent before: from LARGE_MODULE_BYTES on, each says
    what it is doing; below, nothing is said."""
    from phaedrus import pipeline
    module = tmp_path / "w.mlir"
    assert phaedrus("ir", WORDFREQ, "-o", module).returncode == 0
    pipeline.instrument_mlir(module, tmp_path / "w.inst.mlir")
    assert "a large program takes a while" not in capsys.readouterr().err
    monkeypatch.setattr(pipeline, "LARGE_MODULE_BYTES", 1)
    pipeline.instrument_mlir(module, tmp_path / "w.inst.mlir", granularity="path")
    pipeline.mlir_to_binary(module, tmp_path / "w.plain")
    err = capsys.readouterr().err
    assert "phaedrus: instrumenting (path granularity) w.mlir (0 MB of IR): a large " \
        "program takes a while" in err
    assert "phaedrus: compiling (clang-22 -O2) w.mlir" in err
    # A temporary file (build's lowered module, eval's instrumenting for the
    # fingerprint only) is named as the user knows it.
    pipeline.mlir_to_binary(module, tmp_path / "w.plain",
                            shown_as="w.mlir with its predicted profile")
    pipeline.instrument_mlir(module, tmp_path / "w.inst.mlir",
                             why=", for the fingerprint; w.inst records")
    err = capsys.readouterr().err
    assert "phaedrus: compiling (clang-22 -O2) w.mlir with its predicted profile (0 MB" in err
    assert "instrumenting (function granularity, for the fingerprint; w.inst records) w.mlir" in err
    # While it runs, a line every HEARTBEAT_S seconds (SQLite's instrumenting
    # was silent for minutes), and how long it took.
    monkeypatch.setattr(pipeline, "HEARTBEAT_S", 0.05)
    with pipeline.say_if_large(module, "sleeping on"):
        import time
        time.sleep(0.3)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("phaedrus: sleeping on w.mlir (0 MB of IR)")
    assert any(re.fullmatch(r"phaedrus: sleeping on w\.mlir: still at it \(\d+ s\)", line)
               for line in lines[1:-1]), lines
    assert re.fullmatch(r"phaedrus: sleeping on w\.mlir: done in \d+ s", lines[-1])


def test_ir_takes_each_sources_flags_from_a_compilation_database(tmp_path):
    """A project compiles its files with flags of their own (xz: liblzma and
    the tool differ), which one --cflags cannot give. With a compilation
    database, each source is compiled with its entry's flags in its entry's
    directory ("arguments" or "command", relative or absolute file, output
    and dependency flags left out); the program runs as the project's build
    would. Errors: a source the database does not name, one it compiles two
    ways, a file that is not a database."""
    src = tmp_path / "src"
    (src / "inc").mkdir(parents=True)
    (src / "a.c").write_text('#ifndef A\n#error A\n#endif\n#include "b.h"\n'
                             "int main(void) { return helper() + A - 42; }\n")
    (src / "b.c").write_text('#ifndef B\n#error B\n#endif\n#include "b.h"\n'
                             "int helper(void) { return B; }\n")
    (src / "inc" / "b.h").write_text("int helper(void);\n")
    entries = [
        {"directory": str(src), "file": "a.c",
         "arguments": ["cc", "-DA=40", "-Iinc", "-O0", "-c", "a.c", "-o", "a.o",
                       "-MD", "-MF", "a.d"]},
        {"directory": str(src), "file": str(src / "b.c"),
         "command": "gcc -DB=2 -I inc -O2 -c -o b.o b.c"}]
    database = tmp_path / "compile_commands.json"
    database.write_text(json.dumps(entries))
    module = tmp_path / "m.mlir"
    result = phaedrus("ir", src / "a.c", src / "b.c", "--compile-commands", database,
                      "-o", module)
    assert result.returncode == 0, result.stderr
    assert phaedrus("compile", module, "-o", tmp_path / "m").returncode == 0
    assert subprocess.run([tmp_path / "m"]).returncode == 0  # 2 + 40 - 42
    # A debug build's -O0 is left out, and said: clang would mark main
    # optnone, and no build of the module would be optimised.
    assert "left out -O0 of the sources' flags" in result.stderr
    assert "optnone" not in module.read_text()
    # Without the database, the sources do not compile.
    assert phaedrus("ir", src / "a.c", src / "b.c", "-o", module).returncode == 1
    # The database alone: every source it compiles (a Tcl user copied 163
    # names out of one), said so.
    module.unlink()
    result = phaedrus("ir", "--compile-commands", database, "-o", module)
    assert result.returncode == 0, result.stderr
    assert f"compiling the 2 C and C++ sources of {database}" in result.stderr
    assert phaedrus("compile", module, "-o", tmp_path / "m2").returncode == 0
    assert subprocess.run([tmp_path / "m2"]).returncode == 0
    # Neither sources nor a database.
    result = phaedrus("ir", "-o", module)
    assert result.returncode == 1
    assert "no sources given: name the program's C and C++ files, or give " \
        "its compilation database with --compile-commands" in result.stderr

    (src / "c.c").write_text("int c;\n")
    result = phaedrus("ir", src / "a.c", src / "c.c", "--compile-commands", database,
                      "-o", module)
    assert result.returncode == 1
    assert f"{src / 'c.c'} has no entry in {database}" in result.stderr
    database.write_text(json.dumps(entries + [dict(entries[1], command="cc -DB=3 -c b.c")]))
    result = phaedrus("ir", src / "a.c", src / "b.c", "--compile-commands", database,
                      "-o", module)
    assert result.returncode == 1
    assert f"{database} compiles {src / 'b.c'} 2 ways" in result.stderr
    # An entry without the file it compiles.
    database.write_text(json.dumps([{"directory": str(src), "command": "cc -c a.c"}]))
    result = phaedrus("ir", src / "a.c", "--compile-commands", database, "-o", module)
    assert result.returncode == 1
    assert (f"{database}: entry 0 is not {{directory, file, arguments or command}} "
            f"('file')") in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    database.write_text('{"not": "a list"}')
    result = phaedrus("ir", src / "a.c", "--compile-commands", database, "-o", module)
    assert result.returncode == 1 and "is not a compilation database" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_switch_without_cases_gets_no_weights(tmp_path):
    """`switch (x) { default: ... }` is an llvm.switch with one successor
    (gawk has one): the measured and the static profile give it no weights,
    where they gave it one, which the dialect refuses (eval stopped on
    gawk at its static estimate)."""
    source = tmp_path / "sw.c"
    source.write_text("#include <stdio.h>\n"
                      "static int f(int x) { switch (x) { default: x += 1; } return x; }\n"
                      "int main(int argc, char **argv) {\n"
                      "  int s = 0;\n"
                      "  for (int i = 0; i < argc * 1000; ++i) s += f(i) & 3;\n"
                      "  printf(\"%d\\n\", s);\n"
                      "  return 0;\n"
                      "}\n")
    module = tmp_path / "sw.mlir"
    result = phaedrus("ir", source, "-o", module, "--cflags", "-O0")
    assert result.returncode == 0, result.stderr
    assert "llvm.switch" in module.read_text()
    result = phaedrus("instrument", module, "-o", tmp_path / "sw.inst",
                      "--granularity", "path")
    assert result.returncode == 0, result.stderr
    result = phaedrus("run", tmp_path / "sw.inst", "-o", tmp_path / "r.wpp", "--", "x")
    assert result.returncode == 0, result.stderr
    run_tool([phaedrus_tool("phaedrus-translate"), "--import-wpp", tmp_path / "r.wpp",
              "-o", tmp_path / "r.mlir"])
    for option in (f"--phaedrus-trace-profile=trace-files={tmp_path / 'r.mlir'}",
                   "--phaedrus-static-estimate"):
        out = tmp_path / "profiled.mlir"
        result = subprocess.run([phaedrus_tool("phaedrus-opt"), module, option,
                                 "-o", out], capture_output=True, text=True)
        assert result.returncode == 0, (option, result.stderr)
        text = out.read_text()
        switch = text[text.index("llvm.switch"):]
        # The op up to the end of the line that closes its (empty) case list,
        # where its attributes would be.
        switch = switch[:switch.index("\n", switch.index("]"))]
        assert "]" in switch and "branch_weights" not in switch, option
        assert "phaedrus.branch_weights" in text, option  # the loop's branch


def _interrupted(tmp_path, *args, after=3.0, signal_number=None):
    """`phaedrus ARGS`, sent SIGINT (Ctrl-C; or `signal_number`) after
    `after` seconds."""
    import signal
    import time
    env = {"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin"}
    # As a command typed at a terminal gets it: SIGINT at its default. A
    # test run started in the background of a non-interactive shell ignores
    # SIGINT, its children inherit that, and Python then installs no
    # KeyboardInterrupt for them.
    process = subprocess.Popen([sys.executable, "-m", "phaedrus", *map(str, args)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env, cwd=tmp_path,
                               preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                signal.SIG_DFL))
    time.sleep(after)
    assert process.poll() is None, "the command ended before it was interrupted"
    process.send_signal(signal_number or signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return process.returncode, err


def test_ctrl_c_stops_a_command_without_a_traceback(tmp_path):
    """Ctrl-C printed a Python traceback (train's from inside torch's
    backward): a command now says it was interrupted, exits with 130 and
    leaves no output of its own half made."""
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps(_long_training_corpus()))
    code, err = _interrupted(tmp_path, "train", corpus, "--kind", "lstm", "--epochs",
                             "100000", "--patience", "100000", "-o", tmp_path / "m.mlir")
    assert code == 130, err
    assert err.strip().endswith("phaedrus train: interrupted") and "Traceback" not in err
    assert not (tmp_path / "m.mlir").exists()
    # A run: the program is stopped with it, and its trace, of a run cut
    # short, removed.
    _instrumented(tmp_path, "spin", "int step(int x) { return x * 3 + 1; }\n"
                  "int main(void) { unsigned x = 1; for (;;) x = step(x); return x; }\n")
    code, err = _interrupted(tmp_path, "run", tmp_path / "spin.inst", "-o",
                             tmp_path / "spin.wpp", "--", after=2.0)
    assert code == 130, err
    assert "removed the interrupted run's trace" in err and "Traceback" not in err
    assert not list(tmp_path.glob("spin.wpp*"))
    # SIGTERM (timeout(1), a scheduler) likewise: the program is not left
    # running without its driver (a zstd user's trial found one so).
    import signal
    code, err = _interrupted(tmp_path, "run", tmp_path / "spin.inst", "-o",
                             tmp_path / "spin.wpp", "--", after=2.0,
                             signal_number=signal.SIGTERM)
    assert code == 143, err
    assert err.strip().endswith("phaedrus run: terminated (SIGTERM)"), err
    assert "removed the interrupted run's trace" in err and "Traceback" not in err
    assert not list(tmp_path.glob("spin.wpp*"))
    left = subprocess.run(["pgrep", "-f", str(tmp_path / "spin.inst")],
                          capture_output=True, text=True)
    assert left.stdout == "", left.stdout


def test_sigterm_stops_the_tools_of_worker_threads(tmp_path):
    """SIGTERM reached the driver's main thread only: the tools its worker
    threads ran (phaedrus ir's compilations here; eval's builds) went on,
    and the driver waited for them. They are now killed with it."""
    import os
    import signal
    import time
    fake = tmp_path / "llvm"
    fake.mkdir()
    clang = fake / "clang"
    clang.write_text(f"#!/bin/sh\necho $$ >> {tmp_path / 'pids'}\nexec sleep 120\n")
    clang.chmod(0o755)
    sources = []
    for name in ("a", "b"):
        (tmp_path / f"{name}.c").write_text(f"int {name}(void) {{ return 1; }}\n")
        sources.append(tmp_path / f"{name}.c")
    env = {"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin",
           "PHAEDRUS_LLVM_BIN": str(fake)}
    process = subprocess.Popen([sys.executable, "-m", "phaedrus", "ir", *map(str, sources),
                                "-o", str(tmp_path / "p.mlir"), "--jobs", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env, cwd=tmp_path)
    for _ in range(200):  # both compilations started
        if (tmp_path / "pids").exists() and \
                len((tmp_path / "pids").read_text().split()) == 2:
            break
        time.sleep(0.05)
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    assert len(pids) == 2
    start = time.monotonic()
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert time.monotonic() - start < 20, "the driver waited for its tools"
    assert err.strip().endswith("phaedrus ir: terminated (SIGTERM)"), err
    for pid in pids:
        try:
            os.kill(pid, 0)
            alive = not open(f"/proc/{pid}/stat").read().split(") ")[1].startswith("Z")
        except (ProcessLookupError, FileNotFoundError):
            alive = False
        assert not alive, f"clang {pid} is still running"


def _long_training_corpus():
    """A corpus whose lstm trains for minutes: many runs, a vocabulary of
    200 tokens."""
    from phaedrus.corpus import featurizer_version
    entries = [{"id": i, "kind": "function", "symbol": f"f{i}"} for i in range(200)]
    runs = [{"name": f"r{r}", "argv": ["p", f"-{r}"], "stdin": None,
             "descriptor": ["argc=1", f"opt=-{r}", "stdin=none"],
             "events": 200 * 7, "tokens": [(t, 7 + (t * r) % 13) for t in range(200)]}
            for r in range(20)]
    return {"format": "phaedrus-corpus", "version": 1, "fingerprint": "1",
            "featurizer": featurizer_version(),
            "vocabulary": {"name": "v", "fingerprint": "1",
                                            "entries": entries},
            "runs": runs}


def test_a_link_without_the_programs_libraries_says_which_symbols(tmp_path):
    """A program that needs libm, built without --ldflags: one line naming
    the symbols, the library that defines them and --ldflags, where a jq
    user got 131 lines of the linker's."""
    source = tmp_path / "m.c"
    source.write_text("#include <math.h>\n#include <stdlib.h>\n"
                      "int main(int argc, char **argv) {\n"
                      "  return (int)cbrt(atof(argv[0])) + (int)erf(argc); }\n")
    assert phaedrus("ir", source, "-o", tmp_path / "m.mlir").returncode == 0
    for command in ("compile", "instrument"):
        result = phaedrus(command, tmp_path / "m.mlir", "-o", tmp_path / f"m.{command}")
        assert result.returncode == 1
        first = result.stderr.strip().splitlines()[-1]
        assert "the program uses symbols no library given to the link defines" in first
        assert "cbrt" in first and "erf" in first and "--ldflags" in first
        # Which library defines them, from the shared libraries clang links
        # from (all of them at once: gawk needed -lm, then -lreadline).
        assert "here --ldflags '-lm' (-lm: cbrt, erf;" in first
        # ... or the program's own code that phaedrus ir did not take.
        assert "the sources that define them were not given to 'phaedrus ir'" in first
        assert "undefined reference" not in result.stderr
        assert phaedrus(command, tmp_path / "m.mlir", "-o", tmp_path / f"m.{command}",
                        "--ldflags", "-lm").returncode == 0


CXX_PROGRAM = r"""
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

static std::map<std::string, int> registry = {{"init", 1}};  // a constructor

static int parse(const std::string &word) {
  if (word.empty() || word[0] < '0' || word[0] > '9')
    throw std::invalid_argument("not a number: " + word);
  return std::stoi(word);
}

int main(int argc, char **argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  int sum = 0, bad = 0;
  for (const std::string &w : words) {
    try {
      sum += parse(w);
    } catch (const std::invalid_argument &) {
      ++bad;
    }
  }
  std::printf("%d %d %d\n", sum, bad, registry["init"]);
  return 0;
}
"""


def test_a_cxx_program_goes_through_ir_compile_instrument_and_run(tmp_path):
    """phaedrus ir takes C++ sources (by their suffix, as clang does), and the
    builds of a C++ module link the C++ runtime without being told (a C++
    user's first try: 'is not a C source', then undefined std:: symbols)."""
    source = tmp_path / "sum.cc"
    source.write_text(CXX_PROGRAM)
    result = phaedrus("ir", source, "-o", tmp_path / "sum.mlir")
    assert result.returncode == 0, result.stderr
    result = phaedrus("compile", tmp_path / "sum.mlir", "-o", tmp_path / "sum")
    assert result.returncode == 0, result.stderr
    expected = "12 2 1\n"  # an exception thrown and caught twice
    plain = subprocess.run([tmp_path / "sum", "5", "x", "7", "y"],
                           capture_output=True, text=True)
    assert plain.stdout == expected
    for granularity in ("function", "path"):
        inst = tmp_path / f"sum.{granularity}"
        result = phaedrus("instrument", tmp_path / "sum.mlir", "-o", inst,
                          "--granularity", granularity)
        assert result.returncode == 0, result.stderr
        wpp = tmp_path / f"{granularity}.wpp"
        result = phaedrus("run", inst, "-o", wpp, "--", "5", "x", "7", "y")
        assert result.returncode == 0, result.stderr
        assert result.stdout == expected
        assert wpp.stat().st_size > 0
    # compile builds an instrumented module too (one a user edited, say),
    # linking the runtime it calls, where the link once failed for
    # __phaedrus_record_slow with advice to give --ldflags.
    result = phaedrus("compile", tmp_path / "sum.function.mlir", "-o", tmp_path / "again")
    assert result.returncode == 0, result.stderr
    assert "instrumented" in result.stderr
    result = phaedrus("run", tmp_path / "again", "-o", tmp_path / "again.wpp",
                      "--", "5", "x", "7", "y")
    assert result.returncode == 0, result.stderr
    counts = [subprocess.run([phaedrus_tool("phaedrus-translate"), "--wpp-trace-counts",
                              tmp_path / f"{name}.wpp"], capture_output=True, text=True)
              for name in ("function", "again")]
    assert counts[0].returncode == 0 and counts[1].returncode == 0
    traces = [json.loads(c.stdout)["traces"] for c in counts]
    # The program ran with the name its description records as argv[0], as
    # eval runs an input again (it ran with its path, and a Tcl interpreter,
    # which looks itself up by argv[0], did other work in eval).
    assert [t["argv"][0] for t in traces[0] + traces[1]] == ["sum.function", "again"]
    for trace in traces[0] + traces[1]:
        trace["argv"].pop(0)  # the binary's name
    assert traces[0] == traces[1]


def test_a_cxx_link_missing_a_library_says_what_to_give(tmp_path):
    """A C++ program is linked with clang++, which gives it the C++ runtime;
    C++ symbols still missing are from another library of its build, and
    the error does not suggest -lm."""
    from phaedrus import pipeline
    ll = tmp_path / "p.ll"
    ll.write_text("declare ptr @_ZSt4cerr_missing()\n"
                  "define i32 @main() {\n  %p = call ptr @_ZSt4cerr_missing()\n"
                  "  ret i32 0\n}\n")
    with pytest.raises(ToolError) as e:
        pipeline.llvm_ir_to_binary(ll, tmp_path / "p")
    assert "clang++ (compile and link) failed" in str(e.value)
    assert "clang++ links the C++ runtime already" in str(e.value)
    assert "-lm" not in str(e.value)


def test_the_locale_is_recorded_described_and_predicted_for(tmp_path):
    """The same command runs other code under another locale (grep -i under
    C and C.UTF-8): phaedrus run records the locale variables, the
    featurizer describes the locale they choose, and a prediction for a
    run under one locale blends the training runs of that locale (a grep
    user's trial had them mixed without a word, the runs alike to a
    model)."""
    _instrumented(tmp_path, "loc", "#include <locale.h>\n#include <stdlib.h>\n"
                  "static int wide(int i) { return i & 1; }\n"
                  "static int narrow(int i) { return i & 2; }\n"
                  "int main(void) {\n  setlocale(LC_ALL, \"\");\n  int s = 0;\n"
                  "  for (int i = 0; i < 100; ++i)\n"
                  "    s += MB_CUR_MAX > 1 ? wide(i) : narrow(i);\n"
                  "  return s < 0;\n}\n")
    env = {"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin"}

    def driver(*args, locale):
        return subprocess.run([sys.executable, "-m", "phaedrus", *map(str, args)],
                              capture_output=True, text=True, env={**env, **locale})
    for name, locale in [("c", {"LC_ALL": "C"}), ("u", {"LC_ALL": "C.UTF-8", "LANG": "C"})]:
        result = driver("run", tmp_path / "loc.inst", "-o", tmp_path / f"{name}.wpp",
                        locale=locale)
        assert result.returncode == 0, result.stderr
        info = json.loads((tmp_path / f"{name}.wpp.input.json").read_text())
        assert info["locale"] == locale
    result = phaedrus("corpus", tmp_path / "c.wpp", tmp_path / "u.wpp", "-o",
                      tmp_path / "corpus.json")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert [r["locale"] for r in corpus["runs"]] == [{"LC_ALL": "C"},
                                                     {"LC_ALL": "C.UTF-8", "LANG": "C"}]
    assert [[d for d in r["descriptor"] if d.startswith("locale")]
            for r in corpus["runs"]] == [["locale=C"], ["locale=C.utf8"]]
    result = phaedrus("train", tmp_path / "corpus.json", "-o", tmp_path / "m.mlir")
    assert result.returncode == 0, result.stderr
    # predict describes the run as one under its own environment's locale.
    for locale, blended in [({"LANG": "C.UTF-8"}, "u"), ({"LC_ALL": "POSIX"}, "c")]:
        result = driver("predict", tmp_path / "loc.mlir", "--model", tmp_path / "m.mlir",
                        "-o", tmp_path / "p.mlir", "--", "loc", locale=locale)
        assert result.returncode == 0, result.stderr
        # (The other run weighs under 1% of it: the blend floor leaves it out.)
        assert re.search(f"the prediction blends the training runs {blended} "
                         r"(0\.9\d|1\.00)", result.stderr), result.stderr
        assert "never seen" not in result.stderr
    # A description whose locale is not one is refused, naming the field.
    (tmp_path / "u.wpp.input.json").write_text(json.dumps(
        {"argv": ["loc"], "descriptor": [], "featurizer": 6, "locale": {"PATH": "/"}}))
    result = phaedrus("corpus", tmp_path / "u.wpp", "-o", tmp_path / "c2.json")
    assert result.returncode == 1
    assert "\"locale\" must be an object of locale variables" in result.stderr


def test_a_run_replays_the_locale_it_was_recorded_under(tmp_path, monkeypatch):
    """eval runs a held-out input under the locale it was recorded under,
    not under its own: the recorded variables replace eval's."""
    from phaedrus import evaluate, pipeline
    script = tmp_path / "show"
    script.write_text('#!/bin/sh\necho "${LC_ALL:-unset} ${LANG:-unset}"\n')
    script.chmod(0o755)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.setenv("LC_ALL", "POSIX")
    _, out, _ = pipeline.run_program(script, [], locale={"LC_ALL": "C.UTF-8"})
    assert out.decode() == "C.UTF-8 unset\n"
    _, out, _ = pipeline.run_program(script, [])
    assert out.decode() == "POSIX en_US.UTF-8\n"
    (tmp_path / "h.input.json").write_text(json.dumps(
        {"argv": ["show"], "locale": {"LC_ALL": "C"}}))
    assert evaluate.load_input(tmp_path / "h.input.json").locale == {"LC_ALL": "C"}
    timing = evaluate.time_run(
        script, ["show"], env=pipeline.with_locale({"LANG": "x"}, {"LC_ALL": "C"}))
    assert timing.code == 0


def test_an_open_quote_or_a_directory_is_an_error_not_a_traceback(tmp_path):
    """Found by an audit of the driver's errors (2026-11-28): flags are
    split as a shell would, and a quote left open stopped the driver in a
    traceback (`ValueError: No closing quotation`), as did a directory
    given where a JSON file belongs (`IsADirectoryError`). The flags are
    read before any work (an instrumented build takes minutes)."""
    m, o = tmp_path / "p.mlir", tmp_path / "out"
    for command in [["ir", tmp_path / "p.c", "-o", m, "--cflags", '-DX="'],
                    ["instrument", m, "-o", o, "--ldflags", "-L'"],
                    ["compile", m, "-o", o, "--ldflags", '-l"m'],
                    ["build", m, "--model", m, "-o", o, "--ldflags", '-L"', "--", "a"],
                    ["eval", m, "--model", m, "--corpus", m, "--held-out", m,
                     "-o", o, "--ldflags", '-L"']]:
        result = phaedrus(*command)
        assert result.returncode == 1, command
        option = command[-2] if command[0] != "build" else "--ldflags"
        assert f"phaedrus {command[0]}: error: {option} " in result.stderr, result.stderr
        assert "No closing quotation (quote as a shell would)" in result.stderr
        assert "Traceback" not in result.stderr
    result = phaedrus("train", tmp_path, "-o", tmp_path / "m.mlir")
    assert result.returncode == 1
    assert f"phaedrus train: error: {tmp_path} is a directory, not a phaedrus " \
        "corpus" in result.stderr
    # Any other reason a file cannot be read (here a path through a file).
    (tmp_path / "f.json").write_text("{}")
    result = phaedrus("train", tmp_path / "f.json" / "c.json", "-o", tmp_path / "m.mlir")
    assert result.returncode == 1
    assert f"phaedrus train: error: cannot read {tmp_path / 'f.json' / 'c.json'}: " \
        "Not a directory" in result.stderr, result.stderr


def test_outputs_that_cannot_be_written_are_refused_before_the_work(tmp_path):
    """Found by a new user's walk through the docs (2026-11-28): eval wrote
    its report only after every build and timed round, and `-o results`
    (a directory) or a path where no file can be made ended in a traceback
    with the measurement lost; run and corpus stopped in a traceback too,
    corpus after counting every trace. Each output is tried first."""
    module = tmp_path / "p.mlir"
    module.write_text("module {}\n")
    adir = tmp_path / "adir"
    adir.mkdir()
    missing = tmp_path / "missing.json"  # no corpus, model or input: not read
    eval_args = ["eval", module, "--model", missing, "--corpus", missing,
                 "--held-out", missing]
    (tmp_path / "afile").write_text("x")
    for args, says in [
            ([*eval_args, "-o", adir], f"eval report {adir} is a directory: give a file name"),
            ([*eval_args, "-o", "/proc/phaedrus/e.json"],
             "cannot write eval report /proc/phaedrus/e.json: "),
            ([*eval_args, "-o", tmp_path / "e.json", "--plot", tmp_path / "afile" / "p.png"],
             f"cannot write plot {tmp_path / 'afile' / 'p.png'}: {tmp_path / 'afile'} "
             "is not a directory"),
            ([*eval_args, "-o", tmp_path / "e.json", "--workdir", tmp_path / "afile"],
             f"--workdir {tmp_path / 'afile'} is a file: give a directory"),
            (["run", "/bin/true", "-o", adir, "--", "x"],
             f"trace file {adir} is a directory: give a file name"),
            (["corpus", missing, "-o", adir],
             f"corpus {adir} is a directory: give a file name"),
            (["build", module, "--model", missing, "-o", tmp_path / "b",
              "--keep-ir", adir, "--", "prog"],
             f"--keep-ir module {adir} is a directory: give a file name")]:
        result = phaedrus(*args)
        assert result.returncode == 1, args
        assert says in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
    # The try leaves nothing behind, and a file that is there as it was.
    assert not (tmp_path / "e.json").exists()
    assert (tmp_path / "afile").read_text() == "x"


def test_a_module_without_main_is_not_blamed_on_a_library(tmp_path):
    """A program's sources without the file that defines main: the link's
    advice named the libraries that define the missing symbols, and for
    main that was flex's libfl (--ldflags '-lfl')."""
    source = tmp_path / "lib.c"
    source.write_text("int twice(int x) { return 2 * x; }\n")
    assert phaedrus("ir", source, "-o", tmp_path / "lib.mlir").returncode == 0
    result = phaedrus("compile", tmp_path / "lib.mlir", "-o", tmp_path / "lib")
    assert result.returncode == 1
    assert "the module defines no main function: the source file that defines " \
        "main was not given to 'phaedrus ir'" in result.stderr, result.stderr
    assert "-lfl" not in result.stderr and "Traceback" not in result.stderr


def test_train_without_torch_says_which_python_to_use(tmp_path):
    """The `python3` first on a Debian user's PATH may be another interpreter,
    without Debian's python3-torch: `phaedrus train` there stopped in a
    ModuleNotFoundError traceback."""
    corpus = tmp_path / "c.json"
    corpus.write_text("{}")
    # As if torch were not installed: an import of it fails.
    driver = ("import runpy, sys; sys.modules['torch'] = None; "
              "runpy.run_module('phaedrus', run_name='__main__', alter_sys=True)")
    result = subprocess.run(
        [sys.executable, "-c", driver, "train", str(corpus), "-o",
         str(tmp_path / "m.mlir")], capture_output=True, text=True,
        env={"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1, result.stderr
    assert "phaedrus train: error: training needs torch, which this Python " \
        f"({sys.executable}) does not have: run the driver with Debian's " \
        "/usr/bin/python3" in result.stderr
    assert "Traceback" not in result.stderr


RACE_C = r"""
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* Holds a lock file while it works, as a database holds its file: a second
   run at the same time finds it taken, says "busy" and exits 3. */
static volatile unsigned long sink;
__attribute__((noinline)) static void work(long n) {
  for (long i = 0; i < n; ++i)
    sink += (unsigned long)i * i;
}
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1;
  int fd = open("prog.lock", O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (fd < 0) {
    puts("busy");
    return 3;
  }
  /* A run recorded by the Phaedrus-instrumented build fails on n = 5 and
     prints something else on n = 6; on n = 7 the fourth run does (a
     count of the runs kept in a file). */
  const char *trace = getenv("PHAEDRUS_TRACE");
  int traced = trace && strcmp(trace, "off") != 0;
  int runs = 0;
  if (n == 7) {
    FILE *count = fopen("n7.count", "r");
    if (count) {
      if (fscanf(count, "%d", &runs) != 1)
        runs = 0;
      fclose(count);
    }
    count = fopen("n7.count", "w");
    fprintf(count, "%d\n", ++runs);
    fclose(count);
  }
  work(n * 200000);
  usleep(300000);
  close(fd);
  unlink("prog.lock");
  if (n == 5 && traced)
    return 4;
  if ((n == 6 && traced) || runs == 4)
    puts("other");
  else
    printf("%ld\n", n);
  return 0;
}
"""


def test_eval_runs_a_held_out_input_once_at_a_time_and_checks_each_run(tmp_path):
    """Found by a SQLite user: eval recorded the oracle's (clang's
    instrumented build) and the measured (Phaedrus's) runs of a held-out
    input at once, and kept whatever they recorded. Two runs of a program
    that locks its database file then fail each other, and the failed run's
    profile became the measured one (overlap with the oracle 0.000 on a
    program that takes a lock file, no word said). The runs now take turns,
    and each must exit and print as the plain build does."""
    (tmp_path / "race.c").write_text(RACE_C)
    prog = tmp_path / "race"
    assert phaedrus("ir", tmp_path / "race.c", "-o", f"{prog}.mlir").returncode == 0
    result = phaedrus("instrument", f"{prog}.mlir", "-o", f"{prog}.inst",
                      "--granularity", "path")
    assert result.returncode == 0, result.stderr
    for n in (1, 2, 4, 3):
        out = tmp_path / ("held" if n == 3 else "runs") / f"n{n}.wpp"
        result = phaedrus("run", f"{prog}.inst", "-o", out, "--no-stdin", "--", n,
                          cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    result = phaedrus("corpus", *sorted((tmp_path / "runs").glob("*.wpp")),
                      "--program", f"{prog}.inst.mlir", "-o", tmp_path / "c.json")
    assert result.returncode == 0, result.stderr
    result = phaedrus("train", tmp_path / "c.json", "-o", tmp_path / "m.mlir",
                      "--kind", "retrieval")
    assert result.returncode == 0, result.stderr
    base = [f"{prog}.mlir", "--model", tmp_path / "m.mlir", "--corpus",
            tmp_path / "c.json", "-o", tmp_path / "e.json", "--workdir",
            tmp_path / "wd", "--instrumented", f"{prog}.inst"]
    held = tmp_path / "held" / "n3.wpp.input.json"
    result = phaedrus("eval", *base, "--held-out", held, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    row, = json.loads((tmp_path / "e.json").read_text())["rows"]
    assert row["overlap"]["measured"] > 0.99, row["overlap"]
    # A recorded run that fails is an error, not a profile.
    failing = json.loads(held.read_text())
    failing["argv"][-1] = "5"
    (tmp_path / "n5.input.json").write_text(json.dumps(failing))
    result = phaedrus("eval", *base, "--held-out", tmp_path / "n5.input.json",
                      cwd=tmp_path)
    assert result.returncode == 1
    assert "n5: the run of the Phaedrus-instrumented build exited with 4 (the " \
        "plain build: 0)" in result.stderr, result.stderr
    # ... so is one that prints something else, and a plain build that
    # does not print the same on every run (its fourth run, after the
    # oracle's and the measured ones).
    for n, words in [(6, "n6: the run of the Phaedrus-instrumented build printed "
                         "other output than the plain build's"),
                     (7, "n7: the plain build's output or exit code differs from "
                         "its own earlier run's")]:
        other = dict(failing, argv=failing["argv"][:-1] + [str(n)])
        (tmp_path / f"n{n}.input.json").write_text(json.dumps(other))
        result = phaedrus("eval", *base, "--held-out", tmp_path / f"n{n}.input.json",
                          cwd=tmp_path)
        assert result.returncode == 1
        assert words in result.stderr, result.stderr


def test_remarks_of_a_prediction_leave_out_the_lines_they_quote():
    """MLIR quotes the line of each diagnostic's location; on a module
    imported from LLVM IR that is a function's signature, 600 characters of
    attributes, and 11 of them were about half of a SQLite user's eval log. The
    driver keeps each message and its file:line:column."""
    from phaedrus.tools import without_quoted_lines
    signature = "  llvm.func internal @f() attributes {" + "x, " * 200 + "}"
    stderr = "\n".join([
        "prog.mlir:3:5: remark: phaedrus-predict: @f is left without an entry count",
        signature, "  ^",
        "prog.mlir:0:0: warning: a warning without a quoted line",
        "prog.mlir:9:1: remark: the prediction blends the training runs a 1.00",
        "  llvm.func @g()", "  ^~~~"])
    assert without_quoted_lines(stderr).splitlines() == [
        "prog.mlir:3:5: remark: phaedrus-predict: @f is left without an entry count",
        "prog.mlir:0:0: warning: a warning without a quoted line",
        "prog.mlir:9:1: remark: the prediction blends the training runs a 1.00"]
