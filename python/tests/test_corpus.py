"""A corpus file that is not as docs/Corpus.md describes it is refused with
an error naming the field, never a traceback from deep in training."""

import copy
import json
import subprocess
import sys

import pytest

from phaedrus import corpus as corpus_mod
from phaedrus.tools import REPO_ROOT, ToolError

GOOD = {
    "format": "phaedrus-corpus", "version": 1, "fingerprint": "42", "featurizer": 6,
    "vocabulary": {"name": "v", "fingerprint": "42", "entries": [
        {"id": 0, "kind": "function", "symbol": "main"},
        {"id": 1, "kind": "call_site", "symbol": "main", "index": 0, "callee": "f"},
        {"id": 2, "kind": "function", "symbol": "f"}]},
    "runs": [
        {"name": "a", "argv": ["p", "1"], "stdin": None, "cwd": "/tmp",
         "descriptor": ["argc=1"], "events": 3, "tokens": [[0, 1], [1, 2]]},
        {"name": "b", "argv": ["p", "2"], "stdin": "/tmp/in", "cwd": None,
         "descriptor": ["argc=1", "operand1=num1"], "events": 1, "tokens": [[0, 1]]}],
}


def _phaedrus(*args):
    """The driver, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "phaedrus", *map(str, args)], capture_output=True,
        text=True, env={"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin"})


def _load(tmp_path, corpus):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(corpus))
    return corpus_mod.load(path)


def _edited(edit):
    corpus = copy.deepcopy(GOOD)
    edit(corpus)
    return corpus


def test_a_well_formed_corpus_loads(tmp_path):
    assert _load(tmp_path, GOOD)["runs"][1]["name"] == "b"


# Each edit, and the words of the error it gets.
BROKEN = [
    (lambda c: c.pop("runs"), "the corpus: \"runs\" is missing"),
    (lambda c: c.update(runs=[]), "the corpus has no runs"),
    (lambda c: c.update(vocabulary=[]), "the corpus: \"vocabulary\" must be an object"),
    (lambda c: c["vocabulary"].pop("entries"), "the vocabulary: \"entries\" is missing"),
    (lambda c: c.update(fingerprint=42), "\"fingerprint\" must be a decimal string"),
    (lambda c: c.update(fingerprint="0x2a"),
     "the corpus: \"fingerprint\" must be a decimal string, not \"0x2a\""),
    (lambda c: c["vocabulary"]["entries"].append("main"),
     "vocabulary entry 3: must be an object"),
    (lambda c: c["vocabulary"]["entries"][0].update(symbol=""),
     "vocabulary entry 0: \"symbol\" is empty"),
    (lambda c: c["runs"].append(["a"]), "run 2: must be an object"),
    (lambda c: c["runs"][0].pop("name"), "run 0: \"name\" is missing"),
    (lambda c: c["runs"][0].update(argv=["p", 3]),
     "run 0 (a): \"argv\" must be a list of strings"),
    (lambda c: c["runs"][1].update(cwd=False), "run 1 (b): \"cwd\" must be a path or null"),
    (lambda c: c["runs"][0].update(events="3"),
     "run 0 (a): \"events\" must be an integer, not \"3\""),
    (lambda c: c.update(featurizer=None), "\"featurizer\" must be a version number"),
    (lambda c: c["vocabulary"]["entries"][1].update(id=5),
     "vocabulary entry 1: its id is 5; ids are 0, 1, 2, ... in order"),
    (lambda c: c["vocabulary"]["entries"][2].update(kind="loop"),
     "vocabulary entry 2: unknown kind \"loop\""),
    (lambda c: c["runs"][0].pop("tokens"), "run 0 (a): \"tokens\" is missing"),
    (lambda c: c["runs"][0].pop("descriptor"), "run 0 (a): \"descriptor\" is missing"),
    (lambda c: c["runs"][1].update(descriptor="argc=1"),
     "run 1 (b): \"descriptor\" must be a list of strings"),
    (lambda c: c["runs"][1].update(descriptor=[1]),
     "run 1 (b): \"descriptor\" must be a list of strings"),
    (lambda c: c["runs"][0].update(stdin=7), "run 0 (a): \"stdin\" must be a path or null"),
    (lambda c: c["runs"][1].update(name="a"), "run 1 (a): another run has the same name"),
    (lambda c: c["runs"][0].update(events=-1), "run 0 (a): \"events\" is -1, not a count"),
    (lambda c: c["runs"][0].update(tokens=None), "run 0 (a): \"tokens\" must be a list"),
    (lambda c: c["runs"][0]["tokens"].append([2]),
     "run 0 (a): token [2] is not an [id, count] pair of integers"),
    (lambda c: c["runs"][0]["tokens"].append([2, 1.5]),
     "run 0 (a): token [2, 1.5] is not an [id, count] pair of integers"),
    (lambda c: c["runs"][0]["tokens"].append([2, True]),
     "run 0 (a): token [2, true] is not an [id, count] pair of integers"),
    (lambda c: c["runs"][0]["tokens"].append([3, 1]),
     "run 0 (a): token [3, 1] is outside the vocabulary of 3 entries or not counted"),
    (lambda c: c["runs"][0]["tokens"].append([2, 0]),
     "run 0 (a): token [2, 0] is outside the vocabulary of 3 entries or not counted"),
    (lambda c: c["runs"][0]["tokens"].append([2, 2 ** 64]),
     "or not counted (counts are 1 to 2^64 - 1)"),
    (lambda c: c["runs"][0]["tokens"].append([0, 4]), "run 0 (a): token 0 is listed twice"),
    # Each kind's fields, as the model's vocabulary op needs them: without
    # these checks training ran to the end and wrote a model that did not
    # load (an error audit, 2026-11-28), or stopped in a traceback.
    (lambda c: c["vocabulary"].pop("name"), "the vocabulary: \"name\" is missing"),
    (lambda c: c["vocabulary"].update(name=""), "the vocabulary: \"name\" is empty"),
    # (A missing one was a traceback after the training; null, a model file
    # nothing could read; another, a model blamed on the build.)
    (lambda c: c["vocabulary"].pop("fingerprint"),
     "the vocabulary: \"fingerprint\" is missing"),
    (lambda c: c["vocabulary"].update(fingerprint=None),
     "the vocabulary: \"fingerprint\" must be a decimal string, not null"),
    (lambda c: c["vocabulary"].update(fingerprint="123"),
     "the vocabulary: \"fingerprint\" is \"123\", not the corpus's \"42\""),
    (lambda c: c["vocabulary"]["entries"][1].update(callee=5),
     "vocabulary entry 1: \"callee\" must be a function name, not 5"),
    (lambda c: c["vocabulary"]["entries"][1].pop("index"),
     "vocabulary entry 1: \"index\" is missing"),
    (lambda c: c["vocabulary"]["entries"][1].update(index=-1),
     "vocabulary entry 1: \"index\" is -1, not 0 to 2^64 - 1"),
    (lambda c: c["vocabulary"]["entries"][0].update(index=0),
     "vocabulary entry 0: a function entry has no \"index\""),
    (lambda c: c["vocabulary"]["entries"][0].update(callee="f"),
     "vocabulary entry 0: a function entry has no \"callee\""),
    (lambda c: c["vocabulary"]["entries"].append(
        {"id": 3, "kind": "group", "symbol": "main", "index": 0, "members": [1]}),
     "vocabulary entry 3: \"members\" must be 2 to 255 ids of the vocabulary's "
     "entries, not [1]"),
    (lambda c: c["vocabulary"]["entries"].append(
        {"id": 3, "kind": "group", "symbol": "main", "index": 0}),
     "vocabulary entry 3: \"members\" is missing"),
    (lambda c: c["vocabulary"]["entries"].append(
        {"id": 3, "kind": "path", "symbol": "main", "index": 0, "members": [1, 1]}),
     "vocabulary entry 3: a path entry has no \"members\""),
    (lambda c: c["runs"][0].update(name=""), "run 0: \"name\" is empty"),
    (lambda c: c.update(version="1"),
     "corpus version \"1\" is not supported (this driver reads version 1)"),
    (lambda c: c.update(granularity="block"),
     "the corpus: \"granularity\" must be function or path, not \"block\""),
]


def test_a_corpus_says_its_granularity(tmp_path):
    """eval took a path-granularity corpus whose runs took no path with a
    branch (no path entries) for a function-granularity one, and refused the
    binary that recorded it: the corpus now says its granularity, and one
    without it (before 2026-11-28) is read as before."""
    from phaedrus.corpus import granularity_of, make_corpus
    v = {"name": "v", "fingerprint": "1",
         "entries": [{"id": 0, "kind": "function", "symbol": "main"}]}
    run = {"name": "a", "argv": ["p"], "descriptor": ["argc=0"], "events": 1,
           "tokens": [[0, 1]]}
    corpus = make_corpus([(v, run)], "path")
    assert corpus["granularity"] == "path" and granularity_of(corpus) == "path"
    assert _load(tmp_path, corpus)["granularity"] == "path"
    old = make_corpus([(v, run)])
    assert "granularity" not in old and granularity_of(old) == "function"
    v["entries"].append({"id": 1, "kind": "path", "symbol": "main", "index": 0})
    assert granularity_of(make_corpus([(v, run)])) == "path"


@pytest.mark.parametrize("edit,words", BROKEN)
def test_a_malformed_corpus_is_refused_naming_the_field(tmp_path, edit, words):
    with pytest.raises(ToolError) as error:
        _load(tmp_path, _edited(edit))
    assert words in str(error.value)


def test_phaedrus_train_says_what_is_wrong_without_a_traceback(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(_edited(lambda c: c["runs"][0].pop("tokens"))))
    result = _phaedrus("train", path, "-o", tmp_path / "m.mlir")
    assert result.returncode == 1
    assert "phaedrus train: error:" in result.stderr
    assert "run 0 (a): \"tokens\" is missing" in result.stderr
    assert "Traceback" not in result.stderr


# The input description `phaedrus run` keeps next to a trace
# (TRACE.input.json), as `phaedrus corpus` reads it; `phaedrus eval
# --held-out` reads the same files, without needing the descriptor.
SIDECARS = [
    ("{not json", "is not an input description (JSON)"),
    ("[1, 2]", "an input description needs \"argv\""),
    ('{"descriptor": []}', "an input description needs \"argv\""),
    ('{"argv": []}', "an input description needs \"argv\""),
    ('{"argv": ["p", 3]}', "an input description needs \"argv\""),
    ('{"argv": ["p"], "stdin": 5, "descriptor": []}', "\"stdin\" must be a path or null"),
    ('{"argv": ["p"], "cwd": [], "descriptor": []}', "\"cwd\" must be a path or null"),
    ('{"argv": ["p"]}', "\"descriptor\" must be the list of strings"),
    ('{"argv": ["p"], "descriptor": "argc=0"}', "\"descriptor\" must be the list of strings"),
    ('{"argv": ["p"], "descriptor": [], "featurizer": "2"}',
     "\"featurizer\" must be a version number"),
]


@pytest.mark.parametrize("text,words", SIDECARS)
def test_a_malformed_input_description_is_refused(tmp_path, text, words):
    side = tmp_path / "r.wpp.input.json"
    side.write_text(text)
    with pytest.raises(ToolError) as error:
        corpus_mod.read_sidecar(side)
    assert words in str(error.value) and str(side) in str(error.value)


def test_an_input_description_that_is_not_text_is_refused(tmp_path):
    side = tmp_path / "r.wpp.input.json"
    side.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(ToolError) as error:
        corpus_mod.read_sidecar(side)
    assert "is not an input description (JSON)" in str(error.value)


def test_phaedrus_train_says_where_it_cannot_write_the_model(tmp_path):
    corpus = tmp_path / "c.json"
    corpus.write_text(json.dumps(GOOD))
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = _phaedrus("train", corpus, "-o", blocker / "m.mlir")
    assert result.returncode == 1
    assert f"phaedrus train: error: cannot write model {blocker / 'm.mlir'}: " \
        f"{blocker} is not a directory" in result.stderr
    # A directory given as the model: refused before training (it used to
    # train first, then fail to write).
    result = _phaedrus("train", corpus, "-o", tmp_path, "--kind", "retrieval",
                       "--epochs", "1")
    assert result.returncode == 1, result.stderr
    assert f"phaedrus train: error: model {tmp_path} is a directory: give a " \
        "file name" in result.stderr
    assert "epochs" not in result.stderr  # nothing trained
    assert "Traceback" not in result.stderr


def test_phaedrus_corpus_says_what_is_wrong_with_a_sidecar(tmp_path):
    trace = tmp_path / "r.wpp"
    trace.write_bytes(b"PHDRWPP\n")
    corpus_mod.sidecar_of(trace).write_text('{"argv": ["p"], "stdin": null}')
    result = _phaedrus("corpus", trace, "-o", tmp_path / "c.json")
    assert result.returncode == 1
    assert "phaedrus corpus: error:" in result.stderr
    assert "\"descriptor\" must be the list of strings" in result.stderr
    assert "Traceback" not in result.stderr


def test_runs_described_alike_with_other_totals_get_a_warning(tmp_path):
    """Runs whose descriptions are the same token for token but whose
    totals differ by 2x or more (a bc script's scale= inside the file): a
    model cannot tell them apart, and corpus and train say so, naming
    both; runs alike in total, or told apart, get no warning."""
    corpus = copy.deepcopy(GOOD)
    corpus["runs"][1]["descriptor"] = ["argc=1"]  # as run a's
    corpus["runs"][0]["events"], corpus["runs"][1]["events"] = 3, 18
    warnings = corpus_mod.alike_runs_of_other_sizes(corpus)
    assert len(warnings) == 1
    assert warnings[0].startswith("runs a and b have the same description, "
                                  "token for token, but b ran 6.0x the events of a")
    # Within 2x: alike enough.
    corpus["runs"][1]["events"] = 5
    assert corpus_mod.alike_runs_of_other_sizes(corpus) == []
    # Told apart by a token: no warning, whatever the totals.
    assert corpus_mod.alike_runs_of_other_sizes(GOOD) == []
    corpus["runs"][1]["events"] = 18
    path = tmp_path / "c.json"
    path.write_text(json.dumps(corpus))
    result = _phaedrus("train", path, "-o", tmp_path / "m.mlir", "--epochs", "1")
    assert result.returncode == 0, result.stderr
    assert ("phaedrus: warning: runs a and b have the same description, token for "
            "token, but b ran 6.0x the events of a") in result.stderr
