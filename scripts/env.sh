# Shared settings for the scripts; source it, do not run it.
PHAEDRUS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LLVM_BIN=/usr/lib/llvm-22/bin
BUILD_DIR=${BUILD_DIR:-$PHAEDRUS_ROOT/build}
# The system interpreter has Debian's torch/numpy; the first python3 on PATH may not.
PYTHON=/usr/bin/python3

# Configures (once) and builds the project.
phaedrus_build() {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    cmake -G Ninja -S "$PHAEDRUS_ROOT" -B "$BUILD_DIR" \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DLLVM_USE_LINKER=lld
  fi
  ninja -C "$BUILD_DIR" all phaedrus-doc
}
