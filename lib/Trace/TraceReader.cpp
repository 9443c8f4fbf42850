//===- TraceReader.cpp - Reading phaedrus trace files ---------------------===//

#include "phaedrus/Trace/TraceReader.h"
#include "phaedrus/Formats.h"

#include <zstd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <vector>

using namespace mlir::phaedrus::trace;

namespace {

const char *tagName(uint32_t tag) {
  switch (tag) {
  case PHAEDRUS_TAG_HEAD: return "HEAD";
  case PHAEDRUS_TAG_ARGV: return "ARGV";
  case PHAEDRUS_TAG_FILE: return "FILE";
  case PHAEDRUS_TAG_VOCB: return "VOCB";
  case PHAEDRUS_TAG_EVNT: return "EVNT";
  case PHAEDRUS_TAG_EVNZ: return "EVNZ";
  case PHAEDRUS_TAG_EVNP: return "EVNP";
  case PHAEDRUS_TAG_EV2T: return "EV2T";
  case PHAEDRUS_TAG_EV2Z: return "EV2Z";
  case PHAEDRUS_TAG_ENDT: return "ENDT";
  default: return nullptr;
  }
}

template <typename T> T load(const char *p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

/// Copies `count` little-endian tokens of `tokenBytes` (2 or 4) bytes each
/// from `bytes` (not necessarily aligned: payloads lie anywhere in the file)
/// into 32-bit `tokens`. `bytes` may be `tokens` itself: 16-bit tokens are
/// widened from the last one down, so none is overwritten before it is read.
void widen(const char *bytes, size_t count, size_t tokenBytes, uint32_t *tokens) {
  if (tokenBytes == 4) {
    std::memmove(tokens, bytes, count * 4);
    return;
  }
  for (size_t i = count; i-- > 0;)
    tokens[i] = load<uint16_t>(bytes + 2 * i);
}

/// The order in which the runtime writes records: HEAD, ARGV, FILE, VOCB,
/// then event records of every kind (ENDT ends the reading).
constexpr int kEventStage = 4;
int recordStageOf(uint32_t tag) {
  switch (tag) {
  case PHAEDRUS_TAG_HEAD: return 0;
  case PHAEDRUS_TAG_ARGV: return 1;
  case PHAEDRUS_TAG_FILE: return 2;
  case PHAEDRUS_TAG_VOCB: return 3;
  default: return kEventStage;
  }
}

/// Decodes EVNP frames (Format.h, phaedrus_predict_decode), reusing its
/// buffers from chunk to chunk.
class PredictedDecoder {
public:
  /// Whether `frame` holds exactly the residue of `count` tokens; if so they
  /// are in `tokens`.
  bool decode(const char *frame, size_t size, size_t count, uint32_t *tokens) {
    size_t flagWords = phaedrus_predict_flag_words(count);
    residue.resize(flagWords + count);
    table.resize(PHAEDRUS_PREDICT_TABLE);
    size_t n = ZSTD_decompress(residue.data(), residue.size() * 4, frame, size);
    if (ZSTD_isError(n) || n % 4 != 0 || n / 4 < flagWords)
      return false;
    return phaedrus_predict_decode(residue.data(), residue.data() + flagWords,
                                   n / 4 - flagWords, count, table.data(),
                                   tokens) == 0;
  }

private:
  std::vector<uint32_t> residue, table;
};

} // namespace

ReadStatus mlir::phaedrus::trace::readTrace(const char *data, size_t size,
                                      Header &header, Ending &ending,
                                      const EventCallback &onEvents) {
  ReadStatus status;
  status.totalBytes = size;
  std::map<uint32_t, uint32_t> nextSequence; // thread -> expected sequence
  PredictedDecoder predicted;
  auto fail = [&](bool corrupt, const std::string &message) {
    status.threads = static_cast<uint32_t>(nextSequence.size());
    status.corrupt = corrupt;
    status.problem = message;
    return status;
  };
  if (size >= sizeof kPackedTraceMagic &&
      std::memcmp(data, kPackedTraceMagic, sizeof kPackedTraceMagic) == 0)
    return fail(true, "not a trace file the runtime wrote: it is a packed "
                      "trace file (phaedrus-translate --import-packed reads "
                      "it)");
  if (size < PHAEDRUS_TRACE_MAGIC_SIZE ||
      std::memcmp(data, PHAEDRUS_TRACE_MAGIC, PHAEDRUS_TRACE_MAGIC_SIZE) != 0)
    return fail(true, "not a phaedrus trace: the file does not start with the "
                      "trace magic");

  size_t offset = PHAEDRUS_TRACE_MAGIC_SIZE;
  status.validBytes = offset;
  bool sawHead = false, sawArgv = false, sawVocabulary = false;
  // The runtime writes HEAD, ARGV, FILE, VOCB, then the events
  // (docs/TraceFormat.md): the stage of the last record read, and its tag.
  int stage = 0;
  const char *stageName = "HEAD";
  while (offset < size) {
    std::ostringstream where;
    where << "at byte " << offset;
    if (size - offset < sizeof(phaedrus_record_header))
      return fail(false, "truncated " + where.str() + ": " +
                             std::to_string(size - offset) +
                             " bytes left, less than a record header");
    auto record = load<phaedrus_record_header>(data + offset);
    const char *name = tagName(record.tag);
    if (!name)
      return fail(true, "corrupt record " + where.str() + ": unknown tag 0x" +
                            [&] {
                              std::ostringstream hex;
                              hex << std::hex << record.tag;
                              return hex.str();
                            }());
    if (record.length > PHAEDRUS_MAX_PAYLOAD)
      return fail(true, std::string("corrupt ") + name + " record " +
                            where.str() + ": length " +
                            std::to_string(record.length) +
                            " exceeds the format's limit");
    size_t payloadOffset = offset + sizeof(phaedrus_record_header);
    if (size - payloadOffset < record.length)
      return fail(false, std::string("truncated ") + name + " record " +
                             where.str() + ": it needs " +
                             std::to_string(record.length) +
                             " payload bytes, the file has " +
                             std::to_string(size - payloadOffset));
    const char *payload = data + payloadOffset;
    if (phaedrus_record_checksum(record.tag, record.length, record.aux, payload,
                                 record.length, nullptr, 0) != record.checksum)
      return fail(true, std::string("corrupt ") + name + " record " +
                            where.str() + ": checksum mismatch");
    if (!sawHead && record.tag != PHAEDRUS_TAG_HEAD)
      return fail(true, "corrupt trace: the first record is " +
                            std::string(name) + ", not HEAD");
    // A record of an earlier stage after a later one: accepted before
    // 2026-11-28, it gave events read before their vocabulary, or a file
    // of two runs' records.
    int recordStage = recordStageOf(record.tag);
    if (recordStage < stage && record.tag != PHAEDRUS_TAG_HEAD)
      return fail(true, std::string("corrupt trace: the ") + name +
                            " record " + where.str() + " comes after the " +
                            stageName +
                            " records (the runtime writes HEAD, ARGV, FILE, "
                            "VOCB, then the events)");
    if (recordStage > stage) {
      stage = recordStage;
      stageName = recordStage == kEventStage ? "event" : name;
    }

    switch (record.tag) {
    case PHAEDRUS_TAG_HEAD: {
      if (sawHead)
        return fail(true, "corrupt trace: a second HEAD record " + where.str());
      if (record.length < sizeof(phaedrus_head))
        return fail(true, "corrupt HEAD record: too short");
      auto head = load<phaedrus_head>(payload);
      if (head.version < PHAEDRUS_TRACE_OLDEST_VERSION ||
          head.version > PHAEDRUS_TRACE_VERSION)
        return fail(true, "unsupported trace format version " +
                              std::to_string(head.version) +
                              " (this reader reads versions " +
                              std::to_string(PHAEDRUS_TRACE_OLDEST_VERSION) +
                              " to " + std::to_string(PHAEDRUS_TRACE_VERSION) +
                              ")");
      if (head.granularity != PHAEDRUS_GRANULARITY_FUNCTION &&
          head.granularity != PHAEDRUS_GRANULARITY_PATH)
        return fail(true, "unknown granularity " +
                              std::to_string(head.granularity) +
                              " (0 is function, 1 is path)");
      header.version = head.version;
      header.granularity = head.granularity;
      header.fingerprint = head.fingerprint;
      header.pid = head.pid;
      header.parentPid = head.parent_pid;
      header.startTimeNs = head.start_time_ns;
      sawHead = true;
      status.headerValid = true;
      break;
    }
    case PHAEDRUS_TAG_ARGV: {
      // The runtime writes one of each per file: a second (a file spliced
      // or concatenated) replaced the first without a word.
      if (sawArgv)
        return fail(true, "corrupt trace: a second ARGV record " +
                              where.str() + " (files joined?)");
      sawArgv = true;
      header.argv.clear();
      size_t start = 0;
      for (size_t i = 0; i < record.length; ++i)
        if (payload[i] == 0) {
          header.argv.emplace_back(payload + start, i - start);
          start = i + 1;
        }
      if (start < record.length) // cmdline cut at the runtime's buffer size
        header.argv.emplace_back(payload + start, record.length - start);
      break;
    }
    case PHAEDRUS_TAG_FILE: {
      if (record.length < 16)
        return fail(true, "corrupt FILE record " + where.str() + ": too short");
      InputFile file;
      file.size = load<uint64_t>(payload);
      file.digest = load<uint64_t>(payload + 8);
      file.path.assign(payload + 16, record.length - 16);
      header.files.push_back(std::move(file));
      break;
    }
    case PHAEDRUS_TAG_VOCB:
      if (sawVocabulary)
        return fail(true, "corrupt trace: a second VOCB record " +
                              where.str() + " (files joined?)");
      sawVocabulary = true;
      header.vocabulary.assign(payload, record.length);
      break;
    case PHAEDRUS_TAG_EVNT:
    case PHAEDRUS_TAG_EVNZ:
    case PHAEDRUS_TAG_EVNP:
    case PHAEDRUS_TAG_EV2T:
    case PHAEDRUS_TAG_EV2Z: {
      bool compressed =
          record.tag != PHAEDRUS_TAG_EVNT && record.tag != PHAEDRUS_TAG_EV2T;
      // 16-bit tokens (version 3), widened here: readers see 32-bit tokens.
      bool narrow =
          record.tag == PHAEDRUS_TAG_EV2T || record.tag == PHAEDRUS_TAG_EV2Z;
      size_t tokenBytes = narrow ? 2 : 4;
      std::string name = tagName(record.tag);
      if (!compressed &&
          (record.length < 4 || (record.length - 4) % tokenBytes != 0))
        return fail(true, "corrupt " + name + " record " + where.str() +
                              ": length is not a whole number of tokens");
      if (compressed && record.length < 8)
        return fail(true, "corrupt " + name + " record " + where.str() +
                              ": too short");
      uint32_t thread = record.aux;
      uint32_t sequence = load<uint32_t>(payload);
      auto [it, inserted] = nextSequence.try_emplace(thread, 0);
      if (sequence != it->second)
        return fail(true, "events of thread " + std::to_string(thread) +
                              " are missing: chunk " +
                              std::to_string(it->second) + " expected " +
                              where.str() + ", found chunk " +
                              std::to_string(sequence));
      ++it->second;
      size_t count;
      std::vector<uint32_t> tokens;
      if (compressed) {
        count = load<uint32_t>(payload + 4);
        if (count > PHAEDRUS_MAX_PAYLOAD / 4)
          return fail(true, "corrupt " + name + " record " + where.str() +
                                ": implausible token count");
        tokens.resize(count);
        if (record.tag == PHAEDRUS_TAG_EVNZ || narrow) {
          // 16-bit tokens decompress into the first half of `tokens` and are
          // widened in place.
          size_t n = ZSTD_decompress(tokens.data(), count * tokenBytes,
                                     payload + 8, record.length - 8);
          if (ZSTD_isError(n) || n != count * tokenBytes)
            return fail(true, "corrupt " + name + " record " + where.str() +
                                  ": its events do not decompress to " +
                                  std::to_string(count) + " tokens");
          if (narrow)
            widen(reinterpret_cast<const char *>(tokens.data()), count,
                  tokenBytes, tokens.data());
        } else if (!predicted.decode(payload + 8, record.length - 8, count,
                                     tokens.data())) {
          return fail(true, "corrupt EVNP record " + where.str() +
                                ": its residue does not decode to " +
                                std::to_string(count) + " tokens");
        }
      } else {
        count = (record.length - 4) / tokenBytes;
        tokens.resize(count);
        widen(payload + 4, count, tokenBytes, tokens.data());
      }
      if (count)
        onEvents(thread, tokens.data(), count);
      status.events += count;
      ++status.eventRecords;
      break;
    }
    case PHAEDRUS_TAG_ENDT: {
      if (record.length < sizeof(phaedrus_end))
        return fail(true, "corrupt ENDT record: too short");
      auto end = load<phaedrus_end>(payload);
      ending.present = true;
      ending.events = end.events;
      ending.exitKind = end.exit_kind;
      ending.signalNumber = end.signal_number;
      ending.threads = end.threads;
      ending.dropped = end.dropped;
      break;
    }
    }
    offset = payloadOffset + record.length;
    status.validBytes = offset;
    if (record.tag == PHAEDRUS_TAG_ENDT)
      break;
  }
  status.threads = static_cast<uint32_t>(nextSequence.size());

  if (!sawHead)
    return fail(false, "truncated trace: no HEAD record");
  if (!ending.present)
    return fail(false, "the trace has no end record: the run was killed or "
                       "left through _exit or exec, or ended by a signal the "
                       "runtime leaves to the program (SIGINT, SIGTERM, "
                       "SIGHUP, SIGQUIT), before the runtime could finish "
                       "it");
  if (offset != size)
    return fail(true, "corrupt trace: " + std::to_string(size - offset) +
                          " bytes follow the end record");
  if (ending.dropped)
    return fail(true, "the runtime reported dropped events (a write failed, "
                      "or a signal handler recorded while the runtime could "
                      "not take its events)");
  if (ending.events != status.events)
    return fail(true, "the end record counts " + std::to_string(ending.events) +
                          " events but the file holds " +
                          std::to_string(status.events));
  if (ending.threads != status.threads)
    return fail(true, "the end record counts " +
                          std::to_string(ending.threads) +
                          " threads with events but the file holds events "
                          "of " + std::to_string(status.threads));
  status.complete = true;
  return status;
}

std::optional<std::vector<VocabularyEntry>>
mlir::phaedrus::trace::parseVocabulary(const std::string &text, std::string &error) {
  std::vector<VocabularyEntry> entries;
  std::istringstream lines(text);
  std::string line;
  size_t lineNumber = 0;
  while (std::getline(lines, line)) {
    ++lineNumber;
    if (line.empty())
      continue;
    auto bad = [&](const std::string &why) {
      error = "vocabulary line " + std::to_string(lineNumber) + ": " + why +
              ": '" + line + "'";
      return std::nullopt;
    };
    // (A symbol that kept it would name no function of the program.)
    if (line.find('\r') != std::string::npos)
      return bad("a carriage return (the lines end in a newline alone)");
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t tab; (tab = line.find('\t', start)) != std::string::npos;
         start = tab + 1)
      fields.push_back(line.substr(start, tab - start));
    fields.push_back(line.substr(start));
    if (fields.size() < 3 || fields.size() > 5)
      return bad("expected 3 to 5 tab-separated fields");
    VocabularyEntry entry;
    char *end = nullptr;
    unsigned long long id = std::strtoull(fields[0].c_str(), &end, 10);
    if (fields[0].empty() || *end || id > UINT32_MAX)
      return bad("bad id");
    entry.id = static_cast<uint32_t>(id);
    entry.kind = fields[1];
    entry.symbol = fields[2];
    if (entry.kind != "function" && entry.kind != "call_site" &&
        entry.kind != "path" && entry.kind != "group")
      return bad("unknown kind '" + entry.kind + "'");
    if (entry.symbol.empty())
      return bad("empty symbol");
    if (fields.size() >= 4) {
      errno = 0;
      unsigned long long index = std::strtoull(fields[3].c_str(), &end, 10);
      // (An index is a signed 64-bit integer in the IR.)
      if (fields[3].empty() || *end || errno == ERANGE || index > INT64_MAX)
        return bad("bad index");
      entry.index = index;
    }
    if (entry.kind == "group") {
      // index, then the members: ids separated by commas, at least two.
      if (fields.size() != 5)
        return bad("a group needs its index and members");
      std::istringstream list(fields[4]);
      std::string member;
      while (std::getline(list, member, ',')) {
        unsigned long long value = std::strtoull(member.c_str(), &end, 10);
        if (member.empty() || *end || value > UINT32_MAX)
          return bad("bad group member '" + member + "'");
        entry.members.push_back(static_cast<int64_t>(value));
      }
      if (entry.members.size() < 2 || fields[4].back() == ',')
        return bad("a group needs at least two members");
    } else if (fields.size() == 5) {
      entry.callee = fields[4];
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

void mlir::phaedrus::trace::printVocabularyEntry(const VocabularyEntry &entry,
                                           std::string &text) {
  text += std::to_string(entry.id);
  text += '\t';
  text += entry.kind;
  text += '\t';
  text += entry.symbol;
  if (entry.index) {
    text += '\t';
    text += std::to_string(*entry.index);
  }
  if (!entry.callee.empty()) {
    text += '\t';
    text += entry.callee;
  }
  for (size_t i = 0; i < entry.members.size(); ++i) {
    text += i ? ',' : '\t';
    text += std::to_string(entry.members[i]);
  }
  text += '\n';
}
