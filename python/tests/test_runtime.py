"""libphaedrus_rt on purpose-built programs: no lost events across threads,
a killed run keeps its flushed prefix, forked children write their own
trace, crashes still end the trace, and an unwritable trace path never
changes what the program does."""

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from phaedrus import pipeline
from phaedrus.tools import REPO_ROOT, ToolError, llvm_tool, phaedrus_tool, runtime_library
from wpp_records import event_records

SOURCES = REPO_ROOT / "test" / "e2e" / "runtime"


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("runtime")
    out = {}
    for name in ["threads", "forever", "forks", "crashes", "branches", "scatter",
                 "signals", "manypaths", "ownzstd", "hostile", "ownmalloc"]:
        mlir = pipeline.sources_to_mlir([SOURCES / f"{name}.c"], root / f"{name}.mlir")
        plain = pipeline.mlir_to_binary(mlir, root / f"{name}.plain")
        # Function granularity records 16-bit events (every token of these
        # programs fits); "-wide" keeps 32-bit ones (narrow-events=false).
        for granularity, suffix, narrow in [("function", "", True),
                                            ("function", "-wide", False),
                                            ("path", "-path", True)]:
            if suffix == "-wide" and name != "threads":
                continue
            inst_mlir = pipeline.instrument_mlir(mlir, root / f"{name}{suffix}.inst.mlir",
                                                 granularity=granularity,
                                                 narrow_events=narrow)
            inst = pipeline.mlir_to_binary(inst_mlir, root / f"{name}{suffix}.inst",
                                           link_runtime=True)
            out[name + suffix] = (inst, plain)
    return out


def entry_counts(trace, tmp_path, **kwargs):
    """The counts of a trace's import, and the importer's warnings; the
    one-pass count of the trace file (--wpp-trace-counts) must say the same."""
    imported = tmp_path / (Path(trace).name + ".mlir")
    warnings = pipeline.import_trace(trace, imported, **kwargs)
    counts = pipeline.trace_counts(imported)
    counted, counted_warnings = pipeline.count_trace(trace, **kwargs)
    # (The file's header also gives the build's granularity, which imported
    # IR does not keep.)
    for t in counted["traces"]:
        assert t.pop("granularity") in ("function", "path")
    assert (counted, counted_warnings) == (counts, warnings)
    return counts, warnings


@pytest.mark.parametrize("build, record", [("threads", "EV2Z"),
                                           ("threads-wide", "EVNZ")])
def test_threads_lose_no_events(builds, tmp_path, build, record):
    inst, plain = builds[build]
    trace = tmp_path / "threads.wpp"
    # Enough calls that every thread flushes several full chunks.
    code, out, err = pipeline.run_program(inst, ["4", "150000"], trace=trace)
    assert code == 0, err
    assert out == pipeline.run_program(plain, ["4", "150000"])[1]
    reference = dict(zip(out.split()[0::2], map(int, out.split()[1::2])))
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    traces = counts["traces"]
    assert len(traces) == 5  # the main thread (main) and the 4 workers
    total = {}
    for t in traces:
        for name, c in t["entry_counts"].items():
            total[name] = total.get(name, 0) + c
    assert total["work"] == reference[b"work"] == 4 * 150000 + 6
    assert total["leaf"] == reference[b"leaf"] == 2 * reference[b"work"]
    assert total["thread_main"] == 4
    # 16-bit events by default, 32-bit ones when asked: both read the same.
    assert {tag for _, _, tag in event_records(trace.read_bytes())} == {record}


def test_the_writer_never_runs_the_programs_zstd(builds, tmp_path):
    """A program that defines zstd's functions itself: the runtime's writer
    compresses with its own libzstd (the chunks shrink), never with the
    program's instrumented functions, and records nothing: the trace holds
    the program's own one call of ZSTD_compressCCtx and its own calls of
    step (a zstd user's trial: every run hung)."""
    inst, plain = builds["ownzstd"]
    trace = tmp_path / "ownzstd.wpp"
    code, out, err = pipeline.run_program(inst, [], trace=trace, timeout=120)
    assert (code, out) == (0, b"done 1\n"), err
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    entries = counts["traces"][0]["entry_counts"]
    assert entries["ZSTD_compressCCtx"] == 1
    assert entries["ZSTD_compress_usingDict"] == 0
    assert entries["ZSTD_trace_compress_begin"] == 0
    assert entries["step"] == 3000000 + 1000
    assert len(counts["traces"]) == 1
    # Compressed by zstd: 3M 16-bit events are 6 MB raw.
    assert {tag for _, _, tag in event_records(trace.read_bytes())} == {"EV2Z"}
    assert trace.stat().st_size < 600000, trace.stat().st_size


def test_a_multithreaded_run_is_one_corpus_run(builds, tmp_path, capsys):
    """A corpus takes a run of several threads as one run: the threads'
    counts summed, as the program's own counters count them."""
    from phaedrus import corpus
    inst, _ = builds["threads"]
    trace = tmp_path / "threads.wpp"
    code, out, err = pipeline.run_program(inst, ["3", "20000"], trace=trace)
    assert code == 0, err
    reference = dict(zip(out.split()[0::2], map(int, out.split()[1::2])))
    corpus.describe_run(trace, [inst.name, "3", "20000"])
    counts, _ = pipeline.count_trace(trace)
    assert len(counts["traces"]) == 4  # main and 3 workers
    made = corpus.corpus_from_traces([trace])
    # The same with a progress bar of the traces (what `phaedrus corpus`
    # shows on a terminal).
    assert corpus.corpus_from_traces([trace], show_progress=True) == made
    assert "corpus" in capsys.readouterr().err
    run, = made["runs"]
    assert run["events"] == sum(t["events"] for t in counts["traces"])
    entries = {}
    for e in made["vocabulary"]["entries"]:
        function = e["symbol"] if e["kind"] == "function" else e.get("callee")
        if function:
            entries.setdefault(e["id"], function)
    entered = {}
    for token, count in run["tokens"]:
        if token in entries:
            entered[entries[token]] = entered.get(entries[token], 0) + count
    assert entered["work"] == reference[b"work"] == 3 * 20000 + 0 + 1 + 2
    assert entered["leaf"] == reference[b"leaf"]
    assert entered["thread_main"] == 3
    # Each token once, in first-occurrence order (main's thread first).
    tokens = [t for t, _ in run["tokens"]]
    assert len(tokens) == len(set(tokens))


def test_sigkill_keeps_flushed_prefix(builds, tmp_path):
    inst, _ = builds["forever"]
    trace = tmp_path / "forever.wpp"
    env = dict(os.environ, PHAEDRUS_TRACE=str(trace))
    proc = subprocess.Popen([str(inst)], stdout=subprocess.PIPE, env=env)
    assert proc.stdout.readline() == b"running\n"
    time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    counts, warnings = entry_counts(trace, tmp_path)
    # Killed between records, or in the middle of writing one.
    assert ("trace is incomplete: the trace has no end record" in warnings or
            re.search("trace is incomplete: truncated EV2[TZ] record", warnings)), warnings
    assert "recovered" in warnings
    events = counts["traces"][0]["events"]
    recovered = re.search(r"recovered (\d+) events in (\d+) chunks", warnings)
    assert recovered and int(recovered.group(1)) == events, warnings
    # At least the 2 million steps before "running", in whole chunks (a
    # chunk holds PHAEDRUS_CHUNK_TOKENS 16-bit events).
    chunks = int(recovered.group(2))
    assert events >= 2_000_000
    assert events == 65536 * chunks


def test_forked_child_writes_its_own_trace(builds, tmp_path):
    """A forked child writes its own trace, in the directory the run started
    in (a relative path, though the child changes directory); a child that
    runs another program at once writes none (gawk's `cmd | getline` left a
    400 KB file of header and vocabulary, no events and no end, per
    command)."""
    inst, plain = builds["forks"]
    code, out, err = pipeline.run_program(inst, [], trace="forks-%p.wpp", cwd=tmp_path)
    assert code == 0, err
    assert sorted(out.splitlines()) == sorted(pipeline.run_program(plain, [])[1].splitlines())
    assert b"command 0" in out
    files = sorted(tmp_path.glob("forks-*.wpp"))
    assert len(files) == 2, files
    assert sorted(tmp_path.iterdir()) == files
    by_role = {}
    for f in files:
        counts, warnings = entry_counts(f, tmp_path)
        assert warnings == ""
        c = counts["traces"][0]["entry_counts"]
        by_role["child" if c["in_child"] else "parent"] = c
    assert by_role["child"] == {"main": 0, "in_child": 10, "in_parent": 0}
    assert by_role["parent"] == {"main": 1, "in_child": 0, "in_parent": 20}


@pytest.mark.parametrize("how,sig", [("abort", signal.SIGABRT), ("segv", signal.SIGSEGV)])
def test_crash_still_ends_the_trace(builds, tmp_path, how, sig):
    inst, plain = builds["crashes"]
    trace = tmp_path / f"{how}.wpp"
    code, out, err = pipeline.run_program(inst, [how], trace=trace)
    plain_code, plain_out, plain_err = pipeline.run_program(plain, [how])
    assert code == plain_code == -sig
    assert (out, err) == (plain_out, plain_err)
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    assert counts["traces"][0]["entry_counts"]["tick"] == 1000


@pytest.mark.parametrize("build", ["signals", "signals-path"])
def test_recording_signal_handlers_change_nothing(builds, tmp_path, build):
    """A SIGALRM handler that runs instrumented code every 200 us while the
    program records: the program neither hangs (a handler interrupting the
    runtime's slow path, which holds its lock, drops its events instead of
    waiting for it) nor writes anywhere but where it would (inline records
    stay inside their buffer, whatever buffer a stale cursor points into);
    the trace imports, or says that events were dropped. Such handlers'
    events are not reliable (docs/TraceFormat.md, Signal handlers)."""
    inst, plain = builds[build]
    trace = tmp_path / "signals.wpp"
    code, out, err = pipeline.run_program(inst, ["20000000"], trace=trace, timeout=60)
    assert code == 0, err
    assert out == pipeline.run_program(plain, ["20000000"])[1]
    try:
        counts, _ = entry_counts(trace, tmp_path)
        assert counts["traces"][0]["entry_counts"]["main"] == 1
    except ToolError as error:
        assert "the runtime reported dropped events" in str(error)


def test_unwritable_trace_path_changes_nothing(builds, tmp_path):
    inst, plain = builds["threads"]
    bad = tmp_path / "no" / "such" / "dir" / "t.wpp"
    code, out, err = pipeline.run_program(inst, ["2", "1000"], trace=bad)
    assert code == 0
    assert out == pipeline.run_program(plain, ["2", "1000"])[1]
    lines = err.decode().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"phaedrus: cannot create trace '{bad}': No such file or directory")
    assert "tracing disabled, the program continues" in lines[0]


def run_both(builds_pair, args, tmp_path, preexec_fn):
    """Runs the plain and the instrumented build (in that order) with
    `preexec_fn` setting up each process, as `subprocess.run` does, the
    instrumented one tracing to tmp_path / "inst.wpp"; returns their
    CompletedProcess, standard output and error captured unless
    `preexec_fn` closes them."""
    inst, plain = builds_pair
    results = {}
    for build, binary in (("plain", plain), ("inst", inst)):
        env = dict(os.environ, PHAEDRUS_TRACE=str(tmp_path / f"{build}.wpp"))
        results[build] = subprocess.run(
            [str(binary), *args], env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            preexec_fn=preexec_fn)
    return results


@pytest.mark.parametrize("mode", ["closefds", "dup2"])
def test_a_program_that_reuses_descriptors_keeps_its_files(builds, tmp_path, mode):
    """The trace's descriptor is far from the program's (512 and up), and
    each write checks it is still the trace: a program that closes every
    descriptor and opens its own files, or dup2s one onto 3, finds its
    files as the plain build leaves them (until 2026-11-28 the trace took
    descriptor 3, and its records went into the program's file)."""
    inst, plain = builds["hostile"]
    files = {}
    for build in ("plain", "inst"):
        out_file = tmp_path / f"{build}.txt"
        code, out, err = pipeline.run_program(
            inst if build == "inst" else plain, [mode, out_file],
            trace=tmp_path / f"{mode}.wpp" if build == "inst" else None)
        assert code == 0, err
        files[build] = (out, out_file.read_bytes())
        if build == "inst":
            lines = err.decode().splitlines()
    assert files["inst"] == files["plain"]
    if mode == "closefds":
        # Its descriptor closed, the trace stops: one line says why.
        assert len(lines) == 1, lines
        assert lines[0].startswith("phaedrus: the program closed or replaced "
                                   "the file descriptor of trace "), lines
    else:
        assert lines == []
        counts, warnings = entry_counts(tmp_path / f"{mode}.wpp", tmp_path)
        assert warnings == ""
        assert counts["traces"][0]["entry_counts"]["step"] == 1_000_000


def test_a_program_started_with_stdout_closed_sees_it_closed(builds, tmp_path):
    """Standard output closed: the program's write fails, as it does in the
    plain build (until 2026-11-28 the trace took descriptor 1: the
    program's output went into the trace, and its error went unnoticed)."""
    results = {build: (proc.returncode, proc.stderr) for build, proc in
               run_both(builds["hostile"], ["stdout"], tmp_path,
                        lambda: os.close(1)).items()}
    assert results["inst"] == results["plain"]
    assert results["plain"][0] == 1
    counts, warnings = entry_counts(tmp_path / "inst.wpp", tmp_path)
    assert warnings == ""
    assert counts["traces"][0]["entry_counts"]["step"] == 1000


def test_threads_recording_at_exit_change_nothing(builds, tmp_path):
    """Threads still recording when main returns (a pool that glibc ends
    with the process): every run exits as the plain build does, with a
    trace that imports whole. Until 2026-11-28 at_exit took their buffers
    under them: most traces were corrupt (chunks missing or twice), and
    some runs died of SIGSEGV at exit. A run fails rarely, so several."""
    inst, plain = builds["hostile"]
    for run in range(8):
        trace = tmp_path / f"threads{run}.wpp"
        code, out, err = pipeline.run_program(inst, ["threads", "3", "60"],
                                              trace=trace, timeout=60)
        assert (code, out, err) == (0, b"main done\n", b""), (run, code, err)
        counts, warnings = entry_counts(trace, tmp_path)
        assert warnings == "", (run, warnings)
        assert len(counts["traces"]) >= 2


def test_a_crash_among_recording_threads_still_ends_the_trace(builds, tmp_path):
    """main faults while 3 threads record: the program dies of SIGSEGV and
    the trace is whole. Until 2026-11-28 the fatal-signal handler walked
    the queue while the threads went on queueing: a quarter of such traces
    had a chunk missing, and the reader refused them."""
    inst, plain = builds["hostile"]
    for run in range(6):
        trace = tmp_path / f"crash{run}.wpp"
        code, out, err = pipeline.run_program(inst, ["crash", "3", "60"],
                                              trace=trace, timeout=60)
        assert (code, out) == (-signal.SIGSEGV, b"main done\n"), (run, code, err)
        _, warnings = entry_counts(trace, tmp_path)
        assert warnings == "", (run, warnings)


def test_a_trace_on_a_fifo_nobody_reads_changes_nothing(builds, tmp_path):
    """PHAEDRUS_TRACE names a FIFO no one reads: the program runs as it
    would, and one line says why there is no trace (until 2026-11-28 the
    open waited for a reader, before main, forever)."""
    inst, plain = builds["hostile"]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, out, err = pipeline.run_program(inst, ["stdout"], trace=fifo, timeout=30)
    assert (code, out) == pipeline.run_program(plain, ["stdout"])[:2]
    lines = err.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"phaedrus: cannot create trace '{fifo}': No such device or address"), lines


def test_a_trace_whose_reader_left_changes_nothing(builds, tmp_path):
    """The trace goes to a FIFO whose reader leaves while the program runs:
    its writes fail with EPIPE, and the program runs on to its own exit
    (until 2026-11-28 SIGPIPE killed it, and its output was lost)."""
    inst, plain = builds["hostile"]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    env = dict(os.environ, PHAEDRUS_TRACE=str(fifo))
    proc = subprocess.Popen([str(inst), "wait"], env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # The header is written before main: once some of it has come, the
    # reader leaves, and the program goes on.
    deadline = time.monotonic() + 30
    while True:
        try:
            if os.read(reader, 8):
                break
        except BlockingIOError:
            pass
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.close(reader)
    out, err = proc.communicate(b"go\n", timeout=60)
    assert proc.returncode == 0, err
    line = tmp_path / "line.txt"
    line.write_bytes(b"go\n")
    assert out == pipeline.run_program(plain, ["wait"], stdin_path=line)[1]
    lines = err.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"phaedrus: cannot write trace '{fifo}': Broken pipe"), lines


def test_a_file_size_limit_changes_nothing(builds, tmp_path):
    """Under a file size limit of 0 (ulimit -f 0) the trace cannot be
    written: one line says so, and the program runs and prints as it
    would (until 2026-11-28 SIGXFSZ killed it before main)."""
    import resource
    results = run_both(
        builds["hostile"], ["stdout"], tmp_path,
        lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0)))
    assert results["inst"].returncode == results["plain"].returncode == 0
    assert results["inst"].stdout == results["plain"].stdout
    lines = results["inst"].stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "phaedrus: cannot write trace ") and "File too large" in lines[0], lines


def test_an_instrumented_program_that_runs_itself_keeps_both_traces(builds, tmp_path):
    """An instrumented program runs another instrumented image (here itself,
    through system()) under one PHAEDRUS_TRACE without %p: the first keeps
    its file, the second writes TRACE.<pid>, as a forked child does (until
    2026-11-28 the second truncated the first's file under its writes, and
    both traces were lost)."""
    inst, plain = builds["hostile"]
    trace = tmp_path / "self.wpp"
    code, out, err = pipeline.run_program(inst, ["self", "200000"], trace=trace)
    assert code == 0, err
    assert out == pipeline.run_program(plain, ["self", "200000"])[1]
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    assert counts["traces"][0]["entry_counts"]["step"] == 400_000
    others = sorted(tmp_path.glob("self.wpp.[0-9]*"))
    assert len(others) == 1, others
    counts, warnings = entry_counts(others[0], tmp_path)
    assert warnings == ""
    assert counts["traces"][0]["entry_counts"]["step"] == 5000


def test_a_vfork_child_that_calls_exit_leaves_the_trace_open(builds, tmp_path):
    """A vfork child shares its parent's memory: its exit() runs (and uses
    up) the parent's exit handlers, the runtime's among them. That handler
    ended the parent's trace, and the parent's later events were missing
    from a trace that imported without a word (until 2026-11-28). It now
    leaves another process's trace alone: with its exit handler used up,
    the parent's trace has no end record, and says it is cut short."""
    inst, plain = builds["hostile"]
    trace = tmp_path / "vfork.wpp"
    code, out, err = pipeline.run_program(inst, ["vfork", "100000"], trace=trace)
    assert (code, out, err) == (0, pipeline.run_program(plain, ["vfork", "100000"])[1], b"")
    counts, warnings = entry_counts(trace, tmp_path)
    assert "trace is incomplete: the trace has no end record" in warnings


def test_short_threads_give_their_buffers_back(builds, tmp_path):
    """Hundreds of short threads, one after another: each one's buffers
    are freed once written (they were kept until the process ended: 1.1 GB
    for 70,000 threads), and the trace holds every thread's events."""
    inst, plain = builds["hostile"]
    trace = tmp_path / "spawn.wpp"
    code, out, err = pipeline.run_program(inst, ["spawn", "300"], trace=trace)
    assert (code, out, err) == (0, pipeline.run_program(plain, ["spawn", "300"])[1], b"")
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    assert sum(t["entry_counts"]["step"] for t in counts["traces"]) == 900
    assert len(counts["traces"]) == 301  # main, and each thread


def test_a_stack_overflow_still_ends_the_trace(builds, tmp_path):
    """Infinite recursion overflows the stack: the program dies of SIGSEGV,
    as the plain build does, and the trace ends (its handler runs on the
    runtime's alternate signal stack; until 2026-11-28 there was no stack
    left to run it, and the trace had no end and lacked its last events)."""
    inst, plain = builds["hostile"]
    trace = tmp_path / "overflow.wpp"
    code, out, err = pipeline.run_program(inst, ["overflow"], trace=trace)
    assert (code, out) == pipeline.run_program(plain, ["overflow"])[:2]
    assert code == -signal.SIGSEGV
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    assert counts["traces"][0]["entry_counts"]["deep"] > 1000


def test_a_program_whose_main_ends_with_pthread_exit_exits(builds, tmp_path):
    """main ends with pthread_exit and its last thread returns: the process
    exits, as the plain build does, with the trace ended (until 2026-11-28
    the runtime's writer thread kept it alive forever, with every signal
    blocked: only SIGKILL ended it, and the program's output was lost)."""
    inst, plain = builds["hostile"]
    trace = tmp_path / "mainexit.wpp"
    code, out, err = pipeline.run_program(inst, ["mainexit"], trace=trace, timeout=30)
    assert (code, out, err) == (0, pipeline.run_program(plain, ["mainexit"])[1], b"")
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    assert sum(t["entry_counts"]["step"] for t in counts["traces"]) == 100_000


def test_an_exit_from_inside_the_runtime_says_the_trace_is_cut_short(builds, tmp_path):
    """The program exits from a function of its own that the runtime
    called while it held its lock (here its malloc; as a signal handler
    that interrupts the runtime may): the exit handler cannot take the
    lock again, and says so, where the program hung (until 2026-11-28)."""
    inst, plain = builds["ownmalloc"]
    trace = tmp_path / "exit.wpp"
    code, out, err = pipeline.run_program(inst, ["1000"], trace=trace, timeout=30,
                                          extra_env={"OWNMALLOC_EXIT": "1"})
    assert (code, out) == (7, b"")
    lines = err.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "phaedrus: the program exited from inside the runtime"), lines
    assert "Resource deadlock avoided" in lines[0]
    _, warnings = entry_counts(trace, tmp_path)
    assert "the trace has no end record" in warnings


def test_cancelled_threads_change_nothing(builds, tmp_path):
    """Threads cancelled at their own cancellation point while they record:
    the program ends as the plain build does (until 2026-11-28 a thread
    cancelled while it waited for the writer, a cancellation point the
    runtime added, died holding the runtime's lock, and the program hung
    every time), and the trace is whole."""
    inst, plain = builds["hostile"]
    trace = tmp_path / "cancel.wpp"
    code, out, err = pipeline.run_program(inst, ["cancel", "4", "150"],
                                          trace=trace, timeout=60)
    assert (code, out, err) == (0, b"cancelled 4\n", b"")
    _, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""


def test_thread_specific_destructors_are_recorded(builds, tmp_path):
    """The program's thread-specific destructors run after the runtime's
    first turn: their events are in the trace (until 2026-11-28 they were
    discarded without a word)."""
    inst, plain = builds["hostile"]
    trace = tmp_path / "keys.wpp"
    code, out, err = pipeline.run_program(inst, ["keys", "5"], trace=trace)
    assert (code, out, err) == (0, b"keys\n", b"")
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    assert sum(t["entry_counts"]["step"] for t in counts["traces"]) == 50


def test_a_program_with_its_own_malloc_is_recorded(builds, tmp_path):
    """The program defines malloc itself, instrumented: the runtime's own
    allocations run it, and what it records then is left out without
    counting as dropped (until 2026-11-28 every such trace was refused as
    having dropped events)."""
    inst, plain = builds["ownmalloc"]
    trace = tmp_path / "ownmalloc.wpp"
    code, out, err = pipeline.run_program(inst, ["200000"], trace=trace)
    assert (code, out, err) == (0, pipeline.run_program(plain, ["200000"])[1], b"")
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    assert counts["traces"][0]["entry_counts"]["step"] == 200_000


def test_the_program_finds_its_terminal_signals_at_their_default(builds, tmp_path):
    """SIGINT, SIGTERM, SIGHUP and SIGQUIT are the program's: ncurses takes
    SIGINT (to restore the terminal on ^C) and CPython raises
    KeyboardInterrupt only where it is at its default, and the runtime's
    handlers there made them leave it (until 2026-11-28)."""
    terminal = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)

    def at_default():
        # As a shell in a terminal starts a command (a background job, or
        # nohup, would start it with some of them ignored).
        for number in terminal:
            signal.signal(number, signal.SIG_DFL)

    outputs = {build: (proc.returncode, proc.stdout, proc.stderr) for build, proc in
               run_both(builds["hostile"], ["disposition"], tmp_path,
                        at_default).items()}
    assert outputs["inst"] == outputs["plain"]
    assert outputs["inst"][1].count(b"default") == 4, outputs["inst"]


@pytest.mark.skipif(os.geteuid() != 0 or not Path("/usr/bin/setpriv").exists(),
                    reason="needs root (to make a setuid program) and setpriv")
def test_a_setuid_program_writes_no_trace(builds, tmp_path):
    """An instrumented program installed setuid root, run by nobody with
    PHAEDRUS_TRACE naming a root-owned file: the file is left alone, and
    one line says why (until 2026-11-28 nobody could so overwrite it)."""
    inst, plain = builds["hostile"]
    tmp_path.chmod(0o755)
    program = tmp_path / "suid"
    program.write_bytes(Path(inst).read_bytes())
    program.chmod(0o4755)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"important\n")
    victim.chmod(0o644)
    env = dict(os.environ, PHAEDRUS_TRACE=str(victim))
    proc = subprocess.run(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                           "--clear-groups", str(program), "stdout"],
                          env=env, capture_output=True, stdin=subprocess.DEVNULL)
    if proc.returncode != 0 and b"Permission denied" in proc.stderr:
        pytest.skip("the program cannot be run as nobody here (nosuid mount?)")
    assert (proc.returncode, proc.stdout) == pipeline.run_program(plain, ["stdout"])[:2]
    assert victim.read_bytes() == b"important\n"
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "phaedrus: will not write, for a program run with privileges"), lines


def test_full_disk_changes_nothing(builds):
    """A trace that cannot be written (the disk is full: /dev/full fails
    every write with ENOSPC) disables tracing with one line on stderr; the
    program runs and exits as it would."""
    inst, plain = builds["threads"]
    code, out, err = pipeline.run_program(inst, ["2", "1000"], trace="/dev/full")
    assert code == 0
    assert out == pipeline.run_program(plain, ["2", "1000"])[1]
    lines = err.decode().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("phaedrus: cannot write trace '/dev/full': "
                               "No space left on device"), lines[0]
    assert "tracing disabled, the program continues" in lines[0]


@pytest.mark.parametrize("layout", ["0x101", "0x2", "0x200"])
def test_unknown_event_layout_changes_nothing(tmp_path, layout):
    """A module that registers an event layout this runtime does not know
    (16-bit path events, a granularity or flag from another version) gets
    no trace and one line on stderr; the program runs as it would."""
    source = tmp_path / "layout.c"
    source.write_text(f"""
#include <stdint.h>
#include <stdio.h>
void __phaedrus_register(const char *, uint64_t, uint64_t, uint32_t);
void __phaedrus_record_slow(uint32_t) __attribute__((preserve_most));
int main(void) {{
  __phaedrus_register("0\\tfunction\\tmain\\n", 16, 1, {layout});
  for (int i = 0; i < 100000; ++i)
    __phaedrus_record_slow(0);
  puts("done");
  return 3;
}}
""")
    binary = tmp_path / "layout"
    subprocess.run([str(llvm_tool("clang")), "-O1", str(source),
                    str(runtime_library()), "-lpthread", "-o",
                    str(binary)], check=True)
    trace = tmp_path / "layout.wpp"
    code, out, err = pipeline.run_program(binary, [], trace=trace)
    assert (code, out) == (3, b"done\n")
    lines = err.decode().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"phaedrus: the module's event layout is not one "
                               f"this runtime knows; cannot record '{trace}': "
                               f"Invalid argument; tracing disabled")
    assert not trace.exists()


def test_tracing_off(builds, tmp_path):
    inst, _ = builds["threads"]
    code, out, err = pipeline.run_program(inst, ["2", "10"], cwd=tmp_path)
    assert code == 0 and err == b""
    assert list(tmp_path.iterdir()) == []  # PHAEDRUS_TRACE=off wrote nothing


def test_import_refuses_damaged_traces(builds, tmp_path):
    """Truncated, corrupt and mismatched traces get a clear diagnostic."""
    inst, _ = builds["threads"]
    trace = tmp_path / "good.wpp"
    # Enough events for dozens of (compressed) chunks.
    pipeline.run_program(inst, ["1", "1000000"], trace=trace)
    data = trace.read_bytes()

    # Cut in the middle of an event chunk (the middle one): imports its
    # prefix with a warning.
    chunks = event_records(data)
    assert len(chunks) >= 10
    middle, length, tag = chunks[len(chunks) // 2]
    assert tag == "EV2Z"  # function granularity: 16-bit tokens, zstd alone
    cut = tmp_path / "cut.wpp"
    cut.write_bytes(data[: middle + length // 2])
    counts, warnings = entry_counts(cut, tmp_path)
    assert f"trace is incomplete: truncated EV2Z record at byte {middle}" in warnings
    recovered = re.search(r"recovered (\d+) events in (\d+) chunks from 1 "
                          r"thread\(s\)", warnings)
    assert recovered, warnings
    events, chunks = map(int, recovered.groups())
    # A full chunk: PHAEDRUS_CHUNK_TOKENS 16-bit events.
    assert chunks == len(event_records(data)) // 2 and events == 65536 * chunks
    assert counts["traces"][0]["events"] == events

    # A flipped byte inside a chunk: an error that names the record and
    # says how much is intact; --wpp-keep-prefix imports that much.
    corrupt = tmp_path / "corrupt.wpp"
    flipped = bytearray(data)
    flipped[middle + length // 2] ^= 0xFF
    corrupt.write_bytes(bytes(flipped))
    for read in (lambda: pipeline.import_trace(corrupt, tmp_path / "corrupt.mlir"),
                 lambda: pipeline.count_trace(corrupt)):
        with pytest.raises(ToolError) as error:
            read()
        message = str(error.value)
        assert f"error: trace is corrupt: corrupt EV2Z record at byte {middle}" in message
        assert "checksum mismatch; the intact prefix has recovered" in message
        assert "(import it with --wpp-keep-prefix)" in message
    counts, warnings = entry_counts(corrupt, tmp_path, keep_prefix=True)
    assert "checksum mismatch" in warnings

    # A trace of another build.
    for read in (lambda: pipeline.import_trace(trace, tmp_path / "other.mlir",
                                               fingerprint=12345),
                 lambda: pipeline.count_trace(trace, fingerprint=12345)):
        with pytest.raises(ToolError) as error:
            read()
        assert "does not match the expected fingerprint 12345: it was recorded " \
               "from a different build of the program" in str(error.value)

    # Not a trace at all, and an empty file.
    for name, content in [("text.wpp", b"hello, world\n"), ("empty.wpp", b"")]:
        (tmp_path / name).write_bytes(content)
        for read in (lambda: pipeline.import_trace(tmp_path / name,
                                                   tmp_path / "x.mlir"),
                     lambda: pipeline.count_trace(tmp_path / name)):
            with pytest.raises(ToolError) as error:
                read()
            assert "cannot import trace: not a phaedrus trace: the file does not " \
                   "start with the trace magic; nothing was recovered" in str(error.value)


@pytest.mark.parametrize("n", [30, 1, 0])
def test_path_granularity_counts_paths_exactly(builds, tmp_path, n):
    """classify(n) loops n times over `if (i % 3 == 0)`. Ball-Larus paths end
    at the back edge and the return: the first iteration's path starts at
    the entry, later ones at the loop header; the last path leaves the loop."""
    inst, plain = builds["branches-path"]
    trace = tmp_path / "branches.wpp"
    code, out, _ = pipeline.run_program(inst, [str(n)], trace=trace)
    assert (code, out) == pipeline.run_program(plain, [str(n)])[:2]
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    paths = counts["traces"][0]["path_counts"]["classify"]
    then_iterations = len([i for i in range(n) if i % 3 == 0])
    else_iterations = n - then_iterations
    # One path per loop iteration plus the path that leaves the loop.
    assert sum(paths.values()) == n + 1
    expected = sorted(c for c in [
        1 if n > 0 else 0,                      # entry .. first iteration .. back edge
        then_iterations - (1 if n > 0 else 0),  # header .. then .. back edge
        else_iterations,                        # header .. else .. back edge
        1,                                      # header (or entry) .. exit
    ] if c)
    assert sorted(paths.values()) == expected
    # The entries are still counted at path granularity.
    assert counts["traces"][0]["entry_counts"]["classify"] == 1


def test_a_path_that_ends_in_a_call_that_does_not_return_is_counted(builds, tmp_path):
    """parse() leaves every 10th of its 3,000 calls with longjmp: that path
    ends in a block that cannot go on (`unreachable` after the call), and is
    recorded before the call. Until 2026-11-28 such paths were never
    counted: parse's error branch weighed 0, which LLVM reads as never
    taken."""
    inst, plain = builds["hostile-path"]
    trace = tmp_path / "errors.wpp"
    code, out, _ = pipeline.run_program(inst, ["errors", "3000"], trace=trace)
    assert (code, out) == pipeline.run_program(plain, ["errors", "3000"])[:2]
    assert out == b"errors 300\n"
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    paths = counts["traces"][0]["path_counts"]["parse"]
    assert sorted(paths.values()) == [300, 2700]


def test_a_function_of_too_many_paths_is_cut_and_weighed_exactly(builds, tmp_path):
    """score() has 2^40 acyclic paths, more than 32-bit path ids hold: the
    numbering cuts it into segments (instead of recording only its
    entries), and the branch weights decoded from the segments' counts are
    the exact counts of each of its 40 branches."""
    inst, plain = builds["manypaths-path"]
    n = 1000
    trace = tmp_path / "manypaths.wpp"
    code, out, _ = pipeline.run_program(inst, [str(n)], trace=trace)
    assert (code, out) == pipeline.run_program(plain, [str(n)])[:2]
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == "" and counts["traces"][0]["path_counts"]["score"]
    # The plain module, decoding the paths: its numbering makes the same cuts.
    mlir = inst.parent / "manypaths.mlir"
    result = subprocess.run(
        [str(phaedrus_tool("phaedrus-opt")), str(mlir),
         f"--phaedrus-trace-profile=trace-files={trace}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True)
    body = result.stdout.split("llvm.func internal @score(", 1)[1].split("llvm.func", 1)[0]
    weights = [[int(w) for w in m.split(", ")] for m in re.findall(
        r"phaedrus.branch_weights<\[(\d+, \d+)\], measured", body)]
    xs = [(i * 0x9E3779B97F4A7C15) % 2**64 for i in range(n)]
    expected = [[sum(x >> k & 1 for x in xs), sum(1 - (x >> k & 1) for x in xs)]
                for k in range(40)]
    assert weights == expected


def check_chunk_damage_is_reported(data, chunks, tag, tmp_path):
    """A cut in the middle chunk is reported as a truncated `tag` record
    with the prefix recovered, a flipped byte in it as a checksum mismatch."""
    middle, length, found = chunks[len(chunks) // 2]
    assert found == tag
    cut = tmp_path / "cut.wpp"
    cut.write_bytes(data[: middle + length // 2])
    counts, warnings = entry_counts(cut, tmp_path)
    assert f"trace is incomplete: truncated {tag} record at byte {middle}" in warnings
    assert re.search(rf"recovered \d+ events in {len(chunks) // 2} chunks from 1 "
                     r"thread\(s\)", warnings), warnings

    flipped = bytearray(data)
    flipped[middle + length // 2] ^= 0xFF
    (tmp_path / "corrupt.wpp").write_bytes(bytes(flipped))
    with pytest.raises(ToolError) as error:
        pipeline.import_trace(tmp_path / "corrupt.wpp", tmp_path / "corrupt.mlir")
    assert f"corrupt {tag} record at byte {middle}: checksum mismatch" in str(error.value)


def long_path_run(build, n, tmp_path):
    """Runs a path-instrumented test program with argument n (its output
    must be the plain build's) and returns its trace's bytes, its event
    records and its counts, which must import without a warning."""
    inst, plain = build
    trace = tmp_path / "long.wpp"
    code, out, _ = pipeline.run_program(inst, [str(n)], trace=trace)
    assert (code, out) == pipeline.run_program(plain, [str(n)])[:2]
    data = trace.read_bytes()
    counts, warnings = entry_counts(trace, tmp_path)
    assert warnings == ""
    return data, event_records(data), counts


def test_path_trace_chunks_round_trip_and_damage_is_reported(builds, tmp_path):
    """A path trace that zstd compresses well is written as zstd chunks
    (EVNZ records, docs/TraceFormat.md): a long run must still give exact
    path counts, and a cut or a flipped byte in a chunk must be reported
    like any other damage."""
    n = 3_000_000
    data, chunks, counts = long_path_run(builds["branches-path"], n, tmp_path)
    assert len(chunks) >= 10 and {tag for _, _, tag in chunks[:-1]} == {"EVNZ"}
    paths = sorted(counts["traces"][0]["path_counts"]["classify"].values())
    then_iterations = len(range(0, n, 3))
    assert paths == sorted([1, then_iterations - 1, n - then_iterations, 1])
    check_chunk_damage_is_reported(data, chunks, "EVNZ", tmp_path)


def test_poorly_compressing_path_trace_is_predicted(builds, tmp_path):
    """A path trace that zstd alone shrinks less than 16x (each iteration of
    scatter.c takes one of 256 paths at random) is predicted before zstd
    from its second chunk on (EVNP records): its path counts are still
    exact, and damage to a predicted chunk is reported."""
    n = 1_500_000
    data, chunks, counts = long_path_run(builds["scatter-path"], n, tmp_path)
    tags = [tag for _, _, tag in chunks[:-1]]
    assert len(chunks) >= 10 and tags[0] == "EVNZ" and set(tags[1:]) == {"EVNP"}, tags
    # Replay the generator: the first iteration's path starts at the entry,
    # the others at the loop header; one more path leaves the loop. Runs of
    # a path repeated are counted once per completion all the same.
    x, later = 20261124, {}
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2**32
        if i > 0:
            later[x >> 24] = later.get(x >> 24, 0) + 1
    paths = sorted(counts["traces"][0]["path_counts"]["scatter"].values())
    assert paths == sorted([1, 1, *later.values()])
    check_chunk_damage_is_reported(data, chunks, "EVNP", tmp_path)


def test_import_out_of_memory_is_an_error_not_a_crash(builds, tmp_path):
    """Importing a trace as IR holds all of it: a trace that does not fold
    (scatter.c's 40M random paths, 16 bytes an item, a 1 GiB buffer) under
    a 900 MB address-space limit runs out of memory. The tool says so, says
    what reads trace files in bounded memory, exits with 1 and leaves no
    output (a session scaling SQLite got an abort and LLVM's crash report)."""
    import resource
    inst, _ = builds["scatter-path"]
    trace = tmp_path / "big.wpp"
    code, _, _ = pipeline.run_program(inst, ["40000000"], trace=trace)
    assert code == 0
    output = tmp_path / "big.mlirbc"

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (900 << 20, 900 << 20))
    result = subprocess.run([str(phaedrus_tool("phaedrus-translate")), "--import-wpp",
                             str(trace), "--emit-bytecode", "-o", str(output)],
                            capture_output=True, text=True, preexec_fn=limit)
    assert result.returncode == 1, result.stderr
    assert "out of memory for the folded items of a trace: importing a trace as " \
        "IR holds all of it in memory; --wpp-trace-counts" in result.stderr
    assert "PLEASE submit a bug report" not in result.stderr
    assert not output.exists()


def test_corpus_run_entry_refuses_what_is_not_one_run():
    """Counts that are not one run of one build are refused by name: no
    trace at all, or traces over different vocabularies."""
    from phaedrus import corpus
    vocabulary = {"name": "v", "fingerprint": "1", "entries": []}
    trace = {"name": "run", "vocabulary": "v", "argv": ["p"], "events": 1,
             "tokens": [[0, 1]]}
    with pytest.raises(ToolError, match=r"t\.wpp: the trace file holds no trace"):
        corpus.run_entry({"vocabularies": [vocabulary], "traces": []}, "t.wpp", [])
    other = dict(trace, name="run_t1", vocabulary="w")
    with pytest.raises(ToolError, match="its traces use different vocabularies"):
        corpus.run_entry({"vocabularies": [vocabulary, dict(vocabulary, name="w")],
                          "traces": [trace, other]}, "t.wpp", [])
