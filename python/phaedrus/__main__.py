"""The phaedrus driver: runs the steps of the main job for users who do not
want to chain the tools by hand.

  phaedrus ir SOURCES... -o prog.mlir        C/C++ sources -> whole-program MLIR
  phaedrus instrument prog.mlir -o prog.inst build a binary that records its WPP
  phaedrus compile prog.mlir -o prog         build the plain binary
  phaedrus run prog.inst -o run.wpp -- ARGS  run it on one input, collect the trace
                                             (and run.wpp.input.json: its descriptor)
  phaedrus corpus run*.wpp -o corpus.json    traces of several inputs -> training corpus
  phaedrus train corpus.json -o model.mlir   train a model (retrieval by default;
                                             lstm, or the mlp baseline)
  phaedrus predict prog.mlir --model model.mlir -o pred.mlir -- ARGS
                                             profile of an unseen run, as attributes
  phaedrus build prog.mlir --model model.mlir -o prog.pgo -- ARGS
                                             a binary optimised with that profile
  phaedrus eval prog.mlir --model model.mlir --corpus corpus.json
                --held-out run.input.json... -o eval.json
                                             speedups on held-out inputs against
                                             no profile, mismatched and oracle PGO

Run with /usr/bin/python3 -m phaedrus (PYTHONPATH=python) or the installed
entry point."""

import argparse
import json
import os
import re
import shlex
import signal
import stat
import sys
import tempfile
from pathlib import Path

from . import __version__
from . import corpus as corpus_mod
from . import pipeline
from .tools import (ELF_KIND, MLIR_BYTECODE_KIND, RUNTIME_ENV, RUNTIME_REGISTER,
                    ToolError, check_output, file_contains, file_kind, log,
                    percent_free, phaedrus_tool, run, split_flags,
                    stop_children)


def at_least(minimum):
    """An argparse type: an integer of at least `minimum`."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer")
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value
    return parse


def weight_below_one(text):
    """An argparse type: a number in [0, 1)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    if not 0 <= value < 1:  # (also refuses nan)
        raise argparse.ArgumentTypeError(f"must be at least 0 and below 1, "
                                         f"not {text}")
    return value


def positive_float(text):
    """An argparse type: a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    if not value > 0:  # (also refuses nan)
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return value


CWD_HELP = ("the directory the run will run in: the files its arguments "
            "name are read from there, as the run would read them (default: "
            "this one)")
C_SOURCE_SUFFIXES = (".h", ".hh", ".hpp", *pipeline.C_SUFFIXES, *pipeline.CXX_SUFFIXES)
# Options whose value is compiler or linker flags, which start with '-'.
FLAG_OPTIONS = ("--cflags", "--ldflags")


# The attributes a profile in phaedrus' own form puts on a program's
# functions and branches, which --phaedrus-lower-profile turns into LLVM's.
PROFILE_ATTRIBUTES = [b"phaedrus.entry_count", b"phaedrus.branch_weights"]


def module_holds(path, markers) -> list:
    """Whether a module holds each of `markers` (file_contains), or "cannot
    read PATH: why"."""
    try:
        return file_contains(path, markers)
    except OSError as e:
        raise ToolError(f"cannot read {path}: {e.strerror}")


def is_instrumented(path) -> bool:
    """Whether a program module is instrumented (it calls the recording
    runtime: 'phaedrus instrument' made it)."""
    instrumented, = module_holds(path, [RUNTIME_REGISTER])
    return instrumented


def check_module(path, plain=False):
    """Refuses a program module that is missing, is C source (the module
    comes from 'phaedrus ir'), or, with `plain`, is an instrumented module
    (prog.inst.mlir, which records traces) where the plain one belongs."""
    path = Path(path)
    if path.suffix in C_SOURCE_SUFFIXES:
        raise ToolError(f"{path} is source code: make the program's module with "
                        f"'phaedrus ir {path} -o prog.mlir' and give that")
    if not path.is_file():
        raise ToolError(f"program module not found: {path}")
    kind = file_kind(path)
    if kind and kind != MLIR_BYTECODE_KIND:
        raise ToolError(f"{path} is not an MLIR module, it is {kind}: give the "
                        f"module from 'phaedrus ir' (prog.mlir)")
    if plain and is_instrumented(path):
        raise ToolError(f"{path} is an instrumented module (it records "
                        f"traces; 'phaedrus instrument' made it): give the "
                        f"plain module from 'phaedrus ir'")


def _stdin_is_data():
    """Whether this process's standard input is a pipe or a non-empty file
    (data a user meant for the program), not a terminal or /dev/null."""
    try:
        info = os.fstat(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISFIFO(info.st_mode) or (stat.S_ISREG(info.st_mode) and
                                           info.st_size > 0)


def cmd_ir(args):
    out = pipeline.sources_to_mlir(args.sources, args.output,
                                   split_flags(args.cflags, "--cflags"), jobs=args.jobs,
                                   compile_commands=args.compile_commands)
    log(f"wrote {out}")


def cmd_instrument(args):
    ldflags = split_flags(args.ldflags, "--ldflags")
    check_module(args.program, plain=True)
    # (Its directory made, as compile's is: it was "cannot open output
    # file" after the instrumenting.)
    output = check_output(args.output, "instrumented binary")
    inst_mlir = output.with_name(output.name + ".mlir")
    pipeline.instrument_mlir(args.program, inst_mlir, granularity=args.granularity)
    pipeline.mlir_to_binary(inst_mlir, output, ldflags,
                            link_runtime=True)
    log(f"wrote {output} (instrumented) and {inst_mlir} (its IR and vocabulary, "
        f"fingerprint {pipeline.fingerprint_of(inst_mlir)})")


def cmd_compile(args):
    ldflags = split_flags(args.ldflags, "--ldflags")
    check_module(args.program)
    # An instrumented module (prog.inst.mlir, perhaps edited) calls the
    # recording runtime, which its link needs (without it: a link error
    # that blamed missing --ldflags for __phaedrus_record_slow). A profile
    # in phaedrus' own attributes ('phaedrus predict', or
    # --phaedrus-trace-profile) is lowered first: stripping the phaedrus IR
    # drops those attributes, and the binary was built without the profile
    # and without a word. (One read of the module for both.)
    instrumented, *profile = module_holds(
        args.program, [RUNTIME_REGISTER, *PROFILE_ATTRIBUTES])
    unlowered = any(profile)
    with tempfile.TemporaryDirectory(prefix="phaedrus-compile-") as tmp:
        program = args.program
        if unlowered:
            log(f"{args.program} holds a profile that is not lowered yet: "
                f"lowering it (phaedrus-opt --phaedrus-lower-profile) before "
                f"compiling")
            program = pipeline.lower_profile(args.program,
                                             Path(tmp) / "lowered.mlir")
        pipeline.mlir_to_binary(program, args.output, ldflags,
                                link_runtime=instrumented,
                                shown_as=str(args.program))
    log(f"wrote {args.output}" + (" (instrumented: it records a trace, "
                                  "linked with the runtime)" if instrumented else
                                  " (optimised with its profile)" if unlowered else ""))


def cmd_run(args):
    binary = Path(args.binary)
    if not binary.exists():
        raise ToolError(f"program not found: {binary}")
    if not os.access(binary, os.X_OK) or binary.is_dir():
        kind = file_kind(binary)
        raise ToolError(
            f"{binary} is not a program to run"
            + (f" ({kind})" if kind else "")
            + ": give the binary 'phaedrus instrument' wrote"
            + (f" ({binary.name[:-len('.mlir')]}, of which {binary.name} is the IR)"
               if binary.name.endswith(".inst.mlir") else ""))
    if args.timeout is not None and args.timeout <= 0:
        raise ToolError(f"--timeout must be a number of seconds above 0 "
                        f"(got {args.timeout:g})")
    # Said before the run (a plain build ran a SQLite user's whole script
    # before "wrote no trace"), not refused: the runtime may be in a
    # library the program loads.
    if file_kind(binary) == ELF_KIND and not file_contains(binary, [RUNTIME_ENV])[0]:
        log(f"warning: {binary} has no Phaedrus recording runtime in it: it "
            f"will likely write no trace ('phaedrus instrument' builds one "
            f"that does)")
    pipeline.check_stdin(args.stdin)
    if args.stdin and args.no_stdin:
        raise ToolError("--stdin FILE and --no-stdin contradict each other: "
                        "give one")
    if not args.stdin and not args.no_stdin and _stdin_is_data():
        log("warning: the program does not get phaedrus run's own standard "
            "input (a file or pipe given to it here): give the file with "
            "--stdin FILE, so that the run's description names it (in a "
            "loop that reads its list on standard input, --no-stdin says "
            "the input is the loop's)")
    first = Path(args.args[0]) if args.args else None
    if first and ((args.args[0] in (binary.name, binary.stem,
                                    binary.name.split(".")[0]) and
                   not first.exists()) or
                  (first.is_file() and first.resolve() == binary.resolve())):
        log(f"warning: the program's first argument is {args.args[0]!r}, its "
            f"own name: 'phaedrus run' takes the arguments after '--' without "
            f"the program name (predict and build take the name first)")
    trace = check_output(args.output, "trace file")
    if trace.exists():
        trace.unlink()
    # The input as the program gets it, before it can change it.
    description = corpus_mod.describe_input([binary.name, *args.args],
                                            stdin=args.stdin)
    try:
        # The program's output goes where phaedrus run's goes, as it runs
        # (not held in memory until it ends: a decompression's gigabytes).
        sys.stdout.flush()
        sys.stderr.flush()
        # argv[0] is the name the description records, as eval runs the
        # input again (a Tcl interpreter looks itself up by argv[0]: run
        # with its path, it did other work than eval's run of the input).
        # (-o is the file's name as it is: the runtime would expand a %p.)
        with percent_free(trace) as written:
            code, _, _ = pipeline.run_program(binary, args.args, trace=written,
                                              stdin_path=args.stdin,
                                              timeout=args.timeout, capture=False,
                                              argv0=binary.name)
    except (KeyboardInterrupt, pipeline.RunTimedOut) as e:
        # The trace of a run cut short is not one to learn from.
        removed = trace.exists()
        if removed:
            trace.unlink()
        if isinstance(e, KeyboardInterrupt):
            if removed:
                log(f"removed the interrupted run's trace {trace}")
            raise
        raise ToolError(f"{e} (--timeout)"
                        + (f"; removed its trace {trace}, of a run cut short"
                           if removed else ""))
    if not trace.exists():
        raise ToolError(f"the program wrote no trace to {trace}: was it built "
                        f"with 'phaedrus instrument'?")
    if code < 0:
        try:
            how = f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"was killed by signal {-code}"
    else:
        how = f"exited with {code}"
    log(f"program {how}; trace {trace} ({trace.stat().st_size} bytes)")
    if code < 0:
        # The runtime ends the trace on a fatal signal, unless the signal
        # was SIGKILL or the program handled it itself: read it to tell.
        try:
            _, warnings = pipeline.count_trace(trace)
            complete = "trace is incomplete" not in warnings
        except ToolError:
            complete = False
        if complete:
            log("warning: a run killed by a signal keeps the crashing thread's "
                "events only up to its last call out of the module (the cursor "
                "lives in registers in between: docs/TraceFormat.md, Fatal "
                "signals), and its trace counts as complete: a corpus takes it")
        else:
            log("warning: the trace has no end: the runtime could not end it "
                "(SIGKILL; SIGINT, SIGTERM, SIGHUP and SIGQUIT, which it leaves "
                "to the program; or a handler the program installed for the "
                "signal: "
                "docs/TraceFormat.md, Fatal signals), so a corpus refuses it; "
                "phaedrus-translate --import-wpp --wpp-keep-prefix reads what "
                "it holds")
    # How the run ended: a corpus warns about runs that failed.
    description["exit_status"] = code
    corpus_mod.keep_description(trace, description)
    if args.import_to:
        inst_mlir = binary.with_name(binary.name + ".mlir")
        fingerprint = pipeline.fingerprint_of(inst_mlir) if inst_mlir.exists() else None
        warnings = pipeline.import_trace(trace, args.import_to, name=args.name,
                                         fingerprint=fingerprint)
        if warnings:
            log(warnings)
        # The event total from the trace file itself (one pass), not by
        # reading back the imported IR (0.6 GB of text for 10^8 path events).
        counts, _ = pipeline.count_trace(trace, name=args.name,
                                         fingerprint=fingerprint)
        events = sum(t["events"] for t in counts["traces"])
        log(f"imported {events} events into {args.import_to}")
    # The program's own status, as a shell reports it: 128 + N for a
    # program killed by signal N (139 for SIGSEGV, where -11 exited 245).
    return 128 - code if code < 0 else code


def cmd_corpus(args):
    # (Before the traces are counted, which takes minutes for long ones.)
    check_output(args.output, "corpus")
    if args.sequences:
        try:
            Path(args.sequences).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ToolError(f"cannot make the sequences directory "
                            f"{args.sequences}: {e.strerror}")
    fingerprint = None
    if args.program:
        fingerprint = pipeline.fingerprint_of(args.program)
    corpus = corpus_mod.corpus_from_traces(args.traces, fingerprint=fingerprint,
                                           sequences=args.sequences,
                                           show_progress=sys.stderr.isatty())
    corpus_mod.save(corpus, args.output)
    for warning in corpus_mod.alike_runs_of_other_sizes(corpus):
        log(f"warning: {warning}")
    events = sum(r["events"] for r in corpus["runs"])
    log(f"wrote {args.output}: {len(corpus['runs'])} runs, {events} events, "
        f"vocabulary of {len(corpus['vocabulary']['entries'])} tokens")
    if args.sequences:
        packed = sum(Path(r["sequence"]).stat().st_size for r in corpus["runs"])
        log(f"wrote the runs' token sequences to {args.sequences}: {packed} "
            f"bytes packed ({4 * events} bytes as 32-bit tokens)")


# What predict and build say of the command line they take.
FUTURE_RUN_HELP = ("The run is the command line after '--', the program's name "
                   "first (as it will be typed; 'phaedrus run' takes the "
                   "arguments without it), with the files its arguments name "
                   "as they are now (--cwd: where the run will start) and "
                   "--stdin the file it will read on standard input; it is "
                   "not run. {what}.")


# The options of `train` that some kinds of model use and others not (None
# in the parser, so that given or not can be told; TrainConfig's defaults).
TRAIN_OPTION_KINDS = {"--hidden-size": ("lstm", "mlp"),
                      "--embedding-dim": ("lstm",), "--num-layers": ("lstm",),
                      "--blend-floor": ("retrieval",),
                      "--validation": ("lstm", "mlp")}


def cmd_train(args):
    try:
        from . import model as model_mod
    except ModuleNotFoundError as e:
        if e.name not in ("torch", "numpy"):
            raise
        raise ToolError(f"training needs {e.name}, which this Python "
                        f"({sys.executable}) does not have: run the driver "
                        f"with Debian's /usr/bin/python3 and python3-torch "
                        f"(./scripts/setup.sh installs them)")
    # Options of other kinds, given: said, not silently ignored (a user's
    # --validation of a run the corpus lacks passed for a retrieval model).
    for option, kinds in TRAIN_OPTION_KINDS.items():
        if getattr(args, option.lstrip("-").replace("-", "_")) is not None \
                and args.kind not in kinds:
            article = "a" if args.kind == "retrieval" else "an"
            log(f"warning: {option} applies to {' and '.join(kinds)} models "
                f"only: {article} {args.kind} model does not use it")
    for option in ("hidden_size", "embedding_dim", "num_layers"):
        if getattr(args, option) is None:
            setattr(args, option, getattr(model_mod.TrainConfig, option))
    corpus = corpus_mod.load(args.corpus)
    corpus_mod.check_featurizer(corpus, args.corpus)
    for warning in corpus_mod.alike_runs_of_other_sizes(corpus):
        log(f"warning: {warning}")
    config = model_mod.TrainConfig(
        kind=args.kind, seed=args.seed, epochs=args.epochs,
        patience=args.patience, learning_rate=args.learning_rate,
        hidden_size=args.hidden_size, embedding_dim=args.embedding_dim,
        num_layers=args.num_layers,
        blend_floor=(model_mod.BLEND_FLOOR if args.blend_floor is None
                     else args.blend_floor),
        validation=args.validation.split(",") if args.validation else None,
        progress=sys.stderr.isatty())
    output = check_output(args.output, "model")  # before training, not after
    try:
        model, space, report = model_mod.train(corpus, config)
    except ValueError as e:
        raise ToolError(str(e))
    try:
        output.write_text(model_mod.model_ir(model, space, corpus, args.kind, report))
    except OSError as e:
        raise ToolError(f"cannot write {output}: {e.strerror}")
    if report["validation_runs"]:
        checked = (f"validation loss {report['validation_loss']:.4f} on "
                   f"{', '.join(report['validation_runs'])}")
    elif args.kind == "retrieval":
        # Its loss is leave-one-out: each run predicted from the others.
        checked = ("each run predicted from the others"
                   if len(corpus["runs"]) > 1 else
                   "a corpus of one run: every prediction is that run's "
                   "profile")
    else:
        checked = ("no runs held out for validation (fewer than 10 runs; "
                   "--validation NAMES holds some out): the loss says how "
                   "well it fits its training runs, not how it predicts")
    log(f"wrote {args.output}: {args.kind} model, {report['epochs']} epochs "
        f"(best {report['best_epoch']}), training loss "
        f"{report['train_loss']:.4f}; {checked}")
    if report.get("cv_epochs") is not None:
        overlaps = report["cv_overlaps"]
        chosen = str(report["cv_epochs"])
        best = max(overlaps, key=lambda e: overlaps[e])
        line = (f"training epochs chosen by {model_mod.CV_FOLDS}-fold "
                f"cross-validation over the runs (each run predicted by a model "
                f"that did not see it): {chosen}"
                f"{' (the untrained similarity)' if chosen == '0' else ''}, "
                f"held-out overlap {overlaps[chosen]:.3f}")
        if best != chosen:
            line += (f"; the best, {overlaps[best]:.3f} at {best} epochs, is "
                     f"within one standard error of it")
        log(line + " (docs/Model.md)")
    weight = report.get("argument_weight", 1.0)
    if weight != 1.0:
        overlaps = report["argument_weight_overlaps"]
        log(f"command-line tokens weigh {weight:g}x in the similarity of "
            f"runs (their idf times {weight:g}): so weighted, each run is "
            f"predicted from the others with overlap "
            f"{overlaps[str(weight)]:.3f}, against {overlaps['1.0']:.3f} "
            f"unweighted (the runs' options decide more of what they do than "
            f"their data: docs/Model.md)")
    if report.get("size_law") == "local":
        errors = report["size_law_errors"]
        log(f"the runs' totals follow their inputs' sizes within groups of "
            f"alike runs more than across the corpus: each prediction's size "
            f"exponent is fitted over the runs it blends (each run's total, "
            f"predicted from the others, is off by a factor of "
            f"2^{errors['local']:.2f} on average, against "
            f"2^{errors['corpus']:.2f} with one exponent for the corpus: "
            f"docs/Model.md)")
    elif report.get("size_law") == "corpus":
        # Said either way: a SQLite user's corpus of 1 KB scripts and of
        # megabytes of INSERTs found no law, and a larger input of INSERTs
        # was predicted at 0.15x its total without a word.
        exponent = report["size_exponent"]
        log(f"the runs' totals grow as their inputs' size^{exponent:.2f} "
            f"across the corpus: predictions scale the totals of the runs "
            f"they blend by it" if exponent > 0 else
            f"the runs' totals do not follow their inputs' sizes (size "
            f"exponent 0): a prediction has the totals of the runs it blends, "
            f"whatever its input's size; runs of one workload on inputs of "
            f"several sizes let it learn how they grow (docs/Model.md)")


def _predict_future_run(args, output, purpose):
    """The shared part of predict and build: check the described run, then
    annotate the program with the profile the model predicts for it."""
    if not args.args:
        raise ToolError(f"give the command line of the run to {purpose} after "
                        "'--' (the program name first)")
    def name_first(what):
        return ToolError(f"the command line after '--' starts with "
                         f"'{args.args[0]}', {what}: give the program's name "
                         f"first, as the run's argv[0] ('phaedrus run' takes "
                         f"the arguments without it)")
    if args.args[0].startswith("-"):
        raise name_first("an option")
    pipeline.check_stdin(args.stdin)
    check_module(args.program, plain=True)
    cwd = Path(args.cwd) if args.cwd else Path(".")
    if not cwd.is_dir():
        raise ToolError(f"--cwd {args.cwd} is not a directory: give the one "
                        f"the run will run in")
    # The name is not described, so a forgotten one shifts every argument
    # (a SQLite user's `-- db.sqlite` was predicted as a run without any).
    first = cwd / args.args[0]
    if first.is_file() and not os.access(first, os.X_OK):
        raise name_first("a file that is not a program")
    where = f" in {args.cwd}" if args.cwd else ""
    for arg in args.args[1:]:
        typo = _near_miss(arg, cwd)
        if typo:
            log(f"warning: {arg} names no file{where}, but {typo} exists: the "
                f"run is described with {arg} as a word, not as the file it "
                f"would read (a typo?)")
        elif _looks_like_path(arg, cwd) and not (cwd / arg).exists():
            log(f"warning: {arg} names no file{where} (yet): the run is "
                f"described with it as a word, as an output it will write "
                f"would be; if the run will read it, give a file that exists "
                f"(the prediction reads its size and contents)"
                + ("" if args.cwd else "; a run in another directory takes "
                   "--cwd DIR"))
    warnings = pipeline.predict(
        args.program, args.model, args.args, output,
        stdin=str(Path(args.stdin).resolve()) if args.stdin else None,
        seed=args.seed, input_dir=str(cwd.resolve()) if args.cwd else None,
        # The run will inherit this environment's locale, as phaedrus run's
        # runs do.
        locale=pipeline.locale_of())
    if warnings:
        log(warnings)


def _near_miss(arg, cwd=Path(".")):
    """For an argument that names no file (relative to `cwd`, the run's
    directory) but is one or two characters off a file in the same
    directory (in/data.tx for in/data.txt), that file."""
    import difflib
    path = Path(arg)
    if arg.startswith("-") or not path.name or (cwd / path).exists():
        return None
    try:
        names = [p.name for p in (cwd / path.parent).iterdir()]
    except OSError:
        return None
    close = difflib.get_close_matches(path.name, names, n=1, cutoff=0.85)
    return str(path.parent / close[0]) if close else None


def _looks_like_path(arg, cwd=Path(".")):
    """Whether an argument reads as a file's path: it has a directory part
    (in/data.txt, ./x) or a file name's extension (data.txt, not 3.14)."""
    if arg.startswith("-") or " " in arg or "://" in arg:
        return False
    path = Path(arg)
    if "/" in arg:  # (its directory must be there: not 1/2 or s/a/b/)
        return (cwd / path.parent).is_dir()
    suffix = path.suffix[1:]
    return (suffix.isalnum() and not suffix.isdigit() and 2 <= len(suffix) <= 5
            and path.stem != "")


def cmd_predict(args):
    _predict_future_run(args, args.output, "predict")
    log(f"wrote {args.output}")
    if args.sample_profile:
        warnings = pipeline.export_sample_profile(args.output, args.sample_profile)
        if warnings:
            log(warnings)
        log(f"wrote {args.sample_profile}: build the sources with the flags "
            f"the module was made with and clang-22 -O2 -gline-tables-only "
            f"-fdebug-info-for-profiling "
            f"-fprofile-sample-use={args.sample_profile} "
            f"-fprofile-sample-accurate (docs/SampleProfile.md)")


def cmd_build(args):
    ldflags = split_flags(args.ldflags, "--ldflags")
    if args.keep_ir:  # (before the prediction, not after)
        check_output(args.keep_ir, "--keep-ir module")
    with tempfile.TemporaryDirectory(prefix="phaedrus-build-") as tmp:
        predicted = Path(tmp) / "predicted.mlir"
        _predict_future_run(args, predicted, "build for")
        lowered = pipeline.lower_profile(predicted, Path(tmp) / "lowered.mlir")
        # (Stripped once: --keep-ir writes what is compiled.)
        stripped = None
        if args.keep_ir:
            stripped = pipeline.strip_phaedrus(lowered)
            Path(args.keep_ir).write_bytes(stripped)
        pipeline.mlir_to_binary(lowered, args.output, ldflags,
                                stripped=stripped,
                                shown_as=f"{Path(args.program).name} with its "
                                         f"predicted profile")
    log(f"wrote {args.output} (optimised with the profile predicted for "
        f"{shlex.join(args.args)})")


def cmd_eval(args):
    from . import evaluate
    if args.rounds < evaluate.MIN_ROUNDS:
        raise ToolError(f"--rounds must be at least {evaluate.MIN_ROUNDS}: "
                        f"fewer give medians too noisy to compare")
    ldflags = split_flags(args.ldflags, "--ldflags")
    check_module(args.program, plain=True)
    # The files written at the end, checked before the builds and timed
    # rounds (minutes to hours) that they report.
    check_output(args.output, "eval report")
    plot = None
    if args.plot:
        # (matplotlib adds .png to a name without a suffix.)
        plot = Path(args.plot)
        if not plot.suffix:
            plot = plot.with_name(plot.name + ".png")
        check_output(plot, "plot")
    if args.workdir and Path(args.workdir).exists() and \
            not Path(args.workdir).is_dir():
        raise ToolError(f"--workdir {args.workdir} is a file: give a "
                        f"directory (made if missing)")
    corpus = corpus_mod.load(args.corpus)
    inputs = [evaluate.load_input(p) for p in args.held_out]
    with tempfile.TemporaryDirectory(prefix="phaedrus-eval-") as tmp:
        evaluation = evaluate.Evaluation(
            args.program, args.model, corpus, args.workdir or tmp,
            ldflags=ldflags, rounds=args.rounds,
            pgo_input=args.pgo_input, reuse=not args.rebuild, clock=args.clock,
            instrumented=args.instrumented, cpu=args.cpu)
        def write(report):
            Path(args.output).write_text(json.dumps(report, indent=1) + "\n")
        # The rows of each input as it is done: a failure at the last of
        # hours of inputs lost them all.
        result = evaluation.run(inputs, on_row=write)
    write(result)
    if plot:
        evaluate.plot(result, plot)
    s = result["summary"]

    def f(x):
        return "n/a" if x is None else f"{x:.3f}"

    def within(key):
        interval = s[f"{key}_interval"]
        return f" [{f(interval[0])}, {f(interval[1])}]" if interval else ""
    log(f"wrote {args.output}{f' and {plot}' if plot else ''}: "
        f"oracle recovery {f(s['oracle_recovery_mean'])}{within('oracle_recovery')}, "
        f"lowering recovery {f(s['lowering_recovery_mean'])}"
        f"{within('lowering_recovery')} (over {s['oracle_meaningful_count']} "
        f"input{'' if s['oracle_meaningful_count'] == 1 else 's'} where the "
        f"oracle gains >= 2%), overlap predicted "
        f"{f(s['overlap_predicted_mean'])} vs mismatched "
        f"{f(s['overlap_mismatch_mean'])}, hot coverage {f(s['hot_coverage_mean'])}, "
        f"predicted total x{f(s['total_ratio_predicted_median'])} the oracle's")
    unresolved = evaluate.unresolved_recoveries(s)
    if unresolved:
        log(unresolved)


def version_text() -> str:
    """What `phaedrus --version` prints: the driver's version and formats,
    then the build's tools' own --version (Phaedrus's version, its file
    formats, LLVM's), with a warning where the two versions differ."""
    from . import evaluate
    lines = [f"phaedrus {__version__} (driver: {Path(__file__).resolve().parent}; "
             f"corpus format {corpus_mod.VERSION}, eval format {evaluate.VERSION})"]
    try:
        tool = phaedrus_tool("phaedrus-opt")
        out = run([tool, "--version"], what="phaedrus-opt --version").stdout.decode()
    except ToolError as e:
        lines.append(f"tools: {e}")
        return "\n".join(lines)
    lines.append(f"tools: {tool.parent}")
    lines += [f"  {line.strip()}" for line in out.splitlines() if line.strip()]
    found = re.search(r"Phaedrus version (\S+)", out)
    if found and found.group(1) != __version__:
        lines.append(f"warning: the tools are Phaedrus {found.group(1)} and the "
                     f"driver {__version__}: rebuild the tools from this "
                     f"checkout, or set PHAEDRUS_BUILD_DIR to their build")
    return "\n".join(lines)


class VersionAction(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0,
                         help="print the versions of the driver, the tools, "
                              "their file formats and LLVM, and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


# The commands that take a program's command line, after "--".
PROGRAM_COMMANDS = ("run", "predict", "build")


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="phaedrus",
        description="Predict program behaviour for unseen inputs and hand it "
                    "to LLVM as a profile.")
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ir", help="compile C and C++ sources to one "
                                  "whole-program LLVM-dialect MLIR module")
    p.add_argument("sources", nargs="*", help="C and C++ source files (C++ by "
                   "their suffix, as clang tells: .cc, .cpp, .cxx, ...); a "
                   "program with C++ is linked with clang++, which adds the C++ "
                   "runtime; with --compile-commands and none named, every "
                   "source the database compiles")
    p.add_argument("-o", "--output", required=True, help="output .mlir")
    p.add_argument("--cflags", default="", help="extra clang flags, e.g. "
                   "'-DX -Iinc'; with a -g flag (-gline-tables-only is "
                   "enough) the module keeps the sources' lines, which "
                   "sample profiles (predict --sample-profile) and the "
                   "built binaries' debug info need")
    p.add_argument("--compile-commands", metavar="JSON",
                   help="compile each source with its own flags and in its "
                        "own directory, as the project's build does: a "
                        "compilation database (compile_commands.json, from "
                        "CMake's CMAKE_EXPORT_COMPILE_COMMANDS or 'bear -- "
                        "make'); --cflags come after them")
    p.add_argument("-j", "--jobs", type=at_least(1), default=None, help="parallel compiles")
    p.set_defaults(func=cmd_ir)

    p = sub.add_parser("instrument", help="build a binary that records its "
                                          "whole program path")
    p.add_argument("program", help="LLVM-dialect module from 'phaedrus ir'")
    p.add_argument("-o", "--output", required=True,
                   help="instrumented binary; its IR goes to OUTPUT.mlir")
    p.add_argument("--ldflags", default="", help="extra link flags, e.g. '-lm'")
    p.add_argument("--granularity", choices=pipeline.GRANULARITIES, default="function",
                   help="record function entries (with call sites), or also "
                        "Ball-Larus acyclic paths (default: function, the "
                        "cheaper to record). Paths weigh every branch that "
                        "ran: for 'phaedrus build' and 'eval', record paths "
                        "(function granularity weighs only the branches its "
                        "call sites' counts fix, 7-39%% of them, and leaves "
                        "LLVM to estimate the rest: on gawk's wordlen.awk a "
                        "run's own function profile ran 1.01x as fast as "
                        "none, its path profile 1.22x)")
    p.set_defaults(func=cmd_instrument)

    p = sub.add_parser("compile", help="build the binary of a module: the plain "
                                       "one from 'phaedrus ir', an instrumented "
                                       "one (linked with the recording runtime), "
                                       "or one with a profile (from 'phaedrus "
                                       "predict' or --phaedrus-trace-profile; "
                                       "lowered first if it is not yet)")
    p.add_argument("program", help="LLVM-dialect module")
    p.add_argument("-o", "--output", required=True, help="binary")
    p.add_argument("--ldflags", default="", help="extra link flags")
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser("run", help="run an instrumented binary on one input "
                                   "and collect its trace",
                       usage="phaedrus run BINARY -o TRACE [options] -- ARGS...",
                       description="Runs BINARY with ARGS, the arguments after "
                                   "'--' without the program name (predict "
                                   "and build take the name first), and "
                                   "writes its trace and TRACE.input.json. "
                                   "Exits with the program's status (128 + N "
                                   "for a program killed by signal N, as a "
                                   "shell gives it).")
    p.add_argument("binary", help="binary from 'phaedrus instrument'")
    p.add_argument("-o", "--output", required=True, help="trace file (.wpp)")
    p.add_argument("--stdin", help="file to feed on standard input")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="stop the program if it has not finished after this "
                        "long (SIGTERM, then SIGKILL 10 s later) and fail, "
                        "removing the trace of the cut-short run (default: "
                        "no limit)")
    p.add_argument("--no-stdin", action="store_true",
                   help="the program reads nothing on standard input (as "
                        "without --stdin), and phaedrus run's own standard "
                        "input is not for it: no warning about it (a "
                        "'while read' loop's list)")
    p.add_argument("--import", dest="import_to",
                   help="also import the trace as phaedrus IR into this file "
                        "(MLIR bytecode if its name ends in .mlirbc)")
    p.add_argument("--name", default="run", help="trace symbol name on import")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("corpus", help="make a training corpus of the traces "
                                      "of several runs (recorded with "
                                      "'phaedrus run')")
    p.add_argument("traces", nargs="+", help="trace files (.wpp), each with "
                   "its TRACE.input.json; a run is named by its trace file's "
                   "name up to the first dot (text-9.wpp: text-9)")
    p.add_argument("-o", "--output", required=True, help="corpus (.json)")
    p.add_argument("--program", help="instrumented module (prog.inst.mlir): "
                   "refuse traces of another program or build of it (by "
                   "fingerprint, which the function- and path-granularity "
                   "builds of one module share; a corpus refuses traces of "
                   "two granularities)")
    p.add_argument("--sequences", metavar="DIR", help="also keep each run's "
                   "whole token sequence, folded and packed, as DIR/NAME.phpk "
                   "(docs/PackedTrace.md); the corpus names the file")
    p.set_defaults(func=cmd_corpus)

    p = sub.add_parser("train", help="train a model on a corpus (PyTorch, CPU)")
    p.add_argument("corpus", help="corpus from 'phaedrus corpus'")
    p.add_argument("-o", "--output", required=True,
                   help="model file (phaedrus IR, weights as dense_resource)")
    p.add_argument("--kind", choices=["lstm", "mlp", "retrieval"], default="retrieval",
                   help="retrieval (default: the best measured, "
                        "bench/pgo.py, and trained in seconds): a "
                        "learned-similarity blend of the training runs' "
                        "profiles, its total scaled to the input's size; "
                        "lstm: a generative sequence model; mlp: a "
                        "direct-count baseline (docs/Model.md)")
    p.add_argument("--seed", type=int, default=0,
                   help="seeds the initial weights and the validation split "
                        "(default 0; the same seed trains the same model on "
                        "one machine)")
    p.add_argument("--epochs", type=at_least(1), default=300,
                   help="at most (default 300)")
    p.add_argument("--patience", type=at_least(1), default=30,
                   help="stop after this many epochs without a better "
                        "validation loss (default 30)")
    p.add_argument("--learning-rate", type=positive_float, default=1e-2,
                   help="Adam's step size (default 0.01)")
    p.add_argument("--hidden-size", type=at_least(1), default=None,
                   help="lstm: its state size; mlp: its hidden layer "
                        "(default 128; a retrieval model has one unit per "
                        "training run)")
    p.add_argument("--embedding-dim", type=at_least(1), default=None,
                   help="lstm: the size of its token embeddings (default 64)")
    p.add_argument("--num-layers", type=at_least(1), default=None,
                   help="lstm: stacked layers (default 1)")
    p.add_argument("--blend-floor", type=weight_below_one,
                   default=None,
                   help="retrieval: a prediction leaves out the training runs "
                        "that weigh less than this share of the heaviest run's "
                        "weight in its blend, so that code only they ran stays "
                        "cold (default 0.01; 0 keeps every run; docs/Model.md)")
    p.add_argument("--validation", help="comma-separated run names held out "
                   "for early stopping, then trained on too (default: from 10 "
                   "runs on one run in five, seeded; below 10 none; retrieval "
                   "trains leave-one-out and holds none out)")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("predict", help="predict the profile of a run that has "
                                       "not happened and attach it to the "
                                       "program",
                       usage="phaedrus predict [-h] PROGRAM --model MODEL -o OUT "
                             "[--stdin FILE] [--cwd DIR] -- PROGRAM-NAME ARGS...",
                       description=FUTURE_RUN_HELP.format(
                           what="Predicts the profile of that run with MODEL "
                                "and writes PROGRAM annotated with it to OUT "
                                "('phaedrus compile OUT' builds it)"))
    p.add_argument("program", help="plain LLVM-dialect module (phaedrus ir)")
    p.add_argument("--model", required=True, help="model from 'phaedrus train'")
    p.add_argument("-o", "--output", required=True,
                   help="the module with predicted phaedrus.entry_count "
                        "attributes (lower with --phaedrus-lower-profile)")
    p.add_argument("--stdin", help="the file the run will read on standard input")
    p.add_argument("--cwd", metavar="DIR", help=CWD_HELP)
    p.add_argument("--seed", type=int, help="sample the profile with this "
                   "seed (default: greedy)")
    p.add_argument("--sample-profile", metavar="PROF",
                   help="also write the prediction as an LLVM text sample "
                        "profile, for a build of the same sources with the "
                        "same flags and clang -O2 -gline-tables-only "
                        "-fdebug-info-for-profiling -fprofile-sample-use=PROF "
                        "-fprofile-sample-accurate; "
                        "it names lines when the program module has them "
                        "('phaedrus ir --cflags -gline-tables-only'), see "
                        "docs/SampleProfile.md")
    p.set_defaults(func=cmd_predict)

    p = sub.add_parser("build", help="build a binary optimised with the "
                                     "profile predicted for one future run",
                       usage="phaedrus build [-h] PROGRAM --model MODEL -o BINARY "
                             "[--stdin FILE] [--cwd DIR] -- PROGRAM-NAME ARGS...",
                       description=FUTURE_RUN_HELP.format(
                           what="Predicts the profile of that run with MODEL, "
                                "lowers it and builds BINARY optimised with it"))
    p.add_argument("program", help="plain LLVM-dialect module (phaedrus ir)")
    p.add_argument("--model", required=True, help="model from 'phaedrus train'")
    p.add_argument("-o", "--output", required=True, help="binary")
    p.add_argument("--stdin", help="the file the run will read on standard input")
    p.add_argument("--cwd", metavar="DIR", help=CWD_HELP)
    p.add_argument("--seed", type=int, help="sample the profile with this "
                   "seed (default: greedy)")
    p.add_argument("--ldflags", default="", help="extra link flags, e.g. '-lm'")
    p.add_argument("--keep-ir", help="also write the module that is compiled "
                   "here: LLVM-dialect MLIR with the profile lowered to LLVM's "
                   "attributes and no phaedrus IR, whatever the suffix; "
                   "phaedrus-translate --mlir-to-llvmir makes LLVM IR of it")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("eval", help="build and time, on held-out inputs, the "
                                    "binary optimised with the predicted "
                                    "profile against no profile, clang PGO "
                                    "trained on another input and on the "
                                    "same input (docs/Eval.md)")
    p.add_argument("program", help="plain LLVM-dialect module (phaedrus ir) the "
                   "corpus was recorded from")
    p.add_argument("--model", required=True, help="model from 'phaedrus train'")
    p.add_argument("--corpus", required=True, help="the model's training corpus")
    p.add_argument("--held-out", nargs="+", required=True, metavar="INPUT.json",
                   help="input descriptions of runs that are not in the corpus: "
                        "the RUN.wpp.input.json of 'phaedrus run', or "
                        '{"argv": [...], "stdin": FILE, "cwd": DIR}')
    p.add_argument("-o", "--output", required=True, help="results (.json)")
    p.add_argument("--plot", help="also plot the speedups (.png)")
    p.add_argument("--rounds", type=int, default=5,
                   help="timed runs of every build per input, interleaved "
                        "(median; at least 5, the default)")
    p.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                   help="what a timed run is measured by: cpu (default), the "
                        "user and system time the kernel accounted to the run "
                        "(its threads and waited-for children included), which "
                        "the machine's other work disturbs little; wall, the "
                        "time from start to exit, for programs that wait "
                        "(I/O) or run threads in parallel, on a quiet machine")
    p.add_argument("--cpu", default="auto", metavar="auto|none|N",
                   help="the CPU the timed runs are pinned to: auto (default), "
                        "for each input the CPU the kernel isolates, else the "
                        "idlest, when eval may run on more than one; none, "
                        "wherever the kernel puts them; or a CPU's number. A "
                        "pinned run is not moved between CPUs mid-way: on a "
                        "2-core VM pinned runs spread less (docs/Eval.md)")
    p.add_argument("--pgo-input", help="the corpus run that trains the "
                   "mismatched PGO build (default: the corpus's first run)")
    p.add_argument("--instrumented", metavar="BINARY",
                   help="record the held-out inputs' own traces with this "
                        "binary from 'phaedrus instrument' (the build the "
                        "corpus was recorded with) instead of building it "
                        "again: a large program's instrumented build takes "
                        "minutes")
    p.add_argument("--ldflags", default="", help="extra link flags, e.g. '-lm'")
    p.add_argument("--workdir", help="keep the builds and profiles here "
                   "(default: a temporary directory); a later eval in the same "
                   "directory reuses the builds whose inputs and tools are "
                   "unchanged (the runs and timings are always made again)")
    p.add_argument("--rebuild", action="store_true",
                   help="build everything again, even what an earlier eval in "
                        "--workdir built from the same files")
    p.set_defaults(func=cmd_eval)

    argv = list(sys.argv[1:] if argv is None else argv)
    # Everything after "--" belongs to the program being run.
    program_args = []  # (for PROGRAM_COMMANDS)
    if "--" in argv:
        split = argv.index("--")
        argv, program_args = argv[:split], argv[split + 1:]
    # A flags option's value starts with '-' ("--cflags -DNDEBUG"), which
    # argparse would take for an option of its own: join it to its option.
    # (Also after an abbreviation of one, "--cflag -O2", which argparse
    # accepts for the option.)
    joined = []
    for word in argv:
        flag = joined[-1] if joined else ""
        expanded = [o for o in FLAG_OPTIONS if o.startswith(flag)]
        if (len(flag) >= 4 and len(expanded) == 1 and word.startswith("-")
                and "=" not in flag):
            joined[-1] = expanded[0] + "=" + word
        else:
            joined.append(word)
    args, unknown = parser.parse_known_args(joined)
    if unknown:
        # The subcommand's usage, not the top level's; where the program's
        # command line was meant, where it goes.
        hint = ""
        if args.command in PROGRAM_COMMANDS and not program_args:
            hint = (" (the program's command line goes after '--': "
                    f"phaedrus {args.command} ... -- "
                    f"{'ARGS' if args.command == 'run' else 'PROGRAM-NAME ARGS'})")
        sub.choices[args.command].error(
            f"unrecognized arguments: {' '.join(unknown)}{hint}")
    if program_args and args.command not in PROGRAM_COMMANDS:
        # (They were dropped without a word: `train c.json -- --kind lstm`
        # trained a retrieval model.)
        sub.choices[args.command].error(
            f"unrecognized arguments after '--': {' '.join(program_args)} "
            f"(only run, predict and build take a program's command line "
            f"there; phaedrus {args.command}'s own options go before it)")
    args.args = program_args
    # SIGTERM (timeout(1), a job scheduler) stops a command as Ctrl-C does:
    # the program or tool it runs is stopped with it, not left running
    # without its driver (a zstd user's trial found a program so orphaned,
    # holding its trace open); so are those of its worker threads, which
    # the signal does not reach (tools.stop_children).
    # (SIGINT only where it interrupts: a command started in the background
    # of a non-interactive shell ignores it.)
    previous = {s: signal.signal(s, _interrupted) for s in (signal.SIGTERM, signal.SIGINT)
                if s == signal.SIGTERM or
                signal.getsignal(s) is signal.default_int_handler}
    try:
        result = args.func(args)
    except ToolError as e:
        print(f"phaedrus {args.command}: error: {e}", file=sys.stderr)
        return 1
    except Terminated:
        print(f"\nphaedrus {args.command}: terminated (SIGTERM)", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        # Ctrl-C: what the command was doing stops (the tools it ran are
        # killed with it), without a traceback; 130 as a shell reports
        # SIGINT.
        print(f"\nphaedrus {args.command}: interrupted", file=sys.stderr)
        return 130
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return result or 0


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as an interruption (what was running stops)."""


def _interrupted(signum, frame):
    stop_children()
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


if __name__ == "__main__":
    sys.exit(main())
