"""Crafted and damaged trace files that a real run does not write: each
gets its diagnostic from --import-wpp and from the one-pass count
(--wpp-trace-counts), never a crash or a trace imported wrong. Found by an
audit of the project's errors (2026-11-28); the first three were imported
without a word before (a carriage return kept in every symbol, an index
wrapped to -1 and refused by the verifier with the op printed, a path run
of no paths)."""

import pytest

from phaedrus import pipeline
from phaedrus.tools import ToolError
from wpp_records import (MAGIC, VOCABULARY, end, events, head, record, trace_file,
                         vocabulary)

PATH = 0x80000000  # PHAEDRUS_PATH_MARK: function token, path id, length
_PREFIX = MAGIC + head() + vocabulary(VOCABULARY)
_FIRST_EVENT = len(_PREFIX)  # the byte the event record starts at

CASES = [
    ("crlf", trace_file(vocabulary_text="0\tfunction\tmain\r\n1\tfunction\tf\r\n",
                        tokens=(0, 1)),
     "error: cannot import trace: vocabulary line 1: a carriage return (the "
     "lines end in a newline alone)"),
    ("index overflow",
     trace_file(vocabulary_text="0\tfunction\tmain\n1\tcall_site\tmain\t"
                                "99999999999999999999999\tmain\n", tokens=(0, 1)),
     "error: cannot import trace: vocabulary line 2: bad index"),
    ("index beyond int64",
     trace_file(vocabulary_text="0\tfunction\tmain\n1\tcall_site\tmain\t"
                                "9223372036854775808\tmain\n", tokens=(0, 1)),
     "error: cannot import trace: vocabulary line 2: bad index"),
    ("empty path run",
     trace_file(tokens=(0, PATH | 0, 3, 0), granularity=1),
     "error: corrupt trace: a path run of length 0 (token 0, path 3): runs "
     "count the paths taken, at least one"),
    ("magic alone", MAGIC,
     "error: cannot import trace: truncated trace: no HEAD record; nothing was "
     "recovered"),
    ("payload over the limit",
     _PREFIX + record(b"EVNT", bytes(8), length=(64 << 20) + 1),
     f"error: trace is corrupt: corrupt EVNT record at byte {_FIRST_EVENT}: "
     f"length 67108865 exceeds the format's limit"),
]

# Cut short: a warning, and the intact prefix imported.
TRUNCATED = [
    ("a record header cut", _PREFIX + b"EVN",
     f"warning: trace is incomplete: truncated at byte {_FIRST_EVENT}: 3 bytes "
     f"left, less than a record header"),
    ("a payload cut", _PREFIX + events([0, 2, 1])[:-4],
     f"warning: trace is incomplete: truncated EVNT record at byte "
     f"{_FIRST_EVENT}: it needs 16 payload bytes, the file has 12"),
    ("a path run cut", trace_file(tokens=(0, PATH | 0, 3), granularity=1),
     "warning: the trace ends inside a path event; 1 incomplete path event(s) "
     "dropped"),
]


@pytest.mark.parametrize("name,data,words", CASES, ids=[c[0] for c in CASES])
def test_a_crafted_trace_is_refused_with_what_is_wrong(tmp_path, name, data, words):
    trace = tmp_path / "t.wpp"
    trace.write_bytes(data)
    for read in (lambda: pipeline.import_trace(trace, tmp_path / "t.mlir"),
                 lambda: pipeline.count_trace(trace)):
        with pytest.raises(ToolError) as error:
            read()
        assert words in str(error.value)
        assert "see current operation" not in str(error.value)


@pytest.mark.parametrize("name,data,words", TRUNCATED, ids=[c[0] for c in TRUNCATED])
def test_a_trace_cut_short_imports_its_prefix_with_a_warning(tmp_path, name, data,
                                                             words):
    trace = tmp_path / "t.wpp"
    trace.write_bytes(data)
    warnings = pipeline.import_trace(trace, tmp_path / "t.mlir")
    assert words in warnings
    counts, counted_warnings = pipeline.count_trace(trace)
    assert words in counted_warnings


def test_the_crafted_writer_makes_a_trace_that_imports():
    """The cases above differ from this good trace in what they name."""
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "good.wpp"
        trace.write_bytes(trace_file())
        assert pipeline.import_trace(trace, Path(tmp) / "good.mlir") == ""
        counts, warnings = pipeline.count_trace(trace)
        assert warnings == ""
        assert counts["traces"][0]["events"] == 3
        # (f entered twice: by the call site's token, then by its own.)
        assert counts["traces"][0]["entry_counts"] == {"main": 1, "f": 2}
