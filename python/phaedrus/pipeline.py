"""The steps of the main job as functions: C sources to whole-program MLIR,
instrumented and plain binaries, runs that record traces, trace import."""

import contextlib
import json
import os
import re
import shlex
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .tools import (ToolError, file_contains, file_kind, llvm_tool, log,
                    mlir_text_kind, phaedrus_tool, read_json, run,
                    runtime_library, without_quoted_lines)

# clang flags that keep the IR as the front end made it, so that the
# instrumented program is optimised the same way as the plain one.
FRONTEND_FLAGS = ["-O2", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-c"]
C_SUFFIXES = (".c", ".i")
# What clang compiles as C++ (and "ii", preprocessed C++).
CXX_SUFFIXES = (".cc", ".cpp", ".cxx", ".c++", ".cp", ".C", ".CPP", ".ii")


# What a compile command says that is about its outputs, not its code:
# flags dropped from compile_commands.json entries (with the word after
# those of the first set).
_OUTPUT_FLAGS_WITH_VALUE = {"-o", "-MF", "-MT", "-MQ"}
_OUTPUT_FLAGS = {"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP", "-MG"}


def compile_commands_flags(database: Path, by_file: dict, sources) -> dict:
    """The flags each of `sources` is compiled with, from the entries of a
    compilation database (`by_file`, database_entries of `database`):
    {resolved source: (directory, flags)}. Refuses a source the database
    does not name, or names with different flags."""
    result = {}
    for source in sources:
        resolved = Path(source).resolve()
        ways = by_file.get(resolved)
        if not ways:
            raise ToolError(f"{source} has no entry in {database}: give the "
                            f"sources its build compiles, or their flags with "
                            f"--cflags")
        if len({(str(d), tuple(f)) for d, f in ways}) > 1:
            raise ToolError(
                f"{database} compiles {source} {len(ways)} ways (for several "
                f"targets of the build?): a module holds it once; give its "
                f"flags with --cflags instead")
        result[resolved] = ways[0]
    return result


def database_entries(database: Path) -> dict:
    """{resolved source: [(directory, flags), ...]} of a compilation
    database (compile_commands.json, as CMake's CMAKE_EXPORT_COMPILE_COMMANDS
    or `bear -- make` write it), in its order: the compiler, the source and
    the output flags left out."""
    entries = read_json(database, "compilation database", "a compilation database")
    if not isinstance(entries, list):
        raise ToolError(f"{database} is not a compilation database: it must be "
                        f"a JSON list of {{directory, file, arguments or command}}")
    by_file = {}
    for i, e in enumerate(entries):
        try:
            directory = Path(e["directory"])
            file = (directory / e["file"]).resolve()
            args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        except (KeyError, TypeError, ValueError) as err:
            raise ToolError(f"{database}: entry {i} is not {{directory, file, "
                            f"arguments or command}} ({err})")
        flags, skip = [], True  # args[0] is the compiler
        for arg in args:
            if skip:
                skip = False
            elif arg in _OUTPUT_FLAGS_WITH_VALUE:
                skip = True
            elif (arg in _OUTPUT_FLAGS or arg.startswith(("-Wp,-M", "-o"))
                  or (not arg.startswith("-") and (directory / arg).resolve() == file)):
                continue
            else:
                flags.append(arg)
        by_file.setdefault(file, []).append((directory, flags))
    return by_file


def sources_to_mlir(sources, output: Path, cflags=(), jobs=None,
                    compile_commands=None) -> Path:
    """C and C++ sources -> one whole-program LLVM-dialect module (clang-22, llvm-link,
    mlir-translate --import-llvm). With `compile_commands` (a compilation
    database), each source is compiled in its entry's directory with its
    entry's flags, then `cflags`; without `sources`, every C and C++ source
    of the database."""
    sources = [Path(s) for s in sources]
    database = (database_entries(Path(compile_commands)) if compile_commands
                else None)
    if not sources and database is not None:
        # A database of one program's build: every source it compiles.
        sources = [f for f in database if f.suffix in C_SUFFIXES + CXX_SUFFIXES]
        log(f"compiling the {len(sources)} C and C++ sources of "
            f"{compile_commands} (a build of several programs: name the "
            f"sources of the one to compile)")
    if not sources:
        raise ToolError("no sources given: name the program's C and C++ "
                        "files, or give its compilation database with "
                        "--compile-commands")
    for s in sources:
        if not s.exists():
            raise ToolError(f"source file not found: {s}")
        # (clang takes any other file for the linker, and with -c makes
        # nothing of it.)
        if s.suffix not in C_SUFFIXES + CXX_SUFFIXES:
            raise ToolError(f"{s} is not a C or C++ source: phaedrus ir "
                            f"compiles {', '.join(C_SUFFIXES + CXX_SUFFIXES)} "
                            f"files")
    commands = (compile_commands_flags(Path(compile_commands), database, sources)
                if compile_commands else {})
    # Each source's directory to compile in and all its flags. -O0 left out:
    # clang then marks every function optnone, which the module keeps, and
    # every build of it (plain, instrumented, profiled) would be unoptimised
    # alike, no profile changing anything (a debug build's database).
    builds, without_o0 = [], False
    for source in sources:
        directory, flags = commands.get(source.resolve(), (None, []))
        flags = [*flags, *cflags]
        without_o0 |= "-O0" in flags
        builds.append((source.resolve(), directory,
                       [f for f in flags if f != "-O0"]))
    if without_o0:
        log("left out -O0 of the sources' flags: the module is compiled at "
            "-O2 (at -O0 clang marks every function optnone, and no build of "
            "it could be optimised, with a profile or without)")
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    clang = llvm_tool("clang")
    with tempfile.TemporaryDirectory(prefix="phaedrus-ir-") as tmp:
        tmp = Path(tmp)

        def compile_one(i_build):
            i, (source, directory, flags) = i_build
            bc = tmp / f"{i:04d}-{source.stem}.bc"
            run([clang, *FRONTEND_FLAGS, *flags, source, "-o", bc],
                what=f"clang on {source}", cwd=directory)
            return bc

        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 2) as pool:
            bitcode = list(pool.map(compile_one, enumerate(builds)))
        linked = tmp / "linked.bc"
        run([llvm_tool("llvm-link"), *bitcode, "-o", linked], what="llvm-link")
        # Debug lines (a -g flag) are kept as the ops' locations, which MLIR
        # prints only when asked; a sample profile names code by them.
        keep = (["--mlir-print-debuginfo"]
                if any(wants_debug_lines(flags) for _, _, flags in builds) else [])
        run([llvm_tool("mlir-translate"), "--import-llvm", *keep, linked,
             "-o", output], what="mlir-translate --import-llvm")
    return output


def wants_debug_lines(cflags) -> bool:
    """Whether clang flags ask for debug information (any -g but -g0)."""
    last = None
    for flag in cflags:
        if re.fullmatch(r"-g(\d|line-tables-only|line-directives-only|mlt|"
                        r"dwarf(-\d)?|gdb\d?|lldb|sce|dbx|full)?", flag):
            last = flag
    return last is not None and last != "-g0"


def debug_line_flags(program) -> list:
    """phaedrus-opt's flags that keep a module's debug lines in the text it
    writes (they are ops' locations, which MLIR prints only when asked): for
    a module that has them (made by 'phaedrus ir' with a -g flag), or is
    bytecode (which keeps every location anyway)."""
    try:
        with open(program, "rb") as f:
            if f.read(4) == b"ML\xefR":
                return ["--mlir-print-debuginfo"]
    except OSError:
        return []
    found = file_contains(program, [b" loc(#loc", b"loc(fused<#di_subprogram"])
    return ["--mlir-print-debuginfo"] if all(found) else []


GRANULARITIES = ("function", "path")


def instrument_mlir(program: Path, output: Path, granularity="function",
                    narrow_events=True, why: str = "") -> Path:
    """Adds WPP recording at `granularity` ("function" or "path"); the result
    keeps the phaedrus.vocabulary of its tokens. `narrow_events=False` keeps
    function events 32-bit even when every token fits in 16 bits (the pass's
    narrow-events option). `why`, if given, follows the granularity in the
    progress message."""
    if granularity not in GRANULARITIES:
        raise ToolError(f"unknown granularity '{granularity}': use one of "
                        f"{', '.join(GRANULARITIES)}")
    options = f"granularity={granularity}"
    if not narrow_events:
        options += " narrow-events=false"
    with say_if_large(program, f"instrumenting ({granularity} granularity{why})"):
        result = run([phaedrus_tool("phaedrus-opt"), program,
                      f"--phaedrus-instrument={options}",
                      *debug_line_flags(program), "-o", output],
                     what="phaedrus-opt --phaedrus-instrument")
    # Functions recorded at their entries only (path granularity): their
    # branches will get no weights, which the user should know.
    warnings = [line for line in result.stderr.decode(errors="replace").splitlines()
                if "warning:" in line]
    if warnings:
        shown = warnings[:5]
        if len(warnings) > len(shown):
            shown.append(f"... and {len(warnings) - len(shown)} more")
        log("\n".join(shown))
    return Path(output)


def strip_phaedrus(program: Path) -> bytes:
    """The LLVM-dialect module without phaedrus IR (vocabularies, traces,
    models), keeping what --phaedrus-lower-profile made of it: what is
    compiled, as MLIR text."""
    stripped = subprocess.run(
        [str(phaedrus_tool("phaedrus-opt")), str(program), "--phaedrus-strip",
         *debug_line_flags(program)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if stripped.returncode != 0:
        raise ToolError("phaedrus-opt --phaedrus-strip failed:\n" +
                        stripped.stderr.decode(errors="replace"))
    return stripped.stdout


def mlir_to_llvm_ir(program: Path, output: Path, stripped: bytes = None) -> Path:
    """LLVM-dialect module -> textual LLVM IR: strip phaedrus IR
    (strip_phaedrus; `stripped`, its result when the caller has it already)
    and translate with phaedrus-translate, which also emits the weights of
    indirect branches (mlir-translate would drop them)."""
    if stripped is None:
        stripped = strip_phaedrus(program)
    translate = subprocess.run(
        [str(phaedrus_tool("phaedrus-translate")), "--mlir-to-llvmir", "-o", str(output)],
        input=stripped, stderr=subprocess.PIPE)
    if translate.returncode != 0:
        raise ToolError("phaedrus-translate --mlir-to-llvmir failed:\n" +
                        translate.stderr.decode(errors="replace"))
    return Path(output)


# Symbols of the C++ runtime (libstdc++ and its ABI library) in LLVM IR or
# MLIR: a module that names one was compiled from C++.
CXX_RUNTIME_MARKERS = (b"__gxx_personality_v0", b"@_Znwm", b"@_Znam", b"@_ZdlPv",
                       b"@_ZdaPv", b"@__cxa_", b"@_ZNSt", b"@_ZSt")


def needs_cxx_runtime(module) -> bool:
    """Whether a module (LLVM IR or MLIR text) uses the C++ runtime."""
    return any(file_contains(module, list(CXX_RUNTIME_MARKERS)))


def linker_for(module) -> Path:
    """The clang driver that links `module`: clang++, which adds the C++
    runtime (libstdc++), for a program compiled from C++; clang otherwise."""
    return llvm_tool("clang++" if needs_cxx_runtime(module) else "clang")


def _library_search_dirs() -> list:
    """The directories clang-22 links libraries from (-print-search-dirs)."""
    try:
        out = subprocess.run([str(llvm_tool("clang")), "-print-search-dirs"],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    for line in out.splitlines():
        if line.startswith("libraries: ="):
            # (Resolved: /lib is /usr/lib on a merged /usr.)
            return list(dict.fromkeys(Path(d).resolve() for d in
                                      line[len("libraries: ="):].split(":")
                                      if d and Path(d).is_dir()))
    return []


def libraries_defining(symbols) -> dict:
    """Which -l flags would define `symbols` (C names): the shared
    libraries of clang's search path that export them (`llvm-nm -D`; a linker
    script such as Debian's libm.so stands for the libraries it names).
    Returns {flag: [symbols]}, chosen greedily so that each symbol is under
    one flag, the flag that defines the most of them first; symbols no
    library there defines are left out."""
    wanted = set(symbols)
    files = {}  # file nm reads -> the -l flag it stands for
    for directory in _library_search_dirs():
        for lib in sorted(Path(directory).glob("lib*.so")):
            flag = "-l" + lib.name[3:-3]
            try:
                with open(lib, "rb") as f:  # (not all of a 40 MB library)
                    head = f.read(4096)
            except OSError:
                continue
            if head.startswith(b"\x7fELF"):
                files.setdefault(str(lib.resolve()), flag)
            elif b"GROUP" in head or b"INPUT" in head:  # a linker script
                for named in re.findall(rb"(/[^\s()]+\.so[\w.]*)", head):
                    named = Path(named.decode(errors="replace"))
                    if named.exists():
                        files.setdefault(str(named.resolve()), flag)
    if not files or not wanted:
        return {}
    try:
        out = subprocess.run([str(llvm_tool("llvm-nm")), "-D", "--defined-only",
                              "-A", *files], capture_output=True, text=True).stdout
    except (OSError, ToolError):
        return {}
    defines = {}  # flag -> the wanted symbols it defines
    for line in out.splitlines():
        m = re.match(r"(.+?):\s*[0-9a-fA-F]*\s+[TWiVD]\s+([^@\s]+)", line)
        if m and m.group(2) in wanted and m.group(1) in files:
            defines.setdefault(files[m.group(1)], set()).add(m.group(2))
    chosen, left = {}, set(wanted)
    while left:
        flag = max(defines, key=lambda f: (len(defines[f] & left), -len(f)),
                   default=None)
        if flag is None or not defines[flag] & left:
            break
        chosen[flag] = [x for x in symbols if x in defines[flag] & left]
        left -= defines[flag]
    return chosen


def run_link(cmd, what):
    """Runs a command that links; a link that fails for symbols no library
    given defines says which and what to do, in place of the linker's lines
    (a jq user's missing -lm -lonig: 131 lines)."""
    try:
        return run(cmd, what=what)
    except ToolError as e:
        missing = list(dict.fromkeys(re.findall(r"undefined reference to [`']([^']+)'",
                                                e.stderr or "")))
        if not missing:
            raise
        if "main" in missing:
            # No library should give a program its main (libfl's does, for
            # lex programs: the advice below suggested -lfl).
            raise ToolError(f"{what} failed: the module defines no main "
                            f"function: the source file that defines main "
                            f"was not given to 'phaedrus ir' (or the module "
                            f"is not a program's, such as an imported trace)",
                            stderr=e.stderr)
        shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more"
                                          if len(missing) > 8 else "")
        # C++ names, mangled or as the linker demangles them.
        cxx = any(re.match(r"(_Z|std::|operator (new|delete)|__cxa_|__gxx_|"
                           r"typeinfo |vtable for |\w+::)", m) for m in missing)
        example = ("(as its own build links them; clang++ links the C++ "
                   "runtime already)" if cxx else
                   "e.g. --ldflags '-lm' (as its own build links it)")
        if not cxx:
            # Every library at once, where a link that failed for libm's
            # symbols would fail again for readline's (a gawk user's trial).
            found = libraries_defining(missing)
            if found:
                flags = " ".join(found)
                by_flag = "; ".join(f"{flag}: {', '.join(syms[:4])}"
                                    + (" ..." if len(syms) > 4 else "")
                                    for flag, syms in found.items())
                example = (f"here --ldflags '{flags}' ({by_flag}; the "
                           f"libraries of clang's search path that define "
                           f"them; your build may link others)")
        raise ToolError(f"{what} failed: the program uses symbols no library "
                        f"given to the link defines ({shown}): give its "
                        f"libraries with --ldflags, {example}; or, if they are "
                        f"the program's own, the sources that define them were "
                        f"not given to 'phaedrus ir' (it takes C and C++: build "
                        f"without an assembly file's code, as its build's "
                        f"option for that does, such as zstd's "
                        f"-DZSTD_DISABLE_ASM)", stderr=e.stderr)


def llvm_ir_to_binary(ll: Path, output: Path, ldflags=(), link_runtime=False,
                      cflags=("-O2",)) -> Path:
    """LLVM IR -> executable: clang-22 optimises (reading any profile
    metadata the IR carries), compiles and links (with clang++, which adds
    the C++ runtime, for a program compiled from C++)."""
    libs = [runtime_library(), "-lpthread"] if link_runtime else []
    clang = linker_for(ll)
    run_link([clang, *cflags, ll, *libs, *ldflags, "-o", output],
             what=f"{clang.name} (compile and link)")
    return Path(output)


# Modules from this size on say what they are doing before each long step
# (SQLite's 35 MB module: 90-140 s to instrument and build, silent before).
LARGE_MODULE_BYTES = 8 << 20


# How often a long step on a large module says it is still at it.
HEARTBEAT_S = 30.0


@contextlib.contextmanager
def say_if_large(program: Path, what: str, shown_as: str = None):
    """Around a step on `program`: for a large module, logs `what` (the
    step, naming the module `shown_as` if given: a temporary file's name
    means nothing to the user) before it, a line every HEARTBEAT_S seconds
    while it runs (SQLite's instrumenting was silent for 1.5-3 minutes),
    and how long it took."""
    try:
        size = Path(program).stat().st_size
    except OSError:
        size = 0
    if size < LARGE_MODULE_BYTES:
        yield
        return
    name = shown_as or Path(program).name
    log(f"{what} {name} ({size / 2**20:.0f} MB of IR): a large program takes "
        f"a while")
    started = time.monotonic()
    done = threading.Event()

    def beat():
        while not done.wait(HEARTBEAT_S):
            log(f"{what} {name}: still at it ({time.monotonic() - started:.0f} s)")
    beater = threading.Thread(target=beat, daemon=True)
    beater.start()
    try:
        yield
    finally:
        done.set()
        beater.join()
    log(f"{what} {name}: done in {time.monotonic() - started:.0f} s")


def mlir_to_binary(program: Path, output: Path, ldflags=(), link_runtime=False,
                   cflags=("-O2",), stripped: bytes = None,
                   shown_as: str = None) -> Path:
    """LLVM-dialect module -> executable (mlir_to_llvm_ir, with `stripped`
    if given, then llvm_ir_to_binary). `shown_as` names `program` in
    progress messages."""
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    # The LLVM IR in a directory of its own: a file beside the output (as
    # OUTPUT.ll was) could be the user's own, and would be overwritten.
    with say_if_large(program, f"compiling (clang-22 {' '.join(cflags)})",
                      shown_as), \
            tempfile.TemporaryDirectory(prefix="phaedrus-ll-") as tmp:
        ll = mlir_to_llvm_ir(program, Path(tmp) / "program.ll", stripped)
        llvm_ir_to_binary(ll, output, ldflags, link_runtime, cflags)
    return output


def check_stdin(stdin):
    """Refuses a standard input that a run's description cannot name: a
    missing file, or one that is not a regular file (a pipe, /dev/null),
    which the featurizer cannot describe."""
    if not stdin:
        return
    path = Path(stdin)
    if not path.exists():
        raise ToolError(f"standard input file not found: {stdin}")
    if not path.is_file():
        raise ToolError(f"standard input {stdin} is not a regular file: give "
                        f"a file, which the run's description can describe")


# The environment variables that choose a run's locale (POSIX and glibc):
# the same command runs other code under another one (grep -i under C and
# under C.UTF-8), so a run's description records them and eval runs it
# under them again.
LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES",
                    "LC_NUMERIC", "LC_TIME", "LC_MONETARY", "LANG", "LANGUAGE")


def locale_of(env=None) -> dict:
    """The locale variables set in `env` (default: this process's
    environment, which a run started from here inherits)."""
    env = os.environ if env is None else env
    return {k: env[k] for k in LOCALE_VARIABLES if k in env}


def with_locale(env: dict, locale) -> dict:
    """`env` with its locale variables replaced by `locale` (a run's
    recorded ones; None leaves `env` as it is)."""
    if locale is None:
        return dict(env)
    result = {k: v for k, v in env.items() if k not in LOCALE_VARIABLES}
    result.update(locale)
    return result


class RunTimedOut(ToolError):
    """A run did not finish within its time; it was stopped."""


# After SIGTERM, how long a timed-out run gets to end (a program that
# handles SIGTERM, to clean up) before SIGKILL.
TERMINATE_GRACE_S = 10


def run_program(binary: Path, args, *, trace: Path = None, stdin_path=None,
                cwd=None, timeout=None, extra_env=None, repeatable=False,
                argv0=None, locale=None, capture=True):
    """Runs a (possibly instrumented) program; returns (exit code, stdout,
    stderr). With `trace`, the runtime writes the WPP there (a %p in it is
    the process id; tools.percent_free gives a name without one for a path
    meant as it is). `repeatable` turns off address-space randomisation, so
    that programs which hash pointers behave the same from run to run.
    `argv0` sets the program name the program sees, so that builds at
    different paths see the same one. `locale` (a run's recorded locale
    variables) replaces this process's.
    A run still going after `timeout` seconds gets SIGTERM (its trace is
    then cut short), SIGKILL TERMINATE_GRACE_S later, and
    RunTimedOut is raised. Without `capture`, the program writes to this
    process's standard output and error as it runs (stdout and stderr are
    returned as None)."""
    env = with_locale(os.environ, locale)
    if trace is not None:
        env["PHAEDRUS_TRACE"] = str(trace)
    else:
        env.setdefault("PHAEDRUS_TRACE", "off")
    if extra_env:
        env.update(extra_env)
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        command = [str(Path(binary).resolve()), *map(str, args)]
        executable = None
        if repeatable:
            # (setarch runs the program; bash's exec -a gives it argv0.)
            command = ["setarch", os.uname().machine, "-R",
                       *(["bash", "-c", 'exec -a "$0" "$@"', argv0] if argv0
                         else []), *command]
        elif argv0:
            # Run directly, so that a binary that cannot be run is an
            # OSError here, not a shell's message.
            executable, command = command[0], [argv0, *command[1:]]
        process = subprocess.Popen(command, executable=executable,
                                   stdin=stdin,
                                   stdout=subprocess.PIPE if capture else None,
                                   stderr=subprocess.PIPE if capture else None,
                                   env=env, cwd=cwd)
    except OSError as e:  # not executable, not a program
        if stdin_path:
            stdin.close()
        raise ToolError(f"cannot run {binary}: {e.strerror}")
    try:
        with process:
            try:
                out, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.communicate(timeout=TERMINATE_GRACE_S)
                    how = "SIGTERM"
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.communicate()
                    how = f"SIGKILL ({TERMINATE_GRACE_S} s after SIGTERM)"
                raise RunTimedOut(f"{binary} did not finish within {timeout:g} s: "
                                  f"stopped it with {how}")
            except BaseException:
                # Ctrl-C: the program stops too (it got the SIGINT as well,
                # from the terminal; not if it ignores it).
                process.kill()
                raise
    finally:
        if stdin_path:
            stdin.close()
    return process.returncode, out, err


def _wpp_options(name, fingerprint, keep_prefix):
    options = ["--wpp-name", name]
    if fingerprint is not None:
        options += ["--wpp-fingerprint", str(fingerprint)]
    if keep_prefix:
        options.append("--wpp-keep-prefix")
    return options


# Repeats of at most 32 tokens are what --export-packed codes as tokens
# (docs/PackedTrace.md); IR on its way to a packed file can leave them
# unfolded from the start (--wpp-min-repeat-tokens, min-repeat-tokens).
PACKED_MIN_REPEAT_TOKENS = 33


def import_trace(trace: Path, output: Path, name="run", fingerprint=None,
                 keep_prefix=False, min_repeat_tokens=0):
    """Trace file -> phaedrus IR, as MLIR bytecode when `output` ends in
    .mlirbc (several times faster to read back than text). Repeats that
    stand for fewer than `min_repeat_tokens` tokens stay tokens. Returns the
    importer's warnings (empty for a complete trace)."""
    bytecode = ["--emit-bytecode"] if Path(output).suffix == ".mlirbc" else []
    short_repeats = ([f"--wpp-min-repeat-tokens={min_repeat_tokens}"]
                     if min_repeat_tokens else [])
    cmd = [phaedrus_tool("phaedrus-translate"), "--import-wpp", trace,
           *_wpp_options(name, fingerprint, keep_prefix), *short_repeats, *bytecode,
           "-o", output]
    result = run(cmd, what="phaedrus-translate --import-wpp")
    return result.stderr.decode(errors="replace").strip()


def trace_counts(trace_mlir: Path) -> dict:
    """Per-trace event totals and function entry counts of imported IR."""
    import json
    result = run([phaedrus_tool("phaedrus-translate"), "--export-trace-counts",
                  trace_mlir], what="phaedrus-translate --export-trace-counts")
    return json.loads(result.stdout)


def count_trace(trace: Path, name="run", fingerprint=None, keep_prefix=False):
    """Trace file -> (trace_counts of its import, the importer's warnings),
    in one pass without the trace as IR (--wpp-trace-counts): what a corpus
    needs of a run, in memory the size of the vocabulary."""
    import json
    try:
        result = run([phaedrus_tool("phaedrus-translate"), "--wpp-trace-counts",
                      trace, *_wpp_options(name, fingerprint, keep_prefix)],
                     what="phaedrus-translate --wpp-trace-counts")
    except ToolError as e:
        # The reader's own diagnostics say what is wrong with the file (cut
        # short, corrupt, another build); the command line adds nothing.
        if e.stderr:
            raise ToolError(f"cannot count the events of {trace}:\n{e.stderr}")
        raise
    return (json.loads(result.stdout),
            result.stderr.decode(errors="replace").strip())


def pack_trace(trace: Path, output: Path, name="run", fingerprint=None):
    """Trace file -> packed trace file (docs/PackedTrace.md) without the
    trace as IR (--pack-wpp): folded into repeats and, at function
    granularity, into the build's call groups; memory bounded whatever the
    trace's length."""
    run([phaedrus_tool("phaedrus-translate"), "--pack-wpp", trace,
         *_wpp_options(name, fingerprint, False), "-o", output],
        what="phaedrus-translate --pack-wpp")


def fingerprint_of(instrumented_mlir: Path) -> int:
    """The module fingerprint the instrument pass recorded."""
    try:
        with open(instrumented_mlir) as f:
            for line in f:
                if "phaedrus.vocabulary" in line and "fingerprint(" in line:
                    return int(line.split("fingerprint(")[1].split(")")[0])
    except FileNotFoundError:
        raise ToolError(f"instrumented module not found: {instrumented_mlir}")
    except (OSError, UnicodeDecodeError) as e:
        kind = file_kind(instrumented_mlir)
        if kind:
            beside = Path(f"{instrumented_mlir}.mlir")
            which = (f"give {beside}, which it wrote beside the binary"
                     if beside.exists() else
                     "OUT.mlir beside the instrumented binary OUT")
            raise ToolError(f"{instrumented_mlir} is {kind}, not the module "
                            f"'phaedrus instrument' wrote: {which}")
        raise ToolError(f"cannot read {instrumented_mlir}: {e}")
    raise ToolError(f"{instrumented_mlir} has no phaedrus.vocabulary: "
                    f"it was not made by 'phaedrus instrument'")


def pass_option(name: str, value) -> str:
    """`name=value` for a phaedrus-opt pass's options, the value quoted
    where MLIR's option parser would split it (a path with a space: a
    work directory or model path with one broke every profile step)."""
    value = str(value)
    if not re.search(r"[\s'\"{}]", value):
        return f"{name}={value}"
    for quote in ('"', "'"):
        if quote not in value:
            return f"{name}={quote}{value}{quote}"
    raise ToolError(f"{value}: a path with both kinds of quote in it cannot "
                    f"be given to phaedrus-opt's pass options; rename it")


def mlir_string(text: str) -> str:
    """An MLIR string literal of `text`."""
    out = ['"']
    for b in str(text).encode():
        c = chr(b)
        out.append("\\%02X" % b if c in '"\\' or b < 0x20 or b >= 0x7f else c)
    out.append('"')
    return "".join(out)


def mlir_strings(text: str) -> list:
    """The strings of MLIR string literals in `text` (such as a list
    attribute's), their escapes undone: the inverse of mlir_string."""
    return [re.sub(rb"\\([0-9A-Fa-f]{2})", lambda m: bytes.fromhex(m.group(1).decode()),
                   body.encode()).decode(errors="replace")
            for body in re.findall(r'"((?:[^"\\]|\\.)*)"', text)]


def model_header(path) -> dict:
    """The kind, vocabulary size, descriptor tokens and training run names
    (None when it names none) of a model file (docs/Model.md), without its
    weights."""
    kind = file_kind(path)
    if kind:
        raise ToolError(f"{path} is not a model, it is {kind}: give the file "
                        f"'phaedrus train' wrote")
    try:
        with open(path) as f:
            ir = f.read().partition("{-#")[0]
    except FileNotFoundError:
        raise ToolError(f"model not found: {path}")
    except (OSError, UnicodeDecodeError) as e:
        raise ToolError(f"cannot read the model {path}: {e}")
    op = re.search(r"phaedrus\.model @\S+ (\w+) vocabulary", ir)
    if op is None:
        text_kind = mlir_text_kind(path)
        what = ("it is JSON (a corpus?): 'phaedrus train' makes a model of "
                "a corpus" if ir.lstrip().startswith("{") else
                f"it is {text_kind}: give the file 'phaedrus train' wrote"
                if text_kind and not text_kind.startswith("a model") else
                "it holds no readable phaedrus.model op: give the file "
                "'phaedrus train' wrote")
        raise ToolError(f"{path} is not a model file: {what}")
    header = {"kind": op.group(1), "descriptors": [], "runs": None}
    # The optional lists follow vocab_size(N) in the op's order, each a list
    # of string literals.
    size = re.compile(r"vocab_size\((\d+)\)").search(ir, op.end())
    if size is None:
        raise ToolError(f"{path}: its phaedrus.model has no vocab_size")
    header["vocab_size"] = int(size.group(1))
    at = size.end()
    for key in ("descriptors", "runs"):
        found = re.compile(
            rf'\s*{key}\(\[((?:\s*"(?:[^"\\]|\\.)*"\s*,?)*)\s*\]\)').match(ir, at)
        if found:
            header[key] = mlir_strings(found.group(1))
            at = found.end()
    return header


def input_attribute(argv, stdin=None, locale=None) -> str:
    """The #phaedrus.input descriptor of a run (argv with the program name
    first; `locale` the locale variables set, None when not known)."""
    text = "#phaedrus.input<argv = [" + ", ".join(map(mlir_string, argv)) + "]"
    if stdin:
        text += f", stdin = {mlir_string(stdin)}"
    if locale is not None:
        text += (", locale = {" + ", ".join(f"{k} = {mlir_string(v)}"
                                             for k, v in sorted(locale.items()))
                 + "}")
    return text + ">"


def predict(program: Path, model: Path, argv, output: Path, stdin=None,
            seed=None, input_dir=None, locale=None) -> str:
    """Annotates `program` with the profile `model` predicts for the run
    `argv` (program name first) reading `stdin` under the locale variables
    `locale` (None: not known, not described). Returns what phaedrus-opt
    reported (warnings about tokens the model never saw, remarks)."""
    if not Path(model).exists():
        raise ToolError(f"model not found: {model}")
    options = [pass_option("model-file", model),
               f"input={{{input_attribute(argv, stdin, locale)}}}"]
    if seed is not None:
        options.append(f"seed={seed}")
    if input_dir:
        options.append(pass_option("input-dir", input_dir))
    # The driver names the run itself; phaedrus-opt's note that repeats the
    # predict op after each diagnostic would only say it again.
    result = run([phaedrus_tool("phaedrus-opt"), program,
                  f"--phaedrus-predict={' '.join(options)}",
                  "--mlir-print-op-on-diagnostic=false",
                  *debug_line_flags(program), "-o", output],
                 what="phaedrus-opt --phaedrus-predict")
    return without_quoted_lines(result.stderr.decode(errors="replace").strip())


def export_sample_profile(program: Path, output: Path) -> str:
    """The profile attributes of `program` as an LLVM text sample profile
    (clang -fprofile-sample-use, docs/SampleProfile.md). Returns
    phaedrus-translate's warnings (a module without debug lines)."""
    result = run([phaedrus_tool("phaedrus-translate"), "--export-sample-profile",
                  program, "-o", output],
                 what="phaedrus-translate --export-sample-profile")
    return result.stderr.decode(errors="replace").strip()


def static_estimate(program: Path, output: Path) -> Path:
    """The profile LLVM estimates for the program without any run
    (--phaedrus-static-estimate: provenance static), as phaedrus profile
    attributes."""
    result = run([phaedrus_tool("phaedrus-opt"), program,
                  "--phaedrus-static-estimate", *debug_line_flags(program),
                  "-o", output],
                 what="phaedrus-opt --phaedrus-static-estimate")
    warnings = without_quoted_lines(result.stderr.decode(errors="replace").strip())
    if warnings:
        log(warnings)
    return Path(output)


def lower_profile(program: Path, output: Path) -> Path:
    """phaedrus profile attributes -> LLVM's (entry counts, branch weights,
    ProfileSummary)."""
    run([phaedrus_tool("phaedrus-opt"), program, "--phaedrus-lower-profile",
         *debug_line_flags(program), "-o", output],
        what="phaedrus-opt --phaedrus-lower-profile")
    return Path(output)
