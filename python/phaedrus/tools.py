"""Locating and running the tools the driver chains: the phaedrus tools from
the build tree and LLVM 22's tools from /usr/lib/llvm-22."""

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
LLVM_BIN = Path(os.environ.get("PHAEDRUS_LLVM_BIN", "/usr/lib/llvm-22/bin"))


class ToolError(RuntimeError):
    """A tool failed; the message says which, how, and what it printed
    (`stderr`, when it was a tool run by `run`)."""

    def __init__(self, message, stderr=None):
        super().__init__(message)
        self.stderr = stderr


def build_dir() -> Path:
    return Path(os.environ.get("PHAEDRUS_BUILD_DIR", REPO_ROOT / "build"))


def phaedrus_tool(name: str) -> Path:
    path = build_dir() / "bin" / name
    if not path.exists():
        raise ToolError(f"{name} not found at {path}: build Phaedrus first "
                        f"(./scripts/test.sh or ninja -C {build_dir()}), or set "
                        f"PHAEDRUS_BUILD_DIR")
    return path


def runtime_library() -> Path:
    path = build_dir() / "lib" / "libphaedrus_rt.a"
    if not path.exists():
        raise ToolError(f"libphaedrus_rt.a not found at {path}: build Phaedrus first")
    return path


def llvm_tool(name: str) -> Path:
    path = LLVM_BIN / name
    if path.exists():
        return path
    found = shutil.which(f"{name}-22")
    if found:
        return Path(found)
    raise ToolError(f"{name} not found in {LLVM_BIN}: run ./scripts/setup.sh")


# Longer source lines that a tool's diagnostic quotes are cut: MLIR quotes
# the line of a diagnostic (with a caret under it), and an op's line holds
# all its attributes (a function's from clang: 450 characters and more).
# (Errors about a whole module quote nothing: they are said at its file.)
MAX_QUOTED_LINE = 240


def _quoted_lines(lines) -> list:
    """The indexes of the source lines a tool's diagnostics quote in
    `lines`: each is followed by its caret line (`^`, or `^~~~`)."""
    return [i - 1 for i in range(1, len(lines))
            if re.fullmatch(r"\s*\^~*\s*", lines[i])]


def shorten_lines(text: str) -> str:
    """`text` with each quoted source line (one followed by a caret line) of
    more than MAX_QUOTED_LINE characters cut to its start and its length;
    messages stay whole."""
    lines = text.splitlines()
    for i in _quoted_lines(lines):
        if len(lines[i]) > MAX_QUOTED_LINE:
            lines[i] = (f"{lines[i][:MAX_QUOTED_LINE - 40]} ... "
                        f"({len(lines[i])} characters)")
    return "\n".join(lines)


def without_quoted_lines(text: str) -> str:
    """`text` without the source lines a tool's diagnostics quote (each one
    followed by its caret line): for remarks and warnings that succeed, on
    a module imported from LLVM IR whose quoted lines are functions'
    signatures (about 600 characters each: 11 of them in each prediction,
    about half of a SQLite user's 13 KB eval log). The file:line:column of each message stays."""
    lines = text.splitlines()
    drop = {j for i in _quoted_lines(lines) for j in (i, i + 1)}
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


def run(cmd, *, stdin=None, stdout=None, env=None, cwd=None, what=None):
    """Runs a command; raises ToolError with its stderr on failure (long
    lines cut, shorten_lines)."""
    cmd = [str(c) for c in cmd]
    result = subprocess.run(cmd, stdin=stdin, stdout=stdout or subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=cwd)
    if result.returncode != 0:
        err = shorten_lines(result.stderr.decode(errors="replace").strip())
        raise ToolError(f"{what or Path(cmd[0]).name} failed (exit "
                        f"{result.returncode}): {' '.join(cmd)}\n{err}", stderr=err)
    return result


def children() -> list:
    """The process ids of this process's children (Linux: from /proc)."""
    me, found = os.getpid(), []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:  # (gone meanwhile)
            continue
        # pid (comm) state ppid ...: the name may hold spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(entry.name))
    return found


_stopping = threading.Event()


def stop_children():
    """Kills, from now until this process exits, every process it starts:
    on SIGTERM or SIGINT the driver's main thread stops, but the tools its
    worker threads run got no signal, and the threads, which the main
    thread waits for, would go on starting the next (a terminated eval
    waited for minutes of builds). A daemon thread kills them as they come."""
    if _stopping.is_set():
        return

    def reap():
        while True:
            for pid in children():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.05)
    _stopping.set()
    threading.Thread(target=reap, name="phaedrus-stop-children",
                     daemon=True).start()


@contextlib.contextmanager
def path_without(chars: str, path):
    """A name for `path` that has none of `chars` in it, for the tools that
    read those characters in a path: the runtimes expand %p, %h, %m ... in
    theirs (PHAEDRUS_TRACE, LLVM_PROFILE_FILE: a work directory with a % in
    its name sent clang's profile and the trace elsewhere), and a list
    option of a pass splits at commas. Its directory is reached through a
    symbolic link (what is written lands in place); a file name with one
    of them is used under another and renamed back at the end. None stays
    None."""
    if path is None or not any(c in str(path) for c in chars):
        yield path
        return
    path = Path(path).absolute()
    with tempfile.TemporaryDirectory(prefix="phaedrus-path-") as tmp:
        link = Path(tmp) / "dir"
        link.symlink_to(path.parent, target_is_directory=True)
        plain = not any(c in path.name for c in chars)
        name = path.name if plain else "file" + "".join(
            s for s in path.suffixes if not any(c in s for c in chars))
        if not plain and path.exists():
            os.replace(path, link / name)
        try:
            yield link / name
        finally:
            if not plain and (link / name).exists():
                os.replace(link / name, path)


def percent_free(path):
    """path_without("%", path): for the runtimes' output paths."""
    return path_without("%", path)


# The first bytes of the files a user may give where another belongs.
TRACE_FILE_KIND = "a trace file (as 'phaedrus run' writes them)"
MLIR_BYTECODE_KIND = "MLIR bytecode"
ELF_KIND = "an executable or object file (ELF)"
FILE_KINDS = [
    (b"PHDRWPP\n", TRACE_FILE_KIND),
    (b"PHPK", "a packed trace (docs/PackedTrace.md)"),
    (b"\x7fELF", ELF_KIND),
    (b"ML\xefR", MLIR_BYTECODE_KIND),
    (b"BC\xc0\xde", "LLVM bitcode"),
]


def file_kind(path) -> str:
    """What `path` is, when its first bytes say so (FILE_KINDS), else None
    (also when it cannot be read)."""
    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError:
        return None
    return next((kind for magic, kind in FILE_KINDS if head.startswith(magic)), None)


def file_contains(path, markers) -> list:
    """Whether each of `markers` (bytes) occurs in the file, read in chunks
    (modules run to hundreds of megabytes)."""
    found = [False] * len(markers)
    keep = max(len(m) for m in markers) - 1
    tail = b""
    with open(path, "rb") as f:
        while not all(found) and (chunk := f.read(1 << 20)):
            window = tail + chunk
            found = [hit or m in window for hit, m in zip(found, markers)]
            tail = window[-keep:] if keep else b""
    return found


# What --phaedrus-instrument adds to a module: the function that registers
# it with the runtime, named in text and in bytecode alike. (A plain module
# may hold traces, and their vocabularies, beside its code.)
RUNTIME_REGISTER = b"__phaedrus_register"
# The variable the recording runtime reads (a string that stripping keeps).
RUNTIME_ENV = b"PHAEDRUS_TRACE"


def mlir_text_kind(path) -> str:
    """What an MLIR text file given where JSON or a model belongs is: a
    model, an instrumented module or a module; None for other files."""
    try:
        with open(path, errors="replace") as f:
            start = f.read(1 << 12).lstrip()
        if not start.startswith(("module", "#", "llvm.", "//", "phaedrus.")):
            return None
        model, instrumented = file_contains(path, [b"phaedrus.model @",
                                                   RUNTIME_REGISTER])
    except OSError:
        return None
    if model:
        return "a model (MLIR, as 'phaedrus train' writes them)"
    if instrumented:
        return "an instrumented module (MLIR)"
    return "an MLIR module"


def read_json(path, name: str, what: str, advice=None):
    """The JSON in `path`. Errors: "NAME not found: PATH"; "PATH is not
    WHAT (JSON): why", or, for a file whose first bytes say what it is
    (file_kind), "PATH is not WHAT, it is KIND" and `advice(kind)` if given."""
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ToolError(f"{name} not found: {path}")
    except IsADirectoryError:
        raise ToolError(f"{path} is a directory, not {what}")
    except OSError as e:
        raise ToolError(f"cannot read {path}: {e.strerror or e}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        kind = file_kind(path) or mlir_text_kind(path)
        if kind:
            raise ToolError(f"{path} is not {what}, it is {kind}"
                            f"{advice(kind) if advice else ''}")
        raise ToolError(f"{path} is not {what} (JSON): {e}")


def check_output(path, what: str) -> Path:
    """Refuses, before any work, an output file that cannot be written (a
    directory; a directory that cannot hold it): "WHAT PATH is a directory:
    give a file name", "cannot write WHAT PATH: why". Makes its parent
    directories, and tries the file: opened to append, so a file that is
    there is left as it is, and one made for the try removed again."""
    path = Path(path)
    if path.is_dir():
        raise ToolError(f"{what} {path} is a directory: give a file name")
    existed = path.exists()
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ToolError(f"cannot write {what} {path}: {ancestor} is not a "
                        f"directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab"):
            pass
    except OSError as e:
        raise ToolError(f"cannot write {what} {path}: {e.strerror or e}")
    if not existed:
        path.unlink(missing_ok=True)
    return path


def split_flags(text: str, option: str) -> list:
    """The words of a flags option (`--cflags`, `--ldflags`), split as a
    POSIX shell would; "OPTION ...: why" for a quote left open."""
    try:
        return shlex.split(text)
    except ValueError as e:
        raise ToolError(f"{option} {text!r}: {e} (quote as a shell would)")


def log(message: str):
    print(f"phaedrus: {message}", file=sys.stderr, flush=True)


def progress(iterable, enabled: bool, desc: str, unit: str):
    """`iterable`, shown as a progress bar on stderr (tqdm) if `enabled`."""
    if not enabled:
        return iterable
    try:
        from tqdm import tqdm
    except ImportError:
        return iterable
    return tqdm(iterable, desc=desc, unit=unit, leave=False)
