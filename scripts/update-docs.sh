#!/usr/bin/env bash
# Regenerates the dialect and pass references in docs/ from ODS.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
ninja -C "$BUILD_DIR" phaedrus-doc
cp "$BUILD_DIR/docs/Dialects/Phaedrus.md" docs/Dialects/Phaedrus.md
# Both pass libraries' references, joined by the build (cmake/PassDocs.cmake).
cp "$BUILD_DIR/docs/Passes.md" docs/Passes.md
echo "docs/Dialects/Phaedrus.md and docs/Passes.md updated"
