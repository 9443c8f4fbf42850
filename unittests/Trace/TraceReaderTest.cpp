//===- TraceReaderTest.cpp - Reading well-formed and damaged traces -------===//
//
// Builds trace bytes record by record with the format's own definitions and
// checks what the reader recovers from them, whole and damaged.
//
//===----------------------------------------------------------------------===//

#include "TraceBuilder.h"
#include "phaedrus/Trace/TraceReader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace mlir::phaedrus::trace;
using mlir::phaedrus::testing::TraceBuilder;

namespace {

struct Result {
  ReadStatus status;
  Header header;
  Ending ending;
  std::map<uint32_t, std::vector<uint32_t>> events;
};

Result read(const std::string &bytes) {
  Result r;
  r.status = readTrace(bytes.data(), bytes.size(), r.header, r.ending,
                       [&](uint32_t thread, const uint32_t *t, size_t n) {
                         r.events[thread].insert(r.events[thread].end(), t, t + n);
                       });
  return r;
}

TraceBuilder sampleTrace() {
  TraceBuilder b;
  b.head(99);
  b.record(PHAEDRUS_TAG_ARGV, 0, std::string("prog\0-v\0in.txt\0", 15));
  std::string file = TraceBuilder::raw(uint64_t(1234)) + TraceBuilder::raw(uint64_t(55)) + "in.txt";
  b.record(PHAEDRUS_TAG_FILE, 0, file);
  b.record(PHAEDRUS_TAG_VOCB, 0, "0\tfunction\tmain\n1\tcall_site\tmain\t0\tf\n");
  b.events(0, 0, {0, 1, 1});
  b.events(1, 0, {1});
  b.events(0, 1, {1, 1});
  b.end();
  return b;
}

TEST(TraceReaderTest, ReadsACompleteTrace) {
  Result r = read(sampleTrace().bytes);
  EXPECT_TRUE(r.status.complete) << r.status.problem;
  EXPECT_EQ(r.header.fingerprint, 99u);
  EXPECT_EQ(r.header.argv, (std::vector<std::string>{"prog", "-v", "in.txt"}));
  ASSERT_EQ(r.header.files.size(), 1u);
  EXPECT_EQ(r.header.files[0].path, "in.txt");
  EXPECT_EQ(r.header.files[0].size, 1234u);
  EXPECT_EQ(r.events[0], (std::vector<uint32_t>{0, 1, 1, 1, 1}));
  EXPECT_EQ(r.events[1], (std::vector<uint32_t>{1}));
  EXPECT_EQ(r.status.threads, 2u);
  std::string error;
  auto entries = parseVocabulary(r.header.vocabulary, error);
  ASSERT_TRUE(entries) << error;
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[1].callee, "f");
  EXPECT_EQ(*(*entries)[1].index, 0u);
}

// Property: every truncation keeps exactly the complete records before the
// cut, never reports corruption, and never delivers a partial record.
TEST(TraceReaderTest, EveryTruncationRecoversItsCompletePrefix) {
  std::string bytes = sampleTrace().bytes;
  size_t lastEvents = 0;
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    Result r = read(bytes.substr(0, cut));
    EXPECT_FALSE(r.status.complete);
    if (cut < PHAEDRUS_TRACE_MAGIC_SIZE) {
      EXPECT_FALSE(r.status.headerValid);
      continue;
    }
    EXPECT_FALSE(r.status.corrupt) << "cut " << cut << ": " << r.status.problem;
    EXPECT_LE(r.status.validBytes, cut);
    EXPECT_GE(r.status.events, lastEvents); // monotone in the cut
    lastEvents = r.status.events;
    EXPECT_FALSE(r.status.problem.empty());
  }
  EXPECT_EQ(lastEvents, 6u);
}

// Property: flipping any byte after the magic is detected (as corruption
// or a truncation-like length problem), never silently accepted.
TEST(TraceReaderTest, EveryFlippedByteIsDetected) {
  std::string bytes = sampleTrace().bytes;
  for (size_t i = PHAEDRUS_TRACE_MAGIC_SIZE; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] ^= 0x5A;
    Result r = read(damaged);
    EXPECT_FALSE(r.status.complete) << "flip at " << i << " went unnoticed";
  }
}

TEST(TraceReaderTest, MissingChunkIsReported) {
  TraceBuilder b;
  b.head(1);
  b.events(0, 0, {1});
  b.events(0, 2, {1});
  Result r = read(b.bytes);
  EXPECT_TRUE(r.status.corrupt);
  EXPECT_NE(r.status.problem.find("events of thread 0 are missing: chunk 1 expected"),
            std::string::npos)
      << r.status.problem;
  EXPECT_EQ(r.status.events, 1u);
}

// The runtime sets ENDT's `dropped` when it lost events (a failed write, or
// a signal handler that recorded while the runtime could not take its
// events): the trace is corrupt, and its events are the intact prefix.
TEST(TraceReaderTest, DroppedEventsAreReported) {
  TraceBuilder b;
  b.head(1);
  b.events(0, 0, {1, 2});
  b.end(/*dropped=*/1);
  Result r = read(b.bytes);
  EXPECT_TRUE(r.status.corrupt);
  EXPECT_EQ(r.status.problem,
            "the runtime reported dropped events (a write failed, or a signal "
            "handler recorded while the runtime could not take its events)");
  EXPECT_EQ(r.events[0], (std::vector<uint32_t>{1, 2}));
}

// Records with valid checksums in an order or of a size the format does
// not allow (a crafted file, or a foreign writer's): each is named.
TEST(TraceReaderTest, MisplacedOrShortRecordsAreCorrupt) {
  struct Case {
    const char *what;
    TraceBuilder trace;
    std::string problem;
  };
  std::vector<Case> cases;
  auto add = [&](const char *what, auto build, std::string problem) {
    TraceBuilder b;
    build(b);
    cases.push_back({what, std::move(b), std::move(problem)});
  };
  // A FILE record before the HEAD one.
  add("file first", [](TraceBuilder &b) {
    b.record(PHAEDRUS_TAG_FILE, 0, std::string(16, '\0') + "in.txt");
    b.head(1);
  }, "corrupt trace: the first record is FILE, not HEAD");
  // Two traces' headers in one file.
  add("two heads", [](TraceBuilder &b) {
    b.head(1);
    b.head(1);
  }, "corrupt trace: a second HEAD record at byte 56");
  // Two command lines, or two vocabularies: the last replaced the first
  // without a word (the fuzzing of 2026-11-28).
  add("two argvs", [](TraceBuilder &b) {
    b.head(1);
    b.record(PHAEDRUS_TAG_ARGV, 0, std::string("prog\0-9", 7));
    b.record(PHAEDRUS_TAG_ARGV, 0, std::string("evil", 4));
  }, "corrupt trace: a second ARGV record at byte 79 (files joined?)");
  add("two vocabularies", [](TraceBuilder &b) {
    b.head(1);
    b.record(PHAEDRUS_TAG_VOCB, 0, "");
    b.record(PHAEDRUS_TAG_VOCB, 0, "");
  }, "corrupt trace: a second VOCB record at byte 72 (files joined?)");
  add("short head", [](TraceBuilder &b) {
    b.record(PHAEDRUS_TAG_HEAD, 0, "ab");
  }, "corrupt HEAD record: too short");
  // A FILE record without its size and digest.
  add("short file", [](TraceBuilder &b) {
    b.head(1);
    b.record(PHAEDRUS_TAG_FILE, 0, "x");
  }, "corrupt FILE record at byte 56: too short");
  add("short end", [](TraceBuilder &b) {
    b.head(1);
    b.record(PHAEDRUS_TAG_ENDT, 0, "x");
  }, "corrupt ENDT record: too short");
  // An end record that counts other events than the file holds.
  add("miscounted end", [](TraceBuilder &b) {
    b.head(1);
    b.events(0, 0, {1, 2});
    b.total = 5;
    b.end();
  }, "the end record counts 5 events but the file holds 2");
  // Bytes after the end: a trace appended to, or two concatenated.
  add("bytes after the end", [](TraceBuilder &b) {
    b.head(1);
    b.events(0, 0, {1, 2});
    b.end();
    b.bytes += "junk";
  }, "corrupt trace: 4 bytes follow the end record");
  // Records out of the runtime's order (HEAD, ARGV, FILE, VOCB, events),
  // accepted before (the fuzzing of 2026-11-28): the vocabulary after the
  // events it names, a command line or an input after the vocabulary.
  add("vocabulary after events", [](TraceBuilder &b) {
    b.head(1);
    b.events(0, 0, {0});
    b.record(PHAEDRUS_TAG_VOCB, 0, "0\tfunction\tmain\n");
  }, "corrupt trace: the VOCB record at byte 80 comes after the event records "
     "(the runtime writes HEAD, ARGV, FILE, VOCB, then the events)");
  add("argv after vocabulary", [](TraceBuilder &b) {
    b.head(1);
    b.record(PHAEDRUS_TAG_VOCB, 0, "");
    b.record(PHAEDRUS_TAG_ARGV, 0, std::string("prog\0", 5));
  }, "corrupt trace: the ARGV record at byte 72 comes after the VOCB records "
     "(the runtime writes HEAD, ARGV, FILE, VOCB, then the events)");
  add("file after vocabulary", [](TraceBuilder &b) {
    b.head(1);
    b.record(PHAEDRUS_TAG_VOCB, 0, "");
    b.record(PHAEDRUS_TAG_FILE, 0, std::string(16, '\0') + "in.txt");
  }, "corrupt trace: the FILE record at byte 72 comes after the VOCB records "
     "(the runtime writes HEAD, ARGV, FILE, VOCB, then the events)");
  // A HEAD after the others is still named as a second one.
  add("head after argv", [](TraceBuilder &b) {
    b.head(1);
    b.record(PHAEDRUS_TAG_ARGV, 0, std::string("prog\0", 5));
    b.head(1);
  }, "corrupt trace: a second HEAD record at byte 77");
  // An end record that counts other threads than wrote events.
  add("miscounted threads", [](TraceBuilder &b) {
    b.head(1);
    b.events(0, 0, {1});
    b.events(1, 0, {2});
    b.threads = 1;
    b.end();
  }, "the end record counts 1 threads with events but the file holds "
     "events of 2");
  for (const Case &c : cases) {
    Result r = read(c.trace.bytes);
    EXPECT_FALSE(r.status.complete) << c.what;
    EXPECT_TRUE(r.status.corrupt) << c.what;
    EXPECT_EQ(r.status.problem, c.problem) << c.what;
  }
}

TEST(TraceReaderTest, WrongVersionIsRefused) {
  TraceBuilder b;
  for (uint32_t version : {0u, PHAEDRUS_TRACE_VERSION + 1}) {
    TraceBuilder b;
    b.head(1, version);
    Result r = read(b.bytes);
    EXPECT_FALSE(r.status.headerValid);
    EXPECT_NE(r.status.problem.find("unsupported trace format version " +
                                    std::to_string(version) +
                                    " (this reader reads versions 1 to 4)"),
              std::string::npos)
        << r.status.problem;
  }
}

TEST(TraceReaderTest, ReadsVersionOne) {
  // Version 1 traces (EVNT and EVNZ chunks, three-word path runs) still read.
  TraceBuilder b;
  b.head(3, 1);
  b.events(0, 0, {0, 1});
  b.compressedEvents(0, 1, {2});
  b.end();
  Result r = read(b.bytes);
  ASSERT_TRUE(r.status.complete) << r.status.problem;
  EXPECT_EQ(r.header.version, 1u);
  EXPECT_EQ(r.events[0], (std::vector<uint32_t>{0, 1, 2}));
}

TEST(TraceReaderTest, VocabularyRoundTripsAndRejectsBadLines) {
  std::vector<VocabularyEntry> entries = {
      {0, "function", "main", std::nullopt, "", {}},
      {1, "call_site", "main", 3, "work.1", {}},
      {2, "path", "work.1", 17, "", {}},
      {3, "group", "main", 0, "", {1, 4294967295}}};
  std::string text;
  for (const auto &e : entries)
    printVocabularyEntry(e, text);
  std::string error;
  auto parsed = parseVocabulary(text, error);
  ASSERT_TRUE(parsed) << error;
  ASSERT_EQ(parsed->size(), 4u);
  EXPECT_EQ((*parsed)[1].symbol, "main");
  EXPECT_EQ((*parsed)[2].index.value(), 17u);
  EXPECT_EQ((*parsed)[3].members, (std::vector<int64_t>{1, 4294967295}));
  EXPECT_TRUE((*parsed)[3].callee.empty());
  EXPECT_NE(text.find("3\tgroup\tmain\t0\t1,4294967295\n"), std::string::npos);
  EXPECT_TRUE((*parsed)[1].members.empty());

  // Groups: an index and two or more members, ids separated by commas.
  for (const char *bad : {"0\tgroup\tf\t0\n", "0\tgroup\tf\t0\t1\n",
                          "0\tgroup\tf\t0\t1,\n", "0\tgroup\tf\t0\t1,,2\n",
                          "0\tgroup\tf\t0\t1,x\n", "0\tgroup\tf\t0\t1,4294967296\n"}) {
    EXPECT_FALSE(parseVocabulary(bad, error)) << bad;
    EXPECT_NE(error.find("vocabulary line 1: "), std::string::npos) << error;
    EXPECT_NE(error.find("group"), std::string::npos) << error;
  }

  EXPECT_FALSE(parseVocabulary("0\tfunction\n", error));
  EXPECT_NE(error.find("vocabulary line 1: expected 3 to 5 tab-separated fields"),
            std::string::npos);
  EXPECT_FALSE(parseVocabulary("0\tfunction\tf\n1\tbogus\tg\n", error));
  EXPECT_NE(error.find("vocabulary line 2: unknown kind 'bogus'"), std::string::npos);
  EXPECT_FALSE(parseVocabulary("x\tfunction\tf\n", error));
  EXPECT_NE(error.find("bad id"), std::string::npos);
  EXPECT_FALSE(parseVocabulary("0\tfunction\t\n", error));
  EXPECT_EQ(error, "vocabulary line 1: empty symbol: '0\tfunction\t'");
  EXPECT_FALSE(parseVocabulary("0\tcall_site\tf\tx\tg\n", error));
  EXPECT_EQ(error, "vocabulary line 1: bad index: '0\tcall_site\tf\tx\tg'");
}

} // namespace

namespace {
TEST(TraceReaderTest, CompressedChunksShareTheSequence) {
  TraceBuilder b;
  b.head(5);
  std::vector<uint32_t> many(50000);
  for (size_t i = 0; i < many.size(); ++i)
    many[i] = i % 7;
  b.compressedEvents(0, 0, many);
  b.events(0, 1, {3, 4});
  b.compressedEvents(0, 2, {9});
  b.end();
  Result r = read(b.bytes);
  ASSERT_TRUE(r.status.complete) << r.status.problem;
  std::vector<uint32_t> expected = many;
  expected.insert(expected.end(), {3, 4, 9});
  EXPECT_EQ(r.events[0], expected);
  EXPECT_LT(b.bytes.size(), 2000u); // 200 KB of tokens compress away
}

TEST(TraceReaderTest, UndecompressableChunkIsCorrupt) {
  // Well-checksummed records whose frame is not zstd.
  for (auto [tag, problem] :
       {std::pair{PHAEDRUS_TAG_EVNZ, "its events do not decompress to 10 tokens"},
        std::pair{PHAEDRUS_TAG_EVNP, "its residue does not decode to 10 tokens"}}) {
    TraceBuilder b;
    b.head(5);
    b.record(tag, 0,
             TraceBuilder::raw(uint32_t(0)) + TraceBuilder::raw(uint32_t(10)) +
                 "not a zstd frame");
    Result r = read(b.bytes);
    EXPECT_TRUE(r.status.corrupt);
    EXPECT_NE(r.status.problem.find(problem), std::string::npos) << r.status.problem;
  }
}

// A narrow build's 16-bit records (version 3) read as the same 32-bit
// tokens, in one sequence with 32-bit records of the same thread.
TEST(TraceReaderTest, NarrowChunksReadAsTokens) {
  std::vector<uint32_t> many(PHAEDRUS_CHUNK_TOKENS);
  for (size_t i = 0; i < many.size(); ++i)
    many[i] = (i * 40503u) % 65536u; // every 16-bit value class, 0 and 65535
  many[0] = 65535;
  TraceBuilder b;
  b.head(5);
  b.narrowEvents(0, 0, many, /*compressed=*/true);
  b.narrowEvents(0, 1, {0, 65535, 7}, /*compressed=*/false);
  b.narrowEvents(1, 0, {}, /*compressed=*/false);
  b.events(0, 2, {70000});
  b.narrowEvents(0, 3, {1}, /*compressed=*/true);
  b.end();
  Result r = read(b.bytes);
  ASSERT_TRUE(r.status.complete) << r.status.problem;
  std::vector<uint32_t> expected = many;
  expected.insert(expected.end(), {0, 65535, 7, 70000, 1});
  EXPECT_EQ(r.events[0], expected);
  EXPECT_EQ(r.status.events, expected.size());
}

TEST(TraceReaderTest, DamagedNarrowChunksAreCorrupt) {
  struct Case {
    uint32_t tag;
    std::string payload, problem;
  };
  auto head = [](uint32_t count) {
    return TraceBuilder::raw(uint32_t(0)) + TraceBuilder::raw(count);
  };
  std::string three = TraceBuilder::narrow({1, 2, 3});
  for (const Case &c : std::vector<Case>{
           {PHAEDRUS_TAG_EV2T, TraceBuilder::raw(uint32_t(0)) + "abc",
            "corrupt EV2T record at byte 56: length is not a whole number of tokens"},
           {PHAEDRUS_TAG_EV2T, "ab", "corrupt EV2T record at byte 56: length is not"},
           {PHAEDRUS_TAG_EV2Z, "abcd", "corrupt EV2Z record at byte 56: too short"},
           {PHAEDRUS_TAG_EV2Z, head(10) + "not a zstd frame",
            "corrupt EV2Z record at byte 56: its events do not decompress to 10 tokens"},
           // Three tokens' frame, said to hold two or four.
           {PHAEDRUS_TAG_EV2Z, head(2) + TraceBuilder::zstdFrame(three.data(), 6),
            "its events do not decompress to 2 tokens"},
           {PHAEDRUS_TAG_EV2Z, head(4) + TraceBuilder::zstdFrame(three.data(), 6),
            "its events do not decompress to 4 tokens"},
           {PHAEDRUS_TAG_EV2Z, head(PHAEDRUS_MAX_PAYLOAD),
            "corrupt EV2Z record at byte 56: implausible token count"}}) {
    TraceBuilder b;
    b.head(5);
    b.record(c.tag, 0, c.payload);
    Result r = read(b.bytes);
    EXPECT_TRUE(r.status.corrupt) << c.problem;
    EXPECT_NE(r.status.problem.find(c.problem), std::string::npos) << r.status.problem;
    EXPECT_EQ(r.status.events, 0u);
  }
}

// The truncation and flipped-byte properties hold for narrow records too.
TEST(TraceReaderTest, NarrowTraceTruncationsAndFlipsAreDetected) {
  TraceBuilder b;
  b.head(5);
  b.narrowEvents(0, 0, {4, 5, 6, 4, 5, 6}, /*compressed=*/true);
  b.narrowEvents(0, 1, {9, 8}, /*compressed=*/false);
  b.end();
  for (size_t cut = PHAEDRUS_TRACE_MAGIC_SIZE; cut < b.bytes.size(); ++cut) {
    Result r = read(b.bytes.substr(0, cut));
    EXPECT_FALSE(r.status.complete);
    EXPECT_FALSE(r.status.corrupt) << "cut " << cut << ": " << r.status.problem;
  }
  for (size_t i = PHAEDRUS_TRACE_MAGIC_SIZE; i < b.bytes.size(); ++i) {
    std::string damaged = b.bytes;
    damaged[i] ^= 0x5A;
    EXPECT_FALSE(read(damaged).status.complete) << "flip at " << i << " went unnoticed";
  }
}
} // namespace

namespace {
// Tokens like an interpreter's: a few repeating patterns with noise, so
// both hits and misses occur, across several flag words and a partial last
// one.
std::vector<uint32_t> interpreterLike(size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<uint32_t> t;
  const uint32_t loop[] = {7, PHAEDRUS_PATH_SHORT | 3u << 16 | 12, 9, 0, 40000};
  while (t.size() < n) {
    if (random() % 5 == 0)
      t.push_back(random());
    else
      t.insert(t.end(), std::begin(loop), std::end(loop));
  }
  t.resize(n);
  return t;
}

TEST(TraceReaderTest, PredictedChunksRoundTrip) {
  for (size_t n : {size_t(1), size_t(31), size_t(32), size_t(33), size_t(5000),
                   size_t(PHAEDRUS_CHUNK_TOKENS)}) {
    std::vector<uint32_t> tokens = interpreterLike(n, n);
    TraceBuilder b;
    b.head(5);
    b.predictedEvents(0, 0, tokens);
    b.events(0, 1, {4});
    b.predictedEvents(0, 2, tokens); // the predictor starts afresh per chunk
    b.end();
    Result r = read(b.bytes);
    ASSERT_TRUE(r.status.complete) << n << ": " << r.status.problem;
    std::vector<uint32_t> expected = tokens;
    expected.push_back(4);
    expected.insert(expected.end(), tokens.begin(), tokens.end());
    EXPECT_EQ(r.events[0], expected) << n;
    EXPECT_EQ(r.status.events, expected.size());
  }
  // Repetitive tokens mostly hit: the residue is mostly flags.
  std::vector<uint32_t> tokens = interpreterLike(PHAEDRUS_CHUNK_TOKENS, 1);
  size_t flagWords = phaedrus_predict_flag_words(tokens.size());
  EXPECT_LT(TraceBuilder::residue(tokens).size() - flagWords, tokens.size() / 4);
}

// The runtime picks the encoder's loop by how often the last chunk missed;
// both loops must write the same residue, whatever the tokens.
TEST(TraceReaderTest, DenseAndSparsePredictorLoopsAgree) {
  std::mt19937 random(11);
  for (size_t n : {size_t(1), size_t(31), size_t(32), size_t(33), size_t(5000),
                   size_t(PHAEDRUS_CHUNK_TOKENS)}) {
    std::vector<uint32_t> noise(n);
    for (uint32_t &token : noise)
      token = random() % 7; // many misses and many hits
    for (const std::vector<uint32_t> &tokens :
         {interpreterLike(n, n), noise, std::vector<uint32_t>(n, 0u)}) {
      std::vector<uint32_t> sparse = TraceBuilder::residue(tokens, false);
      EXPECT_EQ(TraceBuilder::residue(tokens, true), sparse) << n;
      std::vector<uint32_t> table(PHAEDRUS_PREDICT_TABLE), back(n);
      size_t flagWords = phaedrus_predict_flag_words(n);
      ASSERT_EQ(phaedrus_predict_decode(sparse.data(), sparse.data() + flagWords,
                                        sparse.size() - flagWords, n,
                                        table.data(), back.data()),
                0)
          << n;
      EXPECT_EQ(back, tokens) << n;
    }
  }
}

TEST(TraceReaderTest, PredictedChunkWithWrongResidueIsCorrupt) {
  std::vector<uint32_t> tokens = interpreterLike(100, 2);
  std::vector<uint32_t> residue = TraceBuilder::residue(tokens);
  std::vector<uint32_t> oneMissMore = residue, oneMissLess = residue,
                        cutFlags = {residue[0]}, flagPastEnd = residue;
  oneMissMore.push_back(17);
  oneMissLess.pop_back();
  // A hit flag for a token past the chunk's 100 (bit 4 of the fourth
  // word): decoded as if absent before (the fuzzing of 2026-11-28).
  ASSERT_EQ(phaedrus_predict_flag_words(100), 4u);
  flagPastEnd[3] |= 1u << 4;
  for (const auto &bad : {oneMissMore, oneMissLess, cutFlags, flagPastEnd}) {
    TraceBuilder b;
    b.head(5);
    b.predictedRecord(0, 0, 100, bad);
    Result r = read(b.bytes);
    EXPECT_TRUE(r.status.corrupt);
    EXPECT_NE(r.status.problem.find("corrupt EVNP record at byte "),
              std::string::npos)
        << r.status.problem;
    EXPECT_NE(r.status.problem.find(": its residue does not decode to 100 tokens"),
              std::string::npos)
        << r.status.problem;
  }
  // A payload shorter than the sequence and the count.
  TraceBuilder s;
  s.head(5);
  s.record(PHAEDRUS_TAG_EVNP, 0, TraceBuilder::raw(uint32_t(0)));
  Result r = read(s.bytes);
  EXPECT_NE(r.status.problem.find("corrupt EVNP record at byte 56: too short"),
            std::string::npos)
      << r.status.problem;
}
} // namespace
