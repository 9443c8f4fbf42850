#!/usr/bin/env bash
# The main job on a bundled example (examples/demo/wordfreq.c), as far as it
# is built: set up, build, compile the program to MLIR, instrument it, record
# whole program paths on an input, import, compress and check them, lower the
# measured profile into LLVM and build the profiled binary; compare the counts
# with clang's own instrumentation on the same run; then record more inputs,
# train a model (the default retrieval blend), predict the profile of an
# input it never saw, build with it, and evaluate that build against no
# profile and clang's PGO.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PHAEDRUS_ROOT"

"$PHAEDRUS_ROOT/scripts/setup.sh"
echo "demo: building Phaedrus (log: $BUILD_DIR.demo-build.log)"
phaedrus_build > "$BUILD_DIR.demo-build.log" 2>&1 || {
  tail -n 40 "$BUILD_DIR.demo-build.log"; exit 1; }

OUT=$(mktemp -d /tmp/phaedrus-demo.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
export PYTHONPATH="$PHAEDRUS_ROOT/python"
phaedrus() { "$PYTHON" -m phaedrus "$@"; }
OPT="$BUILD_DIR/bin/phaedrus-opt"
SRC=examples/demo/wordfreq.c
INPUT=README.md                                   # the run we record
cat docs/*.md > "$OUT/other-input.txt"            # a run we did not record

step() { printf '\n== %s\n' "$*"; }

step "1. C to whole-program MLIR (clang-22, llvm-link, mlir-translate --import-llvm)"
phaedrus ir "$SRC" -o "$OUT/wordfreq.mlir"
echo "   $(grep -c 'llvm.func' "$OUT/wordfreq.mlir") functions in $(wc -l < "$OUT/wordfreq.mlir") lines of LLVM-dialect MLIR"

step "2. Instrument (--phaedrus-instrument) and build with libphaedrus_rt"
phaedrus instrument "$OUT/wordfreq.mlir" -o "$OUT/wordfreq.inst"
phaedrus compile "$OUT/wordfreq.mlir" -o "$OUT/wordfreq.plain"
grep -E "phaedrus\.(vocabulary|entry)" "$OUT/wordfreq.inst.mlir" | sed 's/^ */   /'

step "3. Run it on $INPUT: the output is the plain program's, plus a trace"
phaedrus run "$OUT/wordfreq.inst" -o "$OUT/run.wpp" --import "$OUT/run.mlir" -- "$INPUT" > "$OUT/inst.out"
"$OUT/wordfreq.plain" "$INPUT" > "$OUT/plain.out"
cmp -s "$OUT/inst.out" "$OUT/plain.out" && echo "   instrumented output == plain output"
head -n 3 "$OUT/inst.out" | sed 's/^/   /'

step "4. The imported trace: repeats folded on import, expansion is exact"
events=$("$PYTHON" -c "import json,sys; print(sum(t['events'] for t in json.load(sys.stdin)['traces']))" \
  < <("$BUILD_DIR/bin/phaedrus-translate" --export-trace-counts "$OUT/run.mlir"))
ops=$(grep -cE "phaedrus\.(tokens|repeat)" "$OUT/run.mlir")
# (Each output goes to a file before it is cut short: under pipefail, a
# writer that `head` stops early fails the script with SIGPIPE.)
"$OPT" "$OUT/run.mlir" --phaedrus-expand --mlir-elide-resource-strings-if-larger=1 \
  -o "$OUT/run.expanded.elided.mlir"
expanded=$(grep -oE "tensor<[0-9]+xi32>" "$OUT/run.expanded.elided.mlir" | sed -n 1p)
echo "   $events events in $(stat -c %s "$OUT/run.wpp") bytes of trace; $ops tokens/repeat ops of IR"
echo "   --phaedrus-expand gives back one sequence of $expanded"
sed -n '/phaedrus.trace/,/^  }/p' "$OUT/run.mlir" | sed -n '1,12s/^/   /p'
"$OPT" "$OUT/run.mlir" --phaedrus-fold-repeats --phaedrus-grammar -o "$OUT/run.compressed.mlir"
"$OPT" "$OUT/run.compressed.mlir" --phaedrus-expand -o "$OUT/run.roundtrip.mlir"
"$OPT" "$OUT/run.mlir" --phaedrus-expand -o "$OUT/run.flat.mlir"
cmp -s "$OUT/run.roundtrip.mlir" "$OUT/run.flat.mlir" && \
  echo "   repeat folding + grammar: $(grep -c 'phaedrus.rule' "$OUT/run.compressed.mlir") rules; expand gives the same sequence back"

step "5. Entry counts from the trace vs clang -fprofile-instr-generate on the same run"
"$LLVM_BIN/clang" -O2 -fprofile-instr-generate "$SRC" -o "$OUT/wordfreq.clang"
LLVM_PROFILE_FILE="$OUT/run.profraw" "$OUT/wordfreq.clang" "$INPUT" > /dev/null
"$PYTHON" - "$OUT/run.mlir" "$OUT/run.profraw" <<'PY'
import sys
from pathlib import Path
from phaedrus import pipeline, programs
ours = pipeline.trace_counts(Path(sys.argv[1]))["traces"][0]["entry_counts"]
clang = {k.split(":")[-1]: v for k, v in programs.clang_entry_counts(Path(sys.argv[2])).items()}
print("   %-14s %10s %10s" % ("function", "phaedrus", "clang"))
for name in sorted(ours, key=lambda n: -ours[n]):
    print("   %-14s %10d %10d%s" % (name, ours[name], clang.get(name, -1),
                                  "" if ours[name] == clang.get(name) else "  MISMATCH"))
print("   all equal" if programs.match_entry_counts(clang, ours) == [] else "   DIFFERENT")
PY

step "6. Lower the measured profile into LLVM (--phaedrus-trace-profile, --phaedrus-lower-profile)"
"$OPT" "$OUT/wordfreq.mlir" --phaedrus-trace-profile=trace-files="$OUT/run.mlir" \
  --phaedrus-lower-profile --phaedrus-strip -o "$OUT/wordfreq.profiled.mlir"
"$BUILD_DIR/bin/phaedrus-translate" --mlir-to-llvmir "$OUT/wordfreq.profiled.mlir" -o "$OUT/wordfreq.profiled.ll"
grep -E "^define|function_entry_count|TotalCount" "$OUT/wordfreq.profiled.ll" | sed 's/^/   /'
"$LLVM_BIN/opt" -passes=print-profile-summary -disable-output "$OUT/wordfreq.profiled.ll" 2>&1 \
  | grep -E ":(hot|cold) entry" | sed 's/^/   LLVM sees /'
"$LLVM_BIN/clang" -O2 "$OUT/wordfreq.profiled.ll" -o "$OUT/wordfreq.profiled"

step "7. The profiled binary on an input it was not trained on"
"$OUT/wordfreq.profiled" "$OUT/other-input.txt" > "$OUT/profiled.out"
"$OUT/wordfreq.plain" "$OUT/other-input.txt" > "$OUT/plain2.out"
cmp -s "$OUT/profiled.out" "$OUT/plain2.out" && echo "   same output as the plain binary"
head -n 3 "$OUT/profiled.out" | sed 's/^/   /'

step "8. A trace from another build is refused"
"$OPT" "$OUT/wordfreq.mlir" --phaedrus-instrument=granularity=path -o "$OUT/path.mlir"
"$OPT" "$OUT/path.mlir" --phaedrus-strip --phaedrus-trace-profile=trace-files="$OUT/run.mlir" \
  -o /dev/null 2>&1 | grep -o "error: .*" | sed 's/^/   /' || true

step "9. Predict the profile of an input the program never ran on (path granularity: entry counts and branch weights)"
phaedrus instrument "$OUT/wordfreq.mlir" -o "$OUT/wordfreq.path.inst" --granularity path > /dev/null 2>&1
i=0
for input in README.md docs/TraceFormat.md docs/architecture.md "$SRC" examples/sample.mlir; do
  i=$((i + 1))
  phaedrus run "$OUT/wordfreq.path.inst" -o "$OUT/runs/in$i.wpp" -- "$input" > /dev/null 2>&1
done
phaedrus corpus "$OUT"/runs/*.wpp --program "$OUT/wordfreq.path.inst.mlir" -o "$OUT/corpus.json" 2>&1 | sed 's/^/   /'
phaedrus train "$OUT/corpus.json" -o "$OUT/model.mlir" --seed 1 2>&1 | sed 's/^/   /'
phaedrus predict "$OUT/wordfreq.mlir" --model "$OUT/model.mlir" -o "$OUT/predicted.mlir" \
  -- wordfreq "$OUT/other-input.txt" 2>&1 | grep -v "^phaedrus: wrote" | sed 's/^/   /' || true
# Only to compare: what the unseen run really does.
phaedrus run "$OUT/wordfreq.path.inst" -o "$OUT/unseen.wpp" --import "$OUT/unseen.mlir" \
  -- "$OUT/other-input.txt" > /dev/null 2>&1
"$PYTHON" - "$OUT/predicted.mlir" "$OUT/unseen.mlir" <<'PY'
import json, subprocess, sys
from phaedrus import pipeline
from phaedrus.tools import phaedrus_tool
out = subprocess.run([str(phaedrus_tool("phaedrus-translate")), "--export-profile-json",
                      sys.argv[1]], capture_output=True, check=True).stdout
predicted = {f["name"]: f["entry_count"] for f in json.loads(out)["functions"]}
measured = pipeline.trace_counts(sys.argv[2])["traces"][0]["entry_counts"]
print("   %-14s %10s %10s" % ("function", "predicted", "measured"))
for name in sorted(measured, key=lambda n: -measured[n]):
    print("   %-14s %10d %10d" % (name, predicted.get(name, 0), measured[name]))
PY
"$OPT" "$OUT/predicted.mlir" --phaedrus-lower-profile --phaedrus-strip -o "$OUT/wordfreq.predicted.mlir"
"$BUILD_DIR/bin/phaedrus-translate" --mlir-to-llvmir "$OUT/wordfreq.predicted.mlir" -o "$OUT/wordfreq.predicted.ll"
"$LLVM_BIN/clang" -O2 "$OUT/wordfreq.predicted.ll" -o "$OUT/wordfreq.predicted"
"$OUT/wordfreq.predicted" "$OUT/other-input.txt" | cmp -s - "$OUT/plain2.out" \
  && echo "   built with the predicted profile: same output as the plain binary"

step "10. Evaluate on the unseen input: no profile, clang PGO on another input, predicted, clang PGO on this input"
"$PYTHON" - "$OUT/other-input.txt" "$OUT/held.input.json" <<'PY'
import json, sys
json.dump({"argv": ["wordfreq", sys.argv[1]], "stdin": None, "cwd": None},
          open(sys.argv[2], "w"))
PY
phaedrus eval "$OUT/wordfreq.mlir" --model "$OUT/model.mlir" --corpus "$OUT/corpus.json" \
  --held-out "$OUT/held.input.json" -o "$OUT/eval.json" --workdir "$OUT/eval" 2>&1 \
  | grep -v "^phaedrus: eval" | sed 's/^/   /'
echo "   (a run this short is noise-bound; ./bench/run.sh pgo measures bzip2 and lua5.4)"
echo
echo "demo: done."
