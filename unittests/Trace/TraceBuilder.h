//===- TraceBuilder.h - Trace files built record by record for tests -----===//
//
// Writes trace bytes with the format's own definitions (Format.h), so tests
// can make whole, truncated and damaged traces without running a program.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_UNITTESTS_TRACE_TRACEBUILDER_H
#define PHAEDRUS_UNITTESTS_TRACE_TRACEBUILDER_H

#include "phaedrus/Trace/Format.h"

#include <zstd.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace mlir::phaedrus::testing {

class TraceBuilder {
public:
  TraceBuilder() { bytes.assign(PHAEDRUS_TRACE_MAGIC, PHAEDRUS_TRACE_MAGIC_SIZE); }

  void record(uint32_t tag, uint32_t aux, const std::string &payload) {
    uint32_t length = static_cast<uint32_t>(payload.size());
    phaedrus_record_header header{
        tag, length,
        phaedrus_record_checksum(tag, length, aux, payload.data(), length,
                                 nullptr, 0),
        aux};
    bytes.append(reinterpret_cast<const char *>(&header), sizeof header);
    bytes += payload;
    if (tag == PHAEDRUS_TAG_EVNT || tag == PHAEDRUS_TAG_EVNZ ||
        tag == PHAEDRUS_TAG_EVNP || tag == PHAEDRUS_TAG_EV2T ||
        tag == PHAEDRUS_TAG_EV2Z)
      threadsSeen.insert(aux);
  }
  template <typename T> static std::string raw(const T &value) {
    return std::string(reinterpret_cast<const char *>(&value), sizeof value);
  }
  void head(uint64_t fingerprint, uint32_t version = PHAEDRUS_TRACE_VERSION,
            uint32_t granularity = PHAEDRUS_GRANULARITY_FUNCTION) {
    phaedrus_head h{version, granularity, fingerprint, 42, 1, 7};
    record(PHAEDRUS_TAG_HEAD, 0, raw(h));
  }
  void events(uint32_t thread, uint32_t sequence, const std::vector<uint32_t> &t) {
    std::string payload = raw(sequence);
    payload.append(reinterpret_cast<const char *>(t.data()), t.size() * 4);
    record(PHAEDRUS_TAG_EVNT, thread, payload);
    total += t.size();
  }
  void compressedEvents(uint32_t thread, uint32_t sequence,
                        const std::vector<uint32_t> &t) {
    record(PHAEDRUS_TAG_EVNZ, thread,
           raw(sequence) + raw(static_cast<uint32_t>(t.size())) + zstdFrame(t));
    total += t.size();
  }
  /// 16-bit events (EV2T, or EV2Z when `compressed`), as a narrow build's
  /// runtime writes them; `t` must hold tokens below 2^16.
  void narrowEvents(uint32_t thread, uint32_t sequence,
                    const std::vector<uint32_t> &t, bool compressed) {
    std::string halves = narrow(t);
    if (compressed)
      record(PHAEDRUS_TAG_EV2Z, thread,
             raw(sequence) + raw(static_cast<uint32_t>(t.size())) +
                 zstdFrame(halves.data(), halves.size()));
    else
      record(PHAEDRUS_TAG_EV2T, thread, raw(sequence) + halves);
    total += t.size();
  }
  /// `t` as little-endian 16-bit words.
  static std::string narrow(const std::vector<uint32_t> &t) {
    std::string halves;
    for (uint32_t token : t)
      halves += raw(static_cast<uint16_t>(token));
    return halves;
  }
  /// The zstd frame of `words`.
  static std::string zstdFrame(const std::vector<uint32_t> &words) {
    return zstdFrame(words.data(), words.size() * 4);
  }
  static std::string zstdFrame(const void *data, size_t size) {
    std::string frame(ZSTD_compressBound(size), '\0');
    size_t n = ZSTD_compress(frame.data(), frame.size(), data, size, 1);
    frame.resize(n);
    return frame;
  }
  /// The prediction residue of `t` as the runtime makes it: flags, misses
  /// (with the encoder's loop for dense misses or for sparse ones).
  static std::vector<uint32_t> residue(const std::vector<uint32_t> &t,
                                       bool dense = false) {
    std::vector<uint32_t> table(PHAEDRUS_PREDICT_TABLE);
    std::vector<uint32_t> out(phaedrus_predict_flag_words(t.size()) + t.size());
    size_t flagWords = phaedrus_predict_flag_words(t.size());
    size_t missed = phaedrus_predict_encode(t.data(), t.size(), table.data(),
                                            out.data(), out.data() + flagWords,
                                            dense);
    out.resize(flagWords + missed);
    return out;
  }
  /// An EVNP record of `count` tokens whose frame holds `residueWords`.
  void predictedRecord(uint32_t thread, uint32_t sequence, uint32_t count,
                       const std::vector<uint32_t> &residueWords) {
    record(PHAEDRUS_TAG_EVNP, thread,
           raw(sequence) + raw(count) + zstdFrame(residueWords));
  }
  void predictedEvents(uint32_t thread, uint32_t sequence,
                       const std::vector<uint32_t> &t) {
    predictedRecord(thread, sequence, static_cast<uint32_t>(t.size()), residue(t));
    total += t.size();
  }
  void end(uint32_t dropped = 0) {
    uint32_t n = threads >= 0 ? static_cast<uint32_t>(threads)
                              : static_cast<uint32_t>(threadsSeen.size());
    phaedrus_end e{total, PHAEDRUS_EXIT_NORMAL, 0, n, dropped};
    record(PHAEDRUS_TAG_ENDT, 0, raw(e));
  }

  std::string bytes;
  /// What the end record counts: the events written, and the threads that
  /// wrote event records unless `threads` is set.
  uint64_t total = 0;
  int64_t threads = -1;

private:
  std::set<uint32_t> threadsSeen;
};

} // namespace mlir::phaedrus::testing

#endif // PHAEDRUS_UNITTESTS_TRACE_TRACEBUILDER_H
