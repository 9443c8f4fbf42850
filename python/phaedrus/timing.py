"""Timing program runs against each other on a noisy machine: address-space
randomisation off, whole process runs, variants interleaved in rotated order
so that none always runs first or last. Shared by `phaedrus eval` and the
benchmarks."""

import ctypes
import subprocess
import tempfile
import time

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


def timed_run(binary, argv, *, stdin_path=None, cwd=None, env=None,
              stdout=None, stderr=None):
    """One whole process run of `binary` with `argv` (argv[0] first, as the
    program sees it); returns (seconds, exit code).

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
        result = subprocess.run([str(a) for a in argv], executable=str(binary),
                                stdin=stdin, stdout=out, stderr=err,
                                env=env, cwd=cwd)
        seconds = time.perf_counter() - start
    finally:
        if stdin_path:
            stdin.close()
        for stream, given in ((out, stdout), (err, stderr)):
            if given is None:
                stream.close()
    return seconds, result.returncode


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
