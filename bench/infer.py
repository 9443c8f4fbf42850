"""Inference speed: the same trained model generating the same profile in
PyTorch and in lib/Inference (oneDNN), and the latency of one whole
prediction through the compiler.

Run through ./bench/run.sh infer; writes bench/results/infer.json.

Method, per program (bzip2, lua5.4):

  corpus    the instrumented build records every input but the last
            (function granularity); phaedrus corpus
  train     an lstm with the default shape (embedding 64, hidden 128, one
            layer) for --epochs epochs, seeded; the benchmark measures speed,
            not prediction quality (that is ./bench/run.sh pgo's job)
  held out  the last input: its descriptor conditions every generation

Then, interleaved, --runs times:

  torch     model.generate (greedy) in this process, torch.set_num_threads(T)
  onednn    phaedrus-model MODEL --generate --bench=3 with OMP_NUM_THREADS=T
            (median of 3 generations inside one process, after one warm-up;
            loading the model file is not timed)
  predict   phaedrus-opt prog.mlir --phaedrus-predict=model-file=MODEL
            input={...} -o /dev/null: the wall time of a whole prediction
            (parse the program and the model, featurize, generate, annotate,
            print)

tokens/s = tokens the LSTM consumes for one generation (<bos>, descriptor,
<sep>, two per generated vocabulary token, the last one) / median seconds.
Both sides produce the same sequence (checked: a mismatch is reported and
fails the benchmark). max_abs_diff: largest |logit difference| between
PyTorch and phaedrus-model --logits over the held-out run's true profile
sequence (up to 1000 tokens).

Goals (reported, not asserted): onednn_vs_torch_speedup >= 2 on every
program, predict_latency_s_max < 1."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

from phaedrus import model as M
from phaedrus import pipeline, programs
from phaedrus.tools import REPO_ROOT, ToolError, phaedrus_tool

from common import (BenchError, add_programs_argument, listed, machine_info,
                    median, program_names)

DEFAULT_OUTPUT = REPO_ROOT / "bench" / "results" / "infer.json"
GOALS = {"onednn_vs_torch_speedup_min": 2.0, "predict_latency_s_max": 1.0}


def log(message):
    print(f"infer: {message}", file=sys.stderr, flush=True)


def run_json(cmd, env=None):
    result = subprocess.run([str(c) for c in cmd], capture_output=True,
                            text=True, env=env)
    if result.returncode != 0:
        raise BenchError(f"{' '.join(map(str, cmd))} failed:\n{result.stderr}")
    return json.loads(result.stdout)


def measure(program, args, scratch):
    b = programs.build(program)
    held_out = program.runs[-1]
    t = time.perf_counter()
    corpus = programs.collect_corpus(program, b, scratch / program.name,
                                     runs=program.runs[:-1])
    collect_s = time.perf_counter() - t
    config = M.TrainConfig(kind="lstm", seed=args.seed, epochs=args.epochs,
                           patience=args.epochs, progress=False)
    t = time.perf_counter()
    model, space, report = M.train(corpus, config)
    train_s = time.perf_counter() - t
    model_path = scratch / f"{program.name}.model.mlir"
    model_path.write_text(M.model_ir(model, space, corpus, "lstm", report))
    log(f"{program.name}: corpus of {len(corpus['runs'])} runs in "
        f"{collect_s:.1f} s; {args.epochs} epochs in {train_s:.1f} s; model "
        f"{model_path.stat().st_size / 1e6:.1f} MB ({space.size} ids)")

    stdin = b.workdir / held_out.stdin if held_out.stdin else None
    argv = [program.name, *held_out.args]
    from phaedrus.corpus import featurize
    # Under this environment's locale, as the corpus's runs were described.
    locale = pipeline.locale_of()
    descriptor = featurize(argv, stdin=stdin, cwd=b.workdir, locale=locale)
    ids = [space.index[d] for d in descriptor if d in space.index]
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    torch.set_num_threads(args.threads)

    # Parity of the logits on a real sequence.
    truth = programs_sequence(corpus, space, program.runs[0].name)[:1000]
    with torch.no_grad():
        expected, _ = model(torch.tensor([truth]))
    got = run_json([phaedrus_tool("phaedrus-model"), model_path,
                    "--logits=" + ",".join(map(str, truth))], env)["logits"]
    max_abs_diff = (torch.tensor(got) - expected[0]).abs().max().item()

    predict_cmd = [phaedrus_tool("phaedrus-opt"), b.mlir,
                   f"--phaedrus-predict=model-file={model_path} "
                   f"input={{{pipeline.input_attribute(argv, stdin, locale)}}} "
                   f"input-dir={b.workdir}", "-o", os.devnull]
    torch_s, onednn_s, predict_s = [], [], []
    steps = None
    for i in range(args.runs):
        t = time.perf_counter()
        generated = M.generate(model, space, descriptor)
        torch_s.append(time.perf_counter() - t)
        out = run_json([phaedrus_tool("phaedrus-model"), model_path, "--generate",
                        "--bench=3", "--descriptor-ids=" + ",".join(map(str, ids))],
                       env)
        onednn_s.append(out["prediction_s_median"])
        if [(t_, b_) for t_, b_, _ in out["generated"]] != \
                [(t_, b_) for t_, b_, _ in generated]:
            raise BenchError(f"{program.name}: oneDNN and PyTorch generated "
                             f"different profiles")
        steps = out["steps"]
        t = time.perf_counter()
        subprocess.run([str(c) for c in predict_cmd], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        predict_s.append(time.perf_counter() - t)
        log(f"{program.name} run {i + 1}/{args.runs}: torch {torch_s[-1]:.3f} s, "
            f"onednn {onednn_s[-1]:.3f} s, predict {predict_s[-1]:.3f} s")
    row = {
        "program": program.name,
        "held_out_input": held_out.name,
        "train_runs": report["train_runs"],
        "vocab_size": space.vocab_size,
        "model_ids": space.size,
        "hyperparameters": {"embedding_dim": config.embedding_dim,
                            "hidden_size": config.hidden_size,
                            "num_layers": config.num_layers,
                            "epochs": args.epochs},
        "model_bytes": model_path.stat().st_size,
        "train_s": train_s,
        "generated_tokens": len(generated),
        "steps": steps,
        "torch_s_median": median(torch_s),
        "onednn_s_median": median(onednn_s),
        "torch_tokens_per_s": steps / median(torch_s),
        "onednn_tokens_per_s": steps / median(onednn_s),
        "onednn_vs_torch_speedup": median(torch_s) / median(onednn_s),
        "predict_latency_s_median": median(predict_s),
        "max_abs_diff": max_abs_diff,
        "same_sequence": True,
    }
    return row


def programs_sequence(corpus, space, name):
    r = next(r for r in corpus["runs"] if r["name"] == name)
    return space.sequence(r["descriptor"], r["tokens"])


def main():
    names = program_names("infer")
    parser = argparse.ArgumentParser(
        prog="./bench/run.sh infer",
        description="oneDNN against PyTorch on the same model, and the "
                    "latency of one prediction (bench/infer.py has the method)")
    add_programs_argument(parser, names)
    parser.add_argument("--runs", type=int, default=5, help="interleaved runs (>= 3)")
    parser.add_argument("--epochs", type=int, default=20,
                        help="training epochs of the measured model")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads for both PyTorch and oneDNN")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args()
    selected = listed(parser, args.programs, names, "program")
    if args.runs < 3:
        parser.error("--runs must be at least 3")

    rows = []
    with tempfile.TemporaryDirectory(prefix="phaedrus-bench-infer-") as tmp:
        scratch = Path(tmp)
        try:
            for p in programs.all_programs():
                if p.name in selected:
                    rows.append(measure(p, args, scratch))
        except (ToolError, BenchError, subprocess.CalledProcessError) as e:
            sys.exit(f"infer: {e}")
        machine = machine_info(aslr_off=None, scratch=scratch)
    speedups = [r["onednn_vs_torch_speedup"] for r in rows]
    summary = {
        "onednn_vs_torch_speedup": min(speedups),
        "onednn_vs_torch_speedup_per_program": {r["program"]: r["onednn_vs_torch_speedup"] for r in rows},
        "max_abs_diff": max(r["max_abs_diff"] for r in rows),
        "predict_latency_s_max": max(r["predict_latency_s_median"] for r in rows),
        "threads": args.threads,
        "goals": GOALS,
        "goals_met": {
            "onednn_vs_torch_speedup": min(speedups) >= GOALS["onednn_vs_torch_speedup_min"],
            "predict_latency_s": max(r["predict_latency_s_median"] for r in rows)
            < GOALS["predict_latency_s_max"],
        },
    }
    result = {"benchmark": "infer", "machine": machine, "rows": rows,
              "summary": summary}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(summary, indent=2))
    log(f"wrote {args.output}")


if __name__ == "__main__":
    main()
