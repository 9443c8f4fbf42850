"""Overhead of recording: wall time of the instrumented build of each real
program (bzip2, lua5.4) on each of its inputs, against the plain build of
the same whole-program module and against clang's own instrumentation
(-fprofile-instr-generate).

Run through ./bench/run.sh overhead; writes bench/results/overhead.json.

Method: every variant is a full process run (exec to exit, including writing
the trace or profile), timed with time.perf_counter around subprocess.run.
Per input, one untimed warm-up run of each variant, then `--runs` rounds; each
round runs every variant once, in an order rotated from round to round, so
that no variant always comes first or last. The medians of the rounds are
compared. All variants see the same argv[0] (the program's name) and run with
address-space randomisation off (personality ADDR_NO_RANDOMIZE, inherited
from this process, so that no wrapper process is timed), as in the end-to-end
tests. Every run must exit with the code of the plain warm-up run, and every
instrumented run must leave a non-empty trace (clang-instrumented: a
non-empty profile), or the benchmark aborts.

Goals (docs: bench/README.md): function granularity at most 1.3x of plain
and no worse than clang's instrumentation; path granularity at most 2x. The
goals are reported, never asserted: the exit status is 0 whether they are
met or not."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from phaedrus import programs
from phaedrus.timing import (check_cpu_choice, disable_aslr, interleaved_rounds,
                             timed_run, timing_cpu)
from phaedrus.tools import REPO_ROOT, ToolError

from common import (BenchError, add_programs_argument, listed, machine_info,
                    median, program_names)

MIN_RUNS = 5
GOALS = {"function_ratio_max": 1.3, "path_ratio_max": 2.0}
DEFAULT_OUTPUT = REPO_ROOT / "bench" / "results" / "overhead.json"

METHOD = (
    "Wall time of whole process runs (exec to exit, including writing the "
    "trace or profile), time.perf_counter around subprocess.run; stdout to a "
    "temporary file (not /dev/null), stderr to a file, stdin from the input's file. Per program "
    "and input: one untimed warm-up run of each variant, then N rounds, each "
    "running every variant once (plain, clang-instrumented and each "
    "instrumented granularity) in an order rotated by one position per "
    "round; rows report the median of the N runs of each variant, and ratio "
    "= instrumented median / plain median (clang_instr_ratio = clang median "
    "/ plain median). Rows of different granularities of one input share the "
    "plain and clang samples. Variants run with the same argv[0] and with "
    "address-space randomisation off; every run must exit like the plain "
    "warm-up and instrumented runs must write a non-empty trace/profile. "
    "The timed runs of each input are pinned to one CPU (--cpu, default "
    "auto: phaedrus.timing.timing_cpu chooses it per input; the summary's "
    "cpu is the choice, null for none). "
    "Instrumented runs write PHAEDRUS_TRACE to a temporary file, clang runs "
    "LLVM_PROFILE_FILE; both are deleted after each run (outside the timed "
    "region); plain runs have PHAEDRUS_TRACE=off. Summary ratios are medians "
    "over rows.")


def parse_args(argv=None):
    names = program_names("overhead")
    parser = argparse.ArgumentParser(
        prog="./bench/run.sh overhead",
        description="Wall-time overhead of Phaedrus' instrumentation (and of "
                    "clang's) over the plain build, per program, input and "
                    "granularity.")
    parser.add_argument("--runs", type=int, default=7,
                        help=f"timed runs per variant and input (default 7, "
                             f"at least {MIN_RUNS})")
    add_programs_argument(parser, names)
    parser.add_argument("--scale", type=int, default=8,
                        help="input scale: bzip2 inputs are this many times the "
                             "test inputs' size, Lua runs each script this many "
                             "times (default 8, so that runs take 0.1-1 s and "
                             "process start-up does not dominate; 1 = the test "
                             "inputs)")
    parser.add_argument("--cpu", default="auto", metavar="auto|none|N",
                        help="the CPU the timed runs are pinned to: auto "
                             "(default; phaedrus eval --cpu), none, or a CPU's "
                             "number")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT,
                        help="JSON result file (default bench/results/overhead.json)")
    args = parser.parse_args(argv)
    if args.scale < 1:
        parser.error(f"--scale must be at least 1 (got {args.scale})")
    if args.runs < MIN_RUNS:
        parser.error(f"--runs must be at least {MIN_RUNS} (got {args.runs}): "
                     f"fewer runs give medians too noisy to compare")
    try:
        args.cpu = check_cpu_choice(args.cpu)
    except ValueError as e:
        parser.error(f"--cpu: {e}")
    args.programs = listed(parser, args.programs, names, "program(s)")
    return args


class Variant:
    """One binary and how to run it."""

    def __init__(self, key, binary, kind, scratch: Path, base_env):
        self.key = key          # "plain", "clang_instr", "function", "path"
        self.binary = Path(binary).resolve()
        self.kind = kind        # "plain", "clang", "phaedrus"
        self.output = None      # trace or profile, deleted after each run
        if kind == "phaedrus":
            self.output = scratch / f"{key}.wpp"
        elif kind == "clang":
            self.output = scratch / f"{key}.profraw"
        self.env = self._env(base_env)

    def _env(self, base):
        env = dict(base)
        if self.kind == "phaedrus":
            env["PHAEDRUS_TRACE"] = str(self.output)
        else:
            env["PHAEDRUS_TRACE"] = "off"
        if self.kind == "clang":
            env["LLVM_PROFILE_FILE"] = str(self.output)
        else:
            env.pop("LLVM_PROFILE_FILE", None)
        return env


def run_once(variant: Variant, program, run, b, errfile):
    """One full process run; returns (seconds, exit code)."""
    if variant.output is not None and variant.output.exists():
        variant.output.unlink()
    errfile.seek(0)
    errfile.truncate()
    seconds, code = timed_run(
        variant.binary, [program.name, *run.args],
        stdin_path=b.workdir / run.stdin if run.stdin else None,
        cwd=b.workdir, env=variant.env, stderr=errfile)
    if variant.output is not None:
        size = variant.output.stat().st_size if variant.output.exists() else 0
        variant.output.unlink(missing_ok=True)
        if size == 0:
            errfile.seek(0)
            err = errfile.read().decode(errors="replace").strip()
            what = "trace" if variant.kind == "phaedrus" else "profile"
            raise BenchError(f"{program.name} {run.name}: the {variant.key} run "
                             f"({variant.binary}) wrote no {what} to "
                             f"{variant.output}; stderr:\n{err[-2000:]}")
    return seconds, code


def measure_input(program, run, b, variants, runs, cpu=None):
    """Warm-up plus `runs` interleaved rounds; returns {key: [seconds]}."""
    with tempfile.TemporaryFile() as errfile:
        def checked(variant, expected):
            seconds, code = run_once(variant, program, run, b, errfile)
            if expected is not None and code != expected:
                errfile.seek(0)
                err = errfile.read().decode(errors="replace").strip()
                raise BenchError(
                    f"{program.name} {run.name}: the {variant.key} build exited "
                    f"with {code}, the plain warm-up run with {expected}; the "
                    f"variants do not behave alike, timings would not be "
                    f"comparable. stderr:\n{err[-2000:]}")
            return seconds, code

        # Warm-up: page cache, dynamic loader, input files. Plain first: its
        # exit code is the one every other run must reproduce.
        _, expected = checked(variants[0], None)
        for v in variants[1:]:
            checked(v, expected)
        by_key = {v.key: v for v in variants}
        return interleaved_rounds(by_key, lambda key: checked(by_key[key], expected)[0],
                                  runs, cpu=timing_cpu(cpu))


def fmt_s(seconds):
    return f"{seconds * 1000:9.1f}ms"


def fmt_ratio(ratio):
    return "     -" if ratio is None else f"{ratio:6.2f}x"


def print_header():
    print(f"{'program':<8} {'input':<14} {'gran.':<8} {'plain':>11} "
          f"{'instr.':>11} {'clang':>11} {'instr/pl':>8} {'clang/pl':>8} "
          f"{'instr/cl':>8}", flush=True)


def print_row(row):
    print(f"{row['program']:<8} {row['input']:<14} {row['granularity']:<8} "
          f"{fmt_s(row['plain_s_median'])}  {fmt_s(row['instrumented_s_median'])}  "
          f"{fmt_s(row['clang_instr_s_median'])}  {fmt_ratio(row['ratio'])}   "
          f"{fmt_ratio(row['clang_instr_ratio'])}   "
          f"{fmt_ratio(row['instrumented_vs_clang'])}", flush=True)


def summarize(rows):
    function = [r for r in rows if r["granularity"] == "function"]
    path = [r for r in rows if r["granularity"] == "path"]
    # One clang sample set per program and input (shared by the granularities).
    clang_rows = {(r["program"], r["input"]): r["clang_instr_ratio"] for r in rows}
    function_ratio = median([r["ratio"] for r in function])
    path_ratio = median([r["ratio"] for r in path])
    clang_ratio = median(list(clang_rows.values()))
    function_vs_clang = median([r["instrumented_vs_clang"] for r in function])
    worst = max(function, key=lambda r: r["ratio"], default=None)
    return {
        "function_ratio_median": function_ratio,
        "path_ratio_median": path_ratio,
        "clang_instr_ratio_median": clang_ratio,
        "function_vs_clang_median": function_vs_clang,
        "path_measured": bool(path),
        "rows": len(rows),
        "function_ratio_worst": None if worst is None else {
            "program": worst["program"], "input": worst["input"],
            "ratio": worst["ratio"]},
        "goals": dict(GOALS),
        "goals_met": {
            "function_within_1_3x": None if function_ratio is None
            else function_ratio <= GOALS["function_ratio_max"],
            # Instrumented no slower than clang-instrumented, in the median
            # over inputs of the per-input ratio.
            "function_no_worse_than_clang": None if function_vs_clang is None
            else function_vs_clang <= 1.0,
            "path_within_2x": None if path_ratio is None
            else path_ratio <= GOALS["path_ratio_max"],
        },
    }


def print_summary(summary):
    def r(x):
        return "n/a" if x is None else f"{x:.3f}x"
    met = summary["goals_met"]

    def ok(x):
        return "not measured" if x is None else ("met" if x else "NOT met")
    print()
    print("summary (medians over rows)")
    print(f"  function granularity / plain : {r(summary['function_ratio_median'])}"
          f"   goal <= {GOALS['function_ratio_max']}x: {ok(met['function_within_1_3x'])}")
    print(f"  clang instrumented / plain   : {r(summary['clang_instr_ratio_median'])}")
    print(f"  function granularity / clang : {r(summary['function_vs_clang_median'])}"
          f"   goal <= 1x: {ok(met['function_no_worse_than_clang'])}")
    path_note = "" if summary["path_measured"] else \
        " (these builds have no path-granularity binary)"
    print(f"  path granularity / plain     : {r(summary['path_ratio_median'])}"
          f"   goal <= {GOALS['path_ratio_max']}x: {ok(met['path_within_2x'])}"
          f"{path_note}")
    worst = summary["function_ratio_worst"]
    if worst:
        print(f"  worst function row           : {worst['ratio']:.3f}x "
              f"({worst['program']} {worst['input']})")


def main(argv=None):
    args = parse_args(argv)
    aslr_off = disable_aslr()
    if not aslr_off:
        print("overhead: could not turn address-space randomisation off; "
              "measuring with it on", file=sys.stderr)
    selected = [p for p in programs.all_programs(args.scale)
                if p.name in args.programs]
    base_env = dict(os.environ)
    scratch = Path(tempfile.mkdtemp(prefix="phaedrus-bench-"))
    rows = []
    started = time.perf_counter()
    try:
        info = machine_info(aslr_off, scratch)
        if info["load_average_at_start"][0] > 0.5 * (info["nproc"] or 1):
            print(f"overhead: warning: load average "
                  f"{info['load_average_at_start'][0]:.2f} on {info['nproc']} "
                  f"CPUs; other work on the machine makes timings noisy",
                  file=sys.stderr, flush=True)
        print(f"overhead: {args.runs} runs per variant, {info['nproc']} CPUs, "
              f"{info['cpu']}", flush=True)
        header_done = False
        for program in selected:
            print(f"overhead: building {program.name} (reused when up to date)",
                  file=sys.stderr, flush=True)
            b = programs.build(program)
            granularities = [("function", b.instrumented)]
            path_binary = getattr(b, "instrumented_path", None)
            if path_binary is not None:
                granularities.append(("path", path_binary))
            variants = [Variant("plain", b.plain, "plain", scratch, base_env),
                        Variant("clang_instr", b.clang_instr, "clang", scratch,
                                base_env)]
            variants += [Variant(g, binary, "phaedrus", scratch, base_env)
                         for g, binary in granularities]
            for v in variants:
                if not v.binary.exists():
                    raise BenchError(f"{program.name}: {v.key} binary {v.binary} "
                                     f"not found after building")
            if not header_done:
                print_header()
                header_done = True
            for run in program.runs:
                samples = measure_input(program, run, b, variants, args.runs,
                                        args.cpu)
                plain = median(samples["plain"])
                clang = median(samples["clang_instr"])
                for g, _ in granularities:
                    inst = median(samples[g])
                    row = {
                        "program": program.name,
                        "input": run.name,
                        "granularity": g,
                        "runs": args.runs,
                        "plain_s_median": plain,
                        "instrumented_s_median": inst,
                        "clang_instr_s_median": clang,
                        "ratio": inst / plain,
                        "clang_instr_ratio": clang / plain,
                        "instrumented_vs_clang": inst / clang,
                        "plain_s": samples["plain"],
                        "instrumented_s": samples[g],
                        "clang_instr_s": samples["clang_instr"],
                    }
                    rows.append(row)
                    print_row(row)
    except (BenchError, ToolError) as e:
        print(f"overhead: {e}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    summary = summarize(rows)
    info["load_average_at_end"] = list(os.getloadavg())
    summary["machine"] = info
    summary["method"] = METHOD
    summary["runs"] = args.runs
    summary["cpu"] = args.cpu
    summary["scale"] = args.scale
    summary["programs"] = [p.name for p in selected]
    summary["elapsed_s"] = round(time.perf_counter() - started, 1)
    print_summary(summary)

    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with open(output, "w") as f:
        json.dump({"benchmark": "overhead", "summary": summary, "rows": rows},
                  f, indent=2)
        f.write("\n")
    print(f"\noverhead: wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
