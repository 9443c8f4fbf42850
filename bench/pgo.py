"""The payoff: builds optimised with the profile Phaedrus predicts for inputs
the model never saw, timed against no profile, traditional (mismatched) PGO
and oracle PGO. Runs `phaedrus eval` (python/phaedrus/evaluate.py) on the
real programs.

Run through ./bench/run.sh pgo; writes bench/results/pgo.json and
bench/results/pgo-PROGRAM.png.

Per program (bzip2, lua5.4), at input scale --scale:

  corpus    the path-instrumented build records the training inputs (every
            input not marked held_out in python/phaedrus/programs.py);
            phaedrus corpus
  train     --kind (default retrieval) with the default shape, --epochs
            (300), seeded
  eval      phaedrus eval on the held-out inputs (bzip2: text-1,
            repetitive-9; lua5.4: numeric, objects), --rounds interleaved
            rounds; mismatched PGO trained on --pgo-input (bzip2: text-9,
            lua5.4: tables)

Summary keys (docs/Eval.md defines each): oracle_recovery_mean,
lowering_recovery_mean, mismatch_loses_count, predicted_beats_mismatch_count,
overlap_predicted_mean, overlap_mismatch_mean, hot_coverage_mean, over the
held-out inputs of all programs. Goals (reported, not asserted): lowering
recovery >= 0.95, oracle recovery >= 0.9, predicted faster than mismatched
wherever mismatched loses, overlap >= 0.9 and above the mismatched profile's,
hot coverage >= 0.95."""

import argparse
import json
import sys
import time
from pathlib import Path

from phaedrus import corpus as corpus_mod
from phaedrus import evaluate, pipeline, programs
from phaedrus.timing import check_cpu_choice
from phaedrus import model as M
from phaedrus.tools import REPO_ROOT, ToolError, build_dir

from common import add_programs_argument, listed, machine_info, program_names

DEFAULT_OUTPUT = REPO_ROOT / "bench" / "results" / "pgo.json"
PGO_INPUT = {"bzip2": "text-9", "lua5.4": "tables"}
GOALS = {"lowering_recovery_min": 0.95, "oracle_recovery_min": 0.9,
         "overlap_min": 0.9, "hot_coverage_min": 0.95}


def log(message):
    print(f"pgo: {message}", file=sys.stderr, flush=True)


def parse_args(argv):
    names = program_names("pgo")
    parser = argparse.ArgumentParser(
        prog="./bench/run.sh pgo",
        description="Speedup of builds with the predicted profile on held-out "
                    "inputs (phaedrus eval), against no profile, mismatched "
                    "and oracle PGO.")
    add_programs_argument(parser, names)
    parser.add_argument("--scale", type=int, default=4,
                        help="input scale (bzip2: input sizes; lua5.4: "
                             "repetitions of each script)")
    # 21, not 9: the oracle's gain is 4-6% on three of the four held-out
    # inputs, and the recoveries divide by it. With 9 rounds, two runs of
    # this benchmark an hour apart (2026-11-23) gave lowering recoveries of
    # 0.86 and 0.63 and oracle recoveries of 0.89 and 0.89 (in the second,
    # bzip2 repetitive-9's measured build ran 1.01x against its oracle's
    # 1.06x, with identical counters); the next run, with 21 rounds, 1.19
    # and 1.06.
    parser.add_argument("--rounds", type=int, default=21,
                        help="timed runs of each build per input (at least 5)")
    parser.add_argument("--clock", choices=["cpu", "wall"],
                        default=evaluate.DEFAULT_CLOCK,
                        help="what the timed runs are measured by (phaedrus "
                             "eval --clock; default cpu)")
    parser.add_argument("--cpu", default="auto", metavar="auto|none|N",
                        help="the CPU the timed runs are pinned to (phaedrus "
                             "eval --cpu; default auto)")
    # Not the lstm by default: on bzip2's five training runs it predicts
    # held-out profiles about as well as the others (token-count overlap with
    # the truth 0.80/0.91 trained 300 epochs; mlp 0.76/0.86; retrieval
    # 0.80/0.92), but trains for 11 minutes on bzip2 and, at the 6 s an
    # epoch measured on lua5.4 (5252 output tokens), half an hour there; the
    # others in seconds. Retrieval over mlp: on bzip2's held-out inputs its
    # profiles overlap the oracle's 0.82/0.93 against the mlp's 0.76/0.87
    # and recover more of the oracle's speedup (0.92 against 0.59 over both
    # programs); on unseen Lua scripts, with 14 training scripts and 8-word
    # descriptors, the mlp overlapped a little more (0.33/0.39 against
    # 0.28/0.41); with 20 scripts, 32 words and TF-IDF initial weights
    # retrieval gets 0.34/0.72, and with 21 as a mixture trained on the
    # leave-one-out overlap 0.41/0.72. bench/README.md has the runs.
    parser.add_argument("--kind", choices=["lstm", "mlp", "retrieval"],
                        default="retrieval")
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    if args.rounds < evaluate.MIN_ROUNDS:
        parser.error(f"--rounds must be at least {evaluate.MIN_ROUNDS}")
    try:
        check_cpu_choice(args.cpu)
    except ValueError as e:
        parser.error(f"--cpu: {e}")
    args.programs = listed(parser, args.programs, names, "program(s)")
    return args


def reusable_corpus(path: Path, b, training):
    """The corpus an earlier run of this benchmark recorded, when it is of
    the same build (fingerprint) and the same training inputs, described
    by this build's featurizer (a corpus described by another version would
    train on other tokens than predictions see)."""
    if not path.exists():
        return None
    try:
        corpus = corpus_mod.load(path)
        corpus_mod.check_featurizer(corpus, path)
    except ToolError:
        return None
    fingerprint = str(pipeline.fingerprint_of(b.instrumented_path_mlir))
    if str(corpus["fingerprint"]) != fingerprint or \
            [r["name"] for r in corpus["runs"]] != [r.name for r in training]:
        return None
    return corpus


def evaluate_program(program, args, workroot: Path) -> dict:
    b = programs.build(program)
    work = workroot / program.name
    training = program.training_runs()
    corpus_path = work / f"corpus.x{args.scale}.json"
    corpus = reusable_corpus(corpus_path, b, training)
    if corpus is None:
        log(f"{program.name}: recording {len(training)} training inputs (path "
            f"granularity, scale {args.scale})")
        corpus = programs.collect_corpus(program, b, work / "runs", runs=training,
                                         granularity="path")
        corpus_mod.save(corpus, corpus_path)
    else:
        log(f"{program.name}: reusing {corpus_path} (same build, same inputs)")
    log(f"{program.name}: training {args.kind} ({args.epochs} epochs at most)")
    started = time.perf_counter()
    config = M.TrainConfig(kind=args.kind, seed=args.seed, epochs=args.epochs,
                           progress=sys.stderr.isatty())
    model, space, report = M.train(corpus, config)
    train_s = time.perf_counter() - started
    model_path = work / "model.mlir"
    model_path.write_text(M.model_ir(model, space, corpus, args.kind, report))
    held_out = [evaluate.Input(r.name, [program.name, *r.args],
                               str(b.workdir / r.stdin) if r.stdin else None,
                               str(b.workdir))
                for r in program.held_out_runs()]
    evaluation = evaluate.Evaluation(b.mlir, model_path, corpus, work / "eval",
                                     ldflags=program.ldflags, rounds=args.rounds,
                                     pgo_input=PGO_INPUT.get(program.name),
                                     clock=args.clock, cpu=args.cpu)
    result = evaluation.run(held_out)
    result["program_name"] = program.name
    result["training_inputs"] = [r.name for r in training]
    result["model_report"] = {k: report.get(k) for k in
                              ("kind", "epochs", "best_epoch", "train_loss",
                               "validation_loss", "validation_runs",
                               "cv_epochs", "cv_overlaps")}
    result["train_s"] = round(train_s, 1)
    plot = args.output.with_name(f"pgo-{program.name}.png")
    evaluate.plot(result, plot)
    result["plot"] = str(plot.relative_to(REPO_ROOT)) \
        if plot.is_relative_to(REPO_ROOT) else str(plot)
    return result


def main(argv=None):
    args = parse_args(argv)
    started = time.perf_counter()
    workroot = build_dir() / "bench-pgo"
    results = []
    for program in programs.all_programs(args.scale):
        if program.name not in args.programs:
            continue
        try:
            results.append(evaluate_program(program, args, workroot))
        except ToolError as e:
            sys.exit(f"pgo: {program.name}: {e}")
    rows = [dict(r, program=res["program_name"])
            for res in results for r in res["rows"]]
    summary = evaluate.summarize(rows)
    summary["goals"] = dict(GOALS)
    summary["goals_met"] = goals_met(summary)
    summary["scale"] = args.scale
    summary["elapsed_s"] = round(time.perf_counter() - started, 1)
    out = {"benchmark": "pgo", "machine": machine_info(True, workroot),
           "method": evaluate.__doc__, "summary": summary,
           "programs": results}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "goals"}, indent=1))
    log(f"wrote {args.output}")


def goals_met(s) -> dict:
    def at_least(x, bound):
        return None if x is None else x >= bound
    return {
        "lowering_recovery": at_least(s["lowering_recovery_mean"],
                                      GOALS["lowering_recovery_min"]),
        "oracle_recovery": at_least(s["oracle_recovery_mean"],
                                    GOALS["oracle_recovery_min"]),
        "predicted_beats_mismatch_wherever_it_loses":
            s["predicted_beats_mismatch_count"] == s["mismatch_loses_count"],
        "overlap": None if s["overlap_predicted_mean"] is None else
            s["overlap_predicted_mean"] >= GOALS["overlap_min"] and
            s["overlap_predicted_mean"] > s["overlap_mismatch_mean"],
        "hot_coverage": at_least(s["hot_coverage_mean"], GOALS["hot_coverage_min"]),
    }


if __name__ == "__main__":
    main()
