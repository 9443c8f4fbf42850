#!/usr/bin/env bash
# The main job on a bundled example: set up, build, then run the phaedrus
# pipeline on examples/sample.mlir and show what LLVM receives.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PHAEDRUS_ROOT"

"$PHAEDRUS_ROOT/scripts/setup.sh"
phaedrus_build > "$BUILD_DIR.demo-build.log" 2>&1 || {
  cat "$BUILD_DIR.demo-build.log"; exit 1; }
OPT="$BUILD_DIR/bin/phaedrus-opt"
TRANSLATE="$BUILD_DIR/bin/phaedrus-translate"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "== 1. The bundled example: a program, its vocabulary and a compressed trace"
grep -E "phaedrus\.(vocabulary|entry|trace|repeat|tokens)" examples/sample.mlir | sed 's/^/   /'

echo
echo "== 2. phaedrus-opt --phaedrus-expand: the exact event sequence behind it"
"$OPT" examples/sample.mlir --phaedrus-expand > "$OUT/expanded.mlir"
tokens=$(grep -oE "tensor<[0-9]+xi32>" "$OUT/expanded.mlir" | head -n1)
echo "   one phaedrus.tokens of $tokens"

echo
echo "== 3. phaedrus-opt --phaedrus-trace-profile: measured entry counts"
"$OPT" examples/sample.mlir --phaedrus-trace-profile > "$OUT/profiled.mlir"
"$TRANSLATE" --export-profile-json "$OUT/profiled.mlir" > "$OUT/profile.json"
"$PYTHON" - "$OUT/profile.json" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
print("   %-10s %12s  %-10s" % ("function", "entry count", "provenance"))
for f in sorted(profile["functions"], key=lambda f: -f["entry_count"]):
    print("   %-10s %12d  %-10s" % (f["name"], f["entry_count"], f["provenance"]))
PY

echo
echo "== 4. --phaedrus-lower-profile --phaedrus-strip, then mlir-translate: LLVM IR with a profile"
"$OPT" "$OUT/profiled.mlir" --phaedrus-lower-profile --phaedrus-strip \
  | "$LLVM_BIN/mlir-translate" --mlir-to-llvmir > "$OUT/program.ll"
grep -E "^define|function_entry_count|ProfileSummary|TotalCount|MaxFunctionCount" "$OUT/program.ll" | sed 's/^/   /'

echo
echo "== 5. LLVM's ProfileSummaryInfo reads it (opt -passes=print-profile-summary)"
"$LLVM_BIN/opt" -passes=print-profile-summary -disable-output "$OUT/program.ll" 2>&1 | sed 's/^/   /'
echo
echo "demo: done"
