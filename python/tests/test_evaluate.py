"""The measures of phaedrus eval on hand-made profiles (python/phaedrus/evaluate.py)."""

import json
import os
import re
import statistics
from pathlib import Path

import pytest

from phaedrus import evaluate

IR = """
define i32 @main(i32 %a) !prof !1 {
  %c = icmp eq i32 %a, 0
  br i1 %c, label %x, label %y, !prof !2
x:
  br i1 %c, label %y, label %z
y:
  switch i32 %a, label %z [
    i32 1, label %x
    i32 2, label %z
  ], !prof !3
z:
  ret i32 0
}
define internal void @leaf() !prof !4 {
  ret void
}
define available_externally i32 @tolower(i32 %c) !prof !5 {
  ret i32 %c
}
!1 = !{!"function_entry_count", i64 1}
!2 = !{!"branch_weights", i32 10, i32 30}
!3 = !{!"branch_weights", !"expected", i32 5, i32 6, i32 7}
!4 = !{!"function_entry_count", i64 40}
!5 = !{!"function_entry_count", i64 999}
"""


def test_profile_counters_line_up_every_branch():
    counters = evaluate.profile_counters(IR)
    assert counters == {
        ("entry", "main"): 1,
        ("branch", "main", 0, 0): 10, ("branch", "main", 0, 1): 30,
        # The unprofiled branch still takes position 1, the switch is 2.
        ("branch", "main", 2, 0): 5, ("branch", "main", 2, 1): 6,
        ("branch", "main", 2, 2): 7,
        ("entry", "leaf"): 40,
        # tolower is a library's inline copy: left out.
    }


def test_profile_counters_read_weights_llvm_prints_negative():
    """LLVM prints an i32 weight of 2^31 or more as a negative number (a
    long run's hot branch, or branches SimplifyCFG merged): it is a weight
    like any other, not a branch without one."""
    ir = IR.replace("i32 10, i32 30", "i32 -1601497736, i32 30")
    counters = evaluate.profile_counters(ir)
    assert counters[("branch", "main", 0, 0)] == 2**32 - 1601497736
    assert counters[("branch", "main", 0, 1)] == 30


def test_overlap():
    a = {"p": 1, "q": 3}
    assert evaluate.overlap(a, a) == pytest.approx(1.0)
    assert evaluate.overlap(a, {"p": 10, "q": 30}) == pytest.approx(1.0)  # scale-free
    assert evaluate.overlap(a, {"r": 5}) == 0.0
    assert evaluate.overlap(a, {"p": 1, "q": 1}) == pytest.approx(0.25 + 0.5)
    assert evaluate.overlap(a, {}) == 0.0


def test_hot_coverage():
    oracle = {("entry", f): n for f, n in
              {"hot": 900, "warm": 95, "cold": 4, "main": 1}.items()}
    # The oracle's hot set at 99%: hot and warm (995 of 1000 calls).
    assert evaluate.hot_coverage(oracle, oracle) == 1.0
    swapped = {("entry", "hot"): 1, ("entry", "cold"): 50, ("entry", "warm"): 60}
    # Top 2 of the candidate: warm and cold: 99 of the oracle's 995.
    assert evaluate.hot_coverage(swapped, oracle) == pytest.approx(99 / 995)
    assert evaluate.hot_coverage({}, oracle) == 0.0
    # A profile that says the hot functions never ran does not cover them
    # (its top places were filled with them, by name).
    never = {("entry", "hot"): 0, ("entry", "warm"): 0, ("entry", "cold"): 5}
    assert evaluate.hot_coverage(never, oracle) == pytest.approx(4 / 995)  # cold


def test_blend_ceiling():
    runs = {"a": {"p": 10, "q": 0}, "b": {"q": 30, "r": 10}, "c": {"s": 5}}
    # The oracle is a 1:1 mix of a and b (normalised): the best blend finds it.
    oracle = {"p": 2, "q": 1.5, "r": 0.5}
    value, weights = evaluate.blend_ceiling(runs, oracle)
    assert value == pytest.approx(1.0, abs=1e-3)
    assert weights["a"] == pytest.approx(0.5, abs=0.01)
    assert weights["b"] == pytest.approx(0.5, abs=0.01)
    assert "c" not in weights
    # It is at least the best single run's overlap, and no blend reaches a
    # counter no run has.
    oracle = {"p": 1, "t": 3}
    value, weights = evaluate.blend_ceiling(runs, oracle)
    assert value == pytest.approx(evaluate.overlap(runs["a"], oracle))
    assert weights == {"a": 1.0}
    assert evaluate.blend_ceiling(runs, {"t": 1})[0] == 0.0
    assert evaluate.blend_ceiling({}, oracle) == (0.0, {})


def test_recovery_and_summary():
    def row(times, mismatch_overlap=0.5):
        # Three rounds, the second in a slow spell that slows every build.
        rounds = {v: [t, 3 * t, t] for v, t in times.items()}
        return {"median_s": times, "times_s": rounds,
                "speedup": {v: evaluate.paired_ratio(rounds, "plain", v)
                            for v in times},
                "overlap": {v: 1.0 if v in ("oracle", "measured") else mismatch_overlap
                            for v in evaluate.PROFILED},
                "hot_coverage": {v: 1.0 for v in evaluate.PROFILED}}
    times = {"plain": 1.10, "mismatch": 1.2, "predicted": 1.05, "oracle": 1.0,
             "measured": 1.0, "nearest": 1.1, "mean": 1.1, "static": 1.1}
    flat = dict(times, oracle=1.095)  # the oracle gains less than 2%
    s = evaluate.summarize([row(times), row(flat)])
    assert s["oracle_meaningful_count"] == 1
    assert s["oracle_recovery_mean"] == pytest.approx((1.10 / 1.05 - 1) / 0.10)
    assert s["lowering_recovery_mean"] == pytest.approx(1.0)
    assert s["mismatch_loses_count"] == 2
    assert s["predicted_beats_mismatch_count"] == 2
    assert evaluate.recovery(row(flat), "predicted") is None
    # Every round gives the same ratios (the slow spell slows every build
    # alike): the intervals are points.
    assert s["oracle_recovery_interval"] == pytest.approx([(1.10 / 1.05 - 1) / 0.10] * 2)
    assert s["lowering_recovery_interval"] == pytest.approx([1.0, 1.0])
    assert evaluate.summarize([row(flat)])["oracle_recovery_interval"] is None
    assert s["overlap_blend_ceiling_mean"] is None  # rows without a ceiling
    # The median of the total ratios counts a prediction of no counts (0),
    # which it left out; an unknown (None) one is left out.
    rows = [dict(row(times), total_ratio={"predicted": r}) for r in (0.0, 0.0, 1.0, None)]
    assert evaluate.summarize(rows)["total_ratio_predicted_median"] == 0.0
    with_ceiling = [dict(row(times), blend_ceiling={"overlap": x, "weights": {}})
                    for x in (0.4, 0.6)]
    assert evaluate.summarize(with_ceiling)["overlap_blend_ceiling_mean"] == \
        pytest.approx(0.5)


def test_paired_ratio_cancels_slow_spells():
    # b is 10% faster than a in every round but the last, where a slow spell
    # ended between a's run and b's. Rounds 2, 3 and 5 were slow for a: its
    # median is a slow run, b's a fast one.
    times = {"a": [1.1, 2.2, 2.2, 1.1, 2.2], "b": [1.0, 2.0, 2.0, 1.0, 1.0]}
    assert statistics.median(times["a"]) / statistics.median(times["b"]) == pytest.approx(2.2)
    assert evaluate.paired_ratio(times, "a", "b") == pytest.approx(1.1)
    assert evaluate.paired_ratio(times, "b", "a") == pytest.approx(1 / 1.1)


def test_mean_counts_and_distance():
    corpus = {"runs": [{"tokens": [[0, 10], [1, 90]]}, {"tokens": [[0, 100], [2, 100]]}]}
    # Shares: token 0 (0.1 + 0.5) / 2, token 1 0.9 / 2, token 2 0.5 / 2;
    # mean length 150.
    assert dict(map(tuple, evaluate.mean_counts(corpus))) == {0: 45, 1: 68, 2: 38}
    assert evaluate.descriptor_distance(["a", "b"], ["a", "b"]) == 0.0
    assert evaluate.descriptor_distance(["a", "b"], ["b", "c"]) == pytest.approx(2 / 3)


def test_model_header_reads_names_back(tmp_path):
    """The names eval reads from a model file are the tokens written, the
    escapes of MLIR strings undone, whatever they hold."""
    from phaedrus.pipeline import mlir_string, model_header
    from phaedrus.tools import ToolError
    names = ['arg1="x"', "back\\slash", "ünï", "a])b", "tab\there"]
    runs = ["text-9", 'a"b']
    ops = (f"phaedrus.model @m mlp vocabulary(@v) fingerprint(1) vocab_size(2)\n"
           f"    descriptors([{', '.join(map(mlir_string, names))}])\n"
           f"    runs([{', '.join(map(mlir_string, runs))}])\n"
           "    hyperparameters({}) weights({})\n")
    path = tmp_path / "m.mlir"
    path.write_text(ops + '{-#\n  dialect_resources: { builtin: { w: "0x0400" } }\n#-}\n')
    assert model_header(path) == {"kind": "mlp", "vocab_size": 2, "descriptors": names,
                                  "runs": runs}
    path.write_text("".join(line for line in ops.splitlines(True)
                            if not line.startswith("    runs(")))
    assert model_header(path)["runs"] is None
    assert model_header(path)["descriptors"] == names
    # The op's parts may stand on lines of their own.
    path.write_text(ops.replace(" vocab_size(2)", "\n    vocab_size(2)"))
    assert model_header(path)["runs"] == runs
    path.write_text("module {}\n")
    with pytest.raises(ToolError, match="not a model file"):
        model_header(path)
    # A plain module holding an imported trace's vocabulary is a module,
    # not an instrumented one (that has the runtime's registration).
    path.write_text("module {\n  phaedrus.vocabulary @v fingerprint(1) {\n  }\n}\n")
    with pytest.raises(ToolError, match="not a model file: it is an MLIR module"):
        model_header(path)
    path.write_text("module {\n  llvm.func @__phaedrus_register()\n}\n")
    with pytest.raises(ToolError, match="it is an instrumented module"):
        model_header(path)
    path.write_text(ops.replace(" vocab_size(2)", ""))
    with pytest.raises(ToolError, match="has no vocab_size"):
        model_header(path)
    # A file whose first bytes say what else it is (a trace, a binary).
    from phaedrus.tools import TRACE_FILE_KIND
    for magic, kind in [(b"PHDRWPP\n", TRACE_FILE_KIND),
                        (b"\x7fELF", "an executable or object file (ELF)")]:
        path.write_bytes(magic + bytes(64))
        with pytest.raises(ToolError, match=re.escape(
                f"{path} is not a model, it is {kind}: give the file "
                f"'phaedrus train' wrote")):
            model_header(path)
    # Bytes that are not text.
    path.write_bytes(b"\xff\xfe model \x80\n")
    with pytest.raises(ToolError, match=f"cannot read the model {re.escape(str(path))}"):
        model_header(path)


def test_intervals_widen_with_noise():
    """The bootstrap intervals of speedups and recoveries hold the measured
    value and widen as the rounds disagree; they are reproducible."""
    import random
    rng = random.Random(5)

    def rounds(noise, n=21):
        times = {"plain": [], "oracle": [], "predicted": []}
        for _ in range(n):
            slow = rng.uniform(1, 3)  # a slow spell slows the whole round
            for v, t in (("plain", 1.10), ("oracle", 1.0), ("predicted", 1.05)):
                times[v].append(t * slow * rng.uniform(1 - noise, 1 + noise))
        return times
    widths = []
    for noise in (0.001, 0.05):
        times = rounds(noise)
        intervals = evaluate.speedup_intervals(times)
        assert intervals == evaluate.speedup_intervals(times)
        for v in ("oracle", "predicted"):
            lo, hi = intervals[v]
            assert lo <= evaluate.paired_ratio(times, "plain", v) <= hi
        widths.append(intervals["oracle"][1] - intervals["oracle"][0])
        row = {"times_s": times,
               "speedup": {v: evaluate.paired_ratio(times, "plain", v) for v in times}}
        lo, hi = evaluate.recovery_interval([row], "predicted")
        assert lo <= evaluate.recovery(row, "predicted") <= hi
    assert widths[0] < 0.01 < widths[1]


def test_mass_and_shape():
    """Overlap lost in which functions are hot against what they do inside."""
    oracle = {("entry", "f"): 50, ("branch", "f", 0, 0): 40, ("branch", "f", 0, 1): 10,
              ("entry", "g"): 100}
    # The same shape inside f, but f half as hot: only mass is lost.
    colder = {("entry", "f"): 25, ("branch", "f", 0, 0): 20, ("branch", "f", 0, 1): 5,
              ("entry", "g"): 100}
    split = evaluate.mass_and_shape(colder, oracle)
    assert split["shape"] == pytest.approx(1.0) and split["shape_loss"] == {}
    assert split["mass"] == pytest.approx(1 - (0.5 - 50 / 150))
    # f as hot, its branch the other way round: only shape is lost, in f.
    flipped = {("entry", "f"): 50, ("branch", "f", 0, 0): 10, ("branch", "f", 0, 1): 40,
               ("entry", "g"): 100}
    split = evaluate.mass_and_shape(flipped, oracle)
    assert split["mass"] == pytest.approx(1.0)
    # Inside f (total 100): entry 0.5, branches 0.4 and 0.1 against 0.1 and 0.4.
    assert split["shape_loss"] == {"f": pytest.approx(0.5 * (1 - 0.7))}
    assert split["shape"] == pytest.approx(1 - 0.5 * 0.3)
    # A function the candidate never enters loses its whole share both ways.
    split = evaluate.mass_and_shape({("entry", "g"): 1}, oracle)
    assert split["mass"] == pytest.approx(0.5) and split["shape"] == pytest.approx(0.5)
    assert list(split["shape_loss"]) == ["f"]
    # The overlap of the whole profile is never above its mass overlap
    # (within a function, the summed minimum is at most the smaller share).
    import random
    rng = random.Random(3)
    for _ in range(50):
        candidate = {k: rng.randint(0, 100) for k in oracle}
        if sum(candidate.values()):
            assert evaluate.overlap(candidate, oracle) <= \
                evaluate.mass_and_shape(candidate, oracle)["mass"] + 1e-12


def test_function_granularity_compares_entry_counts_only():
    """A function-granularity profile weighs few branches: compared with
    the oracle's branches too, a run's own exact profile would overlap it
    little; by entry counts, fully."""
    oracle = evaluate.profile_counters(IR)
    own = {k: v for k, v in oracle.items() if k[0] == "entry"}
    assert evaluate.overlap(own, oracle) < 0.6
    assert evaluate.comparable(oracle, "path") == oracle
    entries = evaluate.comparable(oracle, "function")
    assert set(entries) == {("entry", "main"), ("entry", "leaf")}
    assert evaluate.overlap(evaluate.comparable(own, "function"), entries) == \
        pytest.approx(1.0)


def test_reuse_skips_a_step_only_while_its_inputs_and_outputs_are_unchanged(tmp_path):
    """An eval in a work directory reuses the builds of an earlier one: a
    step (a function of its input files and parameters) runs again when an
    input's bytes, a parameter or an output changed, when its last run
    failed, and always with reuse off (--rebuild)."""
    source, out = tmp_path / "in.ll", tmp_path / "out"
    source.write_text("one")
    calls = []

    def build(text="built"):
        calls.append(text)
        out.write_text(text + source.read_text())

    reuse = evaluate.Reuse()
    reuse.step("link", [out], [source], ["-O2"], build)
    reuse.step("link", [out], [source], ["-O2"], build)
    assert len(calls) == 1 and (reuse.built, reuse.reused) == (1, 1)
    assert (tmp_path / "out.key").exists()
    # Another parameter, then other bytes of the same size in the input.
    reuse.step("link", [out], [source], ["-O3"], build)
    source.write_text("two")
    reuse.step("link", [out], [source], ["-O3"], build)
    assert len(calls) == 3 and out.read_text() == "builttwo"
    # Another eval reuses it too.
    again = evaluate.Reuse()
    again.step("link", [out], [source], ["-O3"], build)
    assert len(calls) == 3 and again.reused == 1
    # An output changed or gone since.
    out.write_text("edited by hand")
    again.step("link", [out], [source], ["-O3"], build)
    assert len(calls) == 4 and out.read_text() == "builttwo"
    out.unlink()
    again.step("link", [out], [source], ["-O3"], build)
    assert len(calls) == 5

    # A step that fails leaves no key: the next eval builds it.
    def fails():
        out.write_text("half")
        raise RuntimeError("clang failed")
    with pytest.raises(RuntimeError):
        again.step("link", [out], [source], ["-O1"], fails)
    assert not (tmp_path / "out.key").exists()
    again.step("link", [out], [source], ["-O1"], build)
    assert len(calls) == 6 and out.read_text() == "builttwo"
    # A key file that is not JSON is no key.
    (tmp_path / "out.key").write_text("{cut")
    again.step("link", [out], [source], ["-O1"], build)
    assert len(calls) == 7
    # Reuse off: every step runs.
    off = evaluate.Reuse(enabled=False)
    off.step("link", [out], [source], ["-O1"], build)
    assert len(calls) == 8 and off.reused == 0


def test_an_eval_says_which_tools_changed_since_the_last_in_its_directory(tmp_path):
    """A SQLite user's second eval in one work directory built all 58 steps
    again without a word: the tools had been rebuilt in between. The work
    directory keeps the tools of its last eval, and the next names those
    that differ."""
    first = evaluate.Reuse()
    assert first.tools_changed(tmp_path) == []  # no earlier eval
    assert evaluate.Reuse().tools_changed(tmp_path) == []  # the same tools
    rebuilt = evaluate.Reuse()
    stamps = {k: list(t) if isinstance(t, list) else t
              for k, t in rebuilt.tool_stamps.items()}
    stamps["phaedrus-opt"][2] += 1  # its modification time
    stamps["clang"] = "clang version 99"
    rebuilt.__dict__["tool_stamps"] = stamps
    assert rebuilt.tools_changed(tmp_path) == ["phaedrus-opt", "clang"]


def test_an_eval_tells_tools_that_changed_while_it_ran(tmp_path, monkeypatch):
    """A Tcl user's tools were rebuilt while an eval ran (another engineer's
    build): nothing said so, and its builds came from two versions. The
    stamps taken at the start are compared with the tools' at the end."""
    tool = tmp_path / "phaedrus-opt"
    tool.write_bytes(b"v1")
    real = evaluate.phaedrus_tool
    monkeypatch.setattr(evaluate, "phaedrus_tool",
                        lambda name: tool if name == "phaedrus-opt" else real(name))
    reuse = evaluate.Reuse()
    reuse.tool_stamps  # the start's
    assert reuse.changed_since_start() == []
    tool.write_bytes(b"v2, rebuilt")
    assert reuse.changed_since_start() == ["phaedrus-opt"]



def test_printed_row_gives_the_static_build_no_total_and_leaves_out_null_losses(capsys):
    """The static estimate's counts have no scale (a gawk user read 'total
    x3396031659.81' as a bug), and shape losses that print as 0.000 say
    nothing."""
    variants = list(evaluate.VARIANTS)
    row = {"input": "held", "times_s": {v: [1.0] * 5 for v in variants},
           "median_s": {v: 1.0 for v in variants}, "spread": {v: 0.0 for v in variants},
           "speedup": {v: 1.0 for v in variants},
           "overlap": {v: 0.5 for v in evaluate.PROFILED},
           "hot_coverage": {v: 0.5 for v in evaluate.PROFILED},
           "total_ratio": {v: 3.4e9 if v == "static" else 0.5 for v in evaluate.PROFILED},
           "mass_and_shape": {"predicted": {"mass": 0.9, "shape": 0.8, "shape_loss": {
               "hot": 0.12, "none": 0.0001}}}}
    evaluate.print_row(row)
    out = capsys.readouterr().out
    static = next(line for line in out.splitlines() if line.strip().startswith("static"))
    assert "total (no scale)" in static and "x3400000000" not in static
    assert "total x0.50" in next(line for line in out.splitlines()
                                  if line.strip().startswith("predicted"))
    assert "shape lost most in hot 0.120)" in out and "none" not in out


def test_parallel_steps_say_how_far_they_are(monkeypatch, capsys):
    """A long step of several builds (lowering 30 training profiles took a
    gawk user's path eval 5 minutes) says how many are done, in order, and
    that all are done at the end (a zstd user's last note, "11 of 19", read
    as if 8 had failed)."""
    from types import SimpleNamespace
    monkeypatch.setattr(evaluate, "PROGRESS_NOTE_S", 0.0)
    host = SimpleNamespace(jobs=1)
    results = evaluate.Evaluation.parallel(host, lambda x: x * 2, range(4),
                                           what="profiles lowered")
    assert results == [0, 2, 4, 6]
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" (")[0] for line in lines] == [
        f"phaedrus: eval: {k} of 4 profiles lowered" for k in (1, 2, 3, 4)]
    # Without `what`, nothing is said.
    assert evaluate.Evaluation.parallel(host, lambda x: x, [1, 2]) == [1, 2]
    assert capsys.readouterr().err == ""


def test_a_run_that_rewrites_its_input_is_refused(tmp_path):
    """sed -i and the like: every timed repetition would run on another
    input (a sed user's eval timed substitutions of nothing, in silence)."""
    data = tmp_path / "data.csv"
    data.write_text("a,void\n" * 100)
    inp = evaluate.Input("inplace", ["sed", "-i", "s/,void$/,x/", str(data)],
                         cwd=str(tmp_path))
    before = evaluate.input_files_state(inp)
    assert list(before) == [str(data)]
    evaluate.check_input_unchanged(inp, before)  # nothing ran yet
    data.write_text("a,x\n" * 100)
    with pytest.raises(evaluate.ToolError) as error:
        evaluate.check_input_unchanged(inp, before)
    assert f"inplace: running it changed its input file {data} (700 bytes -> " \
        "400)" in str(error.value)
    # Standard input counts too; arguments that are no files do not.
    stdin = tmp_path / "in.txt"
    stdin.write_text("x\n")
    inp = evaluate.Input("s", ["prog", "-n", "no-such-file"], stdin=str(stdin))
    assert list(evaluate.input_files_state(inp)) == [str(stdin)]


def test_a_description_of_an_input_since_rewritten_is_told(tmp_path, capsys):
    """The recorded run itself rewrote its input (sed -i under phaedrus
    run): the description no longer describes the file eval runs on."""
    import json
    from phaedrus import corpus
    data = tmp_path / "data.txt"
    data.write_text("alpha beta gamma\n" * 50)
    argv = ["prog", str(data)]
    info = corpus.describe_input(argv, cwd=tmp_path)
    (tmp_path / "run.input.json").write_text(json.dumps(info))
    evaluate.load_input(tmp_path / "run.input.json")
    assert "is not what it was" not in capsys.readouterr().err
    data.write_text("delta epsilon\n" * 5000)
    inp = evaluate.load_input(tmp_path / "run.input.json")
    assert inp.argv == argv
    err = capsys.readouterr().err
    assert "run.input.json: the input is not what it was when the run was " \
        "described" in err and "descriptor tokens differ" in err, err


SOURCE = """
%s
static int table[64];
__attribute__((noinline)) int walk(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += table[i & 63] * i;
  return s;
}
__attribute__((noinline)) int pick(int n) { return n > 3 ? walk(n) : %s; }
int main(int argc, char **argv) { (void)argv; return pick(argc) & 1; }
"""


def _binary(tmp_path, name, before="", other="0"):
    from phaedrus.tools import llvm_tool, run
    source = tmp_path / f"{name}.c"
    source.write_text(SOURCE % (before, other))
    binary = tmp_path / name
    run([llvm_tool("clang"), "-O2", source, "-o", binary], what="clang")
    return binary


def test_same_code_ignores_where_code_lies_and_sees_what_changed(tmp_path):
    base = evaluate.function_code(_binary(tmp_path, "base"))
    assert base["walk"] and base["pick"] and base["main"]
    # A function more before them moves all of them (and the table): the
    # same code, at other addresses.
    moved = evaluate.function_code(_binary(
        tmp_path, "moved", before="int spare(int x) { return x * 7 + 1; }"))
    assert "spare" in moved
    for name in ("walk", "pick", "main"):
        assert moved[name] == base[name], name
    assert evaluate.same_code(moved, base) == 1.0
    # pick compiled otherwise: its share of the code is no longer alike.
    changed = evaluate.function_code(_binary(tmp_path, "changed", other="n * 5"))
    assert changed["walk"] == base["walk"] and changed["pick"] != base["pick"]
    total = sum(len(c) for c in base.values())
    alike = total - len(base["pick"])
    assert evaluate.same_code(changed, base) == pytest.approx(alike / total)
    assert 0 < evaluate.same_code(changed, base) < 1
    assert evaluate.same_code({}, base) == 0.0


def test_timed_runs_write_to_a_file_not_dev_null(tmp_path):
    """A program may do less when its output is /dev/null (GNU grep stops at
    the first match): eval times the run whose profile it compares."""
    from phaedrus.timing import timed_run
    script = ('test "$(readlink /proc/self/fd/1)" != /dev/null && '
              'test "$(readlink /proc/self/fd/2)" != /dev/null && echo out')
    seconds, code = timed_run("/bin/sh", ["sh", "-c", script])
    assert code == 0 and seconds > 0
    # What it is given, it writes to.
    out = tmp_path / "out"
    with open(out, "wb") as f:
        assert timed_run("/bin/sh", ["sh", "-c", script], stdout=f)[1] == 0
    assert out.read_text() == "out\n"


def test_timed_runs_by_cpu_time_leave_out_waiting(tmp_path):
    """A timed run has two clocks: wall time, and the CPU time the kernel
    accounted to the process, which leaves out time spent waiting (here a
    sleep; on a busy machine, the wait for a CPU). The CPU time of a busy
    loop is counted, with the children the process waited for."""
    from phaedrus.timing import time_run, timed_run
    sleeping = time_run("/bin/sh", ["sh", "-c", "sleep 0.4"])
    assert sleeping.code == 0
    assert sleeping.wall >= 0.4 and sleeping.cpu < 0.2
    assert timed_run("/bin/sh", ["sh", "-c", "sleep 0.4"], clock="cpu")[0] < 0.2
    assert timed_run("/bin/sh", ["sh", "-c", "sleep 0.4"], clock="wall")[0] >= 0.4
    # A loop in a child of the timed process: its CPU time is the run's.
    busy = time_run("/bin/sh", ["sh", "-c", "sh -c 'i=0; while [ $i -lt 200000 ]; "
                                "do i=$((i+1)); done'; exit 3"])
    assert busy.code == 3
    assert busy.cpu > 0.05 and busy.cpu <= busy.wall * 1.05 + 0.01
    with pytest.raises(ValueError, match="unknown clock 'tsc'"):
        timed_run("/bin/true", ["true"], clock="tsc")


def test_eval_warns_when_its_timed_runs_waited(capsys):
    """Runs whose wall time is well above their CPU time waited for the CPU
    (other work on the machine) or for I/O: eval says its speedups are less
    firm for it."""
    from phaedrus import evaluate
    evaluate.warn_if_waited({"input": "big", "wall_over_cpu": 1.04})
    assert capsys.readouterr().err == ""
    evaluate.warn_if_waited({"input": "big", "wall_over_cpu": 2.7})
    err = capsys.readouterr().err
    assert "warning: big: the timed runs took 2.70x their CPU time in wall time " \
        "(median): they waited" in err, err
    assert "time on a quiet machine" in err


def test_eval_warns_when_the_default_pgo_input_shares_no_option(capsys):
    """Mismatched PGO trained by default on the corpus's first run (a zstd
    user's: a decompression, for compressions): eval warns when its options
    share none with a held-out input's, and names --pgo-input."""
    from types import SimpleNamespace
    corpus = {"runs": [{"name": "d-elf", "descriptor": ["argc=2", "opt=-d", "opt=-c"]},
                       {"name": "text-9", "descriptor": ["argc=2", "opt=-9", "opt=-c"]}]}
    host = SimpleNamespace(pgo_defaulted=True, corpus=corpus,
                           pgo_input=SimpleNamespace(name="d-elf"))
    held = evaluate.Input("big", ["zstd", "-12"])
    evaluate.Evaluation.warn_if_pgo_input_is_far(host, held, ["argc=1", "opt=-12"])
    err = capsys.readouterr().err
    assert ("warning: big: mismatched PGO is trained on d-elf, the corpus's first "
            "run, whose options (-c -d) share none with this input's (-12): a weak "
            "baseline; --pgo-input NAME trains it") in err, err
    # An option in common, or the input chosen by the user: no warning.
    evaluate.Evaluation.warn_if_pgo_input_is_far(host, held, ["argc=2", "opt=-d", "opt=-T2"])
    host.pgo_defaulted = False
    evaluate.Evaluation.warn_if_pgo_input_is_far(host, held, ["argc=1", "opt=-12"])
    assert capsys.readouterr().err == ""


def test_eval_warns_when_the_pgo_input_is_the_nearest_run(capsys):
    """Mismatched PGO trained on the held-out input's nearest run (a gawk
    user's: the same program on the same data, larger) is a matched
    baseline: eval says so."""
    from types import SimpleNamespace
    host = SimpleNamespace(pgo_input=SimpleNamespace(name="colstats-nums_m"))
    held = evaluate.Input("colstats-nums_l", ["gawk", "-f", "colstats.awk"])
    evaluate.Evaluation.warn_if_pgo_input_is_nearest(host, held, "wordfreq-s")
    assert capsys.readouterr().err == ""
    evaluate.Evaluation.warn_if_pgo_input_is_nearest(host, held, "colstats-nums_m")
    err = capsys.readouterr().err
    assert ("warning: colstats-nums_l: mismatched PGO is trained on colstats-nums_m, "
            "which is also this input's nearest training run") in err, err
    assert "--pgo-input NAME" in err


def test_eval_warns_when_the_plain_timings_spread_widely(capsys):
    """A plain build timed with a spread of 17% (a gawk user's) cannot
    resolve gains of a few percent: eval says so; 3% passes quietly."""
    evaluate.warn_if_noisy({"input": "big", "spread": {"plain": 0.03}})
    assert capsys.readouterr().err == ""
    evaluate.warn_if_noisy({"input": "big", "spread": {"plain": 0.174}})
    err = capsys.readouterr().err
    assert "warning: big: the plain build's timings spread 17.4%" in err, err
    assert "raise --rounds" in err


def test_eval_says_when_the_timings_cannot_resolve_the_recoveries():
    """A recovery of 1.9 in [0.0, 1.9] is no result (a zstd user read it as
    one): eval warns when an interval spans more than 1."""
    assert evaluate.unresolved_recoveries({
        "oracle_recovery_interval": [0.65, 1.5],
        "lowering_recovery_interval": None}) == ""
    warning = evaluate.unresolved_recoveries({
        "oracle_recovery_interval": [0.0, 1.891],
        "lowering_recovery_interval": [0.92, 1.9]})
    assert warning.startswith("warning: the timings cannot resolve the gains: "
                              "oracle recovery [0.00, 1.89] is wider than 1")
    assert "lowering" not in warning and "raise --rounds" in warning


def test_timed_runs_are_pinned_to_the_cpu_chosen(tmp_path):
    """interleaved_rounds runs every timed process on the CPU it is given
    (the process inherits it) and gives the caller its CPUs back; timing_cpu
    chooses the CPU and refuses ones the process may not run on, and `auto`
    leaves a CPU that other work keeps busy for an idle one."""
    from phaedrus.timing import interleaved_rounds, time_run, timing_cpu
    allowed = sorted(os.sched_getaffinity(0))
    assert timing_cpu("none") is None
    assert timing_cpu(str(allowed[0])) == allowed[0]
    # auto: one the process may run on, where it may run on several.
    if len(allowed) > 1:
        assert timing_cpu("auto", sample_s=0.05) in allowed
    else:
        assert timing_cpu("auto") is None
    with pytest.raises(ValueError, match=f"CPU {allowed[-1] + 1} is not one this "
                                         f"process may run on"):
        timing_cpu(str(allowed[-1] + 1))
    with pytest.raises(ValueError, match="give auto, none or a CPU's number"):
        timing_cpu("fast")

    def cpus_of_a_run(key):
        out = tmp_path / f"{key}.out"
        with open(out, "wb") as f:
            time_run("/bin/sh", ["sh", "-c", "grep Cpus_allowed_list /proc/self/status"],
                     stdout=f)
        return out.read_text().split()[-1]

    cpu = allowed[-1]
    seen = interleaved_rounds(["a", "b"], cpus_of_a_run, 2, cpu=cpu)
    assert seen == {"a": [str(cpu)] * 2, "b": [str(cpu)] * 2}
    assert sorted(os.sched_getaffinity(0)) == allowed
    # Unpinned, a run may go wherever the caller may.
    unpinned = interleaved_rounds(["a"], cpus_of_a_run, 1)["a"][0]
    if len(allowed) > 1:
        assert unpinned != str(cpu)


def test_auto_cpu_leaves_a_busy_cpu_for_an_idle_one():
    """`auto` picks the CPU idle longest while it watched, ties to the
    higher number: one that other work kept busy is left alone."""
    from phaedrus.timing import _parse_cpu_ranges, idlest_cpu
    before = {0: 100, 1: 200, 2: 300, 3: 400}
    # CPU 3 busy (no idle ticks), 1 and 2 idle throughout.
    after = {0: 110, 1: 220, 2: 320, 3: 400}
    assert idlest_cpu([0, 1, 2, 3], before, after) == 2
    assert idlest_cpu([0, 3], before, after) == 0
    # Nothing to tell them apart (unreadable /proc/stat): the higher one.
    assert idlest_cpu([0, 1], {}, {}) == 1
    # The kernel's lists of CPUs (isolated ones come as such).
    assert _parse_cpu_ranges("0-2,5\n") == [0, 1, 2, 5]
    assert _parse_cpu_ranges("\n") == []


def test_a_hand_written_description_runs_where_it_is_described(tmp_path):
    """An input description by hand: a relative stdin is its cwd's file, as
    the featurizer and the prediction read it (eval's runs read the file of
    eval's own directory, another input); a cwd that is not a directory is
    refused at once (it failed after every shared build, blaming the
    binary: "cannot run .../plain")."""
    from phaedrus.tools import ToolError
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "in.txt").write_text("the input\n")
    desc = tmp_path / "held.input.json"
    desc.write_text(json.dumps({"argv": ["prog"], "stdin": "in.txt", "cwd": str(sub)}))
    inp = evaluate.load_input(desc)
    assert inp.stdin == str(sub / "in.txt") and inp.cwd == str(sub)
    desc.write_text(json.dumps({"argv": ["prog"], "cwd": str(tmp_path / "gone")}))
    with pytest.raises(ToolError, match=re.escape(
            f"{desc}: its cwd {tmp_path / 'gone'} is not a directory")):
        evaluate.load_input(desc)
    # Without a cwd, the stdin is eval's own directory's, as before.
    desc.write_text(json.dumps({"argv": ["prog"], "stdin": str(sub / "in.txt")}))
    assert evaluate.load_input(desc).stdin == str(sub / "in.txt")


def test_pass_options_quote_paths_with_spaces():
    from phaedrus.pipeline import pass_option
    from phaedrus.tools import ToolError
    assert pass_option("model-file", "/a/m.mlir") == "model-file=/a/m.mlir"
    assert pass_option("model-file", "/a b/m.mlir") == 'model-file="/a b/m.mlir"'
    assert pass_option("input-dir", '/a "b"') == "input-dir='/a \"b\"'"
    with pytest.raises(ToolError, match="both kinds of quote"):
        pass_option("input-dir", "/a'\"")


def test_a_work_directory_that_cannot_be_made_is_said(tmp_path):
    from phaedrus.tools import ToolError
    (tmp_path / "f").write_text("")
    with pytest.raises(ToolError, match=re.escape(
            f"cannot make the work directory {tmp_path / 'f' / 'wd'}: Not a directory")):
        evaluate.Evaluation(tmp_path / "p.mlir", tmp_path / "m.mlir", {},
                            tmp_path / "f" / "wd")


def test_paths_with_a_percent_are_written_where_they_name(tmp_path):
    """The runtimes expand %p in the paths they write (PHAEDRUS_TRACE,
    LLVM_PROFILE_FILE): what is written by the name percent_free gives
    lands at the path itself."""
    from phaedrus.tools import percent_free
    plain = tmp_path / "t.wpp"
    with percent_free(plain) as name:
        assert name == plain
    with percent_free(None) as name:
        assert name is None
    where = tmp_path / "a %p dir"
    where.mkdir()
    for target in (where / "t.wpp", where / "t%p.wpp"):
        with percent_free(target) as name:
            assert "%" not in str(name)
            Path(name).write_text("written")
        assert target.read_text() == "written"
    assert sorted(p.name for p in where.iterdir()) == ["t%p.wpp", "t.wpp"]
    # A file read by a name without a comma (a pass's list option splits at
    # one), and left where it was.
    from phaedrus.tools import path_without
    (where / "a,b.mlir").write_text("read")
    with path_without(",", where / "a,b.mlir") as name:
        assert "," not in str(name) and Path(name).read_text() == "read"
    assert (where / "a,b.mlir").read_text() == "read"


def test_links_are_keyed_by_the_libraries_they_read(tmp_path, monkeypatch):
    """A reused link is one of the same libraries: those --ldflags names as
    files, or by -l in its -L directories and LIBRARY_PATH (a user's rebuilt
    library left every binary of the earlier eval reused)."""
    (tmp_path / "libh.a").write_bytes(b"v1")
    (tmp_path / "libs").mkdir()
    (tmp_path / "libs" / "libfoo.so").write_bytes(b"foo")
    (tmp_path / "libs" / "libfoo.a").write_bytes(b"static foo")
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "libbar.a").write_bytes(b"bar")
    (tmp_path / "exact.o").write_bytes(b"obj")
    monkeypatch.setenv("LIBRARY_PATH", str(tmp_path / "env"))
    monkeypatch.chdir(tmp_path)
    files = evaluate.linked_files(["libh.a", "-L", str(tmp_path / "libs"), "-lfoo",
                                   "-lbar", "-lm", "-l:exact.o", f"-L{tmp_path}",
                                   "-Wl,--as-needed", "-pthread"])
    assert files == [Path("libh.a"), tmp_path / "libs" / "libfoo.so",
                     tmp_path / "env" / "libbar.a", tmp_path / "exact.o"]
    # The library rebuilt: the link runs again.
    reuse = evaluate.Reuse()
    monkeypatch.setattr(evaluate.Reuse, "tools", [])
    built = []
    out = tmp_path / "bin"

    def link():
        built.append(1)
        out.write_bytes(b"linked")
    for _ in range(2):
        reuse.step("link", [out], [tmp_path / "exact.o", *files], ["libh.a"], link)
    assert len(built) == 1
    (tmp_path / "libh.a").write_bytes(b"v2")
    reuse.step("link", [out], [tmp_path / "exact.o", *files], ["libh.a"], link)
    assert len(built) == 2


def test_a_plain_run_that_fails_otherwise_than_recorded_is_refused(tmp_path, capsys):
    """eval timed and reported the error path of an input whose file was
    gone (every build failed alike; an oracle recovery of 1.3): a plain run
    that exits otherwise than the recorded run is refused, and one that
    fails where nothing was recorded is warned of."""
    from phaedrus.tools import ToolError
    recorded = evaluate.Input("text", ["prog", "text.txt"], exit_status=0)
    evaluate.check_plain_run(recorded, 0, "held-out input")
    with pytest.raises(ToolError, match=re.escape(
            "text: the plain build exited with 1, where the recorded run exited "
            "with 0: its input is not what it was")):
        evaluate.check_plain_run(recorded, 1, "held-out input")
    with pytest.raises(ToolError, match="was killed by signal 11, where"):
        evaluate.check_plain_run(recorded, -11, "held-out input")
    # A recorded answer (grep found nothing) is what the run must give.
    evaluate.check_plain_run(evaluate.Input("none", ["grep"], exit_status=1), 1, "x")
    assert capsys.readouterr().err == ""
    by_hand = evaluate.Input("hand", ["prog"])
    evaluate.check_plain_run(by_hand, 2, "mismatched PGO's training run")
    assert ("warning: hand (mismatched PGO's training run): the plain build "
            "exited with 2: if that is an error") in capsys.readouterr().err
    # The description's status is read.
    desc = tmp_path / "d.input.json"
    desc.write_text(json.dumps({"argv": ["prog"], "exit_status": 3}))
    assert evaluate.load_input(desc).exit_status == 3


def test_recovery_intervals_leave_out_draws_where_the_oracle_gains_nothing():
    """A draw whose oracle gained 0.1% divided by almost nothing: around a
    recovery of 1.0 whose rounds each gave about 0.9-1.1, the interval was
    [0.96, 3.90] (the review of 2026-11-28). The interval now takes the
    mean over the inputs meaningful in each draw, as the point does."""
    ratios = [1.05, 1.04, 1.03, 1.001, 1.0005, 1.06, 1.002]
    plain = [1.0] * len(ratios)
    oracle = [1 / r for r in ratios]
    pred = [1 / (1 + (r - 1) * 0.9 + 0.003) for r in ratios]
    times = {"plain": plain, "oracle": oracle, "predicted": pred}
    row = {"times_s": times,
           "speedup": {v: evaluate.paired_ratio(times, "plain", v) for v in times}}
    point = evaluate.recovery(row, "predicted")
    low, high = evaluate.recovery_interval([row], "predicted")
    assert low <= point <= high
    assert high < 1.5, (low, high)


def test_a_build_that_hangs_on_an_input_is_stopped(tmp_path, monkeypatch):
    """eval's runs had no time limit: a build that hung on an input kept it
    waiting without a word. A run now takes at most RUN_TIMEOUT_FACTOR
    times the plain build's first run (and RUN_TIMEOUT_MIN_S)."""
    from types import SimpleNamespace
    from phaedrus.pipeline import RunTimedOut
    import time
    plain, hangs = tmp_path / "plain", tmp_path / "hangs"
    plain.write_text("#!/bin/sh\necho done\n")
    hangs.write_text("#!/bin/sh\nexec sleep 60\n")
    for script in (plain, hangs):
        script.chmod(0o755)
    monkeypatch.setattr(evaluate, "RUN_TIMEOUT_MIN_S", 1)
    monkeypatch.setattr(evaluate, "RUN_TIMEOUT_FACTOR", 2)
    host = SimpleNamespace(plain=plain, plain_seconds={})
    inp = evaluate.Input("in", ["prog"])
    code, out = evaluate.Evaluation.run_input(host, plain, inp)
    assert code == 0 and out[0] == len(b"done\n") and "in" in host.plain_seconds
    start = time.monotonic()
    with pytest.raises(RunTimedOut, match="did not finish within 1 s"):
        evaluate.Evaluation.run_input(host, hangs, inp)
    assert time.monotonic() - start < 30
