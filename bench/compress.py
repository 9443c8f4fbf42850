"""Compression of whole program paths: how small Phaedrus' compressed IR of a
real trace is, against the raw token stream and against xz -9 and zstd -19
of the same stream, how fast it compresses, and whether it is lossless.

Run through ./bench/run.sh compress; writes bench/results/compress.json.

Method: per program (bzip2, lua5.4), input and granularity (function, path),
the instrumented build records its trace (PHAEDRUS_TRACE, argv[0] = the
program's name, address-space randomisation off). Then:

  import    phaedrus-translate --import-wpp T.wpp --wpp-min-repeat-tokens=33
            --emit-bytecode
            -o imported.mlirbc
            (folds immediate repeats while importing)
  raw       phaedrus-translate --export-tokens imported.mlirbc -o raw.bin
            (every token expanded, little-endian u32 words: the raw WPP)
  compress  phaedrus-opt imported.mlirbc --phaedrus-call-groups (function
            granularity: call groups, Lemma 1, with the groups the
            instrumented build put in the trace's vocabulary, then repeats
            folded as --phaedrus-fold-repeats folds them), with
            min-repeat-tokens=33, --emit-bytecode -o folded.mlirbc (path
            granularity: the imported IR as it is, its repeats folded by
            the import), then phaedrus-translate --export-packed
            folded.mlirbc -o packed.phpk (the folded structure entropy
            coded, docs/PackedTrace.md)
  pack-wpp  phaedrus-translate --pack-wpp T.wpp -o streamed.phpk: the same
            file without IR (checked), timed for events_per_s
  lossless  phaedrus-translate --import-packed packed.phpk, then
            --export-tokens of that: byte for byte equal to raw.bin
  xz, zstd  xz -9 -T1 and zstd -19 -T1 of raw.bin

Sizes: raw_bytes = size of raw.bin (raw_events = raw_bytes / 4),
compressed_bytes = size of the packed file (vocabulary included),
ir_bytecode_bytes = the folded IR as MLIR bytecode, ratio = raw / compressed,
vs_xz = xz bytes / compressed bytes. events_per_s = raw_events / wall time of
--pack-wpp (one process and thread, from the trace file);
ir_route_events_per_s = raw_events / wall time of the IR route's compress
commands (reading the imported IR included, the import not).

The grammar pass (--phaedrus-grammar) is not in this pipeline: its rules cut
the contexts the packed coder predicts from (bzip2 text-9, function
granularity: 175 kB packed with the grammar, 117 kB without; xz -9: 150 kB).
Goals (docs: bench/README.md) are reported, never
asserted: the exit status is 0 whether they are met or not, but it is 1 when
a tool fails or a trace does not round-trip."""

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from phaedrus import pipeline, programs
from phaedrus.tools import REPO_ROOT, ToolError, phaedrus_tool

# Shared with the overhead benchmark.
from common import (BenchError, add_programs_argument, listed, machine_info,
                    median, program_names)

GRANULARITIES = ("function", "path")
DEFAULT_OUTPUT = REPO_ROOT / "bench" / "results" / "compress.json"
STAGES = ["import fold (repeats)", "call groups (Lemma 1, function granularity, "
          "then repeats)", "packed (context-mixing coder)"]
# Stages of the pipeline that the measured one leaves out.
MISSING_STAGES = []
# A run is long when its raw trace has at least this many events; the ratio
# goal is about long runs (short ones carry the fixed cost of the vocabulary).
LONG_RUN_EVENTS = 10_000_000
GOALS = {
    "ratio_min_long": 1e4,          # every long run at least 10^4 x smaller
    "vs_xz_geomean_min": 100.0,     # 100x smaller than xz -9
    "events_per_s_median_min": 50e6,  # 50 million events/s on one core
}

METHOD = (
    "Per program, input and granularity, the instrumented build (function: "
    "prog.inst, path: prog.path.inst) records its trace (PHAEDRUS_TRACE, "
    "argv[0] = program name, address-space randomisation off, cwd = the "
    "inputs' directory). import: phaedrus-translate --import-wpp "
    "--wpp-min-repeat-tokens=33 --emit-bytecode (folds immediate repeats, "
    "leaving those of at most 32 tokens as tokens, as the packed file codes "
    "them; the IR as MLIR bytecode, "
    "which the next commands read several times faster than text). raw: phaedrus-translate --export-tokens of the "
    "imported IR, every token expanded as a little-endian u32 word (path "
    "granularity: one token per Ball-Larus path); raw_events = raw_bytes / 4. "
    "compress: phaedrus-opt --phaedrus-call-groups (function; path traces "
    "as imported, their repeats folded by the import), with "
    "min-repeat-tokens=33 (repeats "
    "of at most 32 tokens written as tokens, as the packed file codes them), "
    "--emit-bytecode on the "
    "imported IR, then phaedrus-translate --export-packed (docs/PackedTrace.md: "
    "the folded structure and the vocabulary, context-mixing arithmetic "
    "coded). compressed_bytes: the packed file; ir_bytecode_bytes: the folded "
    "IR as MLIR bytecode; vocabulary_bytes and trace_bytes: the parts of the "
    "packed file that hold the vocabulary and the trace (phaedrus-translate "
    "--packed-sizes). ratio = raw_bytes / compressed_bytes; vs_xz = "
    "xz_bytes / compressed_bytes (vs_xz_trace_only: xz_bytes / trace_bytes), "
    "where xz_bytes = size of xz -9 -T1 -c "
    "raw.bin and zstd_bytes = size of zstd -19 -T1 -c raw.bin (the same raw "
    "stream). events_per_s = raw_events / wall time of phaedrus-translate "
    "--pack-wpp on the trace file (one process and thread: reading the file, "
    "call groups, folding and coding, without IR; pack_wpp_same_file: its "
    "output is byte for byte the packed file of the IR route; "
    "pack_wpp_peak_rss_mb: its peak resident memory, from wait4); "
    "short_only_s and short_only_bytes: the same --pack-wpp with "
    "--wpp-long-period=0 (no long-period repeats: what it did before "
    "2026-11-27), run right after it, the reference of speedup_vs_short_only "
    "(short_only_s / compress_s) and bytes_vs_short_only; "
    "ir_route_events_per_s = raw_events / wall time of the IR route's two "
    "compress commands (reading the imported IR included, import excluded); "
    "import_events_per_s = raw_events / wall time of the import. Times are time.perf_counter around subprocess.run, one "
    "run each, run one after another. lossless: phaedrus-translate "
    "--import-packed of the packed file, then --export-tokens, is byte for "
    "byte equal to raw.bin. Summary: geometric means of ratio and vs_xz over "
    "rows, median of events_per_s over rows. At function granularity the "
    "fold command is --phaedrus-call-groups (input-consistent compression, "
    "Lemma 1, with the groups the instrumented build recorded in the "
    "trace's vocabulary, no program read; it folds repeats as "
    "--phaedrus-fold-repeats does), whose group tokens --export-tokens "
    "expands back.")


def parse_args(argv=None):
    names = program_names("compress")
    parser = argparse.ArgumentParser(
        prog="./bench/run.sh compress",
        description="Size and speed of Phaedrus' trace compression on the "
                    "real programs' traces, against the raw token stream, "
                    "xz -9 and zstd -19; checks that it is lossless.")
    add_programs_argument(parser, names)
    parser.add_argument("--granularities", nargs="+", metavar="G", default=None,
                        help="trace granularities (default both: function path); "
                             "may also be comma-separated")
    parser.add_argument("--scale", type=int, default=1,
                        help="input scale, as for overhead: bzip2 inputs are this "
                             "many times the test inputs' size, Lua runs each "
                             "script this many times (default 1, the test "
                             "inputs)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT,
                        help="JSON result file (default bench/results/compress.json)")
    args = parser.parse_args(argv)
    if args.scale < 1:
        parser.error(f"--scale must be at least 1 (got {args.scale})")
    args.programs = listed(parser, args.programs, names, "program(s)")
    args.granularities = listed(parser, args.granularities, GRANULARITIES,
                                "granularity(ies)")
    return args


def timed(cmd, what, stdout=None, stderr_sink=None, peak_sink=None):
    """Runs a command; returns (wall seconds, CPU seconds of the child).
    Raises ToolError with its stderr when it fails; `stderr_sink` (a list)
    receives its stderr when it succeeds, `peak_sink` (a list) its peak
    resident memory in bytes (the child's own, from wait4)."""
    cmd = [str(c) for c in cmd]
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=stdout or subprocess.DEVNULL,
                                stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    if proc.returncode != 0:
        raise ToolError(f"{what} failed (exit {proc.returncode}): "
                        f"{' '.join(cmd)}\n{stderr.strip()[-4000:]}")
    if stderr_sink is not None:
        stderr_sink.append(stderr)
    if peak_sink is not None:
        peak_sink.append(usage.ru_maxrss * 1024)  # Linux: kilobytes
    return wall, usage.ru_utime + usage.ru_stime


def same_bytes(a: Path, b: Path, chunk=1 << 24):
    if a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(chunk), fb.read(chunk)
            if x != y:
                return False
            if not x:
                return True


def external_size(cmd, raw: Path, out: Path, what):
    """Size in bytes of `cmd raw` written to stdout, and its wall time."""
    with open(out, "wb") as f:
        wall, _ = timed([*cmd, raw], what, stdout=f)
    size = out.stat().st_size
    out.unlink()
    return size, wall


def step(message):
    print(f"compress:   {message}", file=sys.stderr, flush=True)


def measure_trace(program, run, b, granularity, binary, instrumented_mlir,
                  scratch: Path):
    """Records one trace and measures it; returns the row."""
    opt = phaedrus_tool("phaedrus-opt")
    translate = phaedrus_tool("phaedrus-translate")
    d = scratch / f"{program.name}.{run.name}.{granularity}"
    d.mkdir()
    trace = d / "trace.wpp"
    imported = d / "imported.mlirbc"
    raw = d / "raw.bin"
    folded = d / "folded.mlirbc"
    packed = d / "packed.phpk"
    streamed = d / "streamed.phpk"
    short_packed = d / "short.phpk"
    unpacked = d / "unpacked.mlir"
    expanded = d / "expanded.bin"
    label = f"{program.name} {run.name} {granularity}"
    try:
        step(f"{label}: recording")
        code, _, err = pipeline.run_program(
            binary, run.args, trace=trace, repeatable=True, argv0=program.name,
            stdin_path=(b.workdir / run.stdin) if run.stdin else None,
            cwd=b.workdir)
        if not trace.exists() or trace.stat().st_size == 0:
            raise BenchError(f"{label}: {binary} (exit {code}) wrote no trace "
                             f"to {trace}; stderr:\n"
                             f"{err.decode(errors='replace')[-2000:]}")
        trace_file_bytes = trace.stat().st_size

        step(f"{label}: importing ({trace_file_bytes / 1e6:.1f} MB trace file)")
        cmd = [translate, "--import-wpp", trace, "--wpp-name", "run",
               f"--wpp-min-repeat-tokens={pipeline.PACKED_MIN_REPEAT_TOKENS}",
               "--emit-bytecode", "-o", imported]
        fingerprint = pipeline.fingerprint_of(instrumented_mlir)
        cmd += ["--wpp-fingerprint", str(fingerprint)]
        import_s, _ = timed(cmd, "phaedrus-translate --import-wpp")
        step(f"{label}: packing the trace file (--pack-wpp)")
        pack_wpp_peak = []
        pack_wpp_s, pack_wpp_cpu_s = timed(
            [translate, "--pack-wpp", trace, "--wpp-fingerprint", str(fingerprint),
             "-o", streamed], "phaedrus-translate --pack-wpp",
            peak_sink=pack_wpp_peak)
        # The reference, right after it: without the long-period rule
        # (what --pack-wpp did before 2026-11-27), side by side on the
        # same machine.
        short_s, _ = timed(
            [translate, "--pack-wpp", trace, "--wpp-fingerprint", str(fingerprint),
             "--wpp-long-period=0", "-o", short_packed],
            "phaedrus-translate --pack-wpp --wpp-long-period=0")
        short_bytes = short_packed.stat().st_size
        short_packed.unlink()
        trace.unlink()
        imported_bytes = imported.stat().st_size

        timed([translate, "--export-tokens", imported, "-o", raw],
              "phaedrus-translate --export-tokens (imported)")
        raw_bytes = raw.stat().st_size
        if raw_bytes % 4:
            raise BenchError(f"{label}: raw token stream of {raw_bytes} bytes is "
                             f"not a whole number of 32-bit words")
        raw_events = raw_bytes // 4

        step(f"{label}: compressing ({raw_events / 1e6:.1f}M events)")
        # Call groups fold function-granularity traces only (a path trace
        # records a path token before every call); the pass folds repeats
        # as --phaedrus-fold-repeats does. A path trace is packed as
        # imported: the import folded its repeats with the same folder, and
        # with path runs pushed whole, which folds them better than
        # --phaedrus-fold-repeats refolding the expanded tokens (bzip2
        # text-9 path: 984,284 against 988,334 bytes packed) and is what
        # --pack-wpp does.
        min_tokens = pipeline.PACKED_MIN_REPEAT_TOKENS
        # min-repeat-tokens=33: repeats of at most 32 tokens are written as
        # tokens, which is how --export-packed codes them anyway (the packed
        # file is the same, byte for byte). CPU seconds of import + fold +
        # pack, without and with it, in one session (2026-11-24): bzip2
        # text-9 function 5.37 and 1.13, Lua life path 20.06 and 6.51
        # (bench/README.md has the table).
        if granularity == "function":
            fold = f"--phaedrus-call-groups=min-repeat-tokens={min_tokens}"
            fold_s, fold_cpu_s = timed(
                [opt, imported, fold,
                 "--mlir-disable-threading", "--emit-bytecode", "-o", folded],
                f"phaedrus-opt {fold}")
            imported.unlink()
        else:
            imported.rename(folded)
            fold_s = fold_cpu_s = 0.0
        ir_bytecode_bytes = folded.stat().st_size
        pack_err = []
        pack_s, pack_cpu_s = timed(
            [translate, "--export-packed", "--packed-sizes", folded, "-o", packed],
            "phaedrus-translate --export-packed", stderr_sink=pack_err)
        folded.unlink()
        compressed_bytes = packed.stat().st_size
        sizes = re.search(r"packed-sizes: total=(\d+) vocabularies=(\d+) "
                          r"grammars=(\d+) traces=(\d+)", pack_err[0])
        if not sizes or int(sizes.group(1)) != compressed_bytes:
            raise BenchError(f"{label}: --packed-sizes printed no sizes that "
                             f"add up to the file: {pack_err[0]!r}")
        vocabulary_bytes = int(sizes.group(2))
        trace_bytes = int(sizes.group(4))
        compress_s = fold_s + pack_s

        step(f"{label}: checking the round trip")
        unpack_s, _ = timed([translate, "--import-packed", packed, "-o", unpacked],
                            "phaedrus-translate --import-packed")
        timed([translate, "--export-tokens", unpacked, "-o", expanded],
              "phaedrus-translate --export-tokens (unpacked)")
        lossless = same_bytes(raw, expanded)
        pack_wpp_same = same_bytes(packed, streamed)
        streamed.unlink()
        expanded.unlink()
        unpacked.unlink()
        packed.unlink()

        step(f"{label}: xz -9 and zstd -19 of {raw_bytes / 1e6:.1f} MB")
        xz_bytes, xz_s = external_size(["xz", "-9", "-T1", "-k", "-c"], raw,
                                       d / "raw.bin.xz", "xz -9")
        zstd_bytes, zstd_s = external_size(["zstd", "-19", "-T1", "-q", "-c"], raw,
                                           d / "raw.bin.zst", "zstd -19")
    finally:
        shutil.rmtree(d, ignore_errors=True)

    return {
        "program": program.name,
        "input": run.name,
        "granularity": granularity,
        "exit_code": code,
        "trace_file_bytes": trace_file_bytes,
        "raw_events": raw_events,
        "raw_bytes": raw_bytes,
        "imported_bytecode_bytes": imported_bytes,
        "compressed_bytes": compressed_bytes,
        "vocabulary_bytes": vocabulary_bytes,
        "trace_bytes": trace_bytes,
        "ir_bytecode_bytes": ir_bytecode_bytes,
        "ratio": raw_bytes / compressed_bytes,
        "xz_bytes": xz_bytes,
        "zstd_bytes": zstd_bytes,
        "xz_ratio": raw_bytes / xz_bytes,
        "zstd_ratio": raw_bytes / zstd_bytes,
        "vs_xz": xz_bytes / compressed_bytes,
        "vs_xz_trace_only": xz_bytes / trace_bytes,
        "vs_zstd": zstd_bytes / compressed_bytes,
        "import_s": import_s,
        "compress_s": pack_wpp_s,
        "ir_route_s": compress_s,
        "pack_wpp_same_file": pack_wpp_same,
        "fold_s": fold_s,
        "pack_s": pack_s,
        "compress_cpu_s": pack_wpp_cpu_s,
        "ir_route_cpu_s": fold_cpu_s + pack_cpu_s,
        "unpack_s": unpack_s,
        "xz_s": xz_s,
        "zstd_s": zstd_s,
        "events_per_s": raw_events / pack_wpp_s,
        "short_only_s": short_s,
        "short_only_bytes": short_bytes,
        "speedup_vs_short_only": short_s / pack_wpp_s,
        "bytes_vs_short_only": compressed_bytes / short_bytes,
        "pack_wpp_peak_rss_mb": pack_wpp_peak[0] / 2**20,
        "ir_route_events_per_s": raw_events / compress_s,
        "import_events_per_s": raw_events / import_s,
        "long_run": raw_events >= LONG_RUN_EVENTS,
        "lossless": lossless,
    }


def geomean(values):
    values = list(values)
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fmt_bytes(n):
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return f"{n}"


def fmt_x(x):
    if x >= 100:
        return f"{x:.0f}x"
    return f"{x:.2f}x"


HEADER = (f"{'program':<8} {'input':<13} {'gran.':<8} {'events':>8} {'raw':>7} "
          f"{'ours':>7} {'ratio':>8} {'xz -9':>7} {'zstd':>7} {'xz/ours':>8} "
          f"{'Mev/s':>7} {'import':>7} {'compr.':>7} {'lossless':>8}")


def print_row(row):
    print(f"{row['program']:<8} {row['input']:<13} {row['granularity']:<8} "
          f"{row['raw_events'] / 1e6:7.1f}M {fmt_bytes(row['raw_bytes']):>7} "
          f"{fmt_bytes(row['compressed_bytes']):>7} {fmt_x(row['ratio']):>8} "
          f"{fmt_bytes(row['xz_bytes']):>7} {fmt_bytes(row['zstd_bytes']):>7} "
          f"{fmt_x(row['vs_xz']):>8} {row['events_per_s'] / 1e6:7.2f} "
          f"{row['import_s']:6.1f}s {row['compress_s']:6.1f}s "
          f"{'yes' if row['lossless'] else 'NO':>8}", flush=True)


def aggregate(rows):
    """The size and speed figures of a set of rows."""
    best = max(rows, key=lambda r: r["ratio"], default=None)
    return {
        "rows": len(rows),
        "ratio_geomean": geomean(r["ratio"] for r in rows),
        "ratio_max": None if best is None else best["ratio"],
        "ratio_max_row": None if best is None else {
            "program": best["program"], "input": best["input"],
            "granularity": best["granularity"]},
        "ratio_min": min((r["ratio"] for r in rows), default=None),
        "vs_xz_geomean": geomean(r["vs_xz"] for r in rows),
        "vs_xz_trace_only_geomean": geomean(r["vs_xz_trace_only"] for r in rows),
        "vs_zstd_geomean": geomean(r["vs_zstd"] for r in rows),
        "xz_ratio_geomean": geomean(r["xz_ratio"] for r in rows),
        "zstd_ratio_geomean": geomean(r["zstd_ratio"] for r in rows),
        "events_per_s_median": median(r["events_per_s"] for r in rows),
        "short_only_events_per_s_median": median(
            r["raw_events"] / r["short_only_s"] for r in rows),
        "speedup_vs_short_only_median": median(
            r["speedup_vs_short_only"] for r in rows),
        "bytes_vs_short_only_geomean": geomean(
            r["bytes_vs_short_only"] for r in rows),
        "import_events_per_s_median": median(r["import_events_per_s"]
                                             for r in rows),
        "lossless_all": all(r["lossless"] for r in rows) if rows else None,
        "ir_route_events_per_s_median": median(r["ir_route_events_per_s"]
                                               for r in rows),
        "pack_wpp_same_file_all": all(r["pack_wpp_same_file"] for r in rows)
        if rows else None,
        "pack_wpp_peak_rss_mb_max": max(
            (r["pack_wpp_peak_rss_mb"] for r in rows), default=None),
    }


def summarize(rows, granularities):
    summary = aggregate(rows)
    summary["by_granularity"] = {
        g: aggregate([r for r in rows if r["granularity"] == g])
        for g in granularities}
    long_rows = [r for r in rows if r["long_run"]]
    summary["long_run_events"] = LONG_RUN_EVENTS
    summary["long_runs"] = len(long_rows)
    summary["ratio_min_long"] = min((r["ratio"] for r in long_rows), default=None)
    summary["ratio_geomean_long"] = geomean(r["ratio"] for r in long_rows)
    summary["stages"] = list(STAGES)
    summary["missing_stages"] = list(MISSING_STAGES)
    summary["goals"] = dict(GOALS)
    summary["goals_met"] = {
        "ratio_1e4_on_long_runs": None if summary["ratio_min_long"] is None
        else summary["ratio_min_long"] >= GOALS["ratio_min_long"],
        "100x_smaller_than_xz": None if summary["vs_xz_geomean"] is None
        else summary["vs_xz_geomean"] >= GOALS["vs_xz_geomean_min"],
        "50M_events_per_s": None if summary["events_per_s_median"] is None
        else summary["events_per_s_median"] >= GOALS["events_per_s_median_min"],
    }
    return summary


def print_summary(summary):
    def x(v):
        return "n/a" if v is None else fmt_x(v)

    def ok(v):
        return "not measured" if v is None else ("met" if v else "NOT met")
    met = summary["goals_met"]
    eps = summary["events_per_s_median"]
    ieps = summary["import_events_per_s_median"]
    print()
    missing = (f"; not built yet: {', '.join(summary['missing_stages'])}"
               if summary["missing_stages"] else "")
    print(f"summary over {summary['rows']} traces (stages: "
          f"{', '.join(summary['stages'])}{missing})")
    print(f"  ratio (raw / ours), geomean   : {x(summary['ratio_geomean'])}")
    best = summary["ratio_max_row"]
    if best:
        print(f"  ratio, best trace             : {x(summary['ratio_max'])} "
              f"({best['program']} {best['input']} {best['granularity']})")
    print(f"  ratio, worst long run         : {x(summary['ratio_min_long'])}"
          f"   goal >= 10^4 on runs of >= {summary['long_run_events'] / 1e6:.0f}M "
          f"events ({summary['long_runs']}): {ok(met['ratio_1e4_on_long_runs'])}")
    print(f"  xz -9 bytes / ours, geomean   : {x(summary['vs_xz_geomean'])}"
          f"   goal >= 100x: {ok(met['100x_smaller_than_xz'])}")
    print(f"  xz -9 bytes / ours without the vocabulary, geomean: "
          f"{x(summary['vs_xz_trace_only_geomean'])}")
    print(f"  zstd -19 bytes / ours, geomean: {x(summary['vs_zstd_geomean'])}")
    print(f"  xz -9 ratio, geomean          : {x(summary['xz_ratio_geomean'])}")
    print("  compress events/s, median    : "
          + ("n/a" if eps is None else f"{eps / 1e6:.2f}M")
          + f"   goal >= 50M: {ok(met['50M_events_per_s'])}")
    print(f"  against --wpp-long-period=0 : "
          f"{summary['short_only_events_per_s_median'] / 1e6:.2f}M events/s "
          f"median, ours {x(summary['speedup_vs_short_only_median'])} as "
          f"fast (median per trace), {x(summary['bytes_vs_short_only_geomean'])} "
          f"the bytes (geomean)")
    rieps = summary["ir_route_events_per_s_median"]
    print("  (the IR route: fold + pack)  : "
          + ("n/a" if rieps is None else f"{rieps / 1e6:.2f}M")
          + f"; --pack-wpp writes the same files: {summary['pack_wpp_same_file_all']}")
    print("  import events/s, median      : "
          + ("n/a" if ieps is None else f"{ieps / 1e6:.2f}M"))
    peak = summary["pack_wpp_peak_rss_mb_max"]
    print("  --pack-wpp peak memory, max  : "
          + ("n/a" if peak is None else f"{peak:.0f} MiB"))
    print(f"  lossless, all traces          : {summary['lossless_all']}")
    for g, s in summary["by_granularity"].items():
        if s["rows"]:
            print(f"  {g:<8}: ratio geomean {x(s['ratio_geomean'])}, xz/ours "
                  f"{x(s['vs_xz_geomean'])}, "
                  f"{s['events_per_s_median'] / 1e6:.2f}M events/s median")


def main(argv=None):
    args = parse_args(argv)
    for tool in ("xz", "zstd"):
        if shutil.which(tool) is None:
            print(f"compress: {tool} not found; install it (apt-get install "
                  f"{'xz-utils' if tool == 'xz' else 'zstd'})", file=sys.stderr)
            return 1
    selected = [p for p in programs.all_programs(args.scale)
                if p.name in args.programs]
    scratch = Path(tempfile.mkdtemp(prefix="phaedrus-bench-compress-"))
    rows = []
    started = time.perf_counter()
    try:
        # Recording runs turn address-space randomisation off with setarch -R
        # (pipeline.run_program(repeatable=True)).
        info = machine_info(True, scratch)
        info["xz"] = subprocess.run(["xz", "--version"], stdout=subprocess.PIPE,
                                    text=True).stdout.splitlines()[0]
        info["zstd"] = subprocess.run(["zstd", "--version"], stdout=subprocess.PIPE,
                                      text=True).stdout.strip()
        if info["load_average_at_start"][0] > 0.5 * (info["nproc"] or 1):
            print(f"compress: warning: load average "
                  f"{info['load_average_at_start'][0]:.2f} on {info['nproc']} "
                  f"CPUs; other work on the machine makes timings noisy",
                  file=sys.stderr, flush=True)
        print(f"compress: scale {args.scale}, granularities "
              f"{' '.join(args.granularities)}, {info['nproc']} CPUs, "
              f"{info['cpu']}", flush=True)
        header_done = False
        for program in selected:
            print(f"compress: building {program.name} (reused when up to date)",
                  file=sys.stderr, flush=True)
            b = programs.build(program)
            binaries = {"function": (b.instrumented, b.instrumented_mlir),
                        "path": (b.instrumented_path, b.instrumented_path_mlir)}
            for g in args.granularities:
                for path in binaries[g]:
                    if not Path(path).exists():
                        raise BenchError(f"{program.name}: {g} build {path} not "
                                         f"found after building")
            for run in program.runs:
                for g in args.granularities:
                    binary, mlir = binaries[g]
                    row = measure_trace(program, run, b, g, binary, mlir, scratch)
                    rows.append(row)
                    if not header_done:
                        print(HEADER, flush=True)
                        header_done = True
                    print_row(row)
                    if not row["lossless"]:
                        print(f"compress: {program.name} {run.name} {g}: the "
                              f"compressed trace does NOT expand to the raw "
                              f"trace", file=sys.stderr, flush=True)
    except (BenchError, ToolError) as e:
        print(f"compress: {e}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    summary = summarize(rows, args.granularities)
    info["load_average_at_end"] = list(os.getloadavg())
    summary["machine"] = info
    summary["method"] = METHOD
    summary["scale"] = args.scale
    summary["programs"] = [p.name for p in selected]
    summary["granularities"] = list(args.granularities)
    summary["elapsed_s"] = round(time.perf_counter() - started, 1)
    print_summary(summary)

    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with open(output, "w") as f:
        json.dump({"benchmark": "compress", "summary": summary, "rows": rows},
                  f, indent=2)
        f.write("\n")
    print(f"\ncompress: wrote {output}")
    return 0 if summary["lossless_all"] is not False else 1


if __name__ == "__main__":
    sys.exit(main())
