//===- Formats.h - Versions of what Phaedrus writes -------------*- C++ -*-===//
//
// The versions that tie files to the build that wrote them, in one light
// header (no MLIR) that every tool's --version can print. The trace file's
// version is PHAEDRUS_TRACE_VERSION (phaedrus/Trace/Format.h, shared with
// the C runtime) and the featurizer's featurize::kVersion.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_FORMATS_H
#define PHAEDRUS_FORMATS_H

#include <cstdint>

namespace mlir::phaedrus {

/// Names the Ball-Larus numbering (BallLarus.cpp) in every fingerprint, so
/// that traces whose path ids another numbering made are refused. Change it
/// whenever the numbering changes. Scheme 2: the depth-first search does
/// not follow edges into targets of indirect branches.
inline constexpr const char *kPathNumberingScheme = "ball-larus-2";

/// The packed trace format version this build writes (docs/PackedTrace.md);
/// it reads every version from 1 on (PackedTrace.cpp says what each added).
inline constexpr uint32_t kPackedTraceVersion = 6;
/// The first four bytes of a packed trace file.
inline constexpr char kPackedTraceMagic[4] = {'P', 'H', 'P', 'K'};

} // namespace mlir::phaedrus

#endif // PHAEDRUS_FORMATS_H
