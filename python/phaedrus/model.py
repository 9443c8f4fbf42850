"""Models that predict a run's profile from its descriptor tokens, trained in
PyTorch and written as phaedrus IR that --phaedrus-predict runs with oneDNN.

Three kinds (docs/Model.md has the token spaces, weight names and layouts):

* `lstm`: a generative language model over one token space made of special
  tokens, descriptor tokens, the program's vocabulary and count buckets. A
  run is the sequence

      <bos> d_1 .. d_k <sep> p_1 c_1 p_2 c_2 .. p_m c_m <eos>

  (descriptor tokens, then each vocabulary token the run holds in order of
  first occurrence with the log-scale bucket of its count). Generation is
  constrained: a vocabulary token not yet generated or <eos>, then a bucket.
* `mlp`: the direct-count baseline: multi-hot descriptor -> log(1 + count)
  of every vocabulary token.
* `retrieval`: a mixture of the training runs' normalised profiles,
  weighed by a softmax over learned descriptor similarities and trained on
  the leave-one-out overlap (an mlp with a softmax hidden layer whose
  output layer gives counts in the model file).

All run identically in lib/Inference (C++, oneDNN): the test suite compares
logits and generated sequences."""

import dataclasses
import math
import random
import re
import time
from dataclasses import dataclass, field

import torch
from torch import nn

from . import corpus as corpus_mod
from . import pipeline
from .pipeline import mlir_string
from .tools import ToolError, log, progress

SPECIALS = ["<pad>", "<bos>", "<sep>", "<eos>", "<unk>"]
PAD, BOS, SEP, EOS, UNK = range(len(SPECIALS))
BUCKETS_PER_OCTAVE = 4
NUM_BUCKETS = BUCKETS_PER_OCTAVE * 40 + 1  # counts up to 2^40


def bucket_of(count: int, per_octave=BUCKETS_PER_OCTAVE, num=NUM_BUCKETS) -> int:
    """floor(per_octave * log2(count)) for count >= 1, clipped."""
    if count < 1:
        raise ValueError("counts of occurring tokens are at least 1")
    b = int(math.floor(per_octave * math.log2(count)))
    # log2 of exact powers may land a hair below the integer.
    while b + 1 < num and 2 ** ((b + 1) / per_octave) <= count:
        b += 1
    return min(b, num - 1)


def count_of(bucket: int, per_octave=BUCKETS_PER_OCTAVE) -> int:
    """The count a bucket decodes to: the geometric middle of its range,
    at least 1 (lib/Inference computes the same)."""
    return max(1, int(math.floor(2 ** ((bucket + 0.5) / per_octave) + 0.5)))


@dataclass
class TokenSpace:
    """Ids of the LSTM's one token space."""
    descriptors: list
    vocab_size: int
    num_buckets: int = NUM_BUCKETS
    index: dict = field(init=False)

    def __post_init__(self):
        self.index = {d: i for i, d in enumerate(self.descriptors)}

    @property
    def descriptor_base(self):
        return len(SPECIALS)

    @property
    def program_base(self):
        return self.descriptor_base + len(self.descriptors)

    @property
    def bucket_base(self):
        return self.program_base + self.vocab_size

    @property
    def size(self):
        return self.bucket_base + self.num_buckets

    def prefix(self, descriptor):
        """<bos> descriptor ids <sep>; unknown tokens are left out (the
        C++ side reports them)."""
        ids = [self.descriptor_base + self.index[d]
               for d in descriptor if d in self.index]
        return [BOS, *ids, SEP]

    def sequence(self, descriptor, tokens):
        body = []
        for token, count in tokens:
            body += [self.program_base + token,
                     self.bucket_base + bucket_of(count, num=self.num_buckets)]
        return self.prefix(descriptor) + body + [EOS]


class LstmModel(nn.Module):
    def __init__(self, size, embedding_dim=64, hidden_size=128, num_layers=1):
        super().__init__()
        self.init_args = (size, embedding_dim, hidden_size, num_layers)
        self.embedding = nn.Embedding(size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_size, num_layers,
                            batch_first=True)
        self.output = nn.Linear(hidden_size, size)

    def forward(self, ids, state=None):
        out, state = self.lstm(self.embedding(ids), state)
        return self.output(out), state


class MlpModel(nn.Module):
    def __init__(self, num_descriptors, vocab_size, hidden_size=64):
        super().__init__()
        self.init_args = (num_descriptors, vocab_size, hidden_size)
        self.hidden = nn.Linear(num_descriptors, hidden_size)
        self.output = nn.Linear(hidden_size, vocab_size)

    def forward(self, multi_hot):
        return self.output(torch.relu(self.hidden(multi_hot)))


class RunTotals(nn.Module):
    """The size law of a retrieval model's totals (docs/Model.md): each
    training run's log2 total of events (`log2_total`) and log2 input size
    (`log2_size`, -1 for a run without input files), and the exponent with
    which totals grow with the input's size. A prediction's total is the
    blend's geometric mean of the runs' totals, each times (input size /
    run's size) to that exponent; the mixture's shape is the model's."""

    def __init__(self, num_runs):
        super().__init__()
        self.register_buffer("log2_total", torch.zeros(num_runs))
        self.register_buffer("log2_size", torch.full((num_runs,), -1.0))
        self.exponent = 0.0
        # The local law (off until choose_size_law turns it on): the
        # exponent of a prediction fitted over the runs it blends
        # (exponent_for), from pairs of alike runs (`pair_weight` [R, R]:
        # how alike runs i and j are, symmetric, 0 on the diagonal).
        self.register_buffer("pair_weight", torch.zeros(num_runs, num_runs))
        self.local = False
        self.local_prior = SIZE_LOCAL_PRIOR

    def fit(self, runs):
        """The law of `runs` (a corpus's): their totals and sizes, and the
        exponent size_exponent chooses."""
        totals = [math.log2(max(1, sum(c for _, c in r["tokens"]))) for r in runs]
        sizes = [input_log2_size(r["descriptor"]) for r in runs]
        with torch.no_grad():
            self.log2_total.copy_(torch.tensor(totals))
            self.log2_size.copy_(torch.tensor([-1.0 if x is None else x for x in sizes]))
        self.exponent = size_exponent(
            [(x, t) for x, t in zip(sizes, totals) if x is not None])

    def exponent_for(self, weights, exponent=None, local=None,
                     keep=None) -> float:
        """The exponent for a prediction blending the runs with `weights`
        ([R], summing to 1), as lib/Inference computes it: the corpus's
        (`exponent`, default self.exponent) without the local law; with it
        (`local`, default self.local), the slope of log2 total on log2 size
        between pairs of runs that read files, the pair (i, j) weighed by
        w_i w_j pair_weight[i, j], normalised to sum 1: the runs the blend
        takes, measured against the runs alike to them (a program's other
        sizes), not against other workloads with totals of their own. It is
        shrunk toward `exponent` by local_prior (as much as that weighted
        mean squared difference of log2 sizes) and clamped to [0,
        SIZE_EXPONENT_MAX]. `keep` ([R] bool) leaves runs out
        (leave-one-out)."""
        exponent = self.exponent if exponent is None else exponent
        local = self.local if local is None else local
        if not local:
            return exponent
        sized = self.log2_size >= 0
        if keep is not None:
            sized = sized & keep
        w = torch.where(sized, weights.double().clamp(min=0), torch.zeros(len(sized),
                                                                          dtype=torch.float64))
        u = torch.triu(w[:, None] * w[None, :] * self.pair_weight.double(), diagonal=1)
        mass = float(u.sum())
        if mass <= 0:
            return exponent
        x, y = self.log2_size.double(), self.log2_total.double()
        dx, dy = x[:, None] - x[None, :], y[:, None] - y[None, :]
        sxy = float((u * dx * dy).sum()) / mass
        sxx = float((u * dx * dx).sum()) / mass
        b = (sxy + self.local_prior * exponent) / (sxx + self.local_prior)
        return min(max(b, 0.0), SIZE_EXPONENT_MAX)

    def total(self, weights, log2_size=None, exponent=None):
        """The total for blend `weights` ([R], summing to 1) and an input of
        `log2_size` (None: no input file), as lib/Inference computes it
        (`exponent`: exponent_for's, unless given)."""
        if exponent is None:
            exponent = self.exponent_for(weights)
        shift = torch.zeros(self.log2_total.shape, dtype=torch.float64)
        if log2_size is not None:
            shift = torch.where(self.log2_size >= 0,
                                exponent * (log2_size - self.log2_size.double()),
                                shift)
        power = torch.clamp(self.log2_total.double() + shift, max=64.0)
        # The geometric mean: a run of small weight and a far larger total
        # does not dominate it (docs/Model.md).
        w = weights.double().clamp(min=0)
        mass = float(w.sum())
        return 2.0 ** (float((w * power).sum()) / mass) if mass > 0 else 0.0


class FixedCounts(nn.Module):
    """With a size law (exponent above 0), the tokens whose count was the
    same in every training run keep that count whatever the input's size
    (`fixed_count`; -1 for the tokens that scale): a program's start-up
    (main, once per run) does not grow with its input."""

    def __init__(self, vocab_size):
        super().__init__()
        self.register_buffer("fixed_count", torch.full((vocab_size,), -1.0))

    def fit(self, runs, vocab_size, scales):
        """`scales`: whether the law can scale a prediction (an exponent
        above 0, or the local law)."""
        fixed = torch.full((vocab_size,), -1.0)
        if scales and len(runs) > 1:
            counts = torch.zeros(len(runs), vocab_size, dtype=torch.float64)
            for i, r in enumerate(runs):
                for token, count in r["tokens"]:
                    counts[i, token] = count
            same = (counts == counts[0]).all(dim=0) & (counts[0] <= 2 ** 24)
            fixed[same] = counts[0][same].float()
        with torch.no_grad():
            self.fixed_count.copy_(fixed)


def input_log2_size(descriptor):
    """log2 of the summed size of a run's input files, from their size
    tokens (`fileK.size=B`, `stdin.size=B`, each at its bucket's middle,
    2^(B + 1/2) bytes); None when the descriptor names no file. The same as
    the C++ featurizer's inputLog2Size, which prediction uses."""
    total = None
    for token in descriptor:
        m = re.fullmatch(r"(?:file[0-9]+|stdin)\.size=([0-9]{1,2})", token)
        if m:
            total = (total or 0.0) + 2.0 ** (int(m.group(1)) + 0.5)
    return None if total is None else math.log2(total)


# The largest exponent the size law takes: work superlinear in the input
# beyond that is rarer than a fit thrown off by a few runs.
SIZE_EXPONENT_MAX = 2.0
# The local size law (RunTotals.exponent_for): the weight of the corpus's
# exponent against the pairs' slope, in (log2 size)^2. docs/Model.md has the
# measurements it was chosen by.
SIZE_LOCAL_PRIOR = 0.5
# The local law is kept only where it predicts the training runs' totals
# better (leave one out) by this mean |log2 error| at least.
SIZE_LOCAL_MARGIN = 0.05


def size_exponent(points) -> float:
    """The exponent b of log2 total = a + b log2 size over `points` (log2
    size, log2 total) of the training runs with input files: the least-
    squares slope, clamped to [0, SIZE_EXPONENT_MAX], kept only where it
    predicts each run's total from the other runs better than their mean
    total does (leave one out; at least 3 runs); 0 otherwise, where totals
    do not follow sizes (scripts whose work is in their code, not their
    length)."""
    def fit(pts):
        mx = sum(x for x, _ in pts) / len(pts)
        my = sum(y for _, y in pts) / len(pts)
        var = sum((x - mx) ** 2 for x, _ in pts)
        b = sum((x - mx) * (y - my) for x, y in pts) / var if var > 1e-9 else 0.0
        return min(max(b, 0.0), SIZE_EXPONENT_MAX), mx, my

    if len(points) < 3:
        return 0.0
    law_error = mean_error = 0.0
    for i, (x, y) in enumerate(points):
        b, mx, my = fit(points[:i] + points[i + 1:])
        law_error += (my + b * (x - mx) - y) ** 2
        mean_error += (my - y) ** 2
    return fit(points)[0] if law_error < mean_error else 0.0


class RetrievalModel(nn.Module):
    """The profile of a run as a mixture of the training runs' profiles:
    softmax(x·Wᵀ + b) weighs the R training runs by how alike their
    descriptors are to the run's (W starts as their TF-IDF weighted
    descriptors over a temperature, see remember, and learns which
    descriptor tokens matter), and the output layer holds their profiles
    (fixed), each normalised to the same total `scale`: the output is the
    weighted mix of the training profiles, as counts. The same two layers
    as MlpModel, with a softmax where the MLP has a ReLU; the model file is
    an mlp with hidden_softmax = 1 and output_counts = 1."""

    def __init__(self, num_descriptors, vocab_size, num_runs):
        super().__init__()
        self.init_args = (num_descriptors, vocab_size, num_runs)
        self.hidden = nn.Linear(num_descriptors, num_runs)
        self.output = nn.Linear(num_runs, vocab_size)
        self.scale = 1.0
        self.runs = RunTotals(num_runs)
        self.tokens = FixedCounts(vocab_size)
        # The training run of each hidden unit; the model file names them
        # (`runs`), so that a prediction says which runs it blends.
        self.run_names = None
        self.run_arguments = None
        # How much a command-line token counts against a word of the input
        # (ARGUMENT_WEIGHTS), and the leave-one-out overlap of each weight.
        self.argument_weight = 1.0
        self.argument_weight_overlaps = {}
        # The epochs cross-validation chose (None: the corpus was too small
        # to cross-validate) and its held-out overlaps (_retrieval_cv_epochs).
        self.cv_epochs = None
        self.cv_overlaps = {}
        # Runs below this share of the heaviest run's weight are left out of
        # a prediction's blend (BLEND_FLOOR; training blends every run).
        self.blend_floor = 0.0

    def scores(self, multi_hot):
        return self.hidden(multi_hot)

    def forward(self, multi_hot, exclude=None):
        scores = self.scores(multi_hot)
        if exclude is not None:  # leave-one-out training: not its own run
            scores = scores.masked_fill(exclude, -math.inf)
        return self.output(torch.softmax(scores, dim=-1))

    def blend(self, multi_hot):
        """[..., R] the weight of each run in the blend predicted for
        `multi_hot`, as lib/Inference computes it: the softmax of the
        scores without the runs below blend_floor times the heaviest run's
        weight, the rest scaled to sum to 1."""
        return self._floored(torch.softmax(self.scores(multi_hot), dim=-1))

    def _floored(self, weights):
        """`weights` (a softmax) without the runs below the floor."""
        if self.blend_floor > 0:
            floor = self.blend_floor * weights.max(dim=-1, keepdim=True).values
            weights = torch.where(weights >= floor, weights,
                                  torch.zeros_like(weights))
            weights = weights / weights.sum(dim=-1, keepdim=True)
        return weights

    def predicted_exponent(self, multi_hot) -> float:
        """The size law's exponent of the prediction for one descriptor, as
        lib/Inference computes it: the local law fits it over the blend
        before its floor (a blend the floor leaves with one run still finds
        its slope against that run's siblings, docs/Model.md)."""
        with torch.no_grad():
            return self.runs.exponent_for(torch.softmax(self.scores(multi_hot), -1))

    def predicted_counts(self, multi_hot, log2_size=None):
        """[V] the counts lib/Inference predicts for one descriptor: the
        blend's mixture scaled to the size law's total, less the tokens of
        fixed counts, which keep theirs; rounded."""
        with torch.no_grad():
            # (The local law's exponent is fitted over the softmax before
            # the floor, predicted_exponent.)
            unfloored = torch.softmax(self.scores(multi_hot), dim=-1)
            weights = self._floored(unfloored)
            mixture = self.output(weights).double().clamp(min=0)
            fixed = self.tokens.fixed_count.double()
            is_fixed = fixed >= 0
            scaled = mixture[~is_fixed].sum()
            total = self.runs.total(weights, log2_size,
                                    exponent=self.runs.exponent_for(unfloored))
            factor = max(0.0, total - float(fixed[is_fixed].sum())) / float(scaled) \
                if scaled > 0 else 1.0
            return torch.floor(torch.where(is_fixed, fixed, mixture * factor) + 0.5)

    def remember(self, keys, profiles, temperature, scale=1.0,
                 token_weights=None):
        """Starts from the training runs: keys [R, D] multi-hot
        descriptors, profiles [R, V] their counts normalised to total 1,
        which the output layer holds times `scale`. A run's score is the
        similarity of its descriptor to the query's with each token weighted
        by its inverse document frequency over the runs, idf = ln((1 + R) /
        (1 + runs with the token)), on both sides (TF-IDF retrieval): tokens
        every run has (argc=2, the words `local`, `end`) say nothing about
        which run is alike, rare ones (`math`, `setmetatable`) say much.
        `token_weights` [D] multiplies each token's idf (the argument
        weight, ARGUMENT_WEIGHTS)."""
        with torch.no_grad():
            runs_with = keys.sum(dim=0)
            idf = torch.log((1.0 + keys.shape[0]) / (1.0 + runs_with))
            if token_weights is not None:
                idf = idf * token_weights
            weighted = keys * idf
            norms = weighted.norm(dim=1, keepdim=True).clamp(min=1e-6)
            self.hidden.weight.copy_(weighted * idf / norms / temperature)
            self.hidden.bias.zero_()
            self.output.weight.copy_(profiles.t() * scale)
            self.output.bias.zero_()
        self.scale = scale
        self.output.requires_grad_(False)

    def overlap_loss(self, multi_hot, profiles, exclude=None):
        """1 - the mean overlap (docs/Eval.md: summed minimum of the two
        normalised profiles) of each run's predicted mixture with its own
        profile ([N, V], rows of total 1)."""
        mixture = self(multi_hot, exclude=exclude) / self.scale
        return 1.0 - torch.minimum(mixture, profiles).sum(dim=1).mean()


def _retrieval_loss(model, keys, profiles, exclude):
    """Each run predicted from the others, and (SELF_WEIGHT) from all runs,
    itself among them: leave-one-out alone never scores a run against its
    own input, and training then let a few "hub" runs outscore a run on its
    own input (a jq corpus: 12 of 30 training inputs blended another run)."""
    loss = model.overlap_loss(keys, profiles, exclude=exclude)
    if exclude is None:
        return loss
    return loss + SELF_WEIGHT * model.overlap_loss(keys, profiles)


# Cross-validation of the retrieval's training: folds of the runs, each
# run predicted by a model that remembers and trains on the other folds
# only. The model trains for the fewest epochs (0: the TF-IDF similarity
# as it starts) whose mean held-out overlap is within one standard error
# of the best (the one-standard-error rule: more training must earn its
# place by more than the runs' scatter). Training on the runs'
# leave-one-out overlap made held-out runs worse in every corpus measured
# (2026-11-27, overlap on trace tokens of held-out runs, untrained -> 300
# epochs): a grep user's 7 held-out searches 0.685 -> 0.549 (a new -E
# alternation 0.869 -> 0.259: training let a three-file -F run outscore the
# one-file -E runs), Lua's numeric and objects 0.568 -> 0.549, bzip2 and a
# C++ user's ninja unchanged. The best mean alone chose 44 epochs on Lua
# (0.282 -> 0.307, within the standard error of 0.04), and numeric fell to
# 0.339.
CV_FOLDS = 5
CV_MIN_RUNS = 6


def _retrieval_cv_epochs(space, runs, keys, vocab_size, argument_weight,
                         is_argument, config):
    """(epochs to train for, {epochs: mean held-out overlap}), or (None, {})
    for a corpus too small to hold runs out of."""
    if len(runs) < CV_MIN_RUNS or config.epochs <= 0:
        return None, {}
    folds = min(CV_FOLDS, len(runs))
    token_weights = torch.where(is_argument, torch.tensor(argument_weight),
                                torch.tensor(1.0))
    # [epoch][run]: each run's held-out overlap after that many epochs.
    per_run = torch.zeros(config.epochs + 1, len(runs), dtype=torch.float64)
    for fold in range(folds):
        held = [i for i in range(len(runs)) if i % folds == fold]
        kept = [i for i in range(len(runs)) if i % folds != fold]
        kept_runs = [runs[i] for i in kept]
        profiles, scale = normalized_profiles(vocab_size, kept_runs)
        held_profiles, _ = normalized_profiles(vocab_size, [runs[i] for i in held])
        torch.manual_seed(config.seed)
        sub = RetrievalModel(keys.shape[1], vocab_size, len(kept))
        sub.remember(keys[kept], profiles, RETRIEVAL_TEMPERATURE, scale,
                     token_weights)
        exclude = torch.eye(len(kept), dtype=torch.bool)
        optimizer = torch.optim.Adam([p for p in sub.parameters() if p.requires_grad],
                                     lr=config.learning_rate)
        for epoch in range(config.epochs + 1):
            with torch.no_grad():
                mixture = sub(keys[held]) / sub.scale
                per_run[epoch, held] = torch.minimum(
                    mixture, held_profiles).sum(dim=1).double()
            if epoch == config.epochs:
                break
            optimizer.zero_grad()
            loss = _retrieval_loss(sub, keys[kept], profiles, exclude)
            loss.backward()
            nn.utils.clip_grad_norm_(sub.parameters(), 1.0)
            optimizer.step()
    means = per_run.mean(dim=1)
    best = int(torch.argmax(means))
    error = float(per_run[best].std() / math.sqrt(len(runs)))
    chosen = next(e for e in range(config.epochs + 1)
                  if float(means[e]) >= float(means[best]) - error)
    shown = {e: float(means[e]) for e in
             sorted({0, 10, 30, 100, config.epochs, best, chosen})
             if e <= config.epochs}
    return chosen, shown


# The retrieval softmax's temperature at the start of training. Chosen by
# the training objective, the leave-one-out overlap on the training runs
# (Lua corpus of 21 scripts: 0.480 at 0.1, 0.504 at 0.2 and at 0.4; bzip2's
# five runs: 0.604 at 0.1, 0.604 at 0.2).
RETRIEVAL_TEMPERATURE = 0.2

# The weight of the retrieval's self term: each run predicted from every run,
# itself included, beside leave-one-out. Measured (2026-11-26; training
# inputs that retrieve themselves first, and held-out overlap on trace
# tokens, without -> with the term at 1): jq trial (30 runs) 19 -> 30 of 30,
# H_group12m 0.440 -> 0.488, H_combo4m 0.458 -> 0.529; gawk 27 -> 30 of 30,
# h-wc-l 0.978 -> 0.995; xz 17 -> 18 of 18, -T2 on random 0.284 -> 0.383;
# lz4 10 -> 14 of 14; Lua (21) and bzip2 (5) unchanged. At 0.25, the same
# within 0.02 (docs/Model.md).
SELF_WEIGHT = 1.0

# A prediction leaves out the runs that weigh less than this share of the
# heaviest run's weight in its blend. The softmax gives every training run
# some weight, and a run of weight 2e-5 still puts counts on code that
# only it ran: code the blend's own runs never ran is then not cold, and
# LLVM lays it out and inlines it as code that runs. A share, not a
# weight: a diffuse blend of many alike runs keeps them all. Measured
# 2026-11-27 (builds of the predicted profile, CPU time, 15 to 25
# interleaved runs, speedup over -O2 without profile): bzip2 -9 on
# repetitive data, a blend of repetitive-1 at 0.99998 and four runs, 1.100x
# and 1.113x without the floor, 1.143x and 1.142x with it (clang PGO on
# that very input 1.147x and 1.140x); Lua objects.lua 1.131x and 1.152x;
# numeric.lua 1.034x and 1.039x (its oracle 0.987x: noise). The
# leave-one-out overlap of the training runs on trace tokens moves by at
# most 0.003 (Lua 0.298 -> 0.296; docs/Model.md).
BLEND_FLOOR = 0.01

# How much more than a word of the input a command-line token (argc=,
# opt=, operandJ=, and the locale's) counts in the retrieval's similarity: its idf is multiplied by the
# weight w on both sides (the run's and the query's), so a shared option
# adds w^2 times what it did. Each corpus chooses among these by the
# leave-one-out overlap of the untrained retrieval, and keeps 1 unless
# another beats it by at least ARGUMENT_WEIGHT_MARGIN: with options and
# kinds of data crossed in the runs, leave-one-out tells whether options or
# data decide what a run does; where each option comes with one kind of
# data it cannot, and the gain is then small. Measured (2026-11-26,
# leave-one-out overlap on trace tokens at weight 1 -> the best):
# - lz4 (14 runs, 5 options x 4 kinds of data): 0.312 -> 0.494 at 8; its
#   held-out -12 on text and -9 on an ELF binary 0.530 and 0.020 -> 0.717
#   and 0.684 overlap with clang's PGO (phaedrus eval);
# - zlib's minigzip (8 runs, one option each): 0.164 -> 0.224 at 16; its
#   held-out -9 on an ELF binary 0.07 -> 0.97 on trace tokens, -d 0.97
#   either way;
# - bzip2 (5 runs, one option each): 0.372 -> 0.382, weight 1 kept, as it
#   must be: at 4 its held-out repetitive-9 would fall from 0.92 to 0.14
#   (its data decides, and the -9 runs hold text);
# - Lua (21 scripts, the same arguments): unchanged.
ARGUMENT_WEIGHTS = (1.0, 2.0, 4.0, 8.0, 16.0)
ARGUMENT_WEIGHT_MARGIN = 0.05


def is_argument_token(token: str) -> bool:
    """A descriptor token of the command line (docs/Featurizer.md): the
    argument count, an option or an operand; or of the locale, which
    chooses what a program does as its options do (the featurizer's
    isCommandLineToken)."""
    return token.startswith(("argc=", "opt=", "operand", "locale=", "locale."))


def normalized_profiles(vocab_size, runs):
    """[R, V]: each run's token counts over their total (rows of total 1),
    and the geometric mean of the totals (the scale the retrieval model
    gives its mixtures)."""
    profiles = torch.zeros(len(runs), vocab_size, dtype=torch.float64)
    log_totals = []  # of the runs that recorded anything
    for i, r in enumerate(runs):
        total = sum(c for _, c in r["tokens"])
        for token, count in r["tokens"]:
            profiles[i, token] = count / total
        if total:
            log_totals.append(math.log(total))
    scale = math.exp(sum(log_totals) / len(log_totals)) if log_totals else 1.0
    return profiles.float(), scale


def multi_hot(space: TokenSpace, descriptor):
    x = torch.zeros(len(space.descriptors))
    for d in descriptor:
        if d in space.index:
            x[space.index[d]] = 1.0
    return x


def log_counts(vocab_size, tokens):
    y = torch.zeros(vocab_size)
    for token, count in tokens:
        y[token] = math.log1p(count)
    return y


# --------------------------------------------------------------------------
# Training

@dataclass
class TrainConfig:
    kind: str = "lstm"
    seed: int = 0
    epochs: int = 300
    patience: int = 30
    learning_rate: float = 1e-2
    embedding_dim: int = 64
    hidden_size: int = 128
    num_layers: int = 1
    validation: list = None  # run names held out for early stopping
    # After early stopping, train again on all runs for the chosen number of
    # epochs.
    refit: bool = True
    progress: bool = True
    # Without the progress bar (stderr not a terminal), a line on stderr
    # after a first epoch that took EPOCH_NOTE_S or more, and then every
    # this many seconds (None: never).
    heartbeat_s: float = 60.0
    # retrieval: runs below this share of the heaviest run's weight are left
    # out of a prediction's blend (BLEND_FLOOR).
    blend_floor: float = BLEND_FLOOR


# An epoch this long is worth saying so when no bar shows it.
EPOCH_NOTE_S = 5.0


# Fewer runs than this: no validation split. Holding one of five runs out to
# pick the epoch measured, on bzip2, whether the model fits that one run (a
# random input, like no other), and stopped training at epoch 8; trained on
# all five for the full schedule, the predicted profiles of the two held-out
# inputs overlapped clang's PGO profile of them far better (phaedrus eval:
# 0.47 -> 0.76, 0.19 -> 0.87).
MIN_RUNS_FOR_VALIDATION = 10


def split_runs(runs, config: TrainConfig):
    """Training and validation runs, split by input: the named runs, or, from
    MIN_RUNS_FOR_VALIDATION runs on, one run in five, seeded; below that
    none (training runs its full number of epochs on every run)."""
    if config.kind == "retrieval":
        return list(runs), []  # it trains leave-one-out on every run
    if config.validation is not None:
        names = set(config.validation)
        unknown = names - {r["name"] for r in runs}
        if unknown:
            raise ValueError(f"validation runs not in the corpus: {sorted(unknown)}")
        val = [r for r in runs if r["name"] in names]
    else:
        k = len(runs) // 5 if len(runs) >= MIN_RUNS_FOR_VALIDATION else 0
        val = random.Random(config.seed).sample(runs, k)
    train = [r for r in runs if r not in val]
    if not train:
        raise ValueError("no training runs left after the validation split")
    return train, val


def _lstm_batch(space, runs):
    seqs = [space.sequence(r["descriptor"], r["tokens"]) for r in runs]
    length = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), length), PAD, dtype=torch.long)
    loss_mask = torch.zeros((len(seqs), length - 1))
    for i, s in enumerate(seqs):
        ids[i, :len(s)] = torch.tensor(s)
        sep = s.index(SEP)
        # Targets are what follows <sep>: the profile, not the descriptor.
        loss_mask[i, sep:len(s) - 1] = 1.0
    return ids, loss_mask


def _lstm_loss(model, space, batch):
    """Cross-entropy of each profile token among the tokens of its kind: a
    bucket among the buckets; a vocabulary token or <eos> among those. This
    is the distribution generation samples from (it masks the same way),
    and it spares the output layer the rows a position can never take."""
    ids, mask = batch
    hidden, _ = model.lstm(model.embedding(ids[:, :-1]))
    targets = ids[:, 1:]
    weight, bias = model.output.weight, model.output.bias
    selected = mask.bool()
    is_bucket = targets >= space.bucket_base
    total = hidden.new_zeros(())
    # Buckets.
    sel = selected & is_bucket
    if sel.any():
        logits = hidden[sel] @ weight[space.bucket_base:].T + bias[space.bucket_base:]
        total = total + nn.functional.cross_entropy(
            logits, targets[sel] - space.bucket_base, reduction="sum")
    # Vocabulary tokens and <eos>: row 0 is <eos>, row 1 + t is token t.
    sel = selected & ~is_bucket
    if sel.any():
        rows = torch.cat([torch.tensor([EOS]),
                          torch.arange(space.program_base, space.bucket_base)])
        logits = hidden[sel] @ weight[rows].T + bias[rows]
        t = targets[sel]
        t = torch.where(t == EOS, torch.zeros_like(t), t - space.program_base + 1)
        total = total + nn.functional.cross_entropy(logits, t, reduction="sum")
    return total / mask.sum()


def lstm_step_bytes(runs, vocab_size) -> int:
    """About how much memory one training step of an lstm takes for its
    largest tensors: every profile position of the runs (each vocabulary
    token a run holds is two: the token and its count's bucket) scores each
    vocabulary token and <eos>, in float32, three times over (the logits,
    their softmax and its gradient)."""
    positions = sum(len(r["tokens"]) for r in runs)
    return positions * (vocab_size + 1) * 4 * 3


def available_memory_bytes():
    """MemAvailable of /proc/meminfo, or None where it cannot be read."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_lstm_memory(runs, vocab_size, available=None):
    """Refuses an lstm whose training step would take more than half the
    memory available (a session scaling SQLite, 19,732 vocabulary tokens,
    saw 8.5 GB and no epoch end in four minutes)."""
    need = lstm_step_bytes(runs, vocab_size)
    available = available_memory_bytes() if available is None else available
    if available is not None and need > available / 2:
        raise ToolError(
            f"an lstm on this corpus needs about {need / 2**30:.1f} GiB for "
            f"each training step ({sum(len(r['tokens']) for r in runs)} profile "
            f"tokens scored against {vocab_size + 1} vocabulary tokens), more "
            f"than half the {available / 2**30:.1f} GiB this machine has free: "
            f"train the retrieval model (--kind retrieval, the default) or the "
            f"mlp, whose size does not grow with the runs' lengths")


# An lstm whose training this machine would take longer than this over
# all its epochs says so before it starts.
LSTM_SLOW_S = 600.0


def warn_if_lstm_is_slow(model, runs, batch_of, loss_of, epochs):
    """Times one training step on the run of median length and says, before
    training, how long an epoch and all `epochs` would take at that rate
    when that is over LSTM_SLOW_S (a jq user's corpus, 7,170 vocabulary
    tokens: 168 s before the first line, 14 hours for the default epochs).
    Returns the estimate of an epoch in seconds."""
    lengths = sorted((len(r["tokens"]), i) for i, r in enumerate(runs))
    median = runs[lengths[len(lengths) // 2][1]]
    started = time.monotonic()
    loss_of(batch_of([median])).backward()
    model.zero_grad()
    per_token = (time.monotonic() - started) / max(1, len(median["tokens"]))
    epoch_s = per_token * sum(len(r["tokens"]) for r in runs)
    if epoch_s * epochs > LSTM_SLOW_S:
        log(f"train lstm: an epoch on this corpus takes about {epoch_s:.0f} s "
            f"here (one run's step, timed), so its at most {epochs} epochs could "
            f"take {epoch_s * epochs / 3600:.1f} h (fewer if it stops early, "
            f"--patience); the retrieval model (the default) trains in seconds")
    return epoch_s


def train(corpus: dict, config: TrainConfig):
    """Trains a model on `corpus`; returns (model, space, report)."""
    if not 0 <= config.blend_floor < 1:
        raise ValueError(f"the blend floor is a share of the heaviest run's "
                         f"weight, in [0, 1), not {config.blend_floor}")
    torch.manual_seed(config.seed)
    random.seed(config.seed)
    runs = corpus["runs"]
    train_runs, val_runs = split_runs(runs, config)
    vocab_size = len(corpus["vocabulary"]["entries"])
    # The descriptor vocabulary is what the runs show, the validation runs'
    # too: the model is refit on every run, and a token only they have (a
    # jq filter given only to a validation run) was left out of the model
    # for good. While they validate, their tokens that no training run has
    # are left out of them, as a new input's unseen tokens are.
    descriptors = sorted({d for r in runs for d in r["descriptor"]})
    seen_in_training = {d for r in train_runs for d in r["descriptor"]}
    val_runs = [dict(r, descriptor=[d for d in r["descriptor"] if d in seen_in_training])
                for r in val_runs]
    space = TokenSpace(descriptors, vocab_size)

    if config.kind == "lstm":
        check_lstm_memory(train_runs, vocab_size)
        model = LstmModel(space.size, config.embedding_dim, config.hidden_size,
                          config.num_layers)

        def batch_of(rs):
            return _lstm_batch(space, rs)

        def loss_of(batch):
            return _lstm_loss(model, space, batch)
        warn_if_lstm_is_slow(model, train_runs, batch_of, loss_of, config.epochs)
    elif config.kind in ("mlp", "retrieval"):
        if config.kind == "mlp":
            model = MlpModel(len(descriptors), vocab_size, config.hidden_size)

            def batch_of(rs):
                return (torch.stack([multi_hot(space, r["descriptor"]) for r in rs]),
                        torch.stack([log_counts(vocab_size, r["tokens"]) for r in rs]))

            def loss_of(batch):
                x, y = batch
                return nn.functional.mse_loss(model(x), y)
        else:
            # Every run is a memory and, left out of the memories, a
            # training example (split_runs holds none out). The objective
            # is the leave-one-out overlap of the mixture with the run's own
            # profile: the measure phaedrus eval reports, on trace tokens
            # (eval compares clang's counters).
            model = RetrievalModel(len(descriptors), vocab_size, len(runs))
            model.run_names = [r["name"] for r in runs]
            # Each run's command line as the featurizer describes it: a
            # prediction says when it blends runs given other arguments.
            model.run_arguments = [[t for t in r["descriptor"] if is_argument_token(t)]
                                   for r in runs]
            model.runs.fit(runs)
            profiles, scale = normalized_profiles(vocab_size, runs)
            keys = torch.stack([multi_hot(space, r["descriptor"]) for r in runs])
            # With one run there is nothing to leave out (and nothing to
            # learn: the softmax over one run is constant).
            exclude = torch.eye(len(runs), dtype=torch.bool) if len(runs) > 1 else None
            is_argument = torch.tensor([is_argument_token(d) for d in descriptors],
                                       dtype=torch.bool)

            def remember(weight):
                token_weights = torch.where(is_argument, torch.tensor(weight),
                                            torch.tensor(1.0))
                model.remember(keys, profiles, RETRIEVAL_TEMPERATURE, scale,
                               token_weights)

            def leave_one_out_overlap(weight):
                remember(weight)
                with torch.no_grad():
                    return 1.0 - float(model.overlap_loss(keys, profiles, exclude))
            if exclude is not None:  # (one run: nothing to compare)
                overlaps = {w: leave_one_out_overlap(w) for w in ARGUMENT_WEIGHTS}
                best = max(ARGUMENT_WEIGHTS, key=lambda w: (overlaps[w], -w))
                if overlaps[best] >= overlaps[1.0] + ARGUMENT_WEIGHT_MARGIN:
                    model.argument_weight = best
                model.argument_weight_overlaps = overlaps
            remember(model.argument_weight)

            def batch_of(rs):
                return keys, profiles

            def loss_of(batch):
                return _retrieval_loss(model, *batch, exclude)
            # How long to train: as long as it helps runs the training did
            # not see (cross-validation over the runs).
            if exclude is not None:
                cv_epochs, cv_overlaps = _retrieval_cv_epochs(
                    space, runs, keys, vocab_size, model.argument_weight,
                    is_argument, config)
                model.cv_overlaps = cv_overlaps
                if cv_epochs is not None:
                    config = dataclasses.replace(config, epochs=cv_epochs)
                    model.cv_epochs = cv_epochs
    else:
        raise ValueError(f"unknown model kind '{config.kind}': use lstm, mlp "
                         f"or retrieval")

    train_batch = batch_of(train_runs)
    val_batch = batch_of(val_runs) if val_runs else None
    if config.epochs == 0:  # (cross-validation chose the untrained model)
        with torch.no_grad():
            best = (loss_of(train_batch).item(),
                    {k: v.clone() for k, v in model.state_dict().items()}, 0)
        history = []
    else:
        best, history = _fit(model, loss_of, train_batch, val_batch,
                             config.epochs, config, f"train {config.kind}",
                             fixed=isinstance(model, RetrievalModel)
                             and model.cv_epochs is not None)
    model.load_state_dict(best[1])
    refit = config.refit and bool(val_runs)
    if refit:
        # The validation runs chose the number of epochs; the model itself
        # then learns from every run (a corpus of a few runs cannot spare
        # one), from the same initial weights, for that many epochs.
        torch.manual_seed(config.seed)
        model = type(model)(*model.init_args)
        _fit(model, loss_of, batch_of(runs), None, best[2] + 1, config,
             f"refit {config.kind}", fixed=True)
    model.eval()
    if isinstance(model, RetrievalModel):
        model.blend_floor = config.blend_floor
    size_law = {}
    train_loss = history[best[2]][0] if history else best[0]
    validation_loss = best[0]
    if isinstance(model, RetrievalModel) and len(runs) > 1:
        # The losses reported (and the confidence the model file derives
        # from them) are leave-one-out's alone.
        with torch.no_grad():
            train_loss = validation_loss = float(
                model.overlap_loss(keys, profiles, exclude))
    if isinstance(model, RetrievalModel):
        # The law, then the tokens it leaves at their counts (training
        # uses neither: it fits the mixture's shape).
        size_law = choose_size_law(model, keys, runs)
        model.tokens.fit(runs, vocab_size, model.runs.exponent > 0
                         or model.runs.local)
    report = {"kind": config.kind, "epochs": len(history), "best_epoch": best[2],
              **({"argument_weight": model.argument_weight,
                  "blend_floor": model.blend_floor,
                  "argument_weight_overlaps": {str(w): round(o, 4) for w, o in
                                               model.argument_weight_overlaps.items()},
              "cv_epochs": model.cv_epochs,
              "cv_overlaps": {str(e): round(o, 4) for e, o in
                              model.cv_overlaps.items()},
                  **size_law}
                 if isinstance(model, RetrievalModel) else {}),
              "train_loss": train_loss, "validation_loss": validation_loss,
              "train_runs": [r["name"] for r in train_runs],
              "validation_runs": [r["name"] for r in val_runs],
              "refit_on_all_runs": refit}
    return model, space, report


def choose_size_law(model, keys, runs) -> dict:
    """Turns the local size law on (RunTotals.exponent_for) where it
    predicts each training run's total from the others better than the
    corpus's one exponent does, by SIZE_LOCAL_MARGIN of mean |log2 error|
    at least: each run's blend leaves it out, and so do both exponents'
    fits. How alike two runs are (pair_weight) is the mean of the
    model's weight of each in the other's blend, itself left out. Returns
    what the report says of it."""
    totals = model.runs
    sized = [i for i in range(len(runs)) if totals.log2_size[i] >= 0]
    if len(sized) < 3:
        return {}
    with torch.no_grad():
        scores = model.scores(keys).double()
        own = torch.eye(len(runs), dtype=torch.bool)
        alike = torch.softmax(scores.masked_fill(own, -math.inf), dim=1)
        totals.pair_weight.copy_(((alike + alike.T) / 2).float())
    points = [(float(totals.log2_size[i]), float(totals.log2_total[i])) for i in sized]
    errors = {False: 0.0, True: 0.0}
    for k, i in enumerate(sized):
        keep = ~own[i]
        weights = torch.softmax(scores[i].masked_fill(~keep, -math.inf), 0)
        exponent = size_exponent(points[:k] + points[k + 1:])
        for local in errors:
            b = totals.exponent_for(weights, exponent, local, keep)
            total = totals.total(weights, points[k][0], exponent=b)
            errors[local] += abs(math.log2(max(total, 1.0)) - points[k][1])
    errors = {local: e / len(sized) for local, e in errors.items()}
    totals.local = errors[True] <= errors[False] - SIZE_LOCAL_MARGIN
    return {"size_law": "local" if totals.local else "corpus",
            "size_exponent": round(float(totals.exponent), 4),
            "size_law_errors": {"corpus": round(errors[False], 4),
                                "local": round(errors[True], 4)}}


def _fit(model, loss_of, train_batch, val_batch, max_epochs, config, desc,
         fixed=False):
    """Full-batch Adam for at most `max_epochs` (exactly that many when
    `fixed`), keeping the weights of the best validation loss (training loss
    without validation runs) and stopping after `config.patience` epochs
    without improvement. Returns ((loss, weights, epoch), history)."""
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad],
                                 lr=config.learning_rate)
    best = (math.inf, None, 0)
    history = []
    epochs = progress(range(max_epochs), config.progress, desc, "epoch")
    started = last_note = time.monotonic()
    for epoch in epochs:
        model.train()
        optimizer.zero_grad()
        loss = loss_of(train_batch)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if not val_batch:
            # The training loss is the weights' before this step: keep
            # those weights if it is the best.
            val = loss.item()
            improved = val < best[0] - 1e-6
            if improved:
                best = (val, {k: v.clone() for k, v in model.state_dict().items()},
                        epoch)
        optimizer.step()
        model.eval()
        if val_batch:
            with torch.no_grad():
                val = loss_of(val_batch).item()
            improved = val < best[0] - 1e-6
            if improved:
                best = (val, {k: v.clone() for k, v in model.state_dict().items()},
                        epoch)
        history.append((loss.item(), val))
        if hasattr(epochs, "set_postfix"):
            epochs.set_postfix(train=f"{loss.item():.3f}", val=f"{val:.3f}")
        elif config.heartbeat_s is not None:
            now = time.monotonic()
            if (epoch == 0 and now - started >= EPOCH_NOTE_S) or \
                    now - last_note >= config.heartbeat_s:
                log(f"{desc}: epoch {epoch + 1} of at most {max_epochs} "
                    f"took {now - started:.0f} s in all ({(now - started) / (epoch + 1):.1f} "
                    f"s each), loss {loss.item():.4f} (validation {val:.4f})")
                last_note = now
        if not improved and epoch - best[2] >= config.patience and not fixed:
            break
    return best, history


# --------------------------------------------------------------------------
# Generation (mirrored exactly by lib/Inference)

class SplitMix64:
    """The sampler's random numbers (lib/Inference uses the same)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 11) * (1.0 / (1 << 53))


class ProfileGrammar:
    """Which ids may come next in a generated profile: after a vocabulary
    token its bucket; otherwise a vocabulary token not generated yet, or
    <eos>. Kept incrementally (one update per generated token)."""

    def __init__(self, space: TokenSpace):
        self.space = space
        self.open = torch.zeros(space.size, dtype=torch.bool)
        self.open[space.program_base:space.bucket_base] = True
        self.open[EOS] = True
        self.buckets = torch.zeros(space.size, dtype=torch.bool)
        self.buckets[space.bucket_base:] = True

    def allowed(self, previous: int):
        s = self.space
        return self.buckets if s.program_base <= previous < s.bucket_base else self.open

    def take(self, token: int):
        self.open[self.space.program_base + token] = False


@torch.no_grad()
def generate(model: LstmModel, space: TokenSpace, descriptor, seed=None,
             temperature=1.0, max_tokens=None, margins=None):
    """[(vocabulary token, bucket, probability of the bucket)]: greedy
    without a seed, sampled with one. When sampling, `margins` (a list)
    gets, per step, how far the uniform draw lay from the nearer edge of the
    chosen id's cumulative-probability interval: another implementation
    whose probabilities differ by less than that makes the same choice."""
    rng = SplitMix64(seed) if seed is not None else None
    grammar = ProfileGrammar(space)
    prefix = torch.tensor([space.prefix(descriptor)])
    logits, state = model(prefix)
    last = logits[0, -1]
    previous = SEP
    result, pending = [], None
    minus_inf = torch.tensor(-math.inf, dtype=torch.float64)
    limit = 2 * (max_tokens or space.vocab_size)
    for _ in range(limit):
        mask = grammar.allowed(previous)
        masked = torch.where(mask, last.double() / temperature, minus_inf)
        if rng is None:
            choice = int(torch.argmax(masked))
            probability = None
        else:
            probs = torch.softmax(masked, 0)
            u, total, choice = rng.uniform(), 0.0, None
            candidates = torch.nonzero(mask).flatten().tolist()
            for i in candidates:
                before = total
                total += float(probs[i])
                if u < total:
                    choice = i
                    break
            if choice is None:
                choice = candidates[-1]
            if margins is not None:
                margins.append(min(u - before, total - u))
            probability = float(probs[choice])
        if choice == EOS:
            break
        if pending is None:
            pending = choice - space.program_base
            grammar.take(pending)
        else:
            if probability is None:
                probability = float(torch.softmax(masked, 0)[choice])
            result.append((pending, choice - space.bucket_base, probability))
            pending = None
        previous = choice
        logits, state = model(torch.tensor([[choice]]), state)
        last = logits[0, -1]
    return result


# --------------------------------------------------------------------------
# The model file: phaedrus IR with weights in dense_resource blobs

def weights_of(model) -> dict:
    """Tensor name -> float32 tensor, in the names docs/Model.md lists (a
    retrieval model's runs.pair_weight only with the local size law)."""
    local = isinstance(model, RetrievalModel) and model.runs.local
    return {k: v.detach().float().contiguous() for k, v in model.state_dict().items()
            if k != "runs.pair_weight" or local}


def model_ir(model, space: TokenSpace, corpus: dict, kind: str, report=None,
             name="model") -> str:
    """The model as an MLIR module: the program vocabulary, a
    phaedrus.model op and its weights as dense_resource blobs."""
    vocabulary = corpus["vocabulary"]
    hyper = {"num_specials": len(SPECIALS), "num_buckets": space.num_buckets,
             "buckets_per_octave": BUCKETS_PER_OCTAVE,
             # Which featurizer described the training runs: prediction
             # refuses a model of another version (docs/Featurizer.md).
             "featurizer": corpus_mod.featurizer_of(corpus)}
    if kind == "lstm":
        hyper.update(embedding_dim=model.embedding.embedding_dim,
                     hidden_size=model.lstm.hidden_size,
                     num_layers=model.lstm.num_layers)
    else:
        hyper.update(hidden_size=model.hidden.out_features)
    if isinstance(model, RetrievalModel):
        kind = "mlp"  # two layers, a softmax between them, counts out
        hyper.update(hidden_softmax=1, output_counts=1)
    floats = {}
    if report:
        floats["validation_loss"] = report["validation_loss"]
    if isinstance(model, RetrievalModel):
        floats["size_exponent"] = float(model.runs.exponent)
        if model.runs.local:
            floats["size_local_prior"] = float(model.runs.local_prior)
        # (Already in hidden.weight: said for the reader.)
        floats["argument_weight"] = float(model.argument_weight)
        floats["blend_floor"] = float(model.blend_floor)
    attrs = [f"{k} = {v} : i64" for k, v in sorted(hyper.items())]
    attrs += [f"{k} = {v!r} : f64" for k, v in sorted(floats.items())]
    weights, blobs = [], []
    for key, tensor in weights_of(model).items():
        blob = f"{name}_{key.replace('.', '_')}"
        shape = "x".join(map(str, tensor.shape))
        weights.append(f"{mlir_string(key)} = dense_resource<{blob}> : tensor<{shape}xf32>")
        data = tensor.numpy().astype("<f4").tobytes()
        blobs.append(f"      {blob}: \"0x04000000{data.hex().upper()}\"")
    descriptors = ", ".join(mlir_string(d) for d in space.descriptors)
    run_names = getattr(model, "run_names", None)
    runs = ([f"    runs([{', '.join(mlir_string(r) for r in run_names)}])"]
            if run_names else [])
    run_arguments = getattr(model, "run_arguments", None)
    if run_names and run_arguments:
        lists = ", ".join("[" + ", ".join(mlir_string(t) for t in tokens) + "]"
                          for tokens in run_arguments)
        runs.append(f"    run_arguments([{lists}])")
    vocab_symbol = corpus_mod.symbol_ref(vocabulary["name"])
    return "\n".join([
        "// A phaedrus model, written by `phaedrus train` (docs/Model.md).",
        "module {",
        corpus_mod.vocabulary_ir(vocabulary),
        f"phaedrus.model {corpus_mod.symbol_ref(name)} {kind} vocabulary({vocab_symbol}) "
        f"fingerprint({vocabulary['fingerprint']}) vocab_size({space.vocab_size})",
        f"    descriptors([{descriptors}])",
        *runs,
        f"    hyperparameters({{{', '.join(attrs)}}})",
        f"    weights({{{', '.join(weights)}}})",
        "}",
        "{-#",
        "  dialect_resources: {",
        "    builtin: {",
        ",\n".join(blobs),
        "    }",
        "  }",
        "#-}",
        ""])


def load_model_ir(path) -> tuple:
    """(kind, hyper-parameters, descriptors, {name: tensor}) of a model file
    written by model_ir (used by the parity tests)."""
    import numpy as np
    # The IR part is small; the resource blobs are read line by line (a
    # regular expression over megabytes of hex would backtrack for ages).
    ir, _, resources = open(path).read().partition("{-#")
    header = pipeline.model_header(path)
    hyper = {k: int(v) for k, v in re.findall(r"(\w+) = (\d+) : i64", ir)}
    shapes = dict(re.findall(r'"([^"]+)" = dense_resource<(\w+)>', ir))
    blobs = {}
    for line in resources.splitlines():
        m = re.match(r'\s*(\w+): "0x([0-9A-F]+)"', line)
        if m:
            blobs[m.group(1)] = m.group(2)
    tensors = {}
    for key, blob in shapes.items():
        shape = re.search(rf"dense_resource<{blob}> : tensor<([0-9x]+)xf32>", ir).group(1)
        data = bytes.fromhex(blobs[blob])[4:]
        tensors[key] = torch.from_numpy(
            np.frombuffer(data, dtype="<f4").copy()).reshape(
                [int(s) for s in shape.split("x")])
    return header["kind"], hyper, header["descriptors"], tensors
