"""Bad input, made by damaging good input: model files for phaedrus-model and
profile annotations for --phaedrus-lower-profile, each changed many seeded
ways. Every run either works or stops with an error; none crashes, hangs or
hands LLVM a module its verifier rejects. (The damaged-trace counterpart,
on a real Lua trace, is in test_programs.py.)"""

import random
import re
import subprocess

import pytest

from phaedrus.tools import REPO_ROOT, llvm_tool, phaedrus_tool

from test_model import write_model, write_retrieval_model

# Integers that sit at the edges of the types the tools read them into.
EDGE_INTEGERS = ["0", "1", "2", "7", "1000000", "4294967295", "4294967296",
                 "9223372036854775807", "9223372036854775808",
                 "18446744073709551615"]


def assert_worked_or_refused(result, what):
    """Exit 0, or exit 1 with an error; never a signal or a stack dump."""
    assert result.returncode in (0, 1), (what, result.returncode, result.stderr[-2000:])
    assert "Stack dump" not in result.stderr, (what, result.stderr[-2000:])
    if result.returncode:
        assert "error" in result.stderr.lower(), (what, result.stderr[-2000:])


def damaged_models(text, count, seed):
    """`count` copies of a model file, each with one thing changed: an
    integer of the model op or of its hyper-parameters, a tensor's shape, a
    weight blob cut short or with one hex digit changed, a line emptied."""
    rng = random.Random(seed)
    lines = text.split("\n")
    header = [i for i, line in enumerate(lines)
              if "phaedrus.model" in line or "hyperparameters" in line]
    blobs = [i for i, line in enumerate(lines) if re.search(r'"0x[0-9A-Fa-f]', line)]
    shapes = [i for i, line in enumerate(lines) if re.search(r"tensor<\d", line)]
    assert header and blobs and shapes
    made = 0
    while made < count:
        damaged = list(lines)
        kind = rng.choice(["integer", "shape", "cut", "digit", "line"])
        if kind == "integer":
            i = rng.choice(header)
            numbers = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", damaged[i]))
            if not numbers:
                continue
            m = rng.choice(numbers)
            damaged[i] = damaged[i][:m.start()] + rng.choice(EDGE_INTEGERS) + damaged[i][m.end():]
        elif kind == "shape":
            i = rng.choice(shapes)
            m = rng.choice(list(re.finditer(r"tensor<(\d+)(x\d+)*xf32>", damaged[i])))
            damaged[i] = (damaged[i][:m.start()] +
                          f"tensor<{rng.randint(0, 9)}x{rng.randint(1, 90)}xf32>" +
                          damaged[i][m.end():])
        elif kind in ("cut", "digit"):
            i = rng.choice(blobs)
            m = re.search(r'"0x([0-9A-Fa-f]*)"', damaged[i])
            digits = m.group(1)
            if kind == "cut":
                digits = digits[:rng.randrange(len(digits))]
            else:
                j = rng.randrange(len(digits))
                digits = digits[:j] + rng.choice("0123456789ABCDEFx") + digits[j + 1:]
            damaged[i] = damaged[i][:m.start(1)] + digits + damaged[i][m.end(1):]
        else:
            damaged[rng.randrange(len(damaged))] = ""
        made += 1
        yield kind, "\n".join(damaged)


@pytest.mark.parametrize("kind", ["lstm", "mlp", "retrieval"])
def test_damaged_model_files_get_a_diagnostic_never_a_crash(tmp_path, kind):
    """phaedrus-model on 40 damaged copies of a model file runs the model
    or refuses the file with an error (the weights' sizes are checked
    against the hyper-parameters before oneDNN reads them). The retrieval
    model names its runs and has a size law, and predicts its counts for
    an input of 2^20.5 bytes."""
    if kind == "retrieval":
        _, _, _, path = write_retrieval_model(tmp_path)
    else:
        _, _, _, path = write_model(tmp_path, kind=kind)
    run = {"lstm": ["--generate", "--seed=1", "--descriptor-ids=0,1"],
           "mlp": ["--log-counts", "--descriptor-ids=0,1"],
           "retrieval": ["--log-counts", "--descriptor-ids=0,1",
                         "--input-log2-size=20.5"]}[kind]
    refused = 0
    for i, (change, text) in enumerate(damaged_models(path.read_text(), 40, seed=29)):
        damaged = tmp_path / "damaged.mlir"
        damaged.write_text(text)
        result = subprocess.run([str(phaedrus_tool("phaedrus-model")), str(damaged), *run],
                                capture_output=True, text=True, errors="replace",
                                timeout=60)
        assert_worked_or_refused(result, (i, change))
        refused += result.returncode == 1
    assert refused > 0


def lowering_inputs():
    """The inputs of the lowering's lit tests (each split part with
    annotations; 22 annotations in three modules)."""
    tests = REPO_ROOT / "test" / "Dialect" / "Phaedrus"
    inputs = []
    for name in ("phaedrus-lower-profile.mlir", "phaedrus-lower-profile-repair.mlir",
                 "phaedrus-lower-profile-hot-cold.mlir"):
        for chunk in (tests / name).read_text().split("\n// -----\n"):
            body = "\n".join(line for line in chunk.split("\n")
                             if not line.strip().startswith("//"))
            if "#phaedrus.entry_count" in body or "#phaedrus.branch_weights" in body:
                inputs.append(body)
    return inputs


ANNOTATION = re.compile(r"#phaedrus\.(entry_count|branch_weights)<(\[[^\]]*\]|\d+), "
                        r"(\w+), confidence = ([-\d.e]+)>")


def damaged_annotations(inputs, count, seed):
    """`count` modules, each with one to three annotations changed: counts at
    the edges of 64 bits, branch weight lists one too long or too short,
    confidences outside [0, 1] or not a number, sources that do not exist."""
    rng = random.Random(seed)
    for _ in range(count):
        body = rng.choice(inputs)
        for _ in range(rng.randint(1, 3)):
            m = rng.choice(list(ANNOTATION.finditer(body)))
            change = rng.randrange(4)
            if change == 0 and m.group(1) == "branch_weights":
                n = len(m.group(2).split(",")) + rng.choice([-1, 0, 1])
                new, group = "[" + ", ".join(rng.choice(EDGE_INTEGERS) for _ in range(n)) + "]", 2
            elif change <= 1 and m.group(1) == "entry_count":
                new, group = rng.choice(EDGE_INTEGERS), 2
            elif change == 2:
                new, group = rng.choice(["0.0", "1.0", "-1.0", "2.0", "nan", "1e308"]), 4
            else:
                new, group = rng.choice(["measured", "model", "static", "bogus"]), 3
            body = body[:m.start(group)] + new + body[m.end(group):]
        yield body


def test_damaged_profile_annotations_lower_to_modules_llvm_accepts(tmp_path):
    """--phaedrus-lower-profile (with and without flow repair) on 60 modules
    whose annotations were damaged: it refuses them with an error, or its
    output translates to LLVM IR that LLVM's verifier accepts (the
    branch_weights metadata and the ProfileSummary it checks)."""
    inputs = lowering_inputs()
    assert len(inputs) >= 3
    opt, translate = phaedrus_tool("phaedrus-opt"), llvm_tool("mlir-translate")
    verify = llvm_tool("opt")
    source, lowered, ir = tmp_path / "in.mlir", tmp_path / "out.mlir", tmp_path / "out.ll"
    outcomes = {0: 0, 1: 0}
    options = ["--phaedrus-lower-profile", "--phaedrus-lower-profile=repair-flow=false"]
    for i, body in enumerate(damaged_annotations(inputs, 60, seed=29)):
        source.write_text(body)
        option = options[i % 2]
        result = subprocess.run([str(opt), option, str(source), "-o", str(lowered)],
                                capture_output=True, text=True, timeout=60)
        assert_worked_or_refused(result, (i, option, body))
        outcomes[result.returncode] += 1
        if result.returncode:
            continue
        subprocess.run([str(translate), "--mlir-to-llvmir", str(lowered), "-o", str(ir)],
                       check=True, capture_output=True, timeout=60)
        checked = subprocess.run([str(verify), "-passes=verify", "-disable-output", str(ir)],
                                  capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, (i, option, body, checked.stderr)
    assert outcomes[0] > 0 and outcomes[1] > 0, outcomes
