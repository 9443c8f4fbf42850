"""The real programs Phaedrus is developed on (Debian's bzip2 and lua5.4),
how to build them through the pipeline, and a set of inputs with different
behaviour. Shared by the end-to-end tests and the benchmarks.

Sources come from scripts/fetch-programs.sh (apt-get source) into
third_party/src/."""

import random
import re
from abc import abstractmethod
from dataclasses import dataclass, field
from pathlib import Path

from . import pipeline
from .tools import REPO_ROOT, ToolError, build_dir, llvm_tool, run

SRC_ROOT = REPO_ROOT / "third_party" / "src"
LUA_SCRIPTS = REPO_ROOT / "test" / "e2e" / "lua"


@dataclass
class Run:
    """One input: the program's arguments, optional standard input, and the
    files it needs (made by `prepare`)."""
    name: str
    args: list
    stdin: str = None  # file name inside the work directory
    # Kept out of training (and augmentation): `phaedrus eval` measures on
    # these (bench/pgo.py).
    held_out: bool = False


@dataclass
class Program:
    name: str
    sources: list
    cflags: list
    ldflags: list
    runs: list = field(default_factory=list)

    def training_runs(self):
        return [r for r in self.runs if not r.held_out]

    def held_out_runs(self):
        return [r for r in self.runs if r.held_out]

    @abstractmethod
    def prepare(self, workdir: Path):
        """Writes the input files of all runs into `workdir`."""


def _source_dir(prefix: str) -> Path:
    dirs = sorted(SRC_ROOT.glob(prefix + "-*/"))
    if not dirs:
        raise ToolError(f"{prefix} sources not found under {SRC_ROOT}: run "
                        f"./scripts/fetch-programs.sh")
    return dirs[-1]


class Bzip2(Program):
    """`scale` multiplies the input sizes (1 for tests; larger for benchmarks,
    so that a run is long enough to time)."""

    def __init__(self, scale: int = 1):
        src = _source_dir("bzip2")
        files = ["blocksort.c", "huffman.c", "crctable.c", "randtable.c",
                 "compress.c", "decompress.c", "bzlib.c", "bzip2.c"]
        self.scale = scale
        sfx = "" if scale == 1 else f".x{scale}"
        self.files = {"text": f"text{sfx}.txt", "repetitive": f"repetitive{sfx}.bin",
                      "random": f"random{sfx}.bin", "compressed": f"text{sfx}.txt.bz2",
                      "small": f"small{sfx}.txt"}
        super().__init__(
            name="bzip2",
            sources=[src / f for f in files],
            cflags=["-D_FILE_OFFSET_BITS=64", f"-I{src}"],
            ldflags=[],
            runs=[
                # Text, the largest block size and the smallest.
                Run("text-9", ["-9", "-c", "-k"], stdin=self.files["text"]),
                Run("text-1", ["-1", "-c", "-k"], stdin=self.files["text"],
                    held_out=True),
                # A small text: one block, less sorting.
                Run("small-9", ["-9", "-c"], stdin=self.files["small"]),
                # Highly repetitive data: bzip2 falls back to another sort.
                Run("repetitive-9", ["-9", "-c"], stdin=self.files["repetitive"],
                    held_out=True),
                Run("repetitive-1", ["-1", "-c"], stdin=self.files["repetitive"]),
                # Incompressible random bytes.
                Run("random-5", ["-5", "-c"], stdin=self.files["random"]),
                # Decompression of the compressed text.
                Run("decompress", ["-d", "-c"], stdin=self.files["compressed"]),
            ])

    def prepare(self, workdir: Path):
        workdir.mkdir(parents=True, exist_ok=True)
        text = workdir / self.files["text"]
        if not text.exists():
            # Real text: the C sources of both programs, 600 KB per unit of
            # scale (repeated when scaled beyond what they hold).
            chunks = [p.read_bytes() for p in sorted(SRC_ROOT.glob("*/**/*.c"))]
            corpus = b"".join(chunks)
            size = 600_000 * self.scale
            text.write_bytes((corpus * (size // len(corpus) + 1))[:size])
        small = workdir / self.files["small"]
        if not small.exists():
            small.write_bytes(text.read_bytes()[:40_000 * self.scale])
        rep = workdir / self.files["repetitive"]
        if not rep.exists():
            rep.write_bytes(b"phaedrus" * (100_000 * self.scale))
        rnd = workdir / self.files["random"]
        if not rnd.exists():
            rnd.write_bytes(random.Random(20261121).randbytes(300_000 * self.scale))
        bz = workdir / self.files["compressed"]
        if not bz.exists():
            import bz2
            bz.write_bytes(bz2.compress(text.read_bytes(), 9))


class Lua(Program):
    """`scale` makes each script repeat its work that many times."""

    def __init__(self, scale: int = 1):
        src = _source_dir("lua5.4") / "src"
        sources = sorted(p for p in src.glob("*.c") if p.name != "luac.c")
        scripts = sorted(LUA_SCRIPTS.glob("*.lua"))
        # Debian's luaconf.h includes a header that debian/rules generates.
        generated = src.parent / "phaedrus-include"
        generated.mkdir(exist_ok=True)
        (generated / "lua5.4-deb-multiarch.h").write_text(
            '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"\n')
        super().__init__(
            name="lua5.4",
            sources=sources,
            # Lua's behaviour depends on addresses in two places: it seeds its
            # string hash from the time and from addresses, and its C-string
            # cache is indexed by the string's address. Differently laid-out
            # binaries (plain, instrumented, clang-instrumented) would then
            # run differently on the same input. A fixed seed and a one-entry
            # cache row make every build variant behave alike.
            cflags=["-DLUA_USE_LINUX", "-DLUA_COMPAT_5_3", f"-I{src}",
                    f"-I{generated}", "-Dluai_makeseed(L)=20261121u",
                    "-DSTRCACHE_N=1", "-DSTRCACHE_M=2"],
            ldflags=["-lm", "-ldl"],
            # Each script repeats its work as often as its argument says.
            # Two scripts are held out of training: numeric (arithmetic,
            # matrices, bit operations) and objects (metatables, inheritance).
            # Every script must run alike in every build, for the entry
            # counts of the trace to equal clang's. One more address
            # dependence remains in Lua itself: its compiler finds the
            # constants of the chunk it compiles in the scanner's table and,
            # having no key for nil, uses that table itself (its address) as
            # the key of a nil constant (lcode.c, nilK). A script that stores
            # or compares a nil constant (`t[k] = nil`, `x == nil`) can see one
            # collision more or less in that table, depending on where the
            # heap lies: getfreepos, mainpositionTV, mainpositionfromnode and
            # equalkey one call apart between differently laid-out builds
            # (and between runs of one build when ASLR is on). Scripts here
            # delete keys with rawset(t, k, nil) (the nil is then a register,
            # not a constant); two earlier candidates (a memoising cache, a
            # JSON decoder) were dropped for this before it was understood.
            runs=[Run(s.stem, [str(s)] if scale == 1 else [str(s), str(scale)],
                      held_out=s.stem in ("numeric", "objects"))
                  for s in scripts])

    def prepare(self, workdir: Path):
        workdir.mkdir(parents=True, exist_ok=True)


def all_programs(scale: int = 1):
    return [Bzip2(scale), Lua(scale)]


@dataclass
class Builds:
    """The binaries of one program, all from the same sources."""
    mlir: Path          # whole-program LLVM-dialect module
    instrumented: Path  # records its WPP
    instrumented_mlir: Path
    instrumented_path: Path  # records entries and Ball-Larus paths
    instrumented_path_mlir: Path
    plain: Path         # the same module, no instrumentation
    clang_instr: Path   # clang -fprofile-instr-generate, from the sources
    workdir: Path       # inputs live here


def build(program: Program, root: Path = None) -> Builds:
    """Builds (or reuses, when newer than the tools) every variant."""
    root = Path(root or build_dir() / "e2e") / program.name
    root.mkdir(parents=True, exist_ok=True)
    b = Builds(root / "prog.mlir", root / "prog.inst", root / "prog.inst.mlir",
               root / "prog.path.inst", root / "prog.path.inst.mlir",
               root / "prog.plain", root / "prog.clang-instr", root / "inputs")
    tools = [build_dir() / "bin" / "phaedrus-opt",
             build_dir() / "lib" / "libphaedrus_rt.a"]
    newest_tool = max(t.stat().st_mtime for t in tools if t.exists())

    def stale(path):
        return not path.exists() or path.stat().st_mtime < newest_tool

    if not b.mlir.exists():
        pipeline.sources_to_mlir(program.sources, b.mlir, program.cflags)
    if stale(b.instrumented):
        pipeline.instrument_mlir(b.mlir, b.instrumented_mlir)
        pipeline.mlir_to_binary(b.instrumented_mlir, b.instrumented,
                                program.ldflags, link_runtime=True)
    if stale(b.instrumented_path):
        pipeline.instrument_mlir(b.mlir, b.instrumented_path_mlir, granularity="path")
        pipeline.mlir_to_binary(b.instrumented_path_mlir, b.instrumented_path,
                                program.ldflags, link_runtime=True)
    if stale(b.plain):
        pipeline.mlir_to_binary(b.mlir, b.plain, program.ldflags)
    if not b.clang_instr.exists():
        run([llvm_tool("clang"), "-O2", "-fprofile-instr-generate",
             *program.cflags, *program.sources, *program.ldflags,
             "-o", b.clang_instr], what=f"clang -fprofile-instr-generate ({program.name})")
    program.prepare(b.workdir)
    return b


def clang_entry_counts(profraw: Path) -> dict:
    """Function entry counts of a clang instrumentation profile, by name as
    llvm-profdata prints it ("file.c:name" for internal functions)."""
    profdata = profraw.with_suffix(".profdata")
    run([llvm_tool("llvm-profdata"), "merge", profraw, "-o", profdata],
        what="llvm-profdata merge")
    shown = run([llvm_tool("llvm-profdata"), "show", "--all-functions", "--counts",
                 profdata], what="llvm-profdata show").stdout.decode()
    counts, name = {}, None
    for line in shown.splitlines():
        m = re.match(r"^  (\S.*):$", line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"^    Function count: (\d+)$", line)
        if m and name is not None:
            counts[name] = int(m.group(1))
            name = None
    return counts


def match_entry_counts(clang: dict, ours: dict):
    """Compares clang's and Phaedrus' entry counts. Internal functions are
    "file.c:name" in clang's profile; llvm-link may rename clashing internal
    functions to "name.N", so both sides are grouped by base name and
    compared as sorted lists. Returns a list of mismatch descriptions."""
    def base(name):
        name = name.split(":")[-1]
        return re.sub(r"\.\d+$", "", name)

    def group(counts):
        grouped = {}
        for name, count in counts.items():
            grouped.setdefault(base(name), []).append(count)
        return {k: sorted(v) for k, v in grouped.items()}

    a, b = group(clang), group(ours)
    problems = []
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            problems.append(f"{name}: clang {a.get(name)}, phaedrus {b.get(name)}")
    return problems


def record_runs(program: Program, b: Builds, outdir: Path, runs=None,
                granularity="function") -> list:
    """Runs the instrumented build on `runs` (default: all), keeping each
    trace and its input description (as `phaedrus run` does). Returns the
    trace paths."""
    from . import corpus
    binary = b.instrumented if granularity == "function" else b.instrumented_path
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    traces = []
    for r in runs or program.runs:
        trace = outdir / f"{r.name}.wpp"
        stdin = b.workdir / r.stdin if r.stdin else None
        info = corpus.describe_input([program.name, *r.args], stdin=stdin,
                                     cwd=b.workdir)
        code, _, err = pipeline.run_program(binary, r.args, trace=trace,
                                            stdin_path=stdin, cwd=b.workdir,
                                            repeatable=True, argv0=program.name)
        if code != 0:
            raise ToolError(f"{program.name} {r.name} exited with {code}: "
                            f"{err.decode(errors='replace')}")
        corpus.keep_description(trace, info)
        traces.append(trace)
    return traces


def collect_corpus(program: Program, b: Builds, outdir: Path, runs=None,
                   granularity="function") -> dict:
    """The training corpus of `runs` of `program` (see corpus.py)."""
    from . import corpus
    traces = record_runs(program, b, outdir, runs, granularity)
    mlir = b.instrumented_mlir if granularity == "function" else b.instrumented_path_mlir
    return corpus.corpus_from_traces(traces, fingerprint=pipeline.fingerprint_of(mlir))


def branch_weights_by_function(ll_text: str) -> dict:
    """Function name -> the branch_weights of its conditional branches and
    switches, in order, from textual LLVM IR."""
    # (LLVM prints a weight of 2^31 or more as a negative i32.)
    metadata = {m.group(1): [int(x) & 0xFFFFFFFF for x in re.findall(r"i32 (-?\d+)", m.group(2))]
                for m in re.finditer(r'^(!\d+) = !\{!"branch_weights"(?:, !"expected")?'
                                     r'((?:, i32 -?\d+)+)\}', ll_text, re.M)}
    weights, function = {}, None
    for line in ll_text.splitlines():
        m = re.match(r"define .*@([\w.$]+)\(", line)
        if m:
            function = m.group(1)
            weights[function] = []
            continue
        m = re.search(r"(?:br i1|switch) .*!prof (!\d+)", line)
        if m and function and m.group(1) in metadata:
            weights[function].append(metadata[m.group(1)])
    return weights


# The function passes clang runs on the front-end IR before its sample
# loader (PassBuilder's early simplification), and the loader with profile
# inference, which clang 22 turns on for sample profiles by default.
SAMPLE_LOADER_PIPELINE = ("function(lower-expect,simplifycfg,sroa,early-cse),"
                          "sample-profile")


def sample_profiled_ir(program: Program, prof: Path, output: Path,
                       discriminators=True, accurate=True):
    """The program's front-end IR with a sample profile applied as clang
    -O2 -gline-tables-only -fprofile-sample-use applies it (with
    -fdebug-info-for-profiling's discriminators, when `discriminators`, and
    -fprofile-sample-accurate, when `accurate`): up to and including the
    sample loader, so that the weights it gives the branches can be set
    beside the profile's own."""
    output = Path(output)
    extra = ["-fdebug-info-for-profiling"] if discriminators else []
    if accurate:
        extra.append("-fprofile-sample-accurate")
    parts = []
    for i, source in enumerate(program.sources):
        part = output.with_name(f"{output.stem}.{i}.bc")
        run([llvm_tool("clang"), *pipeline.FRONTEND_FLAGS, "-gline-tables-only",
             *extra, f"-fprofile-sample-use={prof}", *program.cflags, source,
             "-o", part], what=f"clang -fprofile-sample-use on {source}")
        parts.append(part)
    linked = output.with_suffix(".bc")
    run([llvm_tool("llvm-link"), *parts, "-o", linked], what="llvm-link")
    passes = SAMPLE_LOADER_PIPELINE
    if discriminators:
        passes = "function(add-discriminators)," + passes
    run([llvm_tool("opt"), f"-passes={passes}", f"-sample-profile-file={prof}",
         "-sample-profile-use-profi", linked, "-S", "-o", output],
        what="opt (sample loader)")
    for part in [*parts, linked]:
        part.unlink()
    return output


def branch_weights_by_location(ll_text: str) -> dict:
    """(function, line, column) of each conditional branch and switch -> the
    list of their branch_weights (None where a branch has none), from
    textual LLVM IR with debug locations: a key that lines up the branches
    of two builds of the same sources."""
    lines = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in re.finditer(
        r"^(!\d+) = !DILocation\(line: (\d+), column: (\d+)", ll_text, re.M)}
    weights = {m.group(1): [int(x) & 0xFFFFFFFF for x in re.findall(r"i32 (-?\d+)", m.group(2))]
               for m in re.finditer(r'^(!\d+) = !\{!"branch_weights"(?:, !"expected")?'
                                    r'((?:, i32 -?\d+)+)\}', ll_text, re.M)}
    out, function, in_switch = {}, None, False
    for line in ll_text.splitlines():
        m = re.match(r"define .*@([\w.$]+)\(", line)
        if m:
            function = m.group(1)
            continue
        stripped = line.lstrip()
        if stripped.startswith("switch ") or " switch " in line:
            in_switch = True
            continue
        if in_switch:
            if not stripped.startswith("]"):
                continue
            in_switch = False
        elif " br i1 " not in line:
            continue
        d = re.search(r"!dbg (!\d+)", line)
        if not (function and d and d.group(1) in lines):
            continue
        p = re.search(r"!prof (!\d+)", line)
        out.setdefault((function, *lines[d.group(1)]), []).append(
            weights.get(p.group(1)) if p else None)
    return out


def clang_profiled_frontend_ir(program: Program, profdata: Path, output: Path):
    """The program's front-end IR (as `phaedrus ir` makes it) with clang's
    own instrumentation profile applied: clang's branch weights are the
    edge counts plus one."""
    output = Path(output)
    parts = []
    for i, source in enumerate(program.sources):
        part = output.with_name(f"{output.stem}.{i}.ll")
        run([llvm_tool("clang"), *pipeline.FRONTEND_FLAGS[:-2], "-emit-llvm", "-S",
             f"-fprofile-instr-use={profdata}", *program.cflags, source, "-o", part],
            what=f"clang -fprofile-instr-use on {source}")
        parts.append(part)
    run([llvm_tool("llvm-link"), "-S", *parts, "-o", output], what="llvm-link")
    for part in parts:
        part.unlink()
    return output
