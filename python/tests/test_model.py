"""The model, both sides: PyTorch (training, python/phaedrus/model.py) and
oneDNN (lib/Inference through phaedrus-model and --phaedrus-predict) must
agree: the same weights give the same logits within 1e-4, and the same seed
the same generated profile. Also the model file's errors."""

import dataclasses
import json
import math
import re
import subprocess
import sys

import pytest
import torch

from phaedrus import model as M
from phaedrus.corpus import featurizer_version
from phaedrus.tools import REPO_ROOT, phaedrus_tool

FINGERPRINT = "7063083390043834817"


def synthetic_corpus(vocab_size=12, runs=4, seed=0):
    """A corpus over an invented vocabulary (functions f0..fN): enough for
    the maths; the real programs are in test_programs.py."""
    rng = torch.Generator().manual_seed(seed)
    entries = [{"id": i, "kind": "function", "symbol": f"f{i}"}
               for i in range(vocab_size)]
    out = []
    for r in range(runs):
        order = torch.randperm(vocab_size, generator=rng)[: vocab_size - r].tolist()
        counts = torch.randint(1, 100000, (len(order),), generator=rng).tolist()
        out.append({"name": f"run{r}", "argv": ["p", f"-{r}"], "stdin": None,
                    "descriptor": ["argc=1", f"opt=-{r}", "stdin=none"],
                    "events": sum(counts), "tokens": list(zip(order, counts))})
    return {"format": "phaedrus-corpus", "version": 1, "fingerprint": FINGERPRINT,
            "vocabulary": {"name": "phaedrus_vocabulary", "fingerprint": FINGERPRINT,
                           "entries": entries},
            "runs": out}


def write_model(tmp_path, kind="lstm", num_layers=2, seed=0, name="m.mlir"):
    torch.manual_seed(seed)
    corpus = synthetic_corpus()
    space = M.TokenSpace(sorted({d for r in corpus["runs"] for d in r["descriptor"]}),
                         len(corpus["vocabulary"]["entries"]))
    if kind == "lstm":
        model = M.LstmModel(space.size, embedding_dim=8, hidden_size=16,
                            num_layers=num_layers)
    else:
        model = M.MlpModel(len(space.descriptors), space.vocab_size, hidden_size=16)
    model.eval()
    path = tmp_path / name
    path.write_text(M.model_ir(model, space, corpus, kind))
    return model, space, corpus, path


def run_model(path, *args, check=True):
    result = subprocess.run([str(phaedrus_tool("phaedrus-model")), str(path),
                             *map(str, args)], capture_output=True, text=True)
    if check:
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)
    return result


def test_bucket_round_trip():
    for count in [1, 2, 3, 7, 8, 1000, 123456789, 2 ** 40 - 1]:
        b = M.bucket_of(count)
        back = M.count_of(b)
        # A bucket spans a quarter octave: the decoded count is within 19%.
        assert abs(back - count) / count <= 2 ** 0.25 - 1, (count, b, back)
    assert [M.bucket_of(2 ** k) for k in range(10)] == [4 * k for k in range(10)]


@pytest.mark.parametrize("num_layers", [1, 2])
def test_lstm_logits_match_pytorch(tmp_path, num_layers):
    model, space, corpus, path = write_model(tmp_path, num_layers=num_layers)
    ids = space.sequence(corpus["runs"][0]["descriptor"], corpus["runs"][0]["tokens"])
    with torch.no_grad():
        expected, _ = model(torch.tensor([ids]))
    got = torch.tensor(run_model(path, "--logits=" + ",".join(map(str, ids)))["logits"])
    assert got.shape == expected[0].shape
    diff = (got - expected[0]).abs().max().item()
    assert diff < 1e-4, diff


def test_generation_matches_pytorch_greedy_and_seeded(tmp_path):
    model, space, corpus, path = write_model(tmp_path)
    descriptor = corpus["runs"][1]["descriptor"]
    desc_ids = [space.index[d] for d in descriptor]
    for seed in [None, 1, 2, 3]:
        expected = M.generate(model, space, descriptor, seed=seed)
        args = ["--generate", "--descriptor-ids=" + ",".join(map(str, desc_ids))]
        if seed is not None:
            args.append(f"--seed={seed}")
        got = run_model(path, *args)["generated"]
        assert [(t, b) for t, b, _ in got] == [(t, b) for t, b, _ in expected], seed
        for (_, _, p), (_, _, q) in zip(got, expected):
            assert abs(p - q) < 1e-4
    # The margins: one per sampled step (each pair is two, then <eos>), each
    # the draw's distance to an edge of the chosen interval.
    margins = []
    sampled = M.generate(model, space, descriptor, seed=1, margins=margins)
    assert len(margins) == 2 * len(sampled) + 1
    assert all(0 <= m <= 0.5 for m in margins)
    # Sampling is random but reproducible: another seed, another profile.
    a = run_model(path, "--generate", "--seed=1")["generated"]
    b = run_model(path, "--generate", "--seed=1")["generated"]
    c = run_model(path, "--generate", "--seed=5")["generated"]
    assert a == b and a != c


def test_generation_is_a_legal_profile(tmp_path):
    _, space, _, path = write_model(tmp_path, seed=3)
    for seed in range(5):
        got = run_model(path, "--generate", f"--seed={seed}")["generated"]
        tokens = [t for t, _, _ in got]
        assert len(tokens) == len(set(tokens))  # each token at most once
        assert all(0 <= t < space.vocab_size for t in tokens)
        assert all(0 <= b < space.num_buckets for _, b, _ in got)


def test_mlp_log_counts_match_pytorch(tmp_path):
    model, space, corpus, path = write_model(tmp_path, kind="mlp")
    for run in corpus["runs"]:
        desc_ids = [space.index[d] for d in run["descriptor"]]
        with torch.no_grad():
            expected = model(M.multi_hot(space, run["descriptor"]).unsqueeze(0))[0]
        got = torch.tensor(run_model(path, "--log-counts", "--descriptor-ids=" +
                                     ",".join(map(str, desc_ids)))["log_counts"])
        assert (got - expected).abs().max().item() < 1e-4


def test_retrieval_blend_floor_leaves_out_light_runs(tmp_path):
    """A prediction leaves out the runs below the model's blend floor
    (BLEND_FLOOR by default, `blend_floor` in the model file): lib/Inference
    and PyTorch drop the same runs and predict the same counts, and a token
    only the dropped runs have is predicted 0 (code the blend's own runs
    never ran stays cold), where without the floor it was not."""
    corpus = synthetic_corpus(runs=4)
    # A token only run3 has.
    corpus["runs"][3]["tokens"].append((12, 50000))
    corpus["vocabulary"]["entries"].append({"id": 12, "kind": "function",
                                            "symbol": "f12"})
    config = M.TrainConfig(kind="retrieval", seed=3, epochs=0, progress=False)
    assert config.blend_floor == M.BLEND_FLOOR > 0
    query = ["argc=1", "opt=-0", "opt=-1", "stdin=none"]
    results = {}
    for floor in (0.0, None):
        model, space, report = M.train(corpus, config if floor is None else
                                       dataclasses.replace(config, blend_floor=floor))
        x = M.multi_hot(space, query)
        with torch.no_grad():
            softmax = torch.softmax(model.scores(x), 0)
        if floor is None:
            # A floor between the second and the third heaviest runs (a
            # share of the heaviest's weight).
            ranked = sorted(softmax.tolist(), reverse=True)
            model.blend_floor = (ranked[1] + ranked[2]) / 2 / ranked[0]
        path = tmp_path / f"floor-{floor}.mlir"
        path.write_text(M.model_ir(model, space, corpus, "retrieval", report))
        assert f"blend_floor = {model.blend_floor!r} : f64" in path.read_text()
        out = run_model(path, "--log-counts", "--descriptor-ids=" + ",".join(
            str(space.index[d]) for d in query))
        blend = torch.tensor([out["blend"][r["name"]] for r in corpus["runs"]])
        with torch.no_grad():
            weights = model.blend(x)
        assert (blend - weights).abs().max().item() < 1e-5
        got = torch.tensor(out["predicted_counts"], dtype=torch.float64)
        want = model.predicted_counts(x)
        assert (got - want).abs().max().item() <= max(1.0, 1e-6 * want.max().item())
        results[floor] = (softmax, blend, got)
    softmax, blend, got = results[None]
    kept = blend > 0
    assert int(kept.sum()) == 2 and bool((softmax[kept] >= softmax[~kept].max()).all())
    assert float(blend.sum()) == pytest.approx(1.0, rel=1e-5)
    assert not kept[3] and got[12] == 0 and results[0.0][2][12] > 0


def test_retrieval_model_trains_and_matches_pytorch(tmp_path):
    """The retrieval model: trained leave-one-out, written as an mlp with a
    softmax hidden layer whose output layer gives counts, and run by
    lib/Inference with the same counts; a run's own descriptor retrieves
    (mostly) its own profile."""
    corpus = synthetic_corpus()
    config = M.TrainConfig(kind="retrieval", seed=3, epochs=30, progress=False)
    model, space, report = M.train(corpus, config)
    assert report["kind"] == "retrieval" and report["validation_runs"] == []
    # Leave-one-out training lowers the loss it started from.
    untrained = M.train(corpus, dataclasses.replace(config, epochs=1))[2]
    assert report["train_loss"] < untrained["train_loss"]
    path = tmp_path / "r.mlir"
    path.write_text(M.model_ir(model, space, corpus, "retrieval", report))
    text = path.read_text()
    assert "phaedrus.model @model mlp" in text and "hidden_softmax = 1" in text
    assert "output_counts = 1" in text
    names = [r["name"] for r in corpus["runs"]]
    assert 'runs(["run0", "run1", "run2", "run3"])' in text
    # Each run's command line, for the warning about blends of runs given
    # other arguments than the input (docs/Model.md).
    assert ('run_arguments([["argc=1", "opt=-0"], ["argc=1", "opt=-1"], '
            '["argc=1", "opt=-2"], ["argc=1", "opt=-3"]])') in text
    for run in corpus["runs"]:
        x = M.multi_hot(space, run["descriptor"]).unsqueeze(0)
        with torch.no_grad():
            # The blend as a prediction makes it: without the runs below
            # the model's floor.
            weights = model.blend(x)[0]
            expected = model.output(weights)
        out = run_model(path, "--log-counts", "--descriptor-ids=" + ",".join(
            str(space.index[d]) for d in run["descriptor"]))
        got = torch.tensor(out["counts"])
        # Counts: the tolerance is relative to the mixture's total.
        assert (got - expected).abs().max().item() < 1e-5 * model.scale
        own = names.index(run["name"])
        assert int(torch.argmax(weights)) == own
        # The blend: each named run's weight, as PyTorch's softmax.
        assert list(out["blend"]) == names
        blend = torch.tensor([out["blend"][n] for n in names])
        assert (blend - weights).abs().max().item() < 1e-5
    # A hidden_softmax other than 0 or 1 is refused.
    bad = tmp_path / "bad.mlir"
    bad.write_text(text.replace("hidden_softmax = 1", "hidden_softmax = 2"))
    result = run_model(bad, "--log-counts", check=False)
    assert result.returncode == 1 and "'hidden_softmax' is 2" in result.stderr
    # So is an output_counts other than 0 or 1.
    bad.write_text(text.replace("output_counts = 1", "output_counts = 3"))
    result = run_model(bad, "--log-counts", check=False)
    assert result.returncode == 1 and "'output_counts' is 3" in result.stderr
    # The runs it names: one per hidden unit, each once, with a name, and
    # only in a model that blends runs.
    for runs, message in [('["run0", "run1", "run2"]', "names 3 training runs for its 4 hidden units"),
                          ('["run0", "run1", "run2", "run1"]', "names training run 'run1' twice"),
                          ('["run0", "", "run2", "run3"]', "a training run with an empty name")]:
        # (Without run_arguments, which the verifier would match to runs
        # first.)
        plain = "\n".join(line for line in text.split("\n")
                          if not line.lstrip().startswith("run_arguments("))
        bad.write_text(plain.replace('runs(["run0", "run1", "run2", "run3"])', f"runs({runs})"))
        result = run_model(bad, "--log-counts", check=False)
        assert result.returncode == 1 and message in result.stderr, result.stderr
    bad.write_text(text.replace("hidden_softmax = 1", "hidden_softmax = 0"))
    result = run_model(bad, "--log-counts", check=False)
    assert result.returncode == 1 and "does not blend runs" in result.stderr


def test_training_is_seeded_and_stops_early():
    corpus = synthetic_corpus()
    names = [r["name"] for r in corpus["runs"]]
    config = M.TrainConfig(kind="lstm", seed=7, epochs=40, patience=5,
                           embedding_dim=8, hidden_size=16, progress=False,
                           validation=names[:1])
    m1, _, r1 = M.train(corpus, config)
    m2, _, r2 = M.train(corpus, config)
    assert r1 == r2
    for (k, a), (_, b) in zip(m1.state_dict().items(), m2.state_dict().items()):
        assert torch.equal(a, b), k
    assert r1["validation_runs"] == names[:1]
    assert not set(r1["validation_runs"]) & set(r1["train_runs"])
    assert r1["epochs"] <= 40
    # After early stopping, the model is trained again on every run, for
    # the epochs validation chose.
    assert r1["refit_on_all_runs"]
    no_refit = M.train(corpus, dataclasses.replace(config, refit=False))[0]
    assert any(not torch.equal(a, b) for a, b in
               zip(m1.state_dict().values(), no_refit.state_dict().values()))


def test_few_runs_train_without_validation():
    corpus = synthetic_corpus()
    assert len(corpus["runs"]) < M.MIN_RUNS_FOR_VALIDATION
    config = M.TrainConfig(kind="mlp", seed=1, epochs=25, patience=5,
                           hidden_size=8, progress=False)
    _, _, report = M.train(corpus, config)
    assert report["validation_runs"] == [] and not report["refit_on_all_runs"]
    assert sorted(report["train_runs"]) == sorted(r["name"] for r in corpus["runs"])


# --------------------------------------------------------------------------
# Errors

def test_truncated_model_file_is_refused(tmp_path):
    _, _, _, path = write_model(tmp_path)
    text = path.read_text()
    cut = tmp_path / "cut.mlir"
    cut.write_text(text[: len(text) - 2000])
    result = run_model(cut, "--generate", check=False)
    assert result.returncode == 1
    assert "error" in result.stderr and "cannot read a model" in result.stderr


@pytest.mark.parametrize("old, new, message", [
    # One layer more than the weights hold.
    ("num_layers = 1 : i64", "num_layers = 2 : i64",
     "the model has no weight 'lstm.weight_ih_l1'"),
    # Only a model whose hidden units are training runs may name them.
    ("    hyperparameters(", '    runs(["a"])\n    hyperparameters(',
     "an lstm model names training runs"),
])
def test_lstm_model_that_does_not_fit_is_refused(tmp_path, old, new, message):
    _, _, _, path = write_model(tmp_path, num_layers=1)
    bad = tmp_path / "bad.mlir"
    bad.write_text(path.read_text().replace(old, new))
    result = run_model(bad, "--generate", check=False)
    assert result.returncode == 1
    assert message in result.stderr, result.stderr


def test_missing_blob_is_refused(tmp_path):
    _, _, _, path = write_model(tmp_path, kind="mlp")
    text = path.read_text()
    bad = tmp_path / "noblob.mlir"
    bad.write_text(re.sub(r"\s*model_hidden_bias: \"0x[0-9A-F]+\",?", "", text))
    result = run_model(bad, "--log-counts", check=False)
    assert result.returncode == 1
    assert "model_hidden_bias" in result.stderr


def test_corpus_refuses_mixed_builds_and_duplicate_names():
    from phaedrus import corpus as C
    from phaedrus.tools import ToolError
    base = synthetic_corpus()
    v = base["vocabulary"]
    other = dict(v, fingerprint="42")
    r0, r1 = base["runs"][:2]
    with pytest.raises(ToolError, match="recorded from another build"):
        C.make_corpus([(v, r0), (other, r1)])
    with pytest.raises(ToolError, match="run names must be unique"):
        C.make_corpus([(v, r0), (v, dict(r1, name=r0["name"]))])
    with pytest.raises(ToolError, match="at least one run"):
        C.make_corpus([])
    # Runs described by different featurizer versions do not mix; the
    # corpus records the version, and a model trained on it carries it.
    with pytest.raises(ToolError, match="run b was described by featurizer "
                                        "version 6, run a by version 2"):
        C.make_corpus([(v, dict(r0, name="a", featurizer=2)),
                       (v, dict(r1, name="b", featurizer=6))])
    corpus = C.make_corpus([(v, dict(r0, featurizer=6)), (v, dict(r1, featurizer=6))])
    assert corpus["featurizer"] == 6
    assert all("featurizer" not in r for r in corpus["runs"])
    model, space, report = M.train(corpus, M.TrainConfig(kind="mlp", epochs=2,
                                                         progress=False))
    assert "featurizer = 6 : i64" in M.model_ir(model, space, corpus, "mlp", report)
    # Runs and corpora from before the version was recorded are version 1;
    # training (phaedrus train) and eval refuse such a corpus, naming both
    # versions, because this build's featurizer is version 6.
    old = C.make_corpus([(v, r0), (v, r1)])
    assert old["featurizer"] == 1
    assert C.featurizer_version() == 6
    with pytest.raises(ToolError, match="described by featurizer version 1, "
                                        "this build describes inputs as version 6"):
        C.check_featurizer(old, "old.json")
    legacy = {k: x for k, x in corpus.items() if k != "featurizer"}
    assert "featurizer = 1 : i64" in M.model_ir(model, space, legacy, "mlp", report)


def test_corpus_merges_the_path_entries_of_its_runs():
    """Path entries differ between the traces of one build (each lists the
    paths its run took): the corpus renumbers them into one vocabulary."""
    from phaedrus import corpus as C
    static = [{"id": 0, "kind": "function", "symbol": "main"},
              {"id": 1, "kind": "function", "symbol": "f"}]
    v1 = {"name": "v", "fingerprint": "9", "entries": static + [
        {"id": 2, "kind": "path", "symbol": "f", "index": 5},
        {"id": 3, "kind": "path", "symbol": "f", "index": 7}]}
    v2 = {"name": "v", "fingerprint": "9", "entries": static + [
        {"id": 2, "kind": "path", "symbol": "f", "index": 7},
        {"id": 3, "kind": "path", "symbol": "main", "index": 1}]}
    run = {"argv": ["p"], "stdin": None, "descriptor": ["argc=0"], "events": 0}
    corpus = C.make_corpus([(v1, dict(run, name="a", tokens=[[0, 1], [2, 4], [3, 9]])),
                            (v2, dict(run, name="b", tokens=[[0, 1], [2, 3], [3, 2]]))])
    entries = corpus["vocabulary"]["entries"]
    assert [(e["id"], e["kind"], e["symbol"], e.get("index")) for e in entries] == [
        (0, "function", "main", None), (1, "function", "f", None),
        (2, "path", "f", 5), (3, "path", "f", 7), (4, "path", "main", 1)]
    a, b = corpus["runs"]
    assert a["tokens"] == [[0, 1], [2, 4], [3, 9]]
    assert b["tokens"] == [[0, 1], [3, 3], [4, 2]]  # f[7] is id 3 in the union
    # Entries of functions and call sites are the build's: they must agree.
    v3 = dict(v1, entries=[static[1], dict(static[0], id=1)])
    with pytest.raises(Exception, match="another vocabulary of functions"):
        C.make_corpus([(v1, dict(run, name="a", tokens=[])),
                       (v3, dict(run, name="c", tokens=[]))])


def test_phaedrus_model_errors(tmp_path):
    _, space, _, path = write_model(tmp_path)
    result = run_model(path, f"--logits=1,{space.size}", check=False)
    assert result.returncode == 1
    assert f"token id {space.size} is outside the model's {space.size} ids" in result.stderr
    result = run_model(path, "--generate", "--descriptor-ids=99", check=False)
    assert result.returncode == 1
    assert "descriptor id 99 is not one of the model's" in result.stderr
    # (A denormal one made every probability NaN, blamed on the weights.)
    for temperature in ("0", "1e-320", "nan", "inf"):
        result = run_model(path, "--generate", "--seed=1",
                           f"--temperature={temperature}", check=False)
        assert result.returncode == 1
        assert "the sampling temperature must be a number of at least 0.001 " \
            "(lower ones overflow)" in result.stderr, temperature
    assert run_model(path, "--generate", "--seed=1", "--temperature=0.001",
                     check=False).returncode == 0
    result = run_model(path, "--log-counts", check=False)
    assert result.returncode == 1
    assert "log counts need an mlp model" in result.stderr
    no_model = tmp_path / "vocabulary.mlir"
    no_model.write_text("phaedrus.vocabulary @v fingerprint(1) {\n"
                        "  phaedrus.entry 0 function @f\n}\n")
    result = run_model(no_model, "--generate", check=False)
    assert result.returncode == 1
    assert "must hold exactly one phaedrus.model" in result.stderr
    program = tmp_path / "program.mlir"
    program.write_text("llvm.func @f() {\n  llvm.return\n}\n")
    result = run_model(program, "--generate", check=False)
    assert result.returncode == 1
    # (Read, the LLVM dialect being loaded, and said to hold no model.)
    assert "must hold exactly one phaedrus.model, it holds 0 (a model file " \
        "comes from 'phaedrus train')" in result.stderr
    result = run_model(path, "--generate", "--argv=p", "--stdin=" + str(tmp_path / "absent"),
                       check=False)
    assert result.returncode == 1
    assert "standard input" in result.stderr and "is not a regular file" in result.stderr
    # Generation and sequence logits are an lstm's: an mlp (what 'phaedrus
    # train' writes by default, a retrieval model being one) has neither.
    _, _, _, mlp = write_model(tmp_path, kind="mlp", name="mlp.mlir")
    result = run_model(mlp, "--generate", "--descriptor-ids=0", check=False)
    assert result.returncode == 1
    assert "generation needs an lstm model" in result.stderr, result.stderr
    result = run_model(mlp, "--logits=1", check=False)
    assert result.returncode == 1
    assert "sequence logits need an lstm model" in result.stderr, result.stderr


def test_retrieval_starts_from_rare_descriptor_tokens():
    """Before training, the retrieval model weighs descriptor tokens by
    their inverse document frequency: a query that shares one rare token
    with run `math` and two common ones with run `busy` retrieves `math`;
    a token every run has counts for nothing."""
    common = ["argc=2", "file0.word=local", "file0.word=end"]
    runs = [("busy", common + ["file0.word=for", "file0.word=then"]),
            ("math", common + ["file0.word=math"]),
            ("loop", common + ["file0.word=for", "file0.word=then", "file0.word=while"]),
            ("table", common + ["file0.word=insert"])]
    vocab_size = 3
    keys = torch.stack([torch.tensor([1.0 if d in ds else 0.0 for d in
                                      sorted({d for _, ds in runs for d in ds})])
                        for _, ds in runs])
    space = M.TokenSpace(sorted({d for _, ds in runs for d in ds}), vocab_size)
    model = M.RetrievalModel(len(space.descriptors), vocab_size, len(runs))
    model.remember(keys, torch.zeros(len(runs), vocab_size), M.RETRIEVAL_TEMPERATURE)
    query = common + ["file0.word=math", "file0.word=for", "file0.word=then"]
    with torch.no_grad():
        scores = model.scores(M.multi_hot(space, query))
    names = [n for n, _ in runs]
    assert names[int(torch.argmax(scores))] == "math", scores
    # Only the common tokens: every run scores alike (zero).
    with torch.no_grad():
        flat = model.scores(M.multi_hot(space, common))
    assert flat.abs().max().item() < 1e-6


def sized_corpus():
    """Five runs on inputs of 2^(10 + 2i) bytes whose work is proportional
    to them, but for one token run once whatever the input (a program's
    start)."""
    corpus = synthetic_corpus(runs=5)
    for i, run in enumerate(corpus["runs"]):
        run["stdin"] = f"in{i}"
        run["descriptor"] = ["argc=0", "stdin=file", f"stdin.size={10 + 2 * i}"]
        run["tokens"] = [(t, 1 if t == 11 else c * 4 ** i)
                         for t, c in corpus["runs"][0]["tokens"]]
        run["events"] = sum(c for _, c in run["tokens"])
    return corpus


def write_retrieval_model(tmp_path, name="r.mlir"):
    """A retrieval model with a size law, trained on sized_corpus."""
    corpus = sized_corpus()
    config = M.TrainConfig(kind="retrieval", seed=3, epochs=5, progress=False)
    model, space, report = M.train(corpus, config)
    path = tmp_path / name
    path.write_text(M.model_ir(model, space, corpus, "retrieval", report))
    return model, space, corpus, path


def test_retrieval_total_follows_the_input_size(tmp_path):
    """A retrieval model's size law: trained on runs whose totals grow with
    their input's size, it scales the blend of the runs' totals to a new
    input's size, in lib/Inference as in PyTorch, and the C++ featurizer's
    input size is model.py's."""
    model, space, corpus, path = write_retrieval_model(tmp_path)
    assert model.runs.exponent == pytest.approx(1.0)
    written = re.search(r"size_exponent = ([0-9.e+-]+) : f64", path.read_text())
    assert float(written.group(1)) == model.runs.exponent
    ids = ",".join(str(space.index[d]) for d in corpus["runs"][1]["descriptor"])
    x = M.multi_hot(space, corpus["runs"][1]["descriptor"]).unsqueeze(0)
    with torch.no_grad():
        weights = model.blend(x)[0]
    # Token 11 ran once in every run: it keeps its count, the rest scale.
    assert dict(corpus["runs"][0]["tokens"])[11] == 1
    fixed = model.tokens.fixed_count
    assert fixed[11] == 1 and (fixed >= 0).sum() == 1 + sum(
        t not in dict(corpus["runs"][0]["tokens"]) for t in range(12))
    for log2_size in [12.5, 30.5, None]:
        args = [] if log2_size is None else [f"--input-log2-size={log2_size}"]
        out = run_model(path, "--log-counts", f"--descriptor-ids={ids}", *args)
        assert out["total"] == pytest.approx(model.runs.total(weights, log2_size), rel=1e-5)
        # The counts predicted: the law's total, less the fixed tokens'.
        got = torch.tensor(out["predicted_counts"], dtype=torch.float64)
        want = model.predicted_counts(x[0], log2_size)
        assert (got - want).abs().max().item() <= max(1.0, 1e-6 * want.max().item())
        assert got[11] == 1
        assert got.sum().item() == pytest.approx(out["total"], rel=1e-4, abs=12)
    # Runs alike but for their size: 2^18 more input, 2^18 more work.
    small = run_model(path, "--log-counts", f"--descriptor-ids={ids}",
                      "--input-log2-size=12.5")["total"]
    large = run_model(path, "--log-counts", f"--descriptor-ids={ids}",
                      "--input-log2-size=30.5")["total"]
    assert large / small == pytest.approx(2 ** 18, rel=1e-4)
    # From a real file on standard input: 1 MiB is bucket 20, whatever the
    # model saw (stdin.size=20 is not one of its tokens).
    data = tmp_path / "big.bin"
    data.write_bytes(b"x" * 2 ** 20)
    tokens = ["argc=0", "stdin=file", "stdin.size=20"]
    assert M.input_log2_size(tokens) == pytest.approx(20.5)
    out = run_model(path, "--log-counts", "--argv=p", f"--stdin={data}")
    # ... and it says which token it has not seen.
    result = run_model(path, "--log-counts", "--argv=p", f"--stdin={data}", check=False)
    assert result.returncode == 0
    unseen = [line for line in result.stderr.splitlines() if "never seen" in line]
    assert len(unseen) == 1 and "were never seen in training and are left out: " \
        in unseen[0] and "stdin.size=20" in unseen[0].split(": ")[-1].split(", ")
    with torch.no_grad():
        weights = model.blend(M.multi_hot(space, tokens).unsqueeze(0))[0]
    assert out["total"] == pytest.approx(model.runs.total(weights, 20.5), rel=1e-5)


def two_workloads_corpus():
    """Two programs (as a script or an AWK program on the command line):
    within each, the work grows as the input (three sizes each), but
    across them it does not: `small` reads inputs of 2^10-2^14 bytes and
    does 2^16-2^20 events, `big` reads 2^16-2^20 and does 2^14-2^18 (the
    gawk trial's corpus: 13 AWK programs, one exponent 0)."""
    corpus = synthetic_corpus(runs=6)
    base = corpus["runs"][0]["tokens"]
    for i, run in enumerate(corpus["runs"]):
        program, k = ("small", i) if i < 3 else ("big", i - 3)
        log2_size = (10 if program == "small" else 16) + 2 * k
        log2_total = (16 if program == "small" else 14) + 2 * k
        run["name"] = f"{program}{k}"
        # A program is told by its words (an AWK program's, a script's).
        run["descriptor"] = ["argc=1", "operand1=file",
                             *(f"file0.word={program}{j}" for j in range(8)),
                             f"file0.size={log2_size}"]
        unit = sum(c for _, c in base)
        run["tokens"] = [(t, max(1, round(c * 2 ** log2_total / unit)))
                         for t, c in base]
        run["events"] = sum(c for _, c in run["tokens"])
    return corpus


def test_local_size_law_follows_each_workload(tmp_path):
    """One exponent for a corpus of workloads whose totals grow with their
    inputs only within each comes out 0, and a larger input's prediction
    keeps the totals of the runs it blends. The local law fits the
    exponent over the runs a prediction blends: train keeps it where
    leave-one-out says it predicts totals better, and lib/Inference
    computes what PyTorch does."""
    corpus = two_workloads_corpus()
    config = M.TrainConfig(kind="retrieval", seed=0, epochs=5, progress=False)
    model, space, report = M.train(corpus, config)
    assert model.runs.exponent == 0.0
    assert report["size_law"] == "local", report
    assert report["size_law_errors"]["local"] < report["size_law_errors"]["corpus"] - 0.05
    path = tmp_path / "local.mlir"
    path.write_text(M.model_ir(model, space, corpus, "retrieval", report))
    assert re.search(r"size_local_prior = 0.5 : f64", path.read_text())
    assert '"runs.pair_weight" = dense_resource' in path.read_text()
    descriptor = ["argc=1", "operand1=file",
                  *(f"file0.word=small{j}" for j in range(8)), "file0.size=14"]
    ids = ",".join(str(space.index[d]) for d in descriptor)
    x = M.multi_hot(space, descriptor)
    with torch.no_grad():
        weights = model.blend(x.unsqueeze(0))[0]
    assert float(weights[:3].sum()) > 0.9, weights
    b = model.predicted_exponent(x)
    assert 0.8 <= b <= 1.05, b
    totals = {}
    for log2_size in (14.5, 20.5):
        out = run_model(path, "--log-counts", f"--descriptor-ids={ids}",
                        f"--input-log2-size={log2_size}")
        assert out["size_exponent"] == pytest.approx(b, rel=1e-5)
        assert out["total"] == pytest.approx(
            model.runs.total(weights, log2_size, exponent=b), rel=1e-5)
        got = torch.tensor(out["predicted_counts"], dtype=torch.float64)
        want = model.predicted_counts(x, log2_size)
        assert (got - want).abs().max().item() <= max(1.0, 1e-6 * want.max().item())
        totals[log2_size] = out["total"]
    # 2^6 more input: about 2^(6b) more work, where one exponent (0) kept
    # the blended runs' totals.
    assert math.log2(totals[20.5] / totals[14.5]) == pytest.approx(6 * b, rel=1e-4)
    assert math.log2(totals[20.5]) >= 24
    # A corpus of one workload keeps the corpus's exponent (the local law
    # predicts no better), and its model file has no pair weights.
    model, space, report = M.train(sized_corpus(), config)
    assert report["size_law"] == "corpus", report
    assert "pair_weight" not in M.model_ir(model, space, sized_corpus(), "retrieval", report)
    # Without the prior's weight the model file is refused.
    broken = tmp_path / "broken.mlir"
    broken.write_text(re.sub(r", size_local_prior = [0-9.e+-]+ : f64", "",
                             path.read_text()))
    result = run_model(broken, "--log-counts", f"--descriptor-ids={ids}", check=False)
    assert result.returncode != 0
    assert "hyper-parameter 'size_local_prior' is missing" in result.stderr


def test_train_says_how_totals_follow_the_inputs_sizes(tmp_path):
    """`phaedrus train` says which law of size its retrieval model keeps,
    also when it finds none: a SQLite user's larger input of INSERTs was
    predicted at 0.15x its total, and nothing had said the sizes went
    unused."""
    flat = sized_corpus()
    for run in flat["runs"]:  # the same work whatever the input's size
        run["tokens"] = sized_corpus()["runs"][0]["tokens"]
        run["events"] = sum(c for _, c in run["tokens"])
    for corpus, words in [
            (sized_corpus(), "the runs' totals grow as their inputs' size^1.00 "
                             "across the corpus: predictions scale the totals of "
                             "the runs they blend by it"),
            (flat, "the runs' totals do not follow their inputs' sizes (size "
                   "exponent 0): a prediction has the totals of the runs it "
                   "blends, whatever its input's size")]:
        path = tmp_path / "corpus.json"
        path.write_text(json.dumps(dict(corpus, featurizer=featurizer_version())))
        result = subprocess.run(
            [sys.executable, "-m", "phaedrus", "train", str(path), "-o",
             str(tmp_path / "m.mlir"), "--kind", "retrieval", "--epochs", "3"],
            capture_output=True, text=True,
            env={"PYTHONPATH": str(REPO_ROOT / "python"), "PATH": "/usr/bin:/bin"})
        assert result.returncode == 0, result.stderr
        assert words in result.stderr, result.stderr


def test_size_exponent():
    # Totals proportional to sizes, squared, unrelated, too few runs.
    assert M.size_exponent([(x, x + 3) for x in range(5)]) == pytest.approx(1.0)
    assert M.size_exponent([(x, 2 * x) for x in range(5)]) == pytest.approx(2.0)
    assert M.size_exponent([(x, 5 * x) for x in range(5)]) == M.SIZE_EXPONENT_MAX
    assert M.size_exponent([(x, -x) for x in range(5)]) == 0.0
    assert M.size_exponent([(10, 20), (11, 25), (12, 19), (13, 24), (14, 21)]) == 0.0
    assert M.size_exponent([(1, 2), (2, 4)]) == 0.0
    assert M.size_exponent([(3, 1), (3, 2), (3, 3)]) == 0.0
    assert M.input_log2_size(["argc=1", "operand1=file", "file0.size=3", "stdin.size=3"]) == \
        pytest.approx(4.5)
    assert M.input_log2_size(["argc=1", "operand1=num3", "stdin=none"]) is None


def test_blended_total_is_not_dominated_by_a_light_run():
    # A gawk user's diffuse blend: 1% of the weight on a run whose total,
    # extrapolated, is 2^20 times the others'. The blend's geometric mean of
    # the totals moves 2^0.2; an arithmetic mean would be 2^33.4.
    totals = M.RunTotals(2)
    with torch.no_grad():
        totals.log2_total.copy_(torch.tensor([20.0, 40.0]))
        totals.log2_size.copy_(torch.tensor([-1.0, -1.0]))
    total = totals.total(torch.tensor([0.99, 0.01]))
    assert math.log2(total) == pytest.approx(20.2, abs=1e-4)
    assert totals.total(torch.tensor([1.0, 0.0])) == pytest.approx(2.0 ** 20)


def crossed_corpus(option_decides: bool):
    """Three options x three kinds of data, crossed (docs/Corpus.md), but
    for option 2 on data 0, the held-out input: each run's profile is its
    option's (option_decides) or its data's, and the kinds of data have
    several distinct words where an option has one token, so that
    unweighted TF-IDF follows the data."""
    vocab_size = 9
    entries = [{"id": i, "kind": "function", "symbol": f"f{i}"} for i in range(vocab_size)]
    runs = []
    for o in range(3):
        for d in range(3):
            if (o, d) == (2, 0):
                continue
            key = o if option_decides else d
            tokens = [(3 * key + j, 1000 * (j + 1)) for j in range(3)]
            runs.append({"name": f"o{o}d{d}", "argv": ["p", f"-{o}"], "stdin": f"in{d}",
                         "descriptor": ["argc=1", f"opt=-{o}", "stdin=file"]
                         + [f"stdin.word=kind{d}w{w}" for w in range(4)],
                         "events": sum(c for _, c in tokens), "tokens": tokens})
    return {"format": "phaedrus-corpus", "version": 1, "fingerprint": FINGERPRINT,
            "vocabulary": {"name": "phaedrus_vocabulary", "fingerprint": FINGERPRINT,
                           "entries": entries},
            "runs": runs}


@pytest.mark.parametrize("option_decides", [True, False])
def test_retrieval_weighs_arguments_where_the_runs_show_they_decide(option_decides):
    """Where leave-one-out shows the options deciding (a run's profile is
    that of the other runs given its option), command-line tokens count
    more than the input's words, and a held-out input given a known option
    on new data gets that option's profile; where the data decides, the
    weight stays 1 and the same input follows its data."""
    corpus = crossed_corpus(option_decides)
    # Untrained (the weights it starts from): training could learn the same
    # from these runs, not from a real program's few.
    config = M.TrainConfig(kind="retrieval", seed=1, epochs=1, learning_rate=0.0,
                           progress=False)
    model, space, report = M.train(corpus, config)
    overlaps = report["argument_weight_overlaps"]
    assert set(overlaps) == {str(w) for w in M.ARGUMENT_WEIGHTS}
    if option_decides:
        assert report["argument_weight"] > 1.0, overlaps
        assert overlaps[str(report["argument_weight"])] >= overlaps["1.0"] + \
            M.ARGUMENT_WEIGHT_MARGIN
    else:
        assert report["argument_weight"] == 1.0, overlaps
    # Option 2 on data of kind 0, a combination no run had: the
    # prediction's heaviest token.
    query = ["argc=1", "opt=-2", "stdin=file"] + [f"stdin.word=kind0w{w}" for w in range(4)]
    counts = model.predicted_counts(M.multi_hot(space, query))
    heaviest = int(torch.argmax(counts))
    assert heaviest // 3 == (2 if option_decides else 0), counts


def test_an_lstm_too_large_for_the_machine_is_refused():
    """An lstm scores every profile token against the whole vocabulary at
    each step: on SQLite (19,732 tokens, runs of ~5k) that was 8.5 GB and no
    epoch's end. Refused, with the size, when it needs more than half the
    free memory; the estimate is the logits, their softmax and gradient."""
    from phaedrus.tools import ToolError
    runs = [{"tokens": [[t, 3] for t in range(5000)]} for _ in range(8)]
    need = M.lstm_step_bytes(runs, 19732)
    assert need == 8 * 5000 * 19733 * 12
    with pytest.raises(ToolError, match=r"an lstm on this corpus needs about 8\.8 GiB "
                       r"for each training step \(40000 profile tokens scored against "
                       r"19733 vocabulary tokens\), more than half the 8\.0 GiB"):
        M.check_lstm_memory(runs, 19732, available=8 << 30)
    M.check_lstm_memory(runs, 19732, available=32 << 30)
    assert M.available_memory_bytes() > 0


def test_training_without_a_terminal_says_how_it_goes(capsys):
    """No progress bar when stderr is not a terminal (a gawk user's lstm ran
    ten minutes in silence): a line after a long first epoch and then every
    heartbeat_s seconds (here 0: every epoch)."""
    M.train(synthetic_corpus(), M.TrainConfig(kind="mlp", epochs=3, progress=False,
                                              heartbeat_s=0, refit=False))
    err = capsys.readouterr().err
    assert "phaedrus: train mlp: epoch 1 of at most 3 took" in err, err
    assert "s each), loss" in err and "(validation" in err
    M.train(synthetic_corpus(), M.TrainConfig(kind="mlp", epochs=3, progress=False,
                                              heartbeat_s=None))
    assert "epoch" not in capsys.readouterr().err


def test_retrieval_predicts_a_training_input_as_itself():
    """Leave-one-out never scores a run against its own input, and training
    let runs whose profiles help predict many others (a little of every
    run's work) outweigh a run on its own input: a jq corpus blended
    another run for 12 of its 30 training inputs. With the self term, each
    training input's blend is its own run."""
    n = 10
    g = torch.Generator().manual_seed(2)
    corpus = synthetic_corpus(vocab_size=n + 5, runs=n + 1)
    for i, run in enumerate(corpus["runs"]):
        # Runs of their own work (token i), and a hub doing a little of each.
        own = [(i, 1000)] if i < n else [(t, 100) for t in range(n)]
        run["tokens"] = own + [(n + j, 100) for j in range(5)]
        run["events"] = sum(c for _, c in run["tokens"])
        words = torch.randperm(12, generator=g)[:6].tolist()
        run["descriptor"] = ["argc=1", f"opt=-{i}", "stdin=file",
                             *(f"stdin.word={w}" for w in words)]
        run["name"] = f"r{i}"
    model, space, report = M.train(corpus, M.TrainConfig(kind="retrieval", progress=False))
    keys = torch.stack([M.multi_hot(space, r["descriptor"]) for r in corpus["runs"]])
    with torch.no_grad():
        weights = torch.softmax(model.scores(keys), dim=1)
    assert float(weights.diagonal().min()) >= 0.9, weights.diagonal()
    # The loss reported is leave-one-out's alone.
    profiles, _ = M.normalized_profiles(n + 5, corpus["runs"])
    exclude = torch.eye(n + 1, dtype=torch.bool)
    with torch.no_grad():
        loo = float(model.overlap_loss(keys, profiles, exclude))
    assert report["validation_loss"] == pytest.approx(loo)


def test_train_refuses_a_blend_floor_outside_0_to_1():
    """The floor is a share of the heaviest run's weight: train() (the
    Python API; the CLI's argparse checks --blend-floor) refuses others
    with the value named, before any training."""
    for floor in (1.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match=r"the blend floor is a share of "
                           r"the heaviest run's weight, in \[0, 1\), not"):
            M.train(synthetic_corpus(), M.TrainConfig(
                kind="retrieval", epochs=0, progress=False, blend_floor=floor))


def test_blend_floor_keeps_the_local_size_laws_slope(tmp_path):
    """A blend the floor leaves with one run still scales by the slope of
    that run's siblings (the local law fits its exponent over the blend
    before the floor): an input 2^6 times larger gets about 2^(6b) times
    the work, as without the floor, where fitting over the floored blend
    (one run, no pairs) fell back to the corpus's exponent, 0, and kept
    the run's total (found by a review, 2026-11-27)."""
    corpus = two_workloads_corpus()
    # A word of each run's own, so that a query can look like one run.
    for r in corpus["runs"]:
        r["descriptor"].append(f"file0.word=only-{r['name']}")
    model, space, report = M.train(corpus, M.TrainConfig(
        kind="retrieval", seed=0, epochs=5, progress=False))
    assert model.runs.exponent == 0.0 and report["size_law"] == "local"
    query = [d for d in corpus["runs"][1]["descriptor"]
             if not d.startswith("file0.size")] + ["file0.size=12"]
    ids = ",".join(str(space.index[d]) for d in query)
    x = M.multi_hot(space, query)
    ratios = {}
    for floor in (0.0, 0.2):
        model.blend_floor = floor
        path = tmp_path / f"floor-{floor}.mlir"
        path.write_text(M.model_ir(model, space, corpus, "retrieval", report))
        totals = {}
        for log2_size in (14.5, 20.5):
            out = run_model(path, "--log-counts", f"--descriptor-ids={ids}",
                            f"--input-log2-size={log2_size}")
            totals[log2_size] = out["total"]
            assert out["size_exponent"] == pytest.approx(model.predicted_exponent(x), rel=1e-5)
            got = torch.tensor(out["predicted_counts"], dtype=torch.float64)
            want = model.predicted_counts(x, log2_size)
            assert (got - want).abs().max().item() <= max(1.0, 1e-6 * want.max().item())
        with torch.no_grad():
            kept = int((model.blend(x) > 0).sum())
        assert kept == (1 if floor else len(corpus["runs"]))
        ratios[floor] = math.log2(totals[20.5] / totals[14.5])
        assert out["size_exponent"] > 0.5
    # The one run's total scales as its siblings do, with the floor or not.
    assert ratios[0.2] == pytest.approx(6 * model.predicted_exponent(x), rel=1e-4)
    assert ratios[0.2] > 3


def test_tokens_only_validation_runs_have_stay_in_the_model():
    """The model is refit on every run, so what only the validation runs
    show is kept (a jq user's validation run held the only filter
    `[paths] | length`, and predict then called it never seen)."""
    corpus = synthetic_corpus(runs=4)
    corpus["runs"][3]["descriptor"] = corpus["runs"][3]["descriptor"] + ["operand1=only-here"]
    for kind in ("mlp", "lstm"):
        config = M.TrainConfig(kind=kind, seed=0, epochs=3, progress=False,
                               validation=["run3"], hidden_size=8, embedding_dim=8)
        model, space, report = M.train(corpus, config)
        assert report["validation_runs"] == ["run3"] and report["refit_on_all_runs"]
        assert "operand1=only-here" in space.descriptors, kind


def test_a_slow_lstm_says_so_before_training(monkeypatch, capsys):
    """Before its first epoch, an lstm whose epochs would take long says how
    long, from one run's step timed (a jq user waited 168 s for a first
    line, of 14 hours of training)."""
    corpus = synthetic_corpus(runs=4)
    config = M.TrainConfig(kind="lstm", seed=0, epochs=2, progress=False,
                           hidden_size=8, embedding_dim=8)
    monkeypatch.setattr(M, "LSTM_SLOW_S", 0.0)
    first, _, _ = M.train(corpus, config)
    err = capsys.readouterr().err
    assert "train lstm: an epoch on this corpus takes about" in err
    assert "its at most 2 epochs could take" in err
    # Timing it changes nothing: the same weights as without the note.
    monkeypatch.setattr(M, "LSTM_SLOW_S", float("inf"))
    second, _, _ = M.train(corpus, config)
    assert capsys.readouterr().err == ""
    for (name, a), (_, b) in zip(first.state_dict().items(), second.state_dict().items()):
        assert torch.equal(a, b), name


def test_retrieval_trains_as_long_as_cross_validation_says_it_helps():
    """With 6 runs or more, the retrieval's epochs are cross-validated over
    the runs: it trains for the fewest epochs within one standard error of
    the best held-out overlap, 0 meaning the untrained TF-IDF similarity
    (training made held-out runs worse on every corpus measured)."""
    corpus = synthetic_corpus(runs=8, seed=5)
    config = M.TrainConfig(kind="retrieval", seed=0, epochs=40, progress=False)
    model, space, report = M.train(corpus, config)
    chosen = report["cv_epochs"]
    assert isinstance(chosen, int) and 0 <= chosen <= 40
    overlaps = report["cv_overlaps"]
    assert {"0", str(chosen), "40"} <= set(overlaps)
    assert all(0.0 <= o <= 1.0 for o in overlaps.values())
    # It trained for exactly the chosen epochs.
    assert report["epochs"] == chosen
    # Chosen 0: the model is the untrained similarity, as learning rate 0
    # leaves it.
    if chosen == 0:
        untrained, _, _ = M.train(corpus, dataclasses.replace(
            config, epochs=1, learning_rate=0.0))
        assert torch.equal(model.hidden.weight, untrained.hidden.weight)
    # Fewer runs than CV_MIN_RUNS: --epochs as before.
    small = synthetic_corpus(runs=M.CV_MIN_RUNS - 1)
    _, _, report = M.train(small, config)
    assert report["cv_epochs"] is None and report["cv_overlaps"] == {}



def test_split_runs_refuses_unknown_or_all_validation_runs():
    """--validation names runs of the corpus, and leaves some to train on."""
    runs = synthetic_corpus()["runs"]
    names = [r["name"] for r in runs]
    with pytest.raises(ValueError, match=r"validation runs not in the corpus: \['nope'\]"):
        M.split_runs(runs, M.TrainConfig(kind="mlp", validation=[names[0], "nope"]))
    with pytest.raises(ValueError, match="no training runs left after the validation split"):
        M.split_runs(runs, M.TrainConfig(kind="mlp", validation=names))
    train, val = M.split_runs(runs, M.TrainConfig(kind="mlp", validation=names[:1]))
    assert [r["name"] for r in val] == names[:1] and len(train) == len(runs) - 1


def test_log_counts_refuse_weights_that_overflow(tmp_path):
    """Finite weights whose output overflows a float: phaedrus-model
    --log-counts says so instead of printing inf (--phaedrus-predict's twin
    of this check is in test/Dialect/Phaedrus/phaedrus-predict.mlir)."""
    path = tmp_path / "huge.mlir"
    path.write_text(
        'phaedrus.vocabulary @v fingerprint(1) {\n'
        '  phaedrus.entry 0 function @f0\n'
        '}\n'
        'phaedrus.model @m mlp vocabulary(@v) fingerprint(1) vocab_size(1)\n'
        '    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, '
        'num_specials = 5 : i64, num_buckets = 161 : i64,\n'
        '    buckets_per_octave = 4 : i64, hidden_size = 1 : i64})\n'
        '    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, '
        '"hidden.bias" = dense<10.0> : tensor<1xf32>,\n'
        '             "output.weight" = dense<3.0e38> : tensor<1x1xf32>, '
        '"output.bias" = dense<3.0e38> : tensor<1xf32>})\n')
    result = run_model(path, "--log-counts", "--descriptor-ids=0", check=False)
    assert result.returncode == 1, result.stdout
    assert "the model's output for token 0 is inf: its weights overflow" in result.stderr, \
        result.stderr


def test_eval_reads_the_blend_of_an_input_whose_tokens_the_model_never_saw(tmp_path):
    """eval's report of the prediction's blend, for a held-out input none of
    whose descriptor tokens the model knows: the empty descriptor's blend, as
    the prediction takes it (phaedrus-model refused the empty id list, after
    all of the input's timed rounds, and the report was lost)."""
    from types import SimpleNamespace
    from phaedrus import evaluate
    from phaedrus.pipeline import model_header
    corpus = synthetic_corpus()
    config = M.TrainConfig(kind="retrieval", seed=3, epochs=0, progress=False)
    model, space, report = M.train(corpus, config)
    path = tmp_path / "r.mlir"
    path.write_text(M.model_ir(model, space, corpus, "retrieval", report))
    host = SimpleNamespace(model=path, model_header=model_header(path))
    blend = evaluate.Evaluation.predicted_blend(host, ["never=seen", "opt=-zz"])
    assert set(blend) <= {r["name"] for r in corpus["runs"]} and blend
    assert blend == evaluate.Evaluation.predicted_blend(host, [])
    assert sum(blend.values()) == pytest.approx(1.0, abs=0.03)
