"""Helpers shared by the benchmarks: machine information for the result
files, medians, and the --programs selection."""

import datetime
import os
import platform
import statistics
import subprocess
import sys

from phaedrus import programs
from phaedrus.tools import REPO_ROOT, ToolError, build_dir


class BenchError(RuntimeError):
    """A benchmark cannot go on; the message says why."""


def median(values):
    values = list(values)
    return statistics.median(values) if values else None


def program_names(benchmark):
    """Names of the real programs, or exit with a clear message when their
    sources are missing."""
    try:
        return [p.name for p in programs.all_programs()]
    except ToolError as e:
        sys.exit(f"{benchmark}: {e}")


def add_programs_argument(parser, names):
    parser.add_argument("--programs", nargs="+", metavar="NAME", default=None,
                        help=f"programs to measure (default all: {' '.join(names)}); "
                             f"names may also be comma-separated")


def listed(parser, values, known, what):
    """The values of a list option (space- or comma-separated), all of them
    when it was not given; unknown values are a usage error."""
    if values is None:
        return list(known)
    values = [n for item in values for n in item.split(",") if n]
    unknown = [n for n in values if n not in known]
    if unknown:
        parser.error(f"unknown {what} {', '.join(unknown)}; "
                     f"known: {', '.join(known)}")
    return values


def git_commit():
    try:
        out = subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "HEAD"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             check=True)
        return out.stdout.decode().strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def machine_info(aslr_off, scratch):
    return {
        "nproc": os.cpu_count(),
        "nproc_available": len(os.sched_getaffinity(0)),
        "cpu": cpu_model(),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "date": datetime.datetime.now(datetime.timezone.utc)
        .isoformat(timespec="seconds"),
        "load_average_at_start": list(os.getloadavg()),
        "aslr_disabled": aslr_off,
        "trace_dir": str(scratch),
        "git_commit": git_commit(),
        "build_dir": str(build_dir()),
    }


