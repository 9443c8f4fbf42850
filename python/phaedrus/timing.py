"""Timing program runs against each other on a noisy machine: address-space
randomisation off, whole process runs, variants interleaved in rotated order
so that none always runs first or last, each run's wall time and CPU time
(the process's, with the threads and children it waited for). Shared by
`phaedrus eval` and the benchmarks."""

import ctypes
import os
import subprocess
import tempfile
import time
from typing import NamedTuple

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


def interleaved_rounds(keys, run_one, rounds):
    """`rounds` rounds; each runs `run_one(key)` (returning seconds) once per
    key, in an order rotated by one position per round. Returns
    {key: [seconds, ...]}."""
    keys = list(keys)
    samples = {k: [] for k in keys}
    for i in range(rounds):
        k = i % len(keys)
        for key in keys[k:] + keys[:k]:
            samples[key].append(run_one(key))
    return samples
