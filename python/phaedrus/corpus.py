"""Training corpora: the runs of one program build, each as its descriptor
tokens (from the input featurizer) and its profile as a token sequence.

Format (JSON, documented in docs/Corpus.md):

  {"format": "phaedrus-corpus", "version": 1,
   "fingerprint": "<u64 as a string>",
   "featurizer": N,  (the featurizer version that described the runs;
                      absent in corpora from before it was recorded: 1)
   "vocabulary": {"name": ..., "fingerprint": ..., "entries": [...]},
   "runs": [{"name": ..., "argv": [...], "stdin": "<path or null>",
             "cwd": "<directory the run ran in, or null>",
             "locale": {"LC_ALL": "C", ...},  (the locale variables the
                      run inherited; absent in runs from before they were
                      recorded)
             "descriptor": ["argc=2", ...],
             "events": N,
             "tokens": [[id, count], ...]}]}

`tokens` lists every vocabulary token the run's trace holds, in the order of
its first occurrence, with its exact count."""

import functools
import json
import re
import shlex
from pathlib import Path

from . import pipeline
from .tools import (TRACE_FILE_KIND, ToolError, file_kind, log, phaedrus_tool,
                    progress, read_json, run)

FORMAT = "phaedrus-corpus"
VERSION = 1


@functools.lru_cache(maxsize=None)
def featurizer_version() -> int:
    """The version of the featurizer this build has (docs/Featurizer.md):
    descriptors of different versions mean different things."""
    result = run([phaedrus_tool("phaedrus-featurize"), "--print-featurizer-version"],
                 what="phaedrus-featurize")
    return int(result.stdout)


def featurizer_of(record: dict) -> int:
    """The featurizer version of a corpus, corpus run or sidecar: 1 for those
    written before the version was recorded."""
    return record.get("featurizer", 1)


def check_featurizer(corpus: dict, path) -> None:
    """Refuses a corpus whose runs another featurizer version described: a
    model trained on it would be refused at prediction, and its descriptors
    do not compare with this build's."""
    version = featurizer_of(corpus)
    if version != featurizer_version():
        raise ToolError(
            f"{path}: its runs were described by featurizer version {version}, "
            f"this build describes inputs as version {featurizer_version()} "
            f"(docs/Featurizer.md): record the runs again with 'phaedrus run' "
            f"(the traces are not what is stale, the descriptions next to "
            f"them are) and make the corpus again")


def featurize(argv, stdin=None, cwd=None, locale=None) -> list:
    """Descriptor tokens of a command line (program name first), its input
    files and its locale variables (a dict of those set; None: not known,
    not described), from the C++ featurizer (phaedrus-featurize)."""
    cmd = [phaedrus_tool("phaedrus-featurize"), "--json"]
    if stdin:
        cmd += ["--stdin", str(stdin)]
    if cwd:
        cmd += ["--cwd", str(cwd)]
    if locale is not None:
        cmd.append("--locale=" + ",".join(f"{k}={v}" for k, v in locale.items()))
    result = run([*cmd, "--", *map(str, argv)], what="phaedrus-featurize")
    return json.loads(result.stdout)


def summed_tokens(traces) -> list:
    """[[token, count], ...] of several traces' counts (a run's threads)
    summed, in order of first occurrence trace by trace."""
    tokens = {}  # insertion order: first occurrence, trace by trace
    for trace in traces:
        for token, count in trace["tokens"]:
            tokens[token] = tokens.get(token, 0) + count
    return [[token, count] for token, count in tokens.items()]


def run_entry(counts: dict, source, descriptor: list, name=None, argv=None,
              stdin=None, cwd=None, featurizer=1, locale=None) -> tuple:
    """(vocabulary, corpus run) of one run from the counts of its trace
    file (as pipeline.trace_counts or pipeline.count_trace give them;
    `source` names the file in errors); `featurizer` is the version of the
    featurizer that made `descriptor`. A run of several threads is one
    corpus run: their counts are summed (as clang's profile sums them), and
    its tokens are listed in order of first occurrence thread by thread."""
    traces = counts["traces"]
    if not traces:
        raise ToolError(f"{source}: the trace file holds no trace")
    if len({t["vocabulary"] for t in traces}) != 1:
        raise ToolError(f"{source}: its traces use different vocabularies; a "
                        f"corpus run is one run of one build")
    first = traces[0]
    vocabulary = next(v for v in counts["vocabularies"]
                      if v["name"] == first["vocabulary"])
    run = {
        "name": name or first["name"],
        "argv": list(argv) if argv is not None else first["argv"],
        "stdin": str(stdin) if stdin else None,
        "cwd": str(cwd) if cwd else None,
        "descriptor": list(descriptor),
        "featurizer": featurizer,
        "events": sum(t["events"] for t in traces),
        "tokens": summed_tokens(traces),
    }
    if locale is not None:
        run["locale"] = dict(locale)
    return vocabulary, run


def _entry_key(e):
    members = e.get("members")
    return (e["kind"], e["symbol"], e.get("index"), e.get("callee"),
            tuple(members) if members is not None else None)


def make_corpus(entries, granularity=None) -> dict:
    """Corpus of (vocabulary, run) pairs; all runs must share one build.

    Function, call-site and group entries are fixed by the build, so they
    must be equal in every run. Path entries are not: a trace's vocabulary lists the
    Ball-Larus paths that run took, numbered in order of appearance. The
    corpus vocabulary is the union (the build's entries, then every path in
    order of first appearance over the runs), and each run's token ids are
    renumbered into it."""
    entries = list(entries)
    if not entries:
        raise ToolError("a corpus needs at least one run")
    first = entries[0][0]
    for other, r in entries[1:]:
        if other["fingerprint"] != first["fingerprint"]:
            raise ToolError(
                f"run {r['name']} was recorded from another build of the "
                f"program (fingerprint {other['fingerprint']}, the corpus has "
                f"{first['fingerprint']})")
    featurizer = featurizer_of(entries[0][1])
    for _, r in entries[1:]:
        if featurizer_of(r) != featurizer:
            raise ToolError(
                f"run {r['name']} was described by featurizer version "
                f"{featurizer_of(r)}, run {entries[0][1]['name']} by "
                f"version {featurizer}: their descriptor tokens mean different "
                f"things; record them again with one build ('phaedrus run')")
    names = [r["name"] for _, r in entries]
    if len(set(names)) != len(names):
        raise ToolError(f"run names must be unique: {names}")

    def static(vocabulary):
        return [_entry_key(e) for e in sorted(vocabulary["entries"], key=lambda e: e["id"])
                if e["kind"] != "path"]
    base = static(first)
    union = [dict(kind=k, symbol=s, **({"index": i} if i is not None else {}),
                  **({"callee": c} if c is not None else {}),
                  **({"members": list(m)} if m is not None else {}))
             for k, s, i, c, m in base]
    for i, e in enumerate(union):
        e["id"] = i
    ids = {_entry_key(e): e["id"] for e in union}
    runs = []
    for vocabulary, r in entries:
        if static(vocabulary) != base:
            raise ToolError(f"run {r['name']} has another vocabulary of "
                            f"functions, call sites and groups than the first run, "
                            f"though the fingerprints match")
        remap = {}
        for e in vocabulary["entries"]:
            key = _entry_key(e)
            if key not in ids:
                ids[key] = len(union)
                union.append(dict(e, id=len(union)))
            remap[e["id"]] = ids[key]
        run_fields = {k: v for k, v in r.items() if k != "featurizer"}
        runs.append(dict(run_fields, tokens=[[remap[t], n] for t, n in r["tokens"]]))
    vocabulary = {"name": first["name"], "fingerprint": first["fingerprint"],
                  "entries": union}
    corpus = {"format": FORMAT, "version": VERSION,
              "fingerprint": first["fingerprint"],
              "featurizer": featurizer}
    if granularity:
        corpus["granularity"] = granularity
    corpus.update(vocabulary=vocabulary, runs=runs)
    return corpus


GRANULARITIES = ("function", "path")


def granularity_of(corpus: dict) -> str:
    """The granularity of a corpus's traces: as recorded (since
    2026-11-28), else from its vocabulary (path entries: path granularity),
    which a path-granularity corpus whose runs took no path with a branch
    lacks."""
    if corpus.get("granularity") in GRANULARITIES:
        return corpus["granularity"]
    kinds = {e["kind"] for e in corpus["vocabulary"]["entries"]}
    return "path" if "path" in kinds else "function"


def load(path: Path) -> dict:
    """Reads and checks a corpus file."""
    corpus = read_json(path, "corpus", "a phaedrus corpus",
                       lambda kind: ": 'phaedrus corpus TRACES... -o corpus.json' "
                                    "makes one of the traces of several runs")
    if not isinstance(corpus, dict) or corpus.get("format") != FORMAT:
        raise ToolError(f"{path} is not a phaedrus corpus (no \"format\": "
                        f"\"{FORMAT}\")")
    if corpus.get("version") != VERSION:
        raise ToolError(f"{path}: corpus version "
                        f"{json.dumps(corpus.get('version'))[:40]} is not "
                        f"supported (this driver reads version {VERSION})")
    check_structure(corpus, path)
    return corpus


ENTRY_KINDS = ("function", "call_site", "path", "group")
# A call group's members (trace::CallGroupTable::kMaxMembers).
MAX_GROUP_MEMBERS = 255
MAX_COUNT = 2 ** 64 - 1


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# The optional fields of corpora, corpus runs and input descriptions: the
# words of an error for a malformed one, or None.

def _malformed_paths(record: dict):
    """"stdin" and "cwd": a path or null."""
    for key in ("stdin", "cwd"):
        if record.get(key) is not None and not isinstance(record[key], str):
            return f"\"{key}\" must be a path or null"
    return None


def _malformed_locale(record: dict):
    """"locale": an object of locale variables and their string values."""
    locale = record.get("locale")
    if locale is not None and not (
            isinstance(locale, dict) and
            all(k in pipeline.LOCALE_VARIABLES and isinstance(v, str)
                for k, v in locale.items())):
        return (f"\"locale\" must be an object of locale variables "
                f"({', '.join(pipeline.LOCALE_VARIABLES)}) and their values")
    return None


def _malformed_featurizer(record: dict):
    """"featurizer": a version number."""
    if "featurizer" in record and not (_is_int(record["featurizer"])
                                       and record["featurizer"] >= 1):
        return "\"featurizer\" must be a version number (1 or more)"
    return None


def check_structure(corpus: dict, path) -> None:
    """Refuses, naming the field, a corpus that is not as docs/Corpus.md
    describes it (a file edited or written by another tool): what the
    trainer and the driver read must be there, of the right type and in
    range."""
    def fail(where, what):
        raise ToolError(f"{path}: {where}: {what} (docs/Corpus.md has the "
                        f"format)")

    def field(record, key, where, kinds, what):
        if key not in record:
            fail(where, f"\"{key}\" is missing")
        value = record[key]
        if not isinstance(value, kinds) or isinstance(value, bool):
            fail(where, f"\"{key}\" must be {what}, not {json.dumps(value)[:60]}")
        return value

    fingerprint = field(corpus, "fingerprint", "the corpus", str, "a decimal string")
    if not fingerprint.isdigit():
        fail("the corpus", f"\"fingerprint\" must be a decimal string, not "
                           f"{json.dumps(fingerprint)[:60]}")
    if _malformed_featurizer(corpus):
        fail("the corpus", _malformed_featurizer(corpus))
    if "granularity" in corpus and corpus["granularity"] not in GRANULARITIES:
        fail("the corpus", f"\"granularity\" must be {' or '.join(GRANULARITIES)}, "
                           f"not {json.dumps(corpus['granularity'])[:40]}")
    vocabulary = field(corpus, "vocabulary", "the corpus", dict, "an object")
    if not field(vocabulary, "name", "the vocabulary", str, "a symbol name"):
        fail("the vocabulary", "\"name\" is empty")
    # (The model is written with it: a missing one was a traceback after the
    # training, a null one a model nothing could read.)
    if field(vocabulary, "fingerprint", "the vocabulary", str,
             "a decimal string") != fingerprint:
        fail("the vocabulary", f"\"fingerprint\" is "
                               f"{json.dumps(vocabulary['fingerprint'])[:40]}, "
                               f"not the corpus's {json.dumps(fingerprint)}")
    entries = field(vocabulary, "entries", "the vocabulary", list, "a list")
    for i, e in enumerate(entries):
        where = f"vocabulary entry {i}"
        if not isinstance(e, dict):
            fail(where, "must be an object")
        if field(e, "id", where, int, "an integer") != i:
            fail(where, f"its id is {e['id']}; ids are 0, 1, 2, ... in order")
        kind = field(e, "kind", where, str, "a string")
        if kind not in ENTRY_KINDS:
            fail(where, f"unknown kind {json.dumps(kind)[:40]} (the kinds "
                        f"are {', '.join(ENTRY_KINDS)})")
        if not field(e, "symbol", where, str, "a string"):
            fail(where, "\"symbol\" is empty")
        # The fields each kind has, as the vocabulary op's verifier wants
        # them (docs/Dialects): a model made of a corpus without them is
        # refused only when it is loaded, after the training.
        if kind != "function":
            index = field(e, "index", where, int, "an integer")
            if not 0 <= index <= MAX_COUNT:
                fail(where, f"\"index\" is {index}, not 0 to 2^64 - 1")
        elif "index" in e:
            fail(where, "a function entry has no \"index\"")
        if kind == "call_site":
            if not field(e, "callee", where, str, "a function name"):
                fail(where, "\"callee\" is empty")
        elif "callee" in e:
            fail(where, f"a {kind} entry has no \"callee\"")
        if kind == "group":
            members = field(e, "members", where, list, "a list of entry ids")
            if not (2 <= len(members) <= MAX_GROUP_MEMBERS and
                    all(_is_int(m) and 0 <= m < len(entries) for m in members)):
                fail(where, f"\"members\" must be 2 to {MAX_GROUP_MEMBERS} "
                            f"ids of the vocabulary's entries, not "
                            f"{json.dumps(members)[:60]}")
        elif "members" in e:
            fail(where, f"a {kind} entry has no \"members\"")
    runs = field(corpus, "runs", "the corpus", list, "a list")
    if not runs:
        raise ToolError(f"{path}: the corpus has no runs")
    names = set()
    for i, r in enumerate(runs):
        where = f"run {i}"
        if not isinstance(r, dict):
            fail(where, "must be an object")
        name = field(r, "name", where, str, "a string")
        if not name:
            fail(where, "\"name\" is empty")
        where = f"run {i} ({name})"
        if name in names:
            fail(where, "another run has the same name")
        names.add(name)
        argv = field(r, "argv", where, list, "a list of strings")
        descriptor = field(r, "descriptor", where, list, "a list of strings")
        for key, values in (("argv", argv), ("descriptor", descriptor)):
            if not all(isinstance(v, str) for v in values):
                fail(where, f"\"{key}\" must be a list of strings")
        if _malformed_paths(r):
            fail(where, _malformed_paths(r))
        if _malformed_locale(r):
            fail(where, _malformed_locale(r))
        events = field(r, "events", where, int, "an integer")
        if not 0 <= events <= MAX_COUNT:
            fail(where, f"\"events\" is {events}, not a count")
        seen = set()
        for pair in field(r, "tokens", where, list, "a list of [id, count] pairs"):
            if not (isinstance(pair, list) and len(pair) == 2
                    and all(_is_int(v) for v in pair)):
                fail(where, f"token {json.dumps(pair)[:60]} is not an [id, count] "
                            f"pair of integers")
            if not 0 <= pair[0] < len(entries) or not 1 <= pair[1] <= MAX_COUNT:
                fail(where, f"token {pair} is outside the vocabulary of "
                            f"{len(entries)} entries or not counted (counts are "
                            f"1 to 2^64 - 1)")
            if pair[0] in seen:
                fail(where, f"token {pair[0]} is listed twice")
            seen.add(pair[0])


def save(corpus: dict, path: Path):
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(corpus) + "\n")


def sidecar_of(trace: Path) -> Path:
    """Where `phaedrus run` keeps the input description of a trace."""
    trace = Path(trace)
    return trace.with_name(trace.name + ".input.json")


def describe_input(argv, stdin=None, cwd=None) -> dict:
    """The description of a run's input: its command line, the locale
    variables it inherits from this process, and the featurizer's tokens of
    them. Made before the program runs: a program may delete, rename or
    rewrite its input files (gzip replaces a.txt with a.txt.gz), and what it
    was given is what describes the run."""
    # The locale variables the run inherits: the featurizer describes the
    # locale they choose, eval runs the input under them again.
    locale = pipeline.locale_of()
    return {"argv": [str(a) for a in argv],
            "stdin": str(Path(stdin).resolve()) if stdin else None,
            "cwd": str(Path(cwd or ".").resolve()),
            "locale": locale,
            "descriptor": featurize(argv, stdin=stdin, cwd=cwd, locale=locale),
            "featurizer": featurizer_version()}


def keep_description(trace: Path, info: dict):
    """Keeps a run's input description next to its trace."""
    sidecar_of(trace).write_text(json.dumps(info, indent=1) + "\n")


def describe_run(trace: Path, argv, stdin=None, cwd=None) -> dict:
    """Featurizes a run's input and keeps it next to its trace (for a run
    that left its input as it was; describe_input before the run
    otherwise)."""
    info = describe_input(argv, stdin=stdin, cwd=cwd)
    keep_description(trace, info)
    return info


def read_description(path) -> dict:
    """An input description (TRACE.input.json from `phaedrus run`, or one
    written by hand): a JSON object whose "argv" is a non-empty list of
    strings, the program name first, and whose "stdin" and "cwd", when
    present, are paths or null. Refused with an error naming the file
    otherwise."""
    path = Path(path)
    info = read_json(
        path, "input description", "an input description",
        lambda kind: (f": give the description 'phaedrus run' kept beside it, "
                      f"{path.name}.input.json" if kind.startswith("a trace file")
                      else ""))
    argv = info.get("argv") if isinstance(info, dict) else None
    if not isinstance(argv, list) or not argv or \
            not all(isinstance(a, str) for a in argv):
        raise ToolError(f"{path}: an input description needs \"argv\": a list "
                        f"of strings, the program name first")
    if argv[0].startswith("-"):
        raise ToolError(f"{path}: its \"argv\" starts with '{argv[0]}', an "
                        f"option: the program name comes first, as the run's "
                        f"argv[0]")
    if _malformed_paths(info):
        raise ToolError(f"{path}: {_malformed_paths(info)}")
    if _malformed_locale(info):
        raise ToolError(f"{path}: {_malformed_locale(info)}")
    return info


def read_sidecar(path) -> dict:
    """The input description `phaedrus run` kept next to a trace: also its
    "descriptor" (a list of strings) and "featurizer" (a version, when
    present)."""
    info = read_description(path)
    descriptor = info.get("descriptor")
    if not isinstance(descriptor, list) or \
            not all(isinstance(d, str) for d in descriptor):
        raise ToolError(f"{path}: \"descriptor\" must be the list of strings "
                        f"phaedrus-featurize printed; record the run again "
                        f"with 'phaedrus run'")
    if _malformed_featurizer(info):
        raise ToolError(f"{path}: {_malformed_featurizer(info)}")
    return info


def corpus_from_traces(traces, fingerprint=None, sequences=None,
                       show_progress=False) -> dict:
    """Counts each trace file (with its sidecar from `phaedrus run`) and
    makes a corpus. A run's name is its trace file's name up to the first
    dot (text-9.wpp and text-9.path.wpp: text-9). With
    `sequences` (a directory), each run's whole token sequence is kept there
    too, folded and packed (NAME.phpk, docs/PackedTrace.md), and the run's
    `sequence` names that file. Neither needs the trace as IR. With
    `show_progress`, a progress bar of the traces on stderr."""
    entries = []
    first_granularity = None  # (granularity, trace)
    # The names first: a clash is found before any trace is counted.
    named = {}
    for trace in map(Path, traces):
        name = trace.name.split(".")[0]
        if name in named and named[name].resolve() == trace.resolve():
            raise ToolError(f"{trace} is given twice: give each run's trace "
                            f"once")
        if name in named:
            raise ToolError(f"{named[name]} and {trace} both give the run name "
                            f"'{name}' (a run is named by its trace file's name "
                            f"up to the first dot): rename one")
        named[name] = trace
    for trace in progress(list(map(Path, traces)), show_progress, "corpus",
                          "trace"):
        if not trace.exists():
            raise ToolError(f"trace not found: {trace}")
        kind = file_kind(trace)
        if trace.is_file() and kind != TRACE_FILE_KIND:
            raise ToolError(f"{trace} is not a trace file"
                            f"{', it is ' + kind if kind else ''} (traces start "
                            f"with the header 'phaedrus run' writes): give the "
                            f".wpp files of the runs")
        side = sidecar_of(trace)
        if not side.exists():
            raise ToolError(f"{trace} has no input description {side}: "
                            f"record runs with 'phaedrus run'")
        info = read_sidecar(side)
        name = trace.name.split(".")[0]
        status = info.get("exit_status")
        if isinstance(status, int) and status < 0:
            log(f"warning: {trace}: the run was killed by signal {-status}: "
                f"its profile is of a run that did not finish, which a "
                f"corpus of the program's work should leave out")
        elif isinstance(status, int) and status != 0:
            # Some programs answer with their exit status (grep and diff
            # exit 1 after a whole scan that found nothing, or a
            # difference): a run is not known to have failed.
            log(f"warning: {trace}: the run exited with {status}: if that "
                f"is an error (most programs' non-zero exit), its profile "
                f"is of an error path, often short, which a corpus of the "
                f"program's work should leave out; if it is an answer (grep "
                f"found nothing, diff found differences), keep it")
        # Counts are all a corpus needs of a run: one pass over the trace
        # file, no IR (a Lua path trace of 10^8 events imports to 0.6 GB of
        # text).
        counts, warnings = pipeline.count_trace(
            trace, name=name, fingerprint=fingerprint)
        if warnings:
            raise ToolError(f"{trace} is not a complete trace; a corpus "
                            f"takes only complete runs:\n{warnings}")
        # A description kept beside another run's trace would pair that
        # run's command line with these events.
        recorded = counts["traces"][0].get("argv") if counts["traces"] else None
        if recorded and list(recorded[1:]) != list(info["argv"][1:]):
            raise ToolError(
                f"{trace} recorded the command line "
                f"{shlex.join(recorded[1:])!r}, but {side} describes "
                f"{shlex.join(info['argv'][1:])!r}: the description is of "
                f"another run (phaedrus run keeps each trace's own beside it, "
                f"TRACE.input.json)")
        # The function and the path build of a program share its
        # fingerprint; the trace file's header says which recorded it.
        granularity = counts["traces"][0].get("granularity") if counts["traces"] else None
        if granularity and first_granularity is None:
            first_granularity = (granularity, trace)
        elif granularity and granularity != first_granularity[0]:
            raise ToolError(f"{trace} was recorded by the {granularity}-"
                            f"granularity build, {first_granularity[1]} by the "
                            f"{first_granularity[0]}-granularity one: a corpus "
                            f"holds runs of one build (phaedrus instrument "
                            f"--granularity)")
        vocabulary, run = run_entry(counts, trace, info["descriptor"],
                                    name=name, argv=info["argv"],
                                    stdin=info.get("stdin"),
                                    cwd=info.get("cwd"),
                                    featurizer=featurizer_of(info),
                                    locale=info.get("locale"))
        if sequences is not None:
            packed = (Path(sequences) / f"{name}.phpk").resolve()
            pipeline.pack_trace(trace, packed, name=name,
                                fingerprint=fingerprint)
            run["sequence"] = str(packed)
        entries.append((vocabulary, run))
    return make_corpus(entries, first_granularity and first_granularity[0])


# Runs described alike whose totals differ by this factor or more are
# worth a warning (alike_runs_of_other_sizes).
ALIKE_RUNS_RATIO = 2.0


def alike_runs_of_other_sizes(corpus: dict) -> list:
    """Warnings for runs whose descriptions are the same token for token
    but whose totals of events differ by ALIKE_RUNS_RATIO or more: a model
    cannot tell them apart and predicts one blend of them for either, and
    for an input like them. What sets their work is then something the
    featurizer does not read (a number inside an input file: a bc script's
    `scale=1200` against `scale=600`, its 6x the events; docs/Corpus.md)."""
    groups = {}
    for run in corpus["runs"]:
        groups.setdefault(tuple(sorted(run["descriptor"])), []).append(run)
    warnings = []
    for runs in groups.values():
        if len(runs) < 2:
            continue
        low = min(runs, key=lambda r: (r["events"], r["name"]))
        high = max(runs, key=lambda r: (r["events"], r["name"]))
        if high["events"] < ALIKE_RUNS_RATIO * max(1, low["events"]):
            continue
        others = "" if len(runs) == 2 else f" (and {len(runs) - 2} more runs)"
        warnings.append(
            f"runs {low['name']} and {high['name']}{others} have the same "
            f"description, token for token, but {high['name']} ran "
            f"{high['events'] / max(1, low['events']):.1f}x the events of "
            f"{low['name']}: a model cannot tell them apart and predicts one "
            f"blend of them for either. What sets their work is not in what "
            f"the featurizer reads (a number inside an input file?): give it "
            f"on the command line, or keep one of them (docs/Corpus.md)")
    return warnings


# --------------------------------------------------------------------------
# Corpus contents as phaedrus IR

def symbol_ref(name: str) -> str:
    """An MLIR symbol reference to `name`, quoted when it is not a bare id."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        return "@" + name
    return "@" + pipeline.mlir_string(name)


def vocabulary_ir(vocabulary: dict) -> str:
    """The phaedrus.vocabulary op of a corpus vocabulary."""
    lines = [f"phaedrus.vocabulary {symbol_ref(vocabulary['name'])} "
             f"fingerprint({vocabulary['fingerprint']}) {{"]
    for e in vocabulary["entries"]:
        line = f"  phaedrus.entry {e['id']} {e['kind']} {symbol_ref(e['symbol'])}"
        if "index" in e:
            line += f"[{e['index']}]"
        if "callee" in e:
            line += f" -> {symbol_ref(e['callee'])}"
        if "members" in e:
            line += f" members [{', '.join(map(str, e['members']))}]"
        lines.append(line)
    lines.append("}")
    return "\n".join(lines)


def counts_trace_ir(vocabulary: dict, name: str, token_counts, argv) -> str:
    """A module holding `vocabulary` (a corpus's, or one of the
    `vocabularies` of trace counts) and one trace in which every token of
    `token_counts` ([[id, count], ...]) occurs `count` times, as a counted
    repeat: what --phaedrus-trace-profile needs to attach that profile (it
    counts tokens; their order does not matter to it)."""
    body = [f"  phaedrus.repeat {count} {{\n"
            f"    phaedrus.tokens dense<[{token}]> : tensor<1xi32>\n  }}"
            for token, count in token_counts if count > 0]
    return "\n".join([
        vocabulary_ir(vocabulary),
        f"phaedrus.trace {symbol_ref(name)} vocabulary("
        f"{symbol_ref(vocabulary['name'])}) fingerprint({vocabulary['fingerprint']}) "
        f"input({pipeline.input_attribute(argv)}) {{",
        *body, "}", ""])
