#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test suite: the lit tests
# (test/), the GoogleTest unit tests (unittests/, run through lit) and the
# Python tests (python/tests, when present). Exits non-zero on any failure and
# ends with one summary line "N passed, N failed".
set -uo pipefail
source "$(dirname "$0")/env.sh"
cd "$PHAEDRUS_ROOT"

"$PHAEDRUS_ROOT/scripts/setup.sh" || { echo "test: setup failed"; exit 1; }
phaedrus_build || { echo "test: build failed"; echo "0 passed, 1 failed"; exit 1; }
# The real programs of the end-to-end tests (Debian source packages).
"$PHAEDRUS_ROOT/scripts/fetch-programs.sh" || { echo "test: fetching bzip2/lua5.4 failed"; exit 1; }

passed=0 failed=0 status=0

# lit: test/ and unittests/ in one run.
lit_log="$BUILD_DIR/lit.log"
"$LLVM_BIN/lit" -sv "$BUILD_DIR/test" "$BUILD_DIR/unittests" 2>&1 | tee "$lit_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
count() { grep -E "^ *$1: +[0-9]+" "$lit_log" | awk '{print $2}' | head -n1; }
lit_passed=$(count Passed); lit_failed=$(count Failed)
lit_unexpected=$(count "Unexpectedly Passed")
passed=$((passed + ${lit_passed:-0}))
failed=$((failed + ${lit_failed:-0} + ${lit_unexpected:-0}))

# Python tests, once the package has them.
if [ -d python/tests ]; then
  py_log="$BUILD_DIR/pytest.log"
  PYTHONPATH="$PHAEDRUS_ROOT/python" PHAEDRUS_BUILD_DIR="$BUILD_DIR" \
    "$PYTHON" -m pytest -q python/tests 2>&1 | tee "$py_log"
  py_status=${PIPESTATUS[0]}
  py_passed=$(grep -oE "[0-9]+ passed" "$py_log" | tail -n1 | awk '{print $1}')
  py_failed=$(grep -oE "[0-9]+ (failed|error)" "$py_log" | awk '{s+=$1} END {print s+0}')
  passed=$((passed + ${py_passed:-0}))
  failed=$((failed + ${py_failed:-0}))
  # pytest exits 5 when it collects nothing; that is not a failure here.
  if [ "$py_status" -ne 0 ] && [ "$py_status" -ne 5 ]; then status=1; fi
fi

if [ "$passed" -eq 0 ]; then
  echo "test: no test ran"
  status=1
fi
if [ "$failed" -ne 0 ]; then status=1; fi
echo "$passed passed, $failed failed"
exit $status
