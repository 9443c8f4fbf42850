"""Timing program runs against each other on a noisy machine: address-space
randomisation off, whole process runs on one CPU, variants interleaved in
rotated order so that none always runs first or last, each run's wall time
and CPU time (the process's, with the threads and children it waited for).
Shared by `phaedrus eval` and the benchmarks."""

import contextlib
import ctypes
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NamedTuple, Optional

# The clocks a timed run can be read by: `cpu`, the user and system time
# the run's process used (its threads and the children it waited for
# included); `wall`, the time from start to exit.
CLOCKS = ("cpu", "wall")

ADDR_NO_RANDOMIZE = 0x0040000


def disable_aslr() -> bool:
    """Turns address-space randomisation off for the processes this one
    starts (the personality flag is inherited across fork and exec), like
    `setarch -R` without a wrapper process in the timed region. Returns
    whether it worked."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        current = libc.personality(0xFFFFFFFF)
        if current == -1:
            return False
        if current & ADDR_NO_RANDOMIZE:
            return True
        return libc.personality(current | ADDR_NO_RANDOMIZE) != -1
    except (OSError, AttributeError):
        return False


class Timing(NamedTuple):
    """One timed run: seconds by each clock, and the exit code."""
    wall: float
    cpu: float
    code: int

    def seconds(self, clock: str) -> float:
        return self.cpu if clock == "cpu" else self.wall


def time_run(binary, argv, *, stdin_path=None, cwd=None, env=None,
             stdout=None, stderr=None) -> Timing:
    """One whole process run of `binary` with `argv` (argv[0] first, as the
    program sees it): its wall time, its CPU time and its exit code.

    The CPU time is what the kernel accounted to the process (user and
    system, from wait4), so time the run spent waiting for a CPU that other
    work held is not in it: on the 2-core VM with two busy loops beside
    it, Lua's numeric.lua ran 0.313 s of wall time (interquartile range
    6.0%) and 0.101 s of CPU time (2.7%), against 0.097 s and 0.097 s
    (1.9% and 1.4%) on the idle machine (21 runs each).

    Its output goes to `stdout` and `stderr`, by default to temporary files
    that are thrown away: not to /dev/null, which programs can tell from a
    file and do less for (GNU grep stops at the first match when its output
    is /dev/null, as with -q), so that the timed run does the work of the
    run whose profile was taken."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    out = stdout if stdout is not None else tempfile.TemporaryFile()
    err = stderr if stderr is not None else tempfile.TemporaryFile()
    try:
        start = time.perf_counter()
        proc = subprocess.Popen([str(a) for a in argv], executable=str(binary),
                                stdin=stdin, stdout=out, stderr=err,
                                env=env, cwd=cwd)
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        wall = time.perf_counter() - start
        # (Popen must not wait for the process it no longer has.)
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_path:
            stdin.close()
        for stream, given in ((out, stdout), (err, stderr)):
            if given is None:
                stream.close()
    return Timing(wall, usage.ru_utime + usage.ru_stime, proc.returncode)


def timed_run(binary, argv, *, clock="wall", **kwargs):
    """time_run's seconds by `clock` (CLOCKS), and the exit code."""
    if clock not in CLOCKS:
        raise ValueError(f"unknown clock {clock!r} (one of {', '.join(CLOCKS)})")
    timing = time_run(binary, argv, **kwargs)
    return timing.seconds(clock), timing.code


# What the timed runs are pinned to by default (timing_cpu): `auto`, one
# CPU of those this process may run on, when it may run on more than one.
# A run that the kernel moves between CPUs mid-way starts again with cold
# caches and branch predictors. On the 2-core VM (2026-11-27), two copies
# of one binary timed against each other in 21 interleaved rounds had
# smaller per-run spreads on CPU 1 than unpinned in all six comparisons
# (bzip2 and two Lua scripts, two experiments: 5.8-28.9% against
# 12.2-30.3%), and medians of paired ratios that strayed from 1 less in
# three, as much in two and more in one (docs/Eval.md has the table).
DEFAULT_CPU = "auto"

# How long `auto` watches the CPUs to find the idlest: /proc/stat counts
# in hundredths of a second, so 20 of them per CPU.
AUTO_SAMPLE_S = 0.2


def allowed_cpus() -> list:
    """The CPUs this process may run on, in order."""
    return sorted(os.sched_getaffinity(0))


def _cpu_ranges(cpus) -> str:
    """[0, 1, 2, 5] as '0-2,5', as taskset and /proc spell CPU lists."""
    ranges = []
    for cpu in cpus:
        if ranges and ranges[-1][1] == cpu - 1:
            ranges[-1][1] = cpu
        else:
            ranges.append([cpu, cpu])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


def _parse_cpu_ranges(text: str) -> list:
    """'0-2,5' as [0, 1, 2, 5] (the kernel's CPU lists); [] for ''."""
    cpus = []
    for part in text.strip().split(","):
        if not part:
            continue
        first, _, last = part.partition("-")
        cpus.extend(range(int(first), int(last or first) + 1))
    return cpus


def isolated_cpus() -> list:
    """The CPUs the kernel keeps other work off (isolcpus=), in order."""
    try:
        return _parse_cpu_ranges(Path("/sys/devices/system/cpu/isolated").read_text())
    except (OSError, ValueError):
        return []


def _idle_ticks() -> dict:
    """Per CPU, the hundredths of a second it has been idle (idle and
    waiting for I/O, /proc/stat); {} where that cannot be read."""
    ticks = {}
    try:
        with open("/proc/stat") as f:
            for line in f:
                name, *fields = line.split()
                if name.startswith("cpu") and name[3:].isdigit():
                    ticks[int(name[3:])] = int(fields[3]) + int(fields[4])
    except (OSError, ValueError, IndexError):
        return {}
    return ticks


def check_cpu_choice(choice):
    """`choice` as timing_cpu takes it: "auto", None for `none` (or None),
    or a CPU this process may run on. Raises ValueError for anything
    else."""
    if choice is None or choice == "none":
        return None
    if choice == "auto":
        return "auto"
    allowed = allowed_cpus()
    try:
        cpu = int(choice)
    except (TypeError, ValueError):
        raise ValueError(f"CPU {choice!r}: give auto, none or a CPU's "
                         f"number ({_cpu_ranges(allowed)})") from None
    if cpu not in allowed:
        raise ValueError(f"CPU {cpu} is not one this process may run on "
                         f"({_cpu_ranges(allowed)})")
    return cpu


def timing_cpu(choice=DEFAULT_CPU, sample_s: float = AUTO_SAMPLE_S) -> Optional[int]:
    """The CPU that `choice` pins the timed runs to, or None for none:
    `auto`, `none`, or a CPU's number (check_cpu_choice). `auto` is none
    when this process may run on one CPU only; else the highest-numbered of
    the CPUs the kernel isolates, if it may run on any; else the one that
    was idlest over `sample_s` seconds (ties to the higher number), so that
    timed runs do not share a CPU with work already running on it."""
    choice = check_cpu_choice(choice)
    if choice != "auto":
        return choice
    allowed = allowed_cpus()
    if len(allowed) < 2:
        return None
    isolated = [cpu for cpu in isolated_cpus() if cpu in allowed]
    if isolated:
        return isolated[-1]
    before = _idle_ticks()
    time.sleep(sample_s)
    return idlest_cpu(allowed, before, _idle_ticks())


def idlest_cpu(allowed, before: dict, after: dict) -> int:
    """Of `allowed`, the CPU idle longest between two _idle_ticks readings
    (ties, and CPUs the readings lack, to the higher number)."""
    return max(allowed, key=lambda cpu: (after.get(cpu, 0) - before.get(cpu, 0), cpu))


@contextlib.contextmanager
def pinned(cpu: Optional[int]):
    """Runs the block, and every process it starts, on `cpu` alone (None:
    wherever the kernel puts them); the calling thread's CPUs are given back
    after. Only the calling thread moves: a process started from it inherits
    its CPUs."""
    if cpu is None:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def interleaved_rounds(keys, run_one, rounds, cpu: Optional[int] = None):
    """`rounds` rounds; each runs `run_one(key)` (returning seconds) once per
    key, in an order rotated by one position per round, all on `cpu` (None:
    unpinned; timing_cpu chooses it). Returns {key: [seconds, ...]}."""
    keys = list(keys)
    samples = {k: [] for k in keys}
    with pinned(cpu):
        for i in range(rounds):
            k = i % len(keys)
            for key in keys[k:] + keys[:k]:
                samples[key].append(run_one(key))
    return samples
