#!/usr/bin/env bash
# Installs everything Phaedrus needs from Debian 12 packages. Idempotent: a
# second run installs nothing and finishes in about a second.
set -euo pipefail

PACKAGES=(
  # Compiler stack (LLVM/MLIR/clang 22 live under /usr/lib/llvm-22).
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22
  # clang -fprofile-instr-generate needs the profile runtime.
  libclang-rt-22-dev
  # Build system and C++ libraries.
  cmake ninja-build g++ libgtest-dev libdnnl-dev nlohmann-json3-dev zlib1g-dev libzstd-dev
  # Python side, all in the system interpreter /usr/bin/python3.
  python3 python3-torch python3-numpy python3-matplotlib python3-tqdm python3-pytest
  # Real programs and benchmarks: apt-get source needs dpkg-dev; compression baselines.
  dpkg-dev xz-utils zstd
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup: done"
