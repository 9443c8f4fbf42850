#!/usr/bin/env bash
# Fetches the Debian sources of the real programs Phaedrus is developed on
# (bzip2, lua5.4) into third_party/src/, enabling deb-src if needed.
# Idempotent: a program already unpacked is not fetched again.
set -euo pipefail
source "$(dirname "$0")/env.sh"
DEST="$PHAEDRUS_ROOT/third_party/src"
mkdir -p "$DEST"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

need=()
for pkg in bzip2 lua5.4; do
  ls -d "$DEST/$pkg"-*/ >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]} == 0)); then
  echo "fetch-programs: bzip2 and lua5.4 sources present in $DEST"
  exit 0
fi

sources=/etc/apt/sources.list.d/debian.sources
if [ -f "$sources" ] && grep -q '^Types: deb$' "$sources"; then
  echo "fetch-programs: enabling deb-src in $sources"
  $SUDO sed -i 's/^Types: deb$/Types: deb deb-src/' "$sources"
  $SUDO apt-get update -q
elif ! apt-get source --print-uris bzip2 >/dev/null 2>&1; then
  $SUDO apt-get update -q
fi

cd "$DEST"
for pkg in "${need[@]}"; do
  echo "fetch-programs: apt-get source $pkg"
  apt-get source -q "$pkg" > "$DEST/$pkg.fetch.log" 2>&1 || {
    cat "$DEST/$pkg.fetch.log"; echo "fetch-programs: could not fetch $pkg"; exit 1; }
done
ls -d "$DEST"/*/
