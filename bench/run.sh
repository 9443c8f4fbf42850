#!/usr/bin/env bash
# Runs Phaedrus' benchmarks; results go to bench/results/ (see bench/README.md).
#
#   ./bench/run.sh overhead [--runs N] [--cpu auto|none|N] [--programs NAME...] [--output FILE]
#   ./bench/run.sh compress [--scale N] [--programs NAME...]
#                           [--granularities G...] [--output FILE]
#   ./bench/run.sh infer [--runs N] [--epochs N] [--threads N]
#                        [--programs NAME...] [--output FILE]
#   ./bench/run.sh pgo [--scale N] [--rounds N] [--clock cpu|wall] [--cpu auto|none|N] [--kind retrieval|lstm|mlp] [--epochs N]
#                      [--programs NAME...] [--output FILE]
#
# Benchmarks measure; they never build Phaedrus itself. Build first with
# ./scripts/test.sh (or ninja -C build).
set -euo pipefail
source "$(dirname "$0")/../scripts/env.sh"
cd "$PHAEDRUS_ROOT"

usage() {
  cat <<EOF
usage: ./bench/run.sh BENCHMARK [OPTIONS]

benchmarks:
  overhead   wall time of instrumented and clang-instrumented builds of the
             real programs against the plain build
             -> bench/results/overhead.json
             options: --runs N (default 7, at least 5), --cpu auto|none|N,
                      --programs NAME..., --output FILE;
                      see: ./bench/run.sh overhead --help
  compress   size of the compressed traces of the real programs against the
             raw token stream, xz -9 and zstd -19; compression speed; round trip
             -> bench/results/compress.json
             options: --scale N (default 1), --programs NAME...,
                      --granularities function|path..., --output FILE;
                      see: ./bench/run.sh compress --help
  infer      oneDNN (lib/Inference) against PyTorch generating the same
             profile with the same model; latency of one --phaedrus-predict
             -> bench/results/infer.json
             options: --runs N (default 5), --epochs N, --threads N,
                      --programs NAME..., --output FILE
  pgo        phaedrus eval on the held-out inputs of the real programs:
             builds with the predicted profile against no profile,
             mismatched and oracle clang PGO; speedups, profile overlap,
             hot coverage
             -> bench/results/pgo.json, bench/results/pgo-PROGRAM.png
             options: --scale N (default 4), --rounds N (default 21),
                      --clock cpu|wall (default cpu), --cpu auto|none|N
                      (default auto), --kind, --epochs N, --seed N,
                      --programs NAME..., --output FILE

Build Phaedrus first: ./scripts/test.sh (or ninja -C build).
EOF
}

# Every benchmark needs the built tools and the real programs' sources.
require_build() {
  if [ ! -x "$BUILD_DIR/bin/phaedrus-opt" ] || [ ! -f "$BUILD_DIR/lib/libphaedrus_rt.a" ]; then
    echo "bench: $BUILD_DIR/bin/phaedrus-opt or $BUILD_DIR/lib/libphaedrus_rt.a not found;" >&2
    echo "bench: build Phaedrus first: ./scripts/test.sh (or ninja -C $BUILD_DIR)" >&2
    exit 1
  fi
}

require_programs() {
  "$PHAEDRUS_ROOT/scripts/fetch-programs.sh" >&2 || {
    echo "bench: could not fetch the bzip2/lua5.4 sources (scripts/fetch-programs.sh)" >&2
    exit 1
  }
}

run_python() {
  PYTHONPATH="$PHAEDRUS_ROOT/python${PYTHONPATH:+:$PYTHONPATH}" \
    PHAEDRUS_BUILD_DIR="$BUILD_DIR" "$PYTHON" "$@"
}

if [ $# -eq 0 ]; then
  usage >&2
  exit 2
fi
benchmark=$1
shift

case "$benchmark" in
  overhead)
    require_build
    require_programs
    run_python bench/overhead.py "$@"
    ;;
  compress)
    require_build
    require_programs
    for tool in xz zstd; do
      command -v "$tool" >/dev/null || {
        echo "bench: compress needs $tool (apt-get install xz-utils zstd)" >&2
        exit 1
      }
    done
    run_python bench/compress.py "$@"
    ;;
  infer)
    require_build
    require_programs
    run_python bench/infer.py "$@"
    ;;
  pgo)
    require_build
    require_programs
    run_python bench/pgo.py "$@"
    ;;
  -h|--help|help)
    usage
    ;;
  *)
    echo "bench: unknown benchmark '$benchmark'" >&2
    usage >&2
    exit 2
    ;;
esac
