"""`phaedrus eval`: does the predicted profile make a faster binary for an
input the model never saw, and how close does it come to PGO trained on that
very input? (docs/Eval.md has the method and the JSON format.)

For each held-out input, eight builds of the same whole-program module, all
compiled by `clang -O2` from LLVM IR that differs only in its profile
metadata:

  plain      no profile
  mismatch   clang's instrumentation PGO (IR level: -fprofile-generate's
             instrumentation) trained on one other input, the traditional way
  predicted  the profile the model predicts from the input's description
  oracle     clang's instrumentation PGO trained on this input
  measured   this input's own Phaedrus trace, lowered (what the lowering
             loses against the oracle)
  nearest    the profile of the training input whose description is nearest
  mean       the mean of the training inputs' profiles
  static     LLVM's static estimate, no run at all (--phaedrus-static-estimate)

clang's profiles are applied with `opt -passes=pgo-instr-use` to the same IR
at the same point where Phaedrus attaches its profile, so that every build
then runs the identical optimisation pipeline."""

import functools
import hashlib
import json
import os
import random
import re
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import corpus as corpus_mod
from . import pipeline
from .timing import (CLOCKS, DEFAULT_CPU, check_cpu_choice, disable_aslr,
                     interleaved_rounds, time_run, timing_cpu)
from .tools import (ToolError, llvm_tool, log, path_without, percent_free,
                    phaedrus_tool, run, runtime_library)

FORMAT = "phaedrus-eval"
# Version 2 (2026-11-27): `times_s` are by the report's `clock` (CPU time by
# default, was wall time), and rows have `times_wall_s` and `times_cpu_s`.
VERSION = 2
# The clock eval times by unless told otherwise: a run's CPU time, which
# the machine's other work changes far less than its wall time
# (timing.time_run has the measurements).
DEFAULT_CLOCK = "cpu"
MIN_ROUNDS = 5
# Oracle speedups below this count as no speedup to recover.
MEANINGFUL_SPEEDUP = 0.02
# LLVM's hot cutoff (ProfileSummaryCutoffHot): the hottest functions that
# take 99% of the calls.
HOT_CUTOFF = 0.99
# How often a long step of several builds says how far it is (as long
# steps of one build say they still run).
PROGRESS_NOTE_S = pipeline.HEARTBEAT_S

VARIANTS = {
    "plain": "-O2, no profile",
    "mismatch": "clang instrumentation PGO trained on one other input",
    "predicted": "Phaedrus: the profile the model predicts for this input",
    "oracle": "clang instrumentation PGO trained on this input",
    "measured": "Phaedrus: this input's own measured trace, lowered",
    "nearest": "Phaedrus lowering of the nearest training input's profile",
    "mean": "Phaedrus lowering of the training inputs' mean profile",
    "static": "Phaedrus lowering of LLVM's static estimate (no run)",
}
PROFILED = [v for v in VARIANTS if v != "plain"]


@dataclass
class Input:
    """A run to evaluate on: argv (program name first), standard input and
    working directory."""
    name: str
    argv: list
    stdin: str = None
    cwd: str = None
    # The locale variables it ran under (None: not recorded; it runs under
    # eval's own environment).
    locale: dict = None
    # The exit status its run had when it was recorded (None: not known).
    exit_status: int = None

    def run_locale(self) -> dict:
        """The locale variables its runs get: the recorded ones, else
        eval's own."""
        return pipeline.locale_of() if self.locale is None else self.locale


def load_input(path) -> Input:
    """An input description: the TRACE.input.json `phaedrus run` writes, or
    by hand {"argv": [...], "stdin": FILE or null, "cwd": DIR or null}."""
    path = Path(path)
    info = corpus_mod.read_description(path)
    argv = info["argv"]
    cwd = info.get("cwd")
    if cwd and not Path(cwd).is_dir():
        raise ToolError(f"{path}: its cwd {cwd} is not a directory: give the "
                        f"one the input runs in")
    # A relative stdin is the cwd's file, as the featurizer and the
    # prediction take it: eval's runs read it from there too (they read
    # eval's own directory's, another file).
    stdin = info.get("stdin")
    if stdin and cwd:
        stdin = str(Path(cwd) / stdin)
    try:
        pipeline.check_stdin(stdin)
    except ToolError as e:
        raise ToolError(f"{path}: {e}")
    status = info.get("exit_status")
    inp = Input(path.name.split(".")[0], argv, stdin, cwd, info.get("locale"),
                status if isinstance(status, int) else None)
    # A run that rewrote its input (sed -i) when it was recorded left
    # another input than the one its description was made of.
    descriptor = info.get("descriptor")
    if isinstance(descriptor, list) and \
            corpus_mod.featurizer_of(info) == corpus_mod.featurizer_version():
        now = corpus_mod.featurize(argv, stdin=stdin, cwd=info.get("cwd"),
                                   locale=inp.run_locale())
        changed = sorted(set(now) ^ set(descriptor))
        if changed:
            log(f"warning: {path}: the input is not what it was when the run "
                f"was described ({len(changed)} descriptor tokens differ: "
                f"{', '.join(changed[:4])}{', ...' if len(changed) > 4 else ''}"
                f"): a run that rewrites its input (an in-place edit) leaves "
                f"another input than the one it recorded; eval runs it on the "
                f"input as it is now")
    return inp


def input_files_state(inp: Input) -> dict:
    """{path: (size, sha256)} of the run's standard input and of the
    arguments that are files (relative to its working directory): what a
    run must leave as it was for its timed repetitions to run on one
    input."""
    cwd = Path(inp.cwd or ".")
    paths = [Path(inp.stdin)] if inp.stdin else []
    for a in inp.argv[1:]:
        candidate = cwd / a
        try:
            if candidate.is_file():
                paths.append(candidate)
        except OSError:  # a name too long to be a path
            pass
    state = {}
    for path in paths:
        try:  # (in chunks: inputs may be gigabytes)
            state[str(path)] = (path.stat().st_size, Reuse.file_hash(path))
        except OSError:
            continue
    return state


def run_signature(inp: Input):
    """What a run does, by content: its arguments, each that names a file
    as that file's size and SHA-256, its standard input's, and its locale
    (two descriptions of one run under other names or paths are alike)."""
    cwd = Path(inp.cwd or ".")
    state = input_files_state(inp)

    def described(path):
        return state.get(str(path), str(path))
    return (tuple(described(cwd / a) if str(cwd / a) in state else a
                  for a in inp.argv[1:]),
            described(Path(inp.stdin)) if inp.stdin else None,
            tuple(sorted(inp.run_locale().items())))


def check_input_unchanged(inp: Input, before: dict):
    """Refuses an input its runs rewrite: every timed repetition would
    run on another input."""
    after = input_files_state(inp)
    for path, state in before.items():
        if after.get(path) != state:
            size = after[path][0] if path in after else "gone"
            raise ToolError(
                f"{inp.name}: running it changed its input file {path} "
                f"({state[0]} bytes -> {size}): a run that rewrites its "
                f"input (an in-place edit such as sed -i) runs on another "
                f"input each time it is timed; eval needs runs that leave "
                f"their inputs as they are (time an in-place edit by "
                f"writing to another file instead; a file the run writes as "
                f"its output should not exist before it runs; a database the "
                f"run updates is best made by the run itself, as SQLite's "
                f"'.open --new FILE' does)")


def check_plain_run(inp: Input, code: int, what: str):
    """Refuses an input whose plain run exits otherwise than its recorded
    run did, and warns of one that fails where none was recorded: every
    build fails alike, the checks of the builds pass, and eval would time
    and report the error path (an input file since deleted gave an oracle
    recovery of 1.3)."""
    how = (f"was killed by signal {-code}" if code < 0 else f"exited with {code}")
    if inp.exit_status is not None and code != inp.exit_status:
        raise ToolError(f"{inp.name}: the plain build {how}, where the recorded "
                        f"run exited with {inp.exit_status}: its input is not "
                        f"what it was (a file moved or deleted?); eval would "
                        f"measure another run")
    if inp.exit_status is None and code != 0:
        log(f"warning: {inp.name} ({what}): the plain build {how}: if that is "
            f"an error (a missing input file, a wrong option), eval measures "
            f"the error path; if it is the program's answer (grep found "
            f"nothing), go on")


def corpus_input(r: dict) -> Input:
    return Input(r["name"], r["argv"], r.get("stdin"), r.get("cwd"),
                 r.get("locale"))


# --------------------------------------------------------------------------
# Profiles as they reach LLVM: entry counts and branch weights in the IR

def profile_counters(ll_text: str) -> dict:
    """The counters a profile gives the optimiser, from textual LLVM IR, for
    the functions the program defines (not available_externally copies):
    ("entry", f) -> function_entry_count, ("branch", f, k, j) -> weight of
    successor j of the k-th conditional branch or switch of f (k counts every
    one, profiled or not, so that two profiles of one module line up)."""
    metadata = {}
    for m in re.finditer(r'^(!\d+) = !\{!"(branch_weights|function_entry_count)"'
                         r'(?:, !"expected")?((?:, i(?:32|64) -?\d+)+)\}', ll_text, re.M):
        # LLVM prints an i32 weight of 2^31 or more as negative.
        metadata[m.group(1)] = [int(x) & (0xFFFFFFFF if bits == "32" else (1 << 64) - 1)
                                for bits, x in re.findall(r"i(32|64) (-?\d+)", m.group(3))]
    counters, function, k, pending = {}, None, 0, None
    for line in ll_text.splitlines():
        if line.startswith("define "):
            if line.startswith("define available_externally "):
                # A library's inline copy (tolower from ctype.h): the program
                # does not define it, Phaedrus does not record it.
                function = None
                continue
            m = re.search(r"@([\w.$]+|\"[^\"]+\")\(", line)
            function, k = m.group(1), 0
            m = re.search(r"!prof (!\d+)", line)
            if m and m.group(1) in metadata:
                counters[("entry", function)] = metadata[m.group(1)][0]
            continue
        if function is None:
            continue
        if line == "}":
            function = None
            continue
        prof = None
        if " br i1 " in line:
            m = re.search(r"!prof (!\d+)", line)
            prof = m.group(1) if m else None
            index = k
            k += 1
        elif " switch " in line:
            pending = k
            k += 1
            continue
        elif pending is not None and line.lstrip().startswith("]"):
            m = re.search(r"!prof (!\d+)", line)
            prof = m.group(1) if m else None
            index, pending = pending, None
        if prof in metadata:
            for j, w in enumerate(metadata[prof]):
                counters[("branch", function, index, j)] = w
    return counters


COMPARED = {"path": "entry counts and branch weights",
            "function": "entry counts"}


def comparable(counters: dict, granularity: str) -> dict:
    """The counters a profile of `granularity` can be compared by: all of
    them for a path-granularity corpus; the entry counts only for a
    function-granularity one, whose traces weigh only the branches their
    call sites' counts fix (against all of the oracle's branch counters,
    even a run's own exact trace would overlap its oracle near 0)."""
    if granularity == "path":
        return counters
    return {k: v for k, v in counters.items() if k[0] == "entry"}


def overlap(a: dict, b: dict) -> float:
    """Overlap of two profiles as `llvm-profdata overlap` defines it: each
    counter normalised by its profile's total, summed minimum over all
    counters (1 for profiles of the same shape, 0 for disjoint ones)."""
    total_a, total_b = sum(a.values()), sum(b.values())
    if not total_a or not total_b:
        return 0.0
    return sum(min(a.get(key, 0) / total_a, b.get(key, 0) / total_b)
               for key in set(a) | set(b))


def blend_ceiling(candidates: dict, oracle: dict, steps: int = 2000):
    """How close a blend of the candidate profiles can come to the oracle:
    the largest overlap (as `overlap` defines it) of any convex mix of the
    candidates, each normalised by its total, with the oracle. Returns
    (overlap, {candidate: weight}) of the best mix found by exponentiated-
    gradient ascent (overlap is concave in the weights; the search starts
    from the uniform mix and keeps the best mix it meets, so the value is a
    lower bound of the exact maximum, and at least the best single
    candidate's overlap). A model that predicts a blend of training runs,
    such as the retrieval model, cannot beat it on this input."""
    import numpy as np
    names = sorted(n for n, c in candidates.items() if sum(c.values()))
    o_total = sum(oracle.values())
    if not names or not o_total:
        return 0.0, {}
    keys = sorted(set(oracle).union(*(candidates[n] for n in names)), key=str)
    column = {k: i for i, k in enumerate(keys)}
    profiles = np.zeros((len(names), len(keys)))
    for j, name in enumerate(names):
        total = sum(candidates[name].values())
        for k, v in candidates[name].items():
            profiles[j, column[k]] = v / total
    target = np.zeros(len(keys))
    for k, v in oracle.items():
        target[column[k]] = v / o_total
    singles = np.minimum(profiles, target).sum(axis=1)
    best_w = np.eye(len(names))[int(np.argmax(singles))]
    best = float(singles.max())
    w = np.full(len(names), 1.0 / len(names))
    for _ in range(steps):
        mix = w @ profiles
        value = float(np.minimum(mix, target).sum())
        if value > best:
            best, best_w = value, w.copy()
        gradient = profiles @ (mix < target).astype(float)
        w = w * np.exp(0.5 * (gradient - gradient.max()))
        w /= w.sum()
    return best, {n: float(x) for n, x in zip(names, best_w) if x >= 0.005}


def blend(candidates: dict, weights: dict) -> dict:
    """The mix of the candidate profiles with `weights` (name -> weight),
    each normalised by its total first, as blend_ceiling mixes them."""
    mixed = {}
    for name, w in weights.items():
        total = sum(candidates[name].values())
        for key, value in candidates[name].items():
            mixed[key] = mixed.get(key, 0.0) + w * value / total
    return mixed


def mass_and_shape(candidate: dict, oracle: dict, worst: int = 5) -> dict:
    """Where a profile's overlap with the oracle is lost: in which functions
    are hot (`mass`: the summed minimum of the two profiles' shares of each
    function's counters) or in what each function does inside (`shape`:
    the overlap of the function's counters, each profile normalised within
    the function, weighed by the oracle's share of the function), with the
    `worst` functions by shape loss (the oracle's share times one minus the
    function's shape overlap)."""
    def functions(counters):
        total = sum(counters.values())
        out = {}
        for key, value in counters.items():
            out.setdefault(key[1], {})[key] = value / total if total else 0.0
        return out
    c, o = functions(candidate), functions(oracle)
    c_mass = {f: sum(d.values()) for f, d in c.items()}
    o_mass = {f: sum(d.values()) for f, d in o.items()}

    def inside(f):
        a, b = c_mass.get(f, 0.0), o_mass[f]
        if not a or not b:
            return 0.0
        return sum(min(c[f].get(k, 0.0) / a, v / b) for k, v in o[f].items())
    shapes = {f: inside(f) for f in o}
    losses = sorted(((o_mass[f] * (1 - shapes[f]), f) for f in o), key=lambda x: (-x[0], x[1]))
    return {"mass": sum(min(c_mass.get(f, 0.0), m) for f, m in o_mass.items()),
            "shape": sum(o_mass[f] * shapes[f] for f in o),
            "shape_loss": {f: loss for loss, f in losses[:worst] if loss > 0}}


def total_ratio(candidate: dict, oracle: dict):
    """How many times the oracle's counts the candidate profile's are, in
    all (summed counters): overlap and hot coverage compare shapes, this
    the scale, how often things run. None for an empty oracle."""
    total = sum(oracle.values())
    return sum(candidate.values()) / total if total else None


def entry_counts(counters: dict) -> dict:
    return {key[1]: n for key, n in counters.items() if key[0] == "entry"}


def hot_coverage(candidate: dict, oracle: dict) -> float:
    """Share of the oracle's calls that the candidate's hottest functions
    take, against the oracle's own: k is the size of the oracle's hot set
    (its hottest functions taking 99% of its calls), and the result is the
    oracle's calls into the candidate's top k over those into its own top k."""
    oracle_entries = entry_counts(oracle)
    candidate_entries = entry_counts(candidate)
    ranked = sorted(oracle_entries.values(), reverse=True)
    total = sum(ranked)
    if not total:
        return 0.0
    k, running = 0, 0
    while running < HOT_CUTOFF * total:
        running += ranked[k]
        k += 1
    # (Functions it says never ran are not among its hottest: they filled
    # the places a short profile left, by name.)
    top = sorted((f for f, n in candidate_entries.items() if n > 0),
                 key=lambda f: (-candidate_entries[f], f))[:k]
    return sum(oracle_entries.get(f, 0) for f in top) / sum(ranked[:k])


# --------------------------------------------------------------------------
# Builds

def descriptor_distance(a, b) -> float:
    """Jaccard distance of two descriptors' token sets."""
    a, b = set(a), set(b)
    return 1.0 - len(a & b) / len(a | b) if a | b else 0.0


def mean_counts(corpus: dict) -> list:
    """[[token, count]]: each token's share of its run's events, averaged
    over the runs, times the mean run length (every token any run took
    keeps a count of at least 1)."""
    runs = corpus["runs"]
    shares = {}
    for r in runs:
        total = sum(n for _, n in r["tokens"]) or 1
        for token, n in r["tokens"]:
            shares[token] = shares.get(token, 0.0) + n / total / len(runs)
    events = statistics.mean(sum(n for _, n in r["tokens"]) for r in runs)
    return [[t, max(1, round(share * events))] for t, share in shares.items()]


def linked_files(ldflags) -> list:
    """The files a link with `ldflags` reads besides the program: words that
    name files (a static library, an object), and what -lNAME and -l:FILE
    find in the -L directories and LIBRARY_PATH (not in the system's own
    directories, which change with the toolchain, whose version every key
    has). A reused link is then one of the same libraries: a rebuilt
    library of the user's left every earlier binary reused."""
    dirs, names, files = [], [], []
    words = iter(ldflags)
    for word in words:
        if word == "-L" or word == "-l":
            value = next(words, "")
            (dirs if word == "-L" else names).append(value)
        elif word.startswith("-L"):
            dirs.append(word[2:])
        elif word.startswith("-l"):
            names.append(word[2:])
        elif not word.startswith("-") and Path(word).is_file():
            files.append(Path(word))
    dirs += [d for d in os.environ.get("LIBRARY_PATH", "").split(":") if d]
    for name in names:
        candidates = [name[1:]] if name.startswith(":") else \
            [f"lib{name}.so", f"lib{name}.a"]
        found = next((Path(d) / c for d in dirs for c in candidates
                      if (Path(d) / c).is_file()), None)
        if found:
            files.append(found)
    return files


# A run of a build on an input may take this many times the plain build's
# first run on it, and at least RUN_TIMEOUT_MIN_S (instrumented runs are
# several times slower; a loaded machine more).
RUN_TIMEOUT_FACTOR = 20
RUN_TIMEOUT_MIN_S = 120


class Reuse:
    """The builds of an earlier eval in the same work directory, reused.

    Every step wrapped here (instrumenting, translating, lowering, compiling,
    linking) is a function of its input files' contents and its parameters
    alone: no run of the program, whose behaviour could depend on files no
    command line names, is reused. A step's key is the SHA-256 of its name,
    its parameters, its inputs' contents and the tools (Phaedrus's build,
    this driver's sources, LLVM's version); it is written beside the step's
    first output, as OUTPUT.key, once the step has finished, with each
    output's size and modification time. The step is skipped when the key
    is the same and every output is still as the step left it."""

    DRIVER_SOURCES = ("evaluate.py", "pipeline.py", "corpus.py", "tools.py")

    def __init__(self, enabled=True):
        self.enabled = enabled
        self.reused = 0
        self.built = 0
        self._lock = threading.Lock()

    @functools.cached_property
    def tool_stamps(self) -> dict:
        """What identifies each tool, by name, when the eval started
        (current_stamps)."""
        return self.current_stamps()

    def changed_since_start(self) -> list:
        """The tools (by name) whose stamps now differ from the start's."""
        return self._differing(self.current_stamps())

    def _differing(self, stamps: dict) -> list:
        """The tools (by name) that `stamps` has, stamped otherwise than at
        the start."""
        return [name for name, stamp in self.tool_stamps.items()
                if name in stamps and stamps[name] != stamp]

    def current_stamps(self) -> dict:
        """What identifies each tool, by name: Phaedrus's binaries and
        runtime (size and modification time: a rebuild changes them), this
        driver's sources and clang's version."""
        stamps = {}
        for name, path in (("phaedrus-opt", phaedrus_tool("phaedrus-opt")),
                           ("phaedrus-translate", phaedrus_tool("phaedrus-translate")),
                           ("libphaedrus_rt", runtime_library())):
            info = path.stat()
            stamps[name] = [str(path), info.st_size, info.st_mtime_ns]
        here = Path(__file__).parent
        for name in self.DRIVER_SOURCES:
            stamps[f"the driver's {name}"] = self.file_hash(here / name)
        stamps["clang"] = run([llvm_tool("clang"), "--version"],
                              what="clang --version").stdout.decode()
        return stamps

    @property
    def tools(self) -> list:
        """The tools' stamps, as every step's key holds them."""
        return list(self.tool_stamps.values())

    def tools_changed(self, workdir: Path) -> list:
        """The tools (by name) that differ from those of the earlier eval in
        `workdir` (none if there was none), and records this eval's."""
        record = Path(workdir) / "tools.json"
        try:
            before = json.loads(record.read_text())
        except (OSError, ValueError):
            before = None
        record.write_text(json.dumps(self.tool_stamps))
        return self._differing(before) if isinstance(before, dict) else []

    @staticmethod
    def file_hash(path) -> str:
        """SHA-256 of a file's bytes. Not remembered by size and time: a
        file rewritten within one tick of the clock keeps both (hashing even
        SQLite's 35 MB module a dozen times takes about a second)."""
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
        return digest.hexdigest()

    @staticmethod
    def _outputs_state(outputs) -> list:
        return [[info.st_size, info.st_mtime_ns] for info in (o.stat() for o in outputs)]

    def step(self, what: str, outputs, inputs, params, build):
        """Runs `build()`, which makes `outputs` from `inputs`, unless an
        earlier run of the same step left them."""
        outputs = [Path(o) for o in outputs]
        key = hashlib.sha256(json.dumps(
            [what, [str(p) for p in params], [self.file_hash(i) for i in inputs],
             self.tools]).encode()).hexdigest()
        marker = outputs[0].with_name(outputs[0].name + ".key")
        if self.enabled and marker.exists() and all(o.exists() for o in outputs):
            try:
                recorded = json.loads(marker.read_text())
            except ValueError:
                recorded = None
            if recorded == {"key": key, "outputs": self._outputs_state(outputs)}:
                with self._lock:
                    self.reused += 1
                return
        marker.unlink(missing_ok=True)
        build()
        marker.write_text(json.dumps({"key": key,
                                      "outputs": self._outputs_state(outputs)}))
        with self._lock:
            self.built += 1


class Evaluation:
    def __init__(self, program, model, corpus: dict, workdir, ldflags=(),
                 rounds=MIN_ROUNDS, pgo_input=None, jobs=2, reuse=True,
                 clock=DEFAULT_CLOCK, instrumented=None, cpu=DEFAULT_CPU):
        # Absolute: builds run in the inputs' directories (a relative
        # work directory named another place there).
        self.program = Path(program).resolve()
        self.model = Path(model).resolve()
        self.corpus = corpus
        self.workdir = Path(workdir).resolve()
        try:
            self.workdir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ToolError(f"cannot make the work directory {workdir}: "
                            f"{e.strerror or e}")
        self.ldflags = list(ldflags)
        self.linked = linked_files(self.ldflags)  # (in the links' keys)
        # The wall time of the plain build's first run on each input, by
        # name: what the other runs' time limit is made of (run_input).
        self.plain_seconds = {}
        self.rounds = rounds
        if clock not in CLOCKS:
            raise ToolError(f"unknown clock {clock!r}: one of {', '.join(CLOCKS)}")
        self.clock = clock
        # Which CPU the timed runs are pinned to: "auto" (chosen for each
        # input, timing_cpu), None (not pinned) or a CPU.
        try:
            self.cpu = check_cpu_choice(cpu)
        except ValueError as e:
            raise ToolError(f"--cpu: {e}") from None
        # The instrumented binary that records the held-out inputs' traces:
        # one the user built ('phaedrus instrument'), or None to build it.
        self.given_instrumented = None
        if instrumented is not None:
            self.given_instrumented = Path(instrumented).resolve()
            if not self.given_instrumented.is_file():
                raise ToolError(f"--instrumented {instrumented}: no such file "
                                f"(give the binary 'phaedrus instrument' wrote)")
            if not os.access(self.given_instrumented, os.X_OK):
                raise ToolError(f"--instrumented {instrumented} is not "
                                f"executable (give the binary 'phaedrus "
                                f"instrument' wrote, not its .mlir)")
        self.jobs = jobs
        self.reuse = Reuse(reuse)
        # The nearest-run baseline compares this build's descriptors of the
        # held-out inputs with the corpus's.
        corpus_mod.check_featurizer(corpus, "the corpus")
        names = [r["name"] for r in corpus["runs"]]
        # Whether the mismatched PGO's input was chosen for the user (the
        # corpus's first run), which eval then says when it shares no
        # option with a held-out input.
        self.pgo_defaulted = pgo_input is None
        if pgo_input is None:
            pgo_input = names[0]
        if pgo_input not in names:
            raise ToolError(f"--pgo-input {pgo_input} is not a run of the corpus "
                            f"({', '.join(names)})")
        self.pgo_input = corpus_input(corpus["runs"][names.index(pgo_input)])
        self.granularity = corpus_mod.granularity_of(corpus)
        if not self.program.exists():
            raise ToolError(f"program not found: {self.program}")
        if not self.model.exists():
            raise ToolError(f"model not found: {self.model}")
        # That it is a model at all, first: an instrumented module has the
        # corpus's fingerprint too.
        self.model_header
        model_fingerprint = pipeline.fingerprint_of(self.model)
        if str(model_fingerprint) != str(corpus["fingerprint"]):
            raise ToolError(f"the model {self.model} was trained on another build "
                            f"(fingerprint {model_fingerprint}) than the corpus's "
                            f"({corpus['fingerprint']})")
        self.check_model_of_corpus()

    # -- helpers -----------------------------------------------------------
    def path(self, name):
        return self.workdir / name

    def parallel(self, fn, items, what=None):
        """fn of each item, `jobs` at a time. With `what` (a phrase such as
        "training profiles lowered"), a line says how many are done every
        PROGRESS_NOTE_S seconds (a path-granularity eval of 30 training
        runs lowers them for minutes)."""
        items = list(items)
        if what is not None:
            started = time.monotonic()
            state = {"done": 0, "noted": started}
            lock = threading.Lock()
            inner = fn

            def fn(item):
                result = inner(item)
                with lock:
                    state["done"] += 1
                    now = time.monotonic()
                    if now - state["noted"] >= PROGRESS_NOTE_S and \
                            state["done"] < len(items):
                        state["noted"] = now
                        log(f"eval: {state['done']} of {len(items)} {what} "
                            f"({now - started:.0f} s)")
                return result
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            results = list(pool.map(fn, items))
        # A step that said how far it was says when it is done (its last
        # note, "11 of 19", read as if 8 had failed).
        if what is not None and state["noted"] != started:
            log(f"eval: {len(items)} of {len(items)} {what} "
                f"({time.monotonic() - started:.0f} s)")
        return results

    def all_of(self, *thunks):
        """The results of `thunks`, run `jobs` at a time."""
        return self.parallel(lambda f: f(), thunks)

    def run_input(self, binary, inp: Input, env=None, trace=None):
        """Runs a build on an input as the corpus runs did (same argv[0], no
        address randomisation, the locale it was recorded under); returns
        (exit code, (size, SHA-256) of its stdout): what runs are compared
        by, without keeping outputs of gigabytes. A run takes at most
        RUN_TIMEOUT_FACTOR times the plain build's first run on the input
        (and RUN_TIMEOUT_MIN_S): a build that hangs on it is stopped and
        said, where eval waited without a word."""
        first = inp.name not in self.plain_seconds
        start = time.perf_counter()
        with percent_free(trace) as written:  # (the runtime expands %p)
            code, out, err = pipeline.run_program(
                binary, inp.argv[1:], trace=written, stdin_path=inp.stdin,
                cwd=inp.cwd, repeatable=True, argv0=inp.argv[0], extra_env=env,
                locale=inp.locale, timeout=None if first else max(
                    RUN_TIMEOUT_MIN_S,
                    RUN_TIMEOUT_FACTOR * self.plain_seconds[inp.name]))
        if first and binary == self.plain:
            self.plain_seconds[inp.name] = time.perf_counter() - start
        return code, (len(out), hashlib.sha256(out).hexdigest())

    def binary_of(self, ll: Path) -> Path:
        binary = Path(ll).with_suffix("")
        self.reuse.step("link", [binary], [ll, *self.linked], self.ldflags,
                        lambda: pipeline.llvm_ir_to_binary(ll, binary, self.ldflags))
        return binary

    # -- clang's instrumentation PGO ------------------------------------------
    def pgo_generate_binary(self):
        gen_bc = self.path("pgo-gen.bc")
        gen_o = self.path("pgo-gen.o")
        binary = self.path("pgo-gen")

        def build():
            run([llvm_tool("opt"), "-passes=pgo-instr-gen,instrprof", self.plain_ll,
                 "-o", gen_bc], what="opt -passes=pgo-instr-gen")
            run([llvm_tool("clang"), "-O2", "-c", gen_bc, "-o", gen_o],
                what="clang (pgo-gen)")
            pipeline.run_link([pipeline.linker_for(self.plain_ll),
                               "-fprofile-generate", gen_o, *self.ldflags, "-o",
                               binary], what="clang -fprofile-generate (link)")
        self.reuse.step("pgo-gen", [binary], [self.plain_ll, *self.linked],
                        self.ldflags, build)
        return binary

    def instrumented_binary(self, inst_mlir: Path) -> Path:
        binary = self.path("instrumented")
        self.reuse.step("instrumented", [binary],
                        [inst_mlir, runtime_library(), *self.linked], self.ldflags,
                        lambda: pipeline.mlir_to_binary(inst_mlir, binary, self.ldflags,
                                                        link_runtime=True))
        return binary

    def check_profiled_run(self, result, expected, inp: Input, what: str):
        """A run that records a profile must do what the plain build does
        on the input: a run that failed (a lock it could not take, a file
        it could not write) records the profile of its failure, which
        would become the oracle or the measured profile without a word."""
        if result != expected:
            code, _ = result
            raise ToolError(
                f"{inp.name}: the run of {what} exited with {code} "
                f"(the plain build: {expected[0]})" if code != expected[0] else
                f"{inp.name}: the run of {what} printed other output than the "
                f"plain build's: its profile would not be of this input's run "
                f"(is the program's output the same on every run?)")

    def clang_profile(self, inp: Input, out_ll: Path, expected=None) -> Path:
        """Trains clang's instrumentation on `inp`; the plain IR with that
        profile applied. With `expected` (the plain build's exit code and
        output on `inp`), the run must give them."""
        profraw = out_ll.with_suffix(".profraw")
        profraw.unlink(missing_ok=True)
        with percent_free(profraw) as written:  # (clang's runtime expands %p)
            result = self.run_input(self.pgo_gen, inp,
                                    env={"LLVM_PROFILE_FILE": str(written)})
        code = result[0]
        if expected is not None:
            self.check_profiled_run(result, expected, inp,
                                    "clang's instrumented build (PGO training)")
        if not profraw.exists():
            raise ToolError(f"clang's instrumented build wrote no profile on "
                            f"{inp.name} (exit {code})")
        profdata = out_ll.with_suffix(".profdata")
        run([llvm_tool("llvm-profdata"), "merge", profraw, "-o", profdata],
            what="llvm-profdata merge")
        self.reuse.step(
            "pgo-use", [out_ll], [self.plain_ll, profdata], [],
            lambda: run([llvm_tool("opt"), "-passes=pgo-instr-use",
                         f"-pgo-test-profile-file={profdata}", self.plain_ll, "-S",
                         "-o", out_ll], what="opt -passes=pgo-instr-use"))
        return out_ll

    # -- Phaedrus profiles ------------------------------------------------------
    def lowered_ll(self, annotated_mlir: Path, out_ll: Path) -> Path:
        lowered = out_ll.with_suffix(".lowered.mlir")

        def build():
            pipeline.lower_profile(annotated_mlir, lowered)
            pipeline.mlir_to_llvm_ir(lowered, out_ll)
        self.reuse.step("lower", [out_ll, lowered], [annotated_mlir], [], build)
        return out_ll

    def trace_profile(self, trace_mlir: Path, out_ll: Path) -> Path:
        annotated = out_ll.with_suffix(".profile.mlir")
        # The program's debug lines kept, as the other builds keep them:
        # without them the binary lacks its debug sections, and its size
        # would not compare.
        def build():
            # (trace-files is a list: a comma in the path would split it.)
            with path_without(",", trace_mlir) as trace:
                run([phaedrus_tool("phaedrus-opt"), self.program,
                     "--phaedrus-trace-profile="
                     + pipeline.pass_option("trace-files", trace),
                     *pipeline.debug_line_flags(self.program), "-o", annotated],
                    what="phaedrus-opt --phaedrus-trace-profile")
        self.reuse.step("trace-profile", [annotated], [self.program, trace_mlir], [],
                        build)
        return self.lowered_ll(annotated, out_ll)

    def counts_profile(self, name, token_counts, argv, out_ll: Path,
                       vocabulary=None) -> Path:
        """The profile of token counts over `vocabulary` (default: the
        corpus's)."""
        trace = out_ll.with_suffix(".trace.mlir")
        trace.write_text(corpus_mod.counts_trace_ir(
            vocabulary or self.corpus["vocabulary"], name, token_counts, argv))
        return self.trace_profile(trace, out_ll)

    def measured_profile(self, inp: Input, out_ll: Path, expected=None) -> Path:
        wpp = out_ll.with_suffix(".wpp")
        wpp.unlink(missing_ok=True)
        result = self.run_input(self.instrumented, inp, trace=wpp)
        if expected is not None:
            self.check_profiled_run(result, expected, inp,
                                    "the Phaedrus-instrumented build")
        # The profile needs the trace's counts only, not its IR (a Lua path
        # trace of 10^8 events imports to 0.6 GB of text).
        counts, warnings = pipeline.count_trace(
            wpp, name=inp.name, fingerprint=self.corpus["fingerprint"])
        if warnings:
            raise ToolError(f"the trace of {inp.name} is not complete:\n{warnings}")
        recorded = counts["traces"][0].get("granularity") if counts["traces"] else None
        if recorded and recorded != self.granularity:
            raise ToolError(f"{self.instrumented} records {recorded}-granularity "
                            f"traces, and the corpus is of {self.granularity}-"
                            f"granularity ones: give the binary of 'phaedrus "
                            f"instrument --granularity {self.granularity}'")
        vocabulary, = counts["vocabularies"]
        return self.counts_profile(inp.name,
                                   corpus_mod.summed_tokens(counts["traces"]),
                                   inp.argv, out_ll, vocabulary=vocabulary)

    def static_profile(self, out_ll: Path) -> Path:
        estimated = out_ll.with_suffix(".estimate.mlir")
        self.reuse.step("static-estimate", [estimated], [self.program], [],
                        lambda: pipeline.static_estimate(self.program, estimated))
        return self.lowered_ll(estimated, out_ll)

    def predicted_profile(self, inp: Input, out_ll: Path) -> Path:
        predicted = out_ll.with_suffix(".predicted.mlir")
        warnings = pipeline.predict(self.program, self.model, inp.argv, predicted,
                                    stdin=inp.stdin, input_dir=inp.cwd,
                                    locale=inp.run_locale())
        if warnings:
            log(f"{inp.name}: {warnings}")
        return self.lowered_ll(predicted, out_ll)

    def check_model_of_corpus(self):
        """Refuses, before any build, a model trained on another corpus of
        the same program: the function- and the path-granularity builds
        share a fingerprint, but not a vocabulary, and a model that names
        its training runs names the corpus's."""
        header = self.model_header
        corpus_size = len(self.corpus["vocabulary"]["entries"])
        if header["vocab_size"] != corpus_size:
            raise ToolError(
                f"the model {self.model} was trained on a corpus of another "
                f"vocabulary ({header['vocab_size']} tokens) than this "
                f"{self.granularity}-granularity corpus ({corpus_size} tokens): "
                f"give the corpus the model was trained on (a model of the "
                f"other granularity's build?)")
        training = {r["name"] for r in self.corpus["runs"]}
        foreign = [name for name in header["runs"] or [] if name not in training]
        if foreign:
            raise ToolError(
                f"the model {self.model} was trained on runs the corpus does not "
                f"have ({', '.join(foreign[:5])}"
                f"{', ...' if len(foreign) > 5 else ''}): give the corpus the "
                f"model was trained on")

    @functools.cached_property
    def model_header(self) -> dict:
        """The model file's kind, descriptors and runs, read once."""
        return pipeline.model_header(self.model)

    def predicted_blend(self, descriptor) -> dict:
        """The weight of each training run (0.005 and more) in the blend the
        model predicts for `descriptor`, as phaedrus-model computes it; None
        for a model that names no runs (docs/Model.md)."""
        header = self.model_header
        if not header["runs"]:
            return None
        index = {d: i for i, d in enumerate(header["descriptors"])}
        ids = ",".join(str(index[d]) for d in descriptor if d in index)
        # (None of its tokens known: the empty descriptor, as the
        # prediction takes it; phaedrus-model refuses an empty list.)
        result = run([phaedrus_tool("phaedrus-model"), self.model, "--log-counts",
                      *([f"--descriptor-ids={ids}"] if ids else [])],
                     what="phaedrus-model")
        weights = json.loads(result.stdout)["blend"]
        return {name: w for name, w in weights.items() if w >= 0.005}

    def nearest_run(self, descriptor) -> dict:
        return min(self.corpus["runs"],
                   key=lambda r: (descriptor_distance(descriptor, r["descriptor"]),
                                  r["name"]))

    # -- the whole evaluation ---------------------------------------------------
    def prepare(self):
        """The builds every held-out input shares."""
        if self.granularity == "function":
            log("eval: the corpus is of function-granularity traces, which weigh "
                "only the branches their call sites' counts fix: overlap, hot "
                "coverage and totals compare the profiles' entry counts only (a "
                "path-granularity corpus, 'phaedrus instrument --granularity "
                "path', compares branches too)")
        # The instrumented module first: its fingerprint says whether the
        # corpus is of this program, before minutes of builds.
        inst_mlir = self.path("instrumented.mlir")
        self.reuse.step("instrument", [inst_mlir], [self.program], [self.granularity],
                        lambda: pipeline.instrument_mlir(
                            self.program, inst_mlir, self.granularity,
                            why=(", for the fingerprint and vocabulary; "
                                 f"{self.given_instrumented.name} records"
                                 if self.given_instrumented else "")))
        fingerprint = pipeline.fingerprint_of(inst_mlir)
        if str(fingerprint) != str(self.corpus["fingerprint"]):
            raise ToolError(
                f"the corpus was recorded from another build (fingerprint "
                f"{self.corpus['fingerprint']}) than {self.program} "
                f"({fingerprint})")
        # (Said after the check: said before it, a user read the refusal
        # as coming after minutes of builds.)
        if self.given_instrumented:  # (the next lines say what records)
            log(f"eval: building plain and clang-instrumented binaries of "
                f"{self.program}")
        else:
            log(f"eval: building plain, clang-instrumented and {self.granularity}-"
                f"instrumented binaries of {self.program}")
        self.plain_ll = self.path("plain.ll")
        self.reuse.step("translate", [self.plain_ll], [self.program], [],
                        lambda: pipeline.mlir_to_llvm_ir(self.program, self.plain_ll))
        if self.given_instrumented:
            # (Its traces are checked against the corpus's fingerprint and
            # granularity as they are counted.)
            log(f"eval: recording the held-out inputs with "
                f"{self.given_instrumented}")
            self.plain, self.pgo_gen = self.all_of(
                lambda: self.binary_of(self.plain_ll), self.pgo_generate_binary)
            self.instrumented = self.given_instrumented
        else:
            self.plain, self.pgo_gen, self.instrumented = self.all_of(
                lambda: self.binary_of(self.plain_ll), self.pgo_generate_binary,
                lambda: self.instrumented_binary(inst_mlir))
        log(f"eval: mismatched PGO trained on {self.pgo_input.name}; mean profile "
            f"of {len(self.corpus['runs'])} training runs")
        pgo_expected = self.run_input(self.plain, self.pgo_input)
        check_plain_run(self.pgo_input, pgo_expected[0], "mismatched PGO's training run")
        shared_ll = self.all_of(
            lambda: self.clang_profile(self.pgo_input, self.path("mismatch.ll"),
                                       pgo_expected),
            lambda: self.counts_profile("mean", mean_counts(self.corpus),
                                        self.pgo_input.argv, self.path("mean.ll")),
            lambda: self.static_profile(self.path("static.ll")))
        self.shared = dict(zip(["mismatch", "mean", "static"], shared_ll))
        self.shared_binaries = dict(zip(self.shared, self.parallel(
            self.binary_of, list(self.shared.values()))))
        # Every training run's own profile, lowered like the others: the
        # nearest-run build of each held-out input, and what a blend of them
        # can reach on it (blend_ceiling).
        log(f"eval: lowering the profiles of the {len(self.corpus['runs'])} "
            f"training runs")
        runs = self.corpus["runs"]
        self.path("training").mkdir(exist_ok=True)
        self.training_ll = dict(zip((r["name"] for r in runs), self.parallel(
            lambda r: self.counts_profile(r["name"], r["tokens"], r["argv"],
                                          self.path(f"training/{r['name']}.ll")),
            runs, what="training profiles lowered")))
        self.training_counters = {
            name: comparable(profile_counters(Path(ll).read_text()), self.granularity)
            for name, ll in self.training_ll.items()}

    def check_inputs(self, inputs):
        """Refuses inputs that are not held out, before anything is built."""
        names = [i.name for i in inputs]
        if len(set(names)) != len(names):
            raise ToolError(f"held-out input names must be unique: {names}")
        training = {r["name"] for r in self.corpus["runs"]}
        for name in names:
            if name in training:
                raise ToolError(f"{name} is a training run of the corpus: "
                                f"evaluate on held-out inputs only")
        # The same run under another name (a copied description): the
        # summary would count a training input as held out.
        # (Each run's files are read once, and only where the argument
        # counts match; the names, checked above, are distinct.)
        signatures = {}

        def signature_of(run):
            if run.name not in signatures:
                signatures[run.name] = run_signature(run)
            return signatures[run.name]
        for inp in inputs:
            for r in self.corpus["runs"]:
                if len(r["argv"]) != len(inp.argv):
                    continue
                if signature_of(corpus_input(r)) == signature_of(inp):
                    raise ToolError(
                        f"{inp.name} is the training run {r['name']} of the "
                        f"corpus under another name (the same arguments, "
                        f"input files and locale): evaluate on held-out "
                        f"inputs only")

    def warn_if_pgo_input_is_far(self, inp: Input, descriptor):
        """A default mismatched-PGO input (the corpus's first run) whose
        options share none with the held-out input's makes a weak baseline
        (a zstd user's: a decompression run for compressions, overlap
        0.04-0.06): eval says so, and how to choose."""
        if not self.pgo_defaulted:
            return
        options = {t for t in descriptor if t.startswith("opt=")}
        run, = [r for r in self.corpus["runs"] if r["name"] == self.pgo_input.name]
        theirs = {t for t in run["descriptor"] if t.startswith("opt=")}
        if options and not options & theirs:
            log(f"warning: {inp.name}: mismatched PGO is trained on "
                f"{self.pgo_input.name}, the corpus's first run, whose options "
                f"({' '.join(sorted(t[4:] for t in theirs)) or 'none'}) share "
                f"none with this input's ({' '.join(sorted(t[4:] for t in options))}): "
                f"a weak baseline; --pgo-input NAME trains it on a typical run "
                f"of the corpus")

    def warn_if_pgo_input_is_nearest(self, inp: Input, nearest: str):
        """Mismatched PGO trained on the held-out input's nearest training
        run is a matched baseline (a gawk user's: the same AWK program on
        the same kind of data, overlap 0.996 with the oracle): its rows
        would count in the summary's mismatch measures as a mismatch."""
        if nearest != self.pgo_input.name:
            return
        log(f"warning: {inp.name}: mismatched PGO is trained on {nearest}, "
            f"which is also this input's nearest training run: the 'mismatch' "
            f"build then has a matched profile, and the summary's mismatch "
            f"measures count it as mismatched; --pgo-input NAME trains it on "
            f"a run unlike this input")

    def evaluate_input(self, inp: Input) -> dict:
        before = input_files_state(inp)
        descriptor = corpus_mod.featurize(inp.argv, stdin=inp.stdin, cwd=inp.cwd,
                                          locale=inp.run_locale())
        self.warn_if_pgo_input_is_far(inp, descriptor)
        nearest = self.nearest_run(descriptor)
        self.warn_if_pgo_input_is_nearest(inp, nearest["name"])
        # (Before the builds and timed rounds: it failed after them once,
        # and the report was lost.)
        predicted_mix = self.predicted_blend(descriptor)
        # (A directory of their own: a held-out input named like one of the
        # shared builds, `plain` or `training`, clashed with it.)
        d = self.path("held-out") / inp.name
        d.mkdir(parents=True, exist_ok=True)
        log(f"eval {inp.name}: profiles (oracle, measured, predicted, nearest: "
            f"{nearest['name']})")
        lls = dict(self.shared, nearest=self.training_ll[nearest["name"]])
        # What every run on the input must do (also the check of the builds
        # below, and their warm-up).
        expected = self.run_input(self.plain, inp)
        check_plain_run(inp, expected[0], "held-out input")
        check_input_unchanged(inp, before)

        def recorded_runs():
            # One at a time: two runs of one program at once can fail each
            # other (a SQLite user's database file was locked, and the
            # measured trace was of a run that failed).
            return (self.clang_profile(inp, d / "oracle.ll", expected),
                    self.measured_profile(inp, d / "measured.ll", expected))
        (oracle, measured), predicted = self.all_of(
            recorded_runs, lambda: self.predicted_profile(inp, d / "predicted.ll"))
        lls.update(oracle=oracle, measured=measured, predicted=predicted)
        # The oracle's and the measured runs have run it by now.
        check_input_unchanged(inp, before)
        log(f"eval {inp.name}: building")
        binaries = {"plain": self.plain, **self.shared_binaries}
        own = ["oracle", "measured", "predicted", "nearest"]
        binaries.update(zip(own, self.parallel(self.binary_of, [lls[v] for v in own])))

        # Every build must do what the plain one does (this is also the
        # warm-up run).
        if self.run_input(self.plain, inp) != expected:
            raise ToolError(f"{inp.name}: the plain build's output or exit code "
                            f"differs from its own earlier run's: the program "
                            f"does not do the same on every run of this input")
        for v in PROFILED:
            if self.run_input(binaries[v], inp) != expected:
                raise ToolError(f"{inp.name}: the {v} build's output or exit code "
                                f"differs from the plain build's")
        cpu = timing_cpu(self.cpu)
        where = "unpinned" if cpu is None else f"on CPU {cpu}"
        log(f"eval {inp.name}: timing {len(VARIANTS)} builds, {self.rounds} "
            f"interleaved rounds ({CLOCK_NAMES[self.clock]}, {where})")
        env = {k: v for k, v in pipeline.with_locale(os.environ, inp.locale).items()
               if k != "LLVM_PROFILE_FILE"}
        env["PHAEDRUS_TRACE"] = "off"

        def time_one(v):
            timing = time_run(binaries[v], inp.argv, stdin_path=inp.stdin,
                              cwd=inp.cwd, env=env)
            if timing.code != expected[0]:
                raise ToolError(f"{inp.name}: the {v} build exited with {timing.code}")
            return timing
        timings = interleaved_rounds(list(VARIANTS), time_one, self.rounds,
                                     cpu=cpu)
        by_clock = {c: {v: [t.seconds(c) for t in timings[v]] for v in VARIANTS}
                    for c in CLOCKS}
        times = by_clock[self.clock]

        code = {v: function_code(binaries[v]) for v in VARIANTS}
        counters = {v: comparable(profile_counters(Path(lls[v]).read_text()),
                                  self.granularity) for v in PROFILED}
        medians = {v: statistics.median(times[v]) for v in VARIANTS}
        row = {
            "input": inp.name, "argv": inp.argv, "stdin": inp.stdin,
            "pgo_input": self.pgo_input.name, "nearest_input": nearest["name"],
            # The CPU its timed runs were pinned to (null: not pinned).
            "cpu": cpu,
            # By the report's clock; both clocks' times follow.
            "times_s": times,
            "times_cpu_s": by_clock["cpu"],
            "times_wall_s": by_clock["wall"],
            "median_s": medians,
            # Interquartile range over the median: how noisy each build's
            # timing was.
            "spread": {v: _spread(times[v]) for v in VARIANTS},
            # Wall time over CPU time, the median over all timed runs: about
            # 1 for a program that computes on a quiet machine; above, its
            # runs waited (for a CPU other work held, or for I/O).
            "wall_over_cpu": statistics.median(
                w / c for v in VARIANTS
                for w, c in zip(by_clock["wall"][v], by_clock["cpu"][v]) if c > 0),
            # Paired by round: T_plain / T_x within each round, then the
            # median. Runs of one round are seconds apart, so the machine's
            # slow spells, which last longer, cancel out (on this VM, two
            # copies of one binary: ratios of medians 0.956-1.005 over five
            # repetitions of 21 rounds, medians of paired ratios
            # 0.991-1.001).
            "speedup": {v: paired_ratio(times, "plain", v) for v in VARIANTS},
            "speedup_interval": speedup_intervals(times),
            "size_bytes": {v: Path(binaries[v]).stat().st_size for v in VARIANTS},
            "text_bytes": {v: text_bytes(binaries[v]) for v in VARIANTS},
            # How much of the oracle's code each build has alike: what the
            # profile changed, without the timer's noise.
            "same_code": {v: same_code(code[v], code["oracle"]) for v in VARIANTS},
            "overlap": {v: overlap(counters[v], counters["oracle"]) for v in PROFILED},
            "hot_coverage": {v: hot_coverage(counters[v], counters["oracle"])
                             for v in PROFILED},
            # (The static estimate's counts scale with its entry-count
            # option, not with any run: its ratio says nothing, null.)
            "total_ratio": {v: None if v == "static" else
                            total_ratio(counters[v], counters["oracle"])
                            for v in PROFILED},
        }
        ceiling, weights = blend_ceiling(self.training_counters, counters["oracle"])
        row["blend_ceiling"] = {"overlap": ceiling, "weights": weights}
        # Where the prediction and the best blend lose: hot functions or
        # what the functions do inside.
        best = blend(self.training_counters, weights)
        row["mass_and_shape"] = {"predicted": mass_and_shape(counters["predicted"],
                                                             counters["oracle"]),
                                 "blend_ceiling": mass_and_shape(best, counters["oracle"])}
        if predicted_mix is not None:
            row["predicted_blend"] = predicted_mix
        return row

    def run(self, inputs, on_row=None) -> dict:
        """The report of the held-out `inputs`; `on_row`, if given, gets the
        report of the inputs done so far after each, marked incomplete (so
        that a failure or an interruption at the last input of hours does
        not lose the others)."""
        self.check_inputs(inputs)
        self.reuse.tool_stamps  # (taken now: the tools the eval starts with)
        aslr_off = disable_aslr()
        self.prepare()
        changed = self.reuse.tools_changed(self.workdir) if self.reuse.enabled else []
        if self.reuse.reused:
            log(f"eval: reused {self.reuse.reused} of the "
                f"{self.reuse.reused + self.reuse.built} shared build steps from "
                f"an earlier eval in {self.workdir} (their inputs and the tools "
                f"are unchanged; --rebuild builds everything again)")
        elif changed:
            # (A user whose tools were rebuilt between two evals saw all
            # of them built again and wondered why.)
            log(f"eval: built the {self.reuse.built} shared build steps again: "
                f"the tools changed since the earlier eval in {self.workdir} "
                f"({', '.join(changed)})")
        rows = []
        for inp in inputs:
            rows.append(self.evaluate_input(inp))
            print_row(rows[-1], self.clock)
            warn_if_waited(rows[-1])
            warn_if_noisy(rows[-1])
            if on_row and len(rows) < len(inputs):
                on_row(dict(self.report(rows, aslr_off),
                            incomplete={"inputs_done": len(rows),
                                        "inputs": len(inputs)}))
        # (A user's tools were rebuilt while an eval ran: nothing said so,
        # and its builds came from two versions of them.)
        during = self.reuse.changed_since_start()
        if during:
            log(f"warning: the tools changed while this eval ran "
                f"({', '.join(during)}): its builds may come from both "
                f"versions; run it again to compare builds of one")
        return self.report(rows, aslr_off)

    def report(self, rows, aslr_off) -> dict:
        return {"format": FORMAT, "version": VERSION,
                "program": str(self.program), "model": str(self.model),
                "granularity": self.granularity,
                "compared_counters": COMPARED[self.granularity],
                "rounds": self.rounds, "clock": self.clock, "cpu": self.cpu,
                "aslr_off": aslr_off, "variants": VARIANTS,
                "build_steps": {"built": self.reuse.built, "reused": self.reuse.reused},
                "rows": rows, "summary": summarize(rows)}


def text_bytes(binary) -> int:
    """The size of a binary's code (its .text section, llvm-size): what a
    profile changes, where the file's size also counts debug sections."""
    out = run([llvm_tool("llvm-size"), "-A", binary], what="llvm-size").stdout.decode()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == ".text":
            return int(fields[1])
    raise ToolError(f"{binary} has no .text section (llvm-size -A)")


# llvm-objdump's rendering of addresses that move when other code moves:
# a branch or call target's absolute address before its symbol, a
# RIP-relative displacement, and the absolute address in its comment.
_TARGET = re.compile(r"\b(?:0x)?[0-9a-f]+ (<[^>]+>)")
_RIP_DISPLACEMENT = re.compile(r"-?0x[0-9a-f]+\(%rip\)")
_COMMENT_ADDRESS = re.compile(r"#\s*0x[0-9a-f]+ (<[^>]+>)")
_FUNCTION = re.compile(r"^(?:[0-9a-f]+ )?<(.+)>:$")


def function_code(binary) -> dict:
    """{function: its instructions}, as llvm-objdump disassembles the .text
    of `binary`, with the addresses that change when other code moves
    (targets, RIP-relative displacements) left out: two builds that compile
    a function alike give equal lists wherever the function lies."""
    out = run([llvm_tool("llvm-objdump"), "-d", "--no-show-raw-insn",
               "--no-leading-addr", "--section=.text", binary],
              what="llvm-objdump").stdout.decode(errors="replace")
    functions, current = {}, None
    for line in out.splitlines():
        header = _FUNCTION.match(line)
        if header:
            current = functions.setdefault(header.group(1), [])
            continue
        text = line.strip()
        if current is None or not text:
            continue
        text = _COMMENT_ADDRESS.sub(r"# \1", text)
        text = _RIP_DISPLACEMENT.sub("(%rip)", text)
        # (The comment's column depends on the operands' width.)
        current.append(" ".join(_TARGET.sub(r"\1", text).split()))
    return functions


def same_code(candidate: dict, oracle: dict) -> float:
    """The share of the oracle's instructions that lie in functions the
    candidate compiled to the same instructions (function_code of each):
    1 when the two builds are alike but for where their code lies."""
    total = sum(len(code) for code in oracle.values())
    if not total:
        return 0.0
    return sum(len(code) for name, code in oracle.items()
               if candidate.get(name) == code) / total


def paired_ratio(times, a, b):
    """The median over rounds of T_a / T_b, both timed in the same round
    (`times` as interleaved_rounds returns them)."""
    return statistics.median(x / y for x, y in zip(times[a], times[b]))


# Bootstrap resamples of the timed rounds, for the intervals of speedups and
# recoveries (seeded: the same report gives the same intervals).
BOOTSTRAP_RESAMPLES = 1000
INTERVAL_LEVEL = 0.95


def _resampled(times, rng):
    """`times` with its rounds drawn again with replacement: the same rounds
    for every build, so that the times of one round stay paired."""
    n = len(next(iter(times.values())))
    pick = [rng.randrange(n) for _ in range(n)]
    return {v: [t[i] for i in pick] for v, t in times.items()}


def _interval(values):
    """The central INTERVAL_LEVEL percentile interval of `values`."""
    values = sorted(values)
    tail = (1 - INTERVAL_LEVEL) / 2
    return [values[int(tail * (len(values) - 1))],
            values[int(round((1 - tail) * (len(values) - 1)))]]


def speedup_intervals(times, seed=0) -> dict:
    """Per build, the bootstrap interval of its speedup over plain (the
    median of the paired ratios over rounds resampled): how far the
    machine's noise leaves the speedup undetermined."""
    rng = random.Random(seed)
    draws = {v: [] for v in times}
    for _ in range(BOOTSTRAP_RESAMPLES):
        again = _resampled(times, rng)
        for v in times:
            draws[v].append(paired_ratio(again, "plain", v))
    return {v: _interval(d) for v, d in draws.items()}


def recovery_interval(rows, variant, seed=0):
    """The bootstrap interval of the mean recovery of `variant` over the
    inputs where the oracle gains MEANINGFUL_SPEEDUP (chosen on all rounds),
    each input's rounds resampled; None without such inputs."""
    meaningful = [r for r in rows if recovery(r, "oracle") is not None]
    if not meaningful:
        return None
    rng = random.Random(seed)
    means = []
    for _ in range(BOOTSTRAP_RESAMPLES):
        recoveries = []
        for r in meaningful:
            again = _resampled({v: r["times_s"][v] for v in ("plain", "oracle", variant)}, rng)
            oracle = paired_ratio(again, "plain", "oracle") - 1
            gain = paired_ratio(again, "plain", variant) - 1
            # As the mean itself: over the inputs where the oracle gains
            # MEANINGFUL_SPEEDUP (in this draw). A draw in which it gained
            # 0.1% divided by almost nothing: an interval of [0.96, 3.90]
            # around a recovery of 1.0 whose every round gave about 0.9.
            if oracle >= MEANINGFUL_SPEEDUP:
                recoveries.append(gain / oracle)
        if recoveries:
            means.append(statistics.mean(recoveries))
    return _interval(means) if means else None


def _spread(samples):
    q = statistics.quantiles(samples, n=4)
    return (q[2] - q[0]) / statistics.median(samples)


def recovery(row, variant):
    """(T_a/T_x - 1) / (T_a/T_oracle - 1), or None when the oracle's speedup
    is below MEANINGFUL_SPEEDUP."""
    oracle = row["speedup"]["oracle"] - 1
    if oracle < MEANINGFUL_SPEEDUP:
        return None
    return (row["speedup"][variant] - 1) / oracle


def _mean(values):
    values = [v for v in values if v is not None]
    return statistics.mean(values) if values else None


def summarize(rows) -> dict:
    loses = [r for r in rows
             if paired_ratio(r["times_s"], "mismatch", "oracle") >= 1 + MEANINGFUL_SPEEDUP]
    summary = {
        "inputs": len(rows),
        "oracle_meaningful_count": sum(recovery(r, "oracle") is not None for r in rows),
        "oracle_recovery_mean": _mean(recovery(r, "predicted") for r in rows),
        "oracle_recovery_interval": recovery_interval(rows, "predicted"),
        "lowering_recovery_mean": _mean(recovery(r, "measured") for r in rows),
        "lowering_recovery_interval": recovery_interval(rows, "measured"),
        "mismatch_loses_count": len(loses),
        "predicted_beats_mismatch_count": sum(
            paired_ratio(r["times_s"], "predicted", "mismatch") < 1 for r in loses),
        "overlap_predicted_mean": _mean(r["overlap"]["predicted"] for r in rows),
        "overlap_mismatch_mean": _mean(r["overlap"]["mismatch"] for r in rows),
        "hot_coverage_mean": _mean(r["hot_coverage"]["predicted"] for r in rows),
    }
    for v in ("measured", "nearest", "mean", "static"):
        summary[f"overlap_{v}_mean"] = _mean(r["overlap"][v] for r in rows)
    for v in ("measured", "predicted", "mismatch"):
        summary[f"same_code_{v}_mean"] = _mean(r["same_code"][v] for r in rows
                                               if "same_code" in r)
    # The scale of the prediction: the median, over the inputs, of how
    # many times the oracle's total it is (1: right; 0.1 or 10: off tenfold).
    ratios = [r["total_ratio"]["predicted"] for r in rows
              if r.get("total_ratio", {}).get("predicted") is not None]
    summary["total_ratio_predicted_median"] = statistics.median(ratios) if ratios else None
    summary["overlap_blend_ceiling_mean"] = _mean(
        r["blend_ceiling"]["overlap"] for r in rows if "blend_ceiling" in r)
    summary["speedup_median"] = {
        v: statistics.median(r["speedup"][v] for r in rows) for v in VARIANTS} if rows else {}
    return summary


# A recovery whose 95% interval is wider than this tells nothing: eval says
# the timings cannot resolve the gains (a zstd user read a recovery of 1.9
# in [0.0, 1.9] as a result).
UNRESOLVED_RECOVERY_WIDTH = 1.0


def unresolved_recoveries(summary) -> str:
    """A warning when the summary's recoveries are too uncertain to read
    (their intervals wider than UNRESOLVED_RECOVERY_WIDTH), else ''."""
    wide = []
    for key, name in (("oracle_recovery", "oracle"), ("lowering_recovery", "lowering")):
        interval = summary.get(f"{key}_interval")
        if interval and interval[1] - interval[0] > UNRESOLVED_RECOVERY_WIDTH:
            wide.append(f"{name} recovery [{interval[0]:.2f}, {interval[1]:.2f}]")
    if not wide:
        return ""
    return (f"warning: the timings cannot resolve the gains: {' and '.join(wide)} "
            f"{'is' if len(wide) == 1 else 'are'} wider than "
            f"{UNRESOLVED_RECOVERY_WIDTH:g} (the oracle's gain, which "
            f"the recoveries divide by, is within the runs' noise); raise "
            f"--rounds, time longer inputs, or a quieter machine")


# Timed runs whose wall time exceeds their CPU time by more than this share
# waited: eval says so.
WAITED = 0.10


def warn_if_waited(row):
    """Warns when the row's timed runs spent much of their wall time
    waiting: other work ran on the machine (or the program waits for I/O)."""
    ratio = row.get("wall_over_cpu")
    if ratio is None or ratio <= 1 + WAITED:
        return
    log(f"warning: {row['input']}: the timed runs took {ratio:.2f}x their CPU "
        f"time in wall time (median): they waited, for a CPU that other work "
        f"held or for I/O. CPU time leaves the waiting out but not other "
        f"work's use of the caches and cores beside it; time on a quiet "
        f"machine for firmer speedups (or, for a program that waits by "
        f"design, with --clock wall on one)")


# A plain build whose timings spread more than this (interquartile range over
# the median) makes gains of a few percent fragile: eval says so.
NOISY = 0.10


def warn_if_noisy(row):
    """Warns when the plain build's timings spread widely: the bootstrap
    intervals measure this eval's noise, not the next one's (a gawk user's
    two evals of the same binaries: the oracle 1.252 [1.211, 1.420] at a
    plain spread of 17.4%, then 1.203 [1.152, 1.216])."""
    spread = row.get("spread", {}).get("plain")
    if spread is None or spread <= NOISY:
        return
    log(f"warning: {row['input']}: the plain build's timings spread "
        f"{spread * 100:.1f}% (interquartile range over the median): gains "
        f"smaller than that are fragile, and another eval may not fall in "
        f"this one's intervals; raise --rounds, time a longer input, or a "
        f"quieter machine")


def _mix(weights: dict) -> str:
    """Run weights, heaviest first."""
    return ", ".join(f"{n} {w:.2f}" for n, w in sorted(weights.items(),
                                                        key=lambda x: -x[1]))


# How reports name the clocks.
CLOCK_NAMES = {"cpu": "CPU time", "wall": "wall time"}


def print_row(row, clock=DEFAULT_CLOCK):
    # (The speedup is the median of each round's ratio to plain, not the
    # ratio of the times' medians beside it: on a noisy machine the two
    # disagree, and a Tcl user read a slower median as a contradiction.)
    print(f"{row['input']}: time ({CLOCK_NAMES[clock]}, median of "
          f"{len(row['times_s']['plain'])} runs), speedup over plain (median "
          f"of the rounds' ratios, so not always the medians' ratio), overlap "
          f"with the oracle, hot coverage", flush=True)
    for v in VARIANTS:
        line = (f"  {v:<10} {row['median_s'][v] * 1000:9.1f} ms "
                f"(IQR {row['spread'][v] * 100:4.1f}%)  {row['speedup'][v]:6.3f}x")
        if "speedup_interval" in row and v != "plain":
            lo, hi = row["speedup_interval"][v]
            line += f" [{lo:.3f}, {hi:.3f}]"
        if v in row["overlap"]:
            line += f"  overlap {row['overlap'][v]:.3f}  hot {row['hot_coverage'][v]:.3f}"
            if v == "static":
                # Its counts scale with --phaedrus-static-estimate's
                # entry-count, not with any run: a ratio of 10^9 says nothing.
                line += "  total (no scale)"
            elif row.get("total_ratio", {}).get(v) is not None:
                line += f"  total x{row['total_ratio'][v]:.2f}"
        if "same_code" in row and v != "oracle":
            line += f"  code as oracle's {row['same_code'][v]:.3f}"
        print(line, flush=True)
    if "blend_ceiling" in row:
        mix = _mix(row["blend_ceiling"]["weights"])
        print(f"  best blend of the training runs: overlap "
              f"{row['blend_ceiling']['overlap']:.3f} ({mix})", flush=True)
    if "predicted_blend" in row:
        print(f"  the prediction's blend: {_mix(row['predicted_blend'])}", flush=True)
    for name, split in row.get("mass_and_shape", {}).items():
        # (Losses that print as 0.000 are none.)
        losses = ", ".join(f"{f} {x:.3f}" for f, x in split["shape_loss"].items()
                           if x >= 0.0005)
        print(f"  {name.replace('_', ' ')}: mass {split['mass']:.3f}, shape "
              f"{split['shape']:.3f} (shape lost most in {losses or 'none'})", flush=True)


def plot(result: dict, output: Path):
    """Speedup over plain per held-out input and build (PNG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = result["rows"]
    shown = [v for v in VARIANTS if v != "plain"]
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(rows) + 3), 4))
    width = 0.8 / len(shown)
    for i, v in enumerate(shown):
        speedups = [r["speedup"][v] for r in rows]
        # The 95% bootstrap interval of each speedup, where the report has it.
        errors = None
        if all("speedup_interval" in r for r in rows):
            errors = [[max(0.0, s - r["speedup_interval"][v][0]) for s, r in zip(speedups, rows)],
                      [max(0.0, r["speedup_interval"][v][1] - s) for s, r in zip(speedups, rows)]]
        ax.bar([x + i * width for x in range(len(rows))], speedups, width, label=v,
               yerr=errors, error_kw={"elinewidth": 0.8, "capsize": 2})
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(rows))])
    ax.set_xticklabels([r["input"] for r in rows])
    ax.set_ylabel("speedup over -O2 without profile")
    name = result.get("program_name") or Path(result["program"]).name
    clock = CLOCK_NAMES.get(result.get("clock", "wall"), "wall time")
    # (On two lines: one held-out input makes a narrow figure, whose title
    # was cut at its right edge.)
    ax.set_title(f"{name}: held-out inputs\n({clock}, median of {result['rounds']} "
                 f"runs, 95% intervals)", fontsize="medium")
    ends = [x for r in rows for v in shown
            for x in r.get("speedup_interval", {}).get(v, [r["speedup"][v]])]
    lo = min([r["speedup"][v] for r in rows for v in shown] + ends + [1.0])
    hi = max([r["speedup"][v] for r in rows for v in shown] + ends + [1.0])
    ax.set_ylim(lo - 0.05, hi + 0.05)
    ax.legend(fontsize="small", ncol=3)
    fig.tight_layout()
    fig.savefig(output, dpi=100)
    plt.close(fig)
