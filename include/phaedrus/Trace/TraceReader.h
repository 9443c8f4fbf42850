//===- TraceReader.h - Reading phaedrus trace files -------------*- C++ -*-===//
//
// Reads the trace files libphaedrus_rt writes (docs/TraceFormat.md) from a
// byte span, streaming events to a callback so that memory stays bounded by
// one record. Damage is reported precisely: where the trace stops being
// valid, why, and how much of it was recovered.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_TRACEREADER_H
#define PHAEDRUS_TRACE_TRACEREADER_H

#include "phaedrus/Trace/Format.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::phaedrus::trace {

struct InputFile {
  std::string path;
  uint64_t size = 0;
  uint64_t digest = 0; // FNV-1a 64 of the first 64 KiB; 0 if not readable
};

struct VocabularyEntry {
  uint32_t id = 0;
  std::string kind; // function, call_site, path, group
  std::string symbol;
  std::optional<uint64_t> index;
  std::string callee; // call_site only
  std::vector<int64_t> members; // group only: the ids it stands for, in order
};

struct Header {
  uint32_t version = 0;
  uint32_t granularity = 0;
  /// Whether a function-granularity build recorded the trace (granularity
  /// without the flags or-ed into it, Format.h); readers take any other
  /// trace's events as a path build's.
  bool functionGranularity() const {
    return (granularity & ~PHAEDRUS_NARROW_EVENTS) ==
           PHAEDRUS_GRANULARITY_FUNCTION;
  }
  uint64_t fingerprint = 0;
  uint32_t pid = 0;
  uint32_t parentPid = 0;
  uint64_t startTimeNs = 0;
  std::vector<std::string> argv;
  std::vector<InputFile> files;
  std::string vocabulary; // the VOCB text
};

struct Ending {
  bool present = false;
  uint64_t events = 0;
  uint32_t exitKind = 0;
  uint32_t signalNumber = 0;
  uint32_t threads = 0;
  uint32_t dropped = 0;
};

/// What reading found.
struct ReadStatus {
  /// False if not even the header could be read: nothing was recovered.
  bool headerValid = false;
  /// True if the file ends with a valid end record and nothing is missing.
  bool complete = false;
  /// True if a record in the middle is corrupt (bad checksum, bad length,
  /// unknown tag), as opposed to a clean truncation at the end.
  bool corrupt = false;
  /// Empty when complete; otherwise what was wrong, in a sentence.
  std::string problem;
  uint64_t validBytes = 0; // bytes of the file up to the last valid record
  uint64_t totalBytes = 0;
  uint64_t events = 0;     // events delivered to the callback
  uint64_t eventRecords = 0;
  uint32_t threads = 0;    // distinct thread indices seen
};

/// Called with consecutive events of one thread, in order.
using EventCallback =
    std::function<void(uint32_t thread, const uint32_t *tokens, size_t count)>;

/// Reads a whole trace from `data`. Events are delivered as they are read;
/// reading stops at the first damaged record. `header` and `ending` are
/// filled as far as the file allows.
ReadStatus readTrace(const char *data, size_t size, Header &header,
                     Ending &ending, const EventCallback &onEvents);

/// Parses VOCB text into entries; on a malformed line returns std::nullopt
/// and sets `error` to a message naming the line.
std::optional<std::vector<VocabularyEntry>>
parseVocabulary(const std::string &text, std::string &error);

/// Appends one vocabulary line for `entry` to `text` (the inverse of
/// parseVocabulary).
void printVocabularyEntry(const VocabularyEntry &entry, std::string &text);

} // namespace mlir::phaedrus::trace

#endif // PHAEDRUS_TRACE_TRACEREADER_H
