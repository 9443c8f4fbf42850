//===- PackedTrace.cpp - The packed trace format --------------------------===//
//
// Layout (docs/PackedTrace.md): a 24-byte header (magic, version, payload
// size, FNV-1a 64 of the payload), then the payload, one arithmetic-coded
// stream. The stream holds, per vocabulary: its name, fingerprint and
// entries in id order; its grammars (names, rule names) and their rule
// bodies; its traces (name, fingerprint, grammar, input descriptor, body).
// Bodies are symbol sequences over one alphabet per vocabulary: the tokens,
// then the rules of all its grammars, then OPEN, CLOSE and END; a repeat is
// OPEN, its body, CLOSE and its count.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Target/Wpp/PackedTrace.h"

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Target/Wpp/ImportWpp.h"
#include "phaedrus/Trace/CallGroups.h"
#include "phaedrus/Trace/ContextCoder.h"
#include "phaedrus/Trace/Format.h"
#include "phaedrus/Trace/RepeatFolder.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"

using namespace mlir;
using namespace mlir::phaedrus;
using trace::BitCoder;
using trace::hashCombine;

namespace {

// 2: group entries carry their members; 3: body symbols are coded as a
// flag "the predicted symbol" first (SymbolModel::Predicted); 4: the body
// model's match models look back at most 2^windowBits symbols, a number in
// the file after the table size, the flag "the predicted symbol" is coded
// with 16-bit probabilities, and vocabulary entries are coded tighter
// (names front-coded, call sites' and groups' symbols as skips, callees by
// rank among the recent ones); 5: symbols deep in a long match are coded
// in runs (SymbolModel's runLength, a number in the file after the window);
// 6: the body model's tables grow, up to the size in the file, with the
// symbols coded outside runs' sure hits (SymbolModel's growTables).
constexpr uint32_t kVersion = kPackedTraceVersion;
constexpr size_t kHeaderSize = 24;
constexpr unsigned kMaxDepth = 4096; // repeat nesting a decoder accepts
// The longest string a packed file holds (names, input descriptors): the
// text model codes a repetitive string in far fewer bits than characters,
// so the payload's size does not bound it.
constexpr uint64_t kMaxString = uint64_t(1) << 24;

/// Contexts of the numbers in the stream, one per field.
enum Field : uint32_t {
  kCount = 1,
  kStringLength,
  kFingerprint,
  kEntries,
  kKind,
  kIndex,
  kHasIndex,
  kHasCallee,
  kNameRef,
  kSameSymbol,
  kGrammars,
  kRules,
  kCanonicalNames,
  kTraces,
  kTraceGrammar,
  kTableBits,
  kRepeatCount,
  kSameCount,
  kNextIndex,
  kExtendsGroup,
  kMembers,
  kMember,
  kWindowBits, // (fields are contexts: new ones go last)
  kNamePrefix,
  kSymbolForward,
  kSymbolSkip,
  kCalleeSeen,
  kCalleeRank,
  kRunLength,
};

/// The models and coder shared by packing and unpacking. Every method
/// codes in the direction of the coder and returns the value coded.
class PackCodec {
public:
  PackCodec(BitCoder coder, uint32_t version)
      : coder(coder), text(8, 16), version(version) {}

  uint64_t number(uint64_t value, uint32_t context) {
    return numbers.code(coder, value, context);
  }
  bool flag(bool value, uint32_t context) {
    return numbers.codeFlag(coder, value, context);
  }
  std::string string(StringRef value) {
    std::string result;
    // (Encoding, the length is the value's: the packer then refuses it.)
    uint64_t length = number(value.size(), kStringLength);
    if (length > kMaxString)
      return failCorrupt("a string longer than 16 MiB"), result;
    for (uint64_t i = 0; i < length; ++i)
      result.push_back(static_cast<char>(
          text.code(coder, i < value.size() ? static_cast<uint8_t>(value[i]) : 0)));
    return result;
  }
  /// A name from the names seen so far (function names repeat across call
  /// sites and paths), or a new one. Since version 4 a new one is coded as
  /// the length of its common prefix with the last new name, then the rest
  /// (vocabularies list functions in name order).
  std::string name(StringRef value) {
    size_t position = namePosition(value);
    return position < names.size() ? names[position] : std::string();
  }

  /// name(), as the name's position in `names` (kNoName on a corrupt
  /// reference or prefix, which is reported).
  static constexpr size_t kNoName = SIZE_MAX;
  size_t namePosition(StringRef value) {
    auto it = nameIds.find(value);
    uint64_t ref = it == nameIds.end() ? 0 : it->second + 1;
    ref = number(ref, kNameRef);
    if (ref > names.size())
      return failCorrupt("a name reference out of range"), kNoName;
    if (ref > 0)
      return ref - 1;
    std::string fresh;
    if (version >= 4) {
      StringRef last = names.empty() ? StringRef() : StringRef(names.back());
      uint64_t shared = 0;
      while (shared < last.size() && shared < value.size() &&
             last[shared] == value[shared])
        ++shared;
      shared = number(shared, kNamePrefix);
      if (shared > last.size())
        return failCorrupt("a name prefix longer than the last name"), kNoName;
      fresh = last.take_front(shared).str() +
              string(value.drop_front(std::min<size_t>(shared, value.size())));
    } else {
      fresh = string(value);
    }
    // (A corrupt file may spell a name twice: the first keeps its id.)
    nameIds.try_emplace(fresh, names.size());
    names.push_back(std::move(fresh));
    return names.size() - 1;
  }

  /// An entry's symbol when it is not the previous entry's. Since version
  /// 4, for call sites and groups, first a flag "a name after the last
  /// symbol of this kind, in the order names were first seen", and then how
  /// many names it skips: the instrumentation lists them by function, in
  /// the order of the function entries, which come first. (Paths come in
  /// the order the run first took them.)
  std::string entrySymbol(StringRef value, uint32_t kind) {
    bool ordered = kind == static_cast<uint32_t>(EntryKind::CallSite) ||
                   kind == static_cast<uint32_t>(EntryKind::Group);
    if (version < 4 || !ordered)
      return name(value);
    int64_t &cursor = symbolCursor[kind == static_cast<uint32_t>(EntryKind::Group)];
    auto it = nameIds.find(value);
    bool forward = it != nameIds.end() && int64_t(it->second) > cursor;
    if (flag(forward, hashCombine(kSymbolForward, kind))) {
      uint64_t skip = number(forward ? it->second - cursor - 1 : 0,
                             hashCombine(kSymbolSkip, kind));
      if (skip >= names.size() - std::min<uint64_t>(names.size(), cursor + 1))
        return failCorrupt("an entry symbol after the last name"),
               std::string();
      cursor += int64_t(skip) + 1;
      return names[cursor];
    }
    size_t position = namePosition(value);
    if (position == kNoName)
      return std::string();
    cursor = int64_t(position);
    return names[position];
  }

  /// A call site's callee. Since version 4, first a flag "one of this
  /// vocabulary's callees so far" and if so its rank among them, the most
  /// recent first (a few functions take most calls: Lua's 3970 call sites
  /// call 875 functions), else the name.
  std::string callee(StringRef value) {
    if (version < 4)
      return name(value);
    auto it = nameIds.find(value);
    auto seen = it == nameIds.end()
                    ? recentCallees.end()
                    : llvm::find(recentCallees, static_cast<uint32_t>(it->second));
    size_t position;
    if (flag(seen != recentCallees.end(), kCalleeSeen)) {
      uint64_t rank = number(seen - recentCallees.begin(), kCalleeRank);
      if (rank >= recentCallees.size())
        return failCorrupt("a callee rank out of range"), std::string();
      position = recentCallees[rank];
      recentCallees.erase(recentCallees.begin() + rank);
    } else {
      position = namePosition(value);
      if (position == kNoName)
        return std::string();
    }
    recentCallees.insert(recentCallees.begin(), static_cast<uint32_t>(position));
    return names[position];
  }

  /// Starts the entries of a vocabulary.
  void beginVocabulary() {
    symbolCursor.fill(-1);
    recentCallees.clear();
  }

  /// An entry's index: usually one more than the previous entry's when
  /// both belong to the same symbol (call sites and paths are numbered in
  /// order).
  uint64_t index(uint64_t value, bool sameSymbol,
                 std::optional<uint64_t> previous, uint32_t kind) {
    if (sameSymbol && previous && *previous < UINT64_MAX) {
      if (flag(value == *previous + 1, hashCombine(kNextIndex, kind)))
        return *previous + 1;
    }
    return number(value, hashCombine(kIndex, kind));
  }

  /// A group member (an entry id below `limit`): mostly the call site
  /// after the previous member.
  int64_t member(int64_t value, uint64_t limit) {
    uint64_t result;
    if (flag(value == lastMember + 1, hashCombine(kMember, 1)))
      result = static_cast<uint64_t>(lastMember + 1);
    else
      result = number(static_cast<uint64_t>(value), kMember);
    if (result >= limit)
      return failCorrupt("a group member out of range"), 0;
    lastMember = static_cast<int64_t>(result);
    return lastMember;
  }
  /// All members of a group entry.
  SmallVector<int64_t> members(ArrayRef<int64_t> value, uint64_t limit) {
    uint64_t count = number(value.size(), kMembers);
    SmallVector<int64_t> result;
    if (count > trace::CallGroupTable::kMaxMembers)
      return failCorrupt("a group with more than " +
                         Twine(trace::CallGroupTable::kMaxMembers) + " members"),
             result;
    for (uint64_t i = 0; i < count && corruption.empty(); ++i)
      result.push_back(member(i < value.size() ? value[i] : 0, limit));
    return result;
  }
  int64_t lastMember = -2;

  BitCoder coder;
  trace::NumberModel numbers;
  trace::SymbolModel text;
  uint32_t version;
  std::vector<std::string> names;
  llvm::StringMap<size_t> nameIds;
  /// The position in `names` of the last call site's and the last group's
  /// symbol coded.
  std::array<int64_t, 2> symbolCursor{-1, -1};
  /// The positions in `names` of the vocabulary's callees so far, the most
  /// recent first.
  std::vector<uint32_t> recentCallees;
  /// Set by the decoder on the first inconsistency, and by the encoder on
  /// a value the format cannot hold.
  std::string corruption;

  void failCorrupt(const Twine &what) {
    if (corruption.empty())
      corruption = what.str();
  }
  /// An upper bound of the bits a decoder can read, to refuse absurd
  /// lengths before allocating; the encoder never needs it.
  uint64_t payloadBits = UINT64_MAX;
};

/// Symbols of one vocabulary's bodies.
struct Alphabet {
  uint32_t numTokens = 0, numRules = 0;
  uint32_t open() const { return numTokens + numRules; }
  uint32_t close() const { return open() + 1; }
  uint32_t end() const { return open() + 2; }
  unsigned bits() const {
    unsigned b = 1;
    while ((uint64_t(1) << b) <= end())
      ++b;
    return b;
  }
};

/// Body coding state: the model, and the last count seen per repeat body.
struct BodyCoder {
  PackCodec &codec;
  Alphabet alphabet;
  trace::SymbolModel model;
  llvm::DenseMap<uint32_t, uint64_t> lastCount;

  BodyCoder(PackCodec &codec, Alphabet alphabet, unsigned tableBits,
            uint32_t version, unsigned windowBits, unsigned runLength)
      : codec(codec), alphabet(alphabet),
        model(alphabet.bits(), tableBits,
              version >= 3 ? trace::SymbolModel::Predicted
                           : trace::SymbolModel::Bitwise,
              windowBits, version >= 4 ? 16 : 12, runLength,
              /*growTables=*/version >= 6) {}

  uint32_t symbol(uint32_t s) {
    if (progress && model.symbolsCoded() + 1 >= nextReport) {
      nextReport = model.symbolsCoded() + 1 + kProgressEvery;
      (*progress)({WppProgress::Code, model.symbolsCoded() + 1, totalSymbols,
                   false});
    }
    return model.code(codec.coder, s);
  }

  /// Reports the coding's progress to `progress`, if set, against
  /// `totalSymbols` body symbols in all.
  const std::function<void(const WppProgress &)> *progress = nullptr;
  uint64_t totalSymbols = 0, nextReport = kProgressEvery;

  /// A repeat's count, under the hash of its body: loops over the same
  /// body often run the same number of times.
  uint64_t count(uint64_t value, uint32_t bodyHash) {
    auto it = lastCount.find(bodyHash);
    bool same = codec.flag(it != lastCount.end() && it->second == value,
                           hashCombine(kSameCount, bodyHash));
    if (same) {
      if (it == lastCount.end())
        return codec.failCorrupt("a repeat count refers to no earlier one"), 1;
      return it->second;
    }
    uint64_t coded = codec.number(value - 1, hashCombine(kRepeatCount, bodyHash)) + 1;
    lastCount[bodyHash] = coded;
    return coded;
  }
};

/// Repeats that expand to at most this many tokens are packed as tokens.
constexpr uint64_t kInlineRepeat = 32;

/// The number of tokens `repeat` expands to, if it holds only tokens and
/// repeats and that number is at most `limit`.
std::optional<uint64_t> shortExpansion(RepeatOp repeat, uint64_t limit) {
  uint64_t length = 0;
  for (Operation &op : repeat.getBody().front()) {
    if (auto tokens = dyn_cast<TokensOp>(op)) {
      length += tokens.getTokens().getNumElements();
    } else if (auto inner = dyn_cast<RepeatOp>(op)) {
      std::optional<uint64_t> innerLength = shortExpansion(inner, limit);
      if (!innerLength)
        return std::nullopt;
      length += *innerLength;
    } else {
      return std::nullopt;
    }
    if (length > limit)
      return std::nullopt;
  }
  if (length * repeat.getCount() > limit) // count < 2^63, length <= limit
    return std::nullopt;
  return length * repeat.getCount();
}

/// Appends the tokens `repeat` expands to (it holds tokens and repeats
/// only) to `out`.
LogicalResult appendExpansion(RepeatOp repeat, SmallVectorImpl<int32_t> &out) {
  size_t start = out.size();
  for (Operation &op : repeat.getBody().front()) {
    if (auto tokens = dyn_cast<TokensOp>(op)) {
      SmallVector<int32_t> storage;
      FailureOr<ArrayRef<int32_t>> values = tokens.readTokens(storage);
      if (failed(values))
        return failure();
      out.append(values->begin(), values->end());
    } else if (auto inner = dyn_cast<RepeatOp>(op)) {
      if (failed(appendExpansion(inner, out)))
        return failure();
    }
  }
  size_t length = out.size() - start;
  out.reserve(out.size() + length * (repeat.getCount() - 1)); // no moves below
  for (uint64_t i = 1; i < repeat.getCount(); ++i)
    out.append(out.begin() + start, out.begin() + start + length);
  return success();
}

/// Table size for the body model: about one counter per coded symbol,
/// between 2^12 and 2^22 (larger tables only cost cache misses, and the
/// time to clear them: on bzip2's text-9 function trace, 1.1M events, four
/// counters per symbol made 113,265 bytes in 1.07 s, one 113,393 bytes in
/// 0.68 s). The size is in the file, so either reads back.
constexpr unsigned kMaxTableBits = 22;
unsigned tableBitsFor(uint64_t symbols) {
  unsigned bits = 12;
  while (bits < kMaxTableBits && (uint64_t(1) << bits) < symbols)
    ++bits;
  return bits;
}

/// How far back the body model's match models look: the last 2^24 coded
/// symbols, a history of 64 MiB whatever the trace's length. On Lua's
/// objects.lua path trace (83.9M symbols) it costs 4 bytes of 34,442
/// (2^22 would cost 2,564, 2^20 3,282) and --pack-wpp's peak falls from 516
/// to 324 MB; over the bench's 60 traces at most 236 bytes (queues.lua
/// path, 104.4M events).
constexpr unsigned kHistoryWindowBits = 24;
/// What a decoder accepts (SymbolModel's range).
constexpr unsigned kMinWindowBits = trace::SymbolHistory::kChunkBits;
constexpr unsigned kMaxWindowBits = 32;

/// Symbols the order-12 match has followed before the body model codes the
/// next ones in runs (SymbolModel's runLength; version 5). Against no runs
/// (version 4), `--pack-wpp` user time, median of 3 interleaved: Lua
/// objects.lua function trace (37.4M events) 6.27 -> 3.93 s, strings.lua
/// path 0.89 -> 0.48 s, bzip2 text-9 path 4.54 -> 4.45 s; bodies 5%
/// smaller on objects.lua, up to 1.4% larger on other Lua traces
/// (docs/PackedTrace.md).
constexpr unsigned kBodyRunLength = 32;

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

using FoldedItem = trace::RepeatFolder::Item;
/// Receives the top-level items of a trace in order, with the folder that
/// holds their bodies.
using FoldedItemSink =
    function_ref<void(const trace::RepeatFolder &, const FoldedItem &)>;

/// A trace body given as a folder's items instead of ops (packWpp): coded
/// as packBody codes the ops emitFoldedItems makes of them.
struct FoldedBody {
  /// The number of symbols the body codes to (countItems of all its items).
  uint64_t symbols = 0;
  /// Hands the body's top-level items, in order, to the sink.
  std::function<void(FoldedItemSink)> produce;
  /// The vocabulary id of each token the folder holds.
  function_ref<uint32_t(uint32_t)> renumber;
};

/// Why a body whose repeats nest deeper than a decoder accepts is not
/// written: a file that cannot be read back would lose the trace.
static std::string tooDeep() {
  return "nests repeats deeper than " + std::to_string(kMaxDepth) +
         ", the most a packed trace holds (repeats of at most " +
         std::to_string(kInlineRepeat) +
         " tokens are written as their tokens and do not count)";
}

/// Symbols that `items`, each followed by END or CLOSE, code to.
static void countItems(const trace::RepeatFolder &folder,
                       trace::RepeatFolder::Items items, uint64_t &symbols);

/// Symbols that one top-level `item` codes to.
static uint64_t countItem(const trace::RepeatFolder &folder,
                          const FoldedItem &item) {
  uint64_t length = folder.length(item); // a token's is 1
  if (length <= kInlineRepeat)
    return length;
  uint64_t symbols = 1; // OPEN; the body counts its CLOSE
  countItems(folder, folder.body(item.body), symbols);
  return symbols;
}

static void countItems(const trace::RepeatFolder &folder,
                       trace::RepeatFolder::Items items, uint64_t &symbols) {
  for (const FoldedItem &item : items)
    symbols += countItem(folder, item);
  ++symbols; // END or CLOSE
}

class Packer {
public:
  explicit Packer(std::vector<uint8_t> &payload)
      : codec(BitCoder::encoder(payload), kVersion), payload(payload) {}

  PackedSizes sizes;
  /// If set, told how the coding of bodies goes (packWpp), against the
  /// number of symbols if `symbolsKnown` (the folded bodies' counts can be
  /// bounds).
  std::function<void(const WppProgress &)> progress;
  bool symbolsKnown = true;
  /// Traces whose bodies are these items (their body blocks are empty).
  llvm::DenseMap<Operation *, FoldedBody> foldedBodies;

  LogicalResult pack(Operation *module);

private:
  LogicalResult checkAttributes(Operation *op);
  LogicalResult countBody(Region &body, uint64_t &symbols);
  LogicalResult packBody(BodyCoder &coder, Region &body, uint32_t &hash,
                         uint32_t terminator, unsigned depth = 0);
  LogicalResult packItem(BodyCoder &coder, TraceOp trace,
                         const FoldedBody &folded,
                         const trace::RepeatFolder &folder,
                         const FoldedItem &item, uint32_t &hash,
                         unsigned depth = 0);
  LogicalResult packToken(BodyCoder &coder, TraceOp trace,
                          const FoldedBody &folded, uint32_t token,
                          uint32_t &hash);
  LogicalResult countTrace(TraceOp trace, uint64_t &symbols);
  LogicalResult packTrace(BodyCoder &coder, TraceOp trace);

  PackCodec codec;
  std::vector<uint8_t> &payload;
  // Rule symbol of each rule, by grammar and rule name.
  llvm::DenseMap<std::pair<Operation *, StringAttr>, uint32_t> ruleSymbol;
  Operation *currentGrammar = nullptr;
  std::vector<uint32_t> expansion; // of a short repeat (packItem)
};

LogicalResult Packer::checkAttributes(Operation *op) {
  if (!op->getDiscardableAttrDictionary().empty())
    return op->emitOpError()
           << "carries attributes a packed trace does not keep: "
           << op->getDiscardableAttrDictionary();
  return success();
}

LogicalResult Packer::countBody(Region &body, uint64_t &symbols) {
  for (Operation &op : body.front()) {
    if (failed(checkAttributes(&op)))
      return failure();
    if (auto tokens = dyn_cast<TokensOp>(op))
      symbols += tokens.getTokens().getNumElements();
    else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      if (std::optional<uint64_t> length = shortExpansion(repeat, kInlineRepeat)) {
        // Packed as its tokens: what it nests must carry nothing either.
        WalkResult checked = repeat.getBody().walk([&](Operation *nested) {
          return failed(checkAttributes(nested)) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
        });
        if (checked.wasInterrupted())
          return failure();
        symbols += *length;
        continue;
      }
      ++symbols; // OPEN; the body counts its CLOSE
      if (failed(countBody(repeat.getBody(), symbols)))
        return failure();
    } else
      ++symbols;
  }
  ++symbols; // END or CLOSE
  return success();
}

LogicalResult Packer::packBody(BodyCoder &coder, Region &body, uint32_t &hash,
                               uint32_t terminator, unsigned depth) {
  // Codes tokens that `op` holds or stands for.
  auto packTokens = [&](Operation *op, ArrayRef<int32_t> tokens) -> LogicalResult {
    for (int32_t t : tokens) {
      if (t < 0 || static_cast<uint32_t>(t) >= coder.alphabet.numTokens)
        return op->emitOpError()
               << "holds token " << t << ", outside its vocabulary of "
               << coder.alphabet.numTokens << " entries";
      coder.symbol(static_cast<uint32_t>(t));
      hash = hashCombine(hash, static_cast<uint32_t>(t));
    }
    return success();
  };
  for (Operation &op : body.front()) {
    if (auto tokens = dyn_cast<TokensOp>(op)) {
      SmallVector<int32_t> storage;
      FailureOr<ArrayRef<int32_t>> values = tokens.readTokens(storage);
      if (failed(values) || failed(packTokens(tokens, *values)))
        return failure();
    } else if (auto repeat = dyn_cast<RepeatOp>(op);
               repeat && shortExpansion(repeat, kInlineRepeat)) {
      // Short repeats are cheaper as the tokens they stand for: the token
      // contexts stay intact.
      SmallVector<int32_t> tokens;
      if (failed(appendExpansion(repeat, tokens)) ||
          failed(packTokens(repeat, tokens)))
        return failure();
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      if (depth >= kMaxDepth)
        return repeat.emitOpError(tooDeep());
      coder.symbol(coder.alphabet.open());
      uint32_t inner = 0x5eed;
      if (failed(packBody(coder, repeat.getBody(), inner,
                          coder.alphabet.close(), depth + 1)))
        return failure();
      coder.count(repeat.getCount(), inner);
      hash = hashCombine(hashCombine(hash, inner), static_cast<uint32_t>(repeat.getCount()));
    } else if (auto apply = dyn_cast<ApplyOp>(op)) {
      auto it = ruleSymbol.find({currentGrammar, apply.getRuleAttr().getAttr()});
      if (it == ruleSymbol.end())
        return apply.emitOpError("uses a rule that is not in the trace's grammar");
      coder.symbol(it->second);
      hash = hashCombine(hash, it->second);
    } else {
      return op.emitOpError("cannot be packed (a packed trace body holds "
                            "tokens, repeats and rule uses only)");
    }
  }
  coder.symbol(terminator);
  return success();
}

LogicalResult Packer::packToken(BodyCoder &coder, TraceOp trace,
                                const FoldedBody &folded, uint32_t token,
                                uint32_t &hash) {
  uint32_t id = folded.renumber(token);
  if (id >= coder.alphabet.numTokens)
    return emitTokenOutsideVocabulary(trace.getLoc(), id,
                                      coder.alphabet.numTokens);
  coder.symbol(id);
  hash = hashCombine(hash, id);
  return success();
}

LogicalResult Packer::packItem(BodyCoder &coder, TraceOp trace,
                               const FoldedBody &folded,
                               const trace::RepeatFolder &folder,
                               const FoldedItem &item, uint32_t &hash,
                               unsigned depth) {
  if (folder.length(item) <= kInlineRepeat) { // tokens included
    if (item.isToken())
      return packToken(coder, trace, folded, item.token, hash);
    expansion.clear();
    folder.expand(item, expansion);
    for (uint32_t token : expansion)
      if (failed(packToken(coder, trace, folded, token, hash)))
        return failure();
    return success();
  }
  if (depth >= kMaxDepth)
    return trace.emitOpError(tooDeep());
  coder.symbol(coder.alphabet.open());
  uint32_t inner = 0x5eed;
  for (const FoldedItem &nested : folder.body(item.body))
    if (failed(packItem(coder, trace, folded, folder, nested, inner, depth + 1)))
      return failure();
  coder.symbol(coder.alphabet.close());
  coder.count(item.count, inner);
  hash = hashCombine(hashCombine(hash, inner), static_cast<uint32_t>(item.count));
  return success();
}

LogicalResult Packer::countTrace(TraceOp trace, uint64_t &symbols) {
  auto it = foldedBodies.find(trace);
  if (it == foldedBodies.end())
    return countBody(trace.getBody(), symbols);
  symbols += it->second.symbols;
  return success();
}

LogicalResult Packer::packTrace(BodyCoder &coder, TraceOp trace) {
  uint32_t hash = 0;
  auto it = foldedBodies.find(trace);
  if (it == foldedBodies.end())
    return packBody(coder, trace.getBody(), hash, coder.alphabet.end());
  const FoldedBody &folded = it->second;
  bool ok = true;
  folded.produce([&](const trace::RepeatFolder &folder, const FoldedItem &item) {
    ok = ok && succeeded(packItem(coder, trace, folded, folder, item, hash));
  });
  if (!ok)
    return failure();
  coder.symbol(coder.alphabet.end());
  return success();
}

LogicalResult Packer::pack(Operation *module) {
  // Group grammars and traces under their vocabularies.
  llvm::MapVector<StringAttr, VocabularyOp> vocabularies;
  llvm::MapVector<StringAttr, SmallVector<GrammarOp>> grammars;
  llvm::MapVector<StringAttr, SmallVector<TraceOp>> traces;
  if (failed(checkAttributes(module)))
    return failure();
  for (Operation &op : module->getRegion(0).front()) {
    if (isa<VocabularyOp, GrammarOp, TraceOp>(op) &&
        failed(checkAttributes(&op)))
      return failure();
    if (auto vocabulary = dyn_cast<VocabularyOp>(op))
      vocabularies[vocabulary.getSymNameAttr()] = vocabulary;
    else if (auto grammar = dyn_cast<GrammarOp>(op))
      grammars[grammar.getVocabularyAttr().getAttr()].push_back(grammar);
    else if (auto trace = dyn_cast<TraceOp>(op))
      traces[trace.getVocabularyAttr().getAttr()].push_back(trace);
    else
      return op.emitOpError(
          "cannot be packed: a packed trace file holds vocabularies, grammars "
          "and traces only");
  }
  auto checkVocabularies = [&](auto &byVocabulary) -> LogicalResult {
    for (auto &[name, list] : byVocabulary)
      if (!vocabularies.count(name))
        return list.front().emitOpError("names vocabulary @")
               << name.getValue() << ", which is not in the module";
    return success();
  };
  if (failed(checkVocabularies(grammars)) || failed(checkVocabularies(traces)))
    return failure();

  codec.number(vocabularies.size(), kEntries);
  for (auto &[vocabularyName, vocabulary] : vocabularies) {
    size_t start = payload.size();
    codec.string(vocabularyName.getValue());
    codec.number(vocabulary.getFingerprint(), kFingerprint);
    // Entries in id order (the verifier makes ids 0 to n - 1).
    SmallVector<EntryOp> byId(vocabulary.getNumEntries());
    for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
      if (failed(checkAttributes(entry)))
        return failure();
      byId[entry.getId()] = entry;
    }
    codec.number(byId.size(), kEntries);
    codec.beginVocabulary();
    StringRef previousSymbol;
    std::optional<uint64_t> previousIndex;
    uint32_t previousKind = 0;
    SmallVector<int64_t> previousMembers;
    for (EntryOp entry : byId) {
      uint32_t kind = static_cast<uint32_t>(entry.getKind());
      codec.number(kind, hashCombine(kKind, previousKind));
      bool afterGroup = previousKind == static_cast<uint32_t>(EntryKind::Group);
      previousKind = kind;
      // The next prefix of the previous group: one more member.
      if (entry.getKind() == EntryKind::Group && afterGroup) {
        ArrayRef<int64_t> members = *entry.getMembers();
        bool extends = entry.getSymbol() == previousSymbol &&
                       entry.getIndex() == previousIndex &&
                       members.size() == previousMembers.size() + 1 &&
                       members.drop_back() == ArrayRef<int64_t>(previousMembers);
        if (codec.flag(extends, kExtendsGroup)) {
          codec.member(members.back(), byId.size());
          previousMembers.assign(members.begin(), members.end());
          continue;
        }
      }
      StringRef symbol = entry.getSymbol();
      bool sameSymbol = symbol == previousSymbol;
      if (!codec.flag(sameSymbol, hashCombine(kSameSymbol, kind)))
        codec.entrySymbol(symbol, kind);
      previousSymbol = symbol;
      std::optional<uint64_t> index = entry.getIndex();
      if (codec.flag(index.has_value(), hashCombine(kHasIndex, kind)))
        codec.index(*index, sameSymbol, previousIndex, kind);
      previousIndex = index;
      if (codec.flag(entry.getCallee().has_value(), hashCombine(kHasCallee, kind)))
        codec.callee(*entry.getCallee());
      if (entry.getKind() == EntryKind::Group) {
        ArrayRef<int64_t> members = *entry.getMembers();
        codec.members(members, byId.size());
        previousMembers.assign(members.begin(), members.end());
      }
    }

    sizes.vocabularies += payload.size() - start;
    start = payload.size();

    // Grammars: names and rule names first, so that rule bodies and traces
    // can use any rule.
    Alphabet alphabet;
    alphabet.numTokens = static_cast<uint32_t>(byId.size());
    SmallVector<GrammarOp> &ownGrammars = grammars[vocabularyName];
    codec.number(ownGrammars.size(), kGrammars);
    SmallVector<RuleOp> rules;
    for (GrammarOp grammar : ownGrammars) {
      codec.string(grammar.getSymName());
      SmallVector<RuleOp> own;
      for (Operation &op : grammar.getBody().front()) {
        auto rule = dyn_cast<RuleOp>(op);
        if (!rule)
          return op.emitOpError("cannot be packed inside a grammar");
        if (failed(checkAttributes(rule)))
          return failure();
        own.push_back(rule);
      }
      codec.number(own.size(), kRules);
      bool canonical = true;
      for (auto [i, rule] : llvm::enumerate(own))
        canonical &= rule.getSymName() == ("r" + Twine(i)).str();
      if (!codec.flag(canonical, kCanonicalNames))
        for (RuleOp rule : own)
          codec.string(rule.getSymName());
      for (RuleOp rule : own) {
        ruleSymbol[{grammar, rule.getSymNameAttr()}] =
            alphabet.numTokens + static_cast<uint32_t>(rules.size());
        rules.push_back(rule);
      }
    }
    alphabet.numRules = static_cast<uint32_t>(rules.size());
    uint64_t symbols = 0;
    for (RuleOp rule : rules)
      if (failed(countBody(rule.getBody(), symbols)))
        return failure();
    SmallVector<TraceOp> &ownTraces = traces[vocabularyName];
    for (TraceOp trace : ownTraces)
      if (failed(countTrace(trace, symbols)))
        return failure();
    unsigned tableBits = tableBitsFor(symbols);
    codec.number(tableBits, kTableBits);
    codec.number(kHistoryWindowBits, kWindowBits);
    codec.number(kBodyRunLength, kRunLength);
    BodyCoder bodies(codec, alphabet, tableBits, kVersion, kHistoryWindowBits,
                     kBodyRunLength);
    if (progress) {
      bodies.progress = &progress;
      bodies.totalSymbols = symbolsKnown ? symbols : 0;
    }
    for (RuleOp rule : rules) {
      currentGrammar = rule->getParentOp();
      uint32_t hash = 0;
      if (failed(packBody(bodies, rule.getBody(), hash, alphabet.end())))
        return failure();
    }

    sizes.grammars += payload.size() - start;
    start = payload.size();
    codec.number(ownTraces.size(), kTraces);
    for (TraceOp trace : ownTraces) {
      codec.string(trace.getSymName());
      codec.number(trace.getFingerprint(), kFingerprint);
      uint64_t grammarRef = 0;
      currentGrammar = nullptr;
      if (FlatSymbolRefAttr grammarName = trace.getGrammarAttr()) {
        auto it = llvm::find_if(ownGrammars, [&](GrammarOp g) {
          return g.getSymNameAttr() == grammarName.getAttr();
        });
        if (it == ownGrammars.end())
          return trace.emitOpError("uses grammar ")
                 << grammarName << ", which is not a grammar of its vocabulary "
                 << "in the module";
        grammarRef = 1 + (it - ownGrammars.begin());
        currentGrammar = *it;
      }
      codec.number(grammarRef, kTraceGrammar);
      std::string input;
      llvm::raw_string_ostream os(input);
      Attribute(trace.getInput()).print(os);
      codec.string(input);
      if (failed(packTrace(bodies, trace)))
        return failure();
    }
    sizes.traces += payload.size() - start;
    sizes.bodySymbols += bodies.model.symbolsCoded();
    sizes.predictedSymbols += bodies.model.predictionHits();
    sizes.runSymbols += bodies.model.runSymbols();
    sizes.runSureHits += bodies.model.runSureHits();
    sizes.tableBits =
        std::max(sizes.tableBits, bodies.model.currentTableBits());
    sizes.maxTableBits =
        std::max(sizes.maxTableBits, bodies.model.tableBitsLimit());
    if (progress)
      progress({WppProgress::Code, bodies.model.symbolsCoded(),
                bodies.totalSymbols, true});
  }
  if (!codec.corruption.empty())
    return module->emitError("cannot be packed: ") << codec.corruption;
  codec.coder.finish();
  return success();
}

//===----------------------------------------------------------------------===//
// Unpacking
//===----------------------------------------------------------------------===//

class Unpacker {
public:
  Unpacker(const uint8_t *payload, size_t size, uint32_t version,
           MLIRContext *context, Location loc, uint64_t inlineLimit,
           uint64_t maxSymbols)
      : codec(BitCoder::decoder(payload, size), version), version(version),
        context(context), loc(loc), inlineLimit(inlineLimit),
        maxSymbols(maxSymbols) {
    codec.payloadBits = uint64_t(size) * 8 + 64;
  }

  OwningOpRef<ModuleOp> unpack();

private:
  /// Reads one body into `block`; false on a corrupt stream.
  bool unpackBody(BodyCoder &coder, Block &block, unsigned depth,
                  uint32_t &hash, StringRef blobPrefix, unsigned &blobs);
  bool corrupt(const Twine &what) {
    codec.failCorrupt(what.str());
    return false;
  }
  bool ok() const { return codec.corruption.empty() && !codec.coder.overran(); }
  /// A count read from the stream that must be small enough to allocate.
  bool plausible(uint64_t n) { return n <= codec.payloadBits; }

  PackCodec codec;
  uint32_t version;
  MLIRContext *context;
  Location loc;
  uint64_t inlineLimit;
  /// How many body symbols the file may decode to, and how many it has: a
  /// few corrupt or crafted bytes can decode to billions of sure hits.
  uint64_t maxSymbols, symbols = 0;
  bool overLimit = false;
  SmallVector<StringAttr> ruleNames; // rule symbol - numTokens -> its name
  SmallVector<Operation *> ruleGrammar;
};

bool Unpacker::unpackBody(BodyCoder &coder, Block &block, unsigned depth,
                          uint32_t &hash, StringRef blobPrefix,
                          unsigned &blobs) {
  const Alphabet &alphabet = coder.alphabet;
  OpBuilder builder = OpBuilder::atBlockEnd(&block);
  std::vector<uint32_t> run;
  auto flush = [&] {
    flushTokenRun(builder, loc, run, blobPrefix, blobs, inlineLimit);
  };
  while (true) {
    if (!ok())
      return false;
    if (++symbols > maxSymbols) {
      overLimit = true;
      return false;
    }
    uint32_t s = coder.symbol(0);
    if (s < alphabet.numTokens) {
      run.push_back(s);
      hash = hashCombine(hash, s);
    } else if (s < alphabet.open()) {
      flush();
      ApplyOp::create(builder, loc,
                      FlatSymbolRefAttr::get(ruleNames[s - alphabet.numTokens]));
      hash = hashCombine(hash, s);
    } else if (s == alphabet.open()) {
      if (depth >= kMaxDepth)
        return corrupt("repeats nested deeper than " + Twine(kMaxDepth));
      flush();
      auto repeat = RepeatOp::create(builder, loc, uint64_t(1));
      Block &inner = repeat.getBody().emplaceBlock();
      uint32_t innerHash = 0x5eed;
      if (!unpackBody(coder, inner, depth + 1, innerHash, blobPrefix, blobs))
        return false;
      if (inner.empty())
        return corrupt("an empty repeat");
      uint64_t count = coder.count(0, innerHash);
      if (count == 0 || count > static_cast<uint64_t>(INT64_MAX))
        return corrupt("a repeat count out of range");
      repeat.setCount(count);
      hash = hashCombine(hashCombine(hash, innerHash), static_cast<uint32_t>(count));
    } else if (s == alphabet.close()) {
      if (depth == 0)
        return corrupt("a repeat closes that never opened");
      flush();
      return true;
    } else if (s == alphabet.end()) {
      if (depth != 0)
        return corrupt("a body ends inside a repeat");
      flush();
      return true;
    } else {
      return corrupt("symbol " + Twine(s) + " is outside the alphabet");
    }
  }
}

OwningOpRef<ModuleOp> Unpacker::unpack() {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder builder = OpBuilder::atBlockEnd(module->getBody());
  auto fail = [&]() -> OwningOpRef<ModuleOp> {
    if (overLimit) {
      emitError(loc) << "phaedrus-translate: the packed trace decodes to more "
                     << "than " << maxSymbols << " body symbols: the file is "
                     << "corrupt, or holds traces longer than "
                     << "--packed-max-symbols allows (raise it to read them)";
      return nullptr;
    }
    std::string what = codec.corruption;
    if (what.empty())
      what = "the stream ends early";
    emitError(loc) << "phaedrus-translate: corrupt packed trace: " << what;
    return nullptr;
  };
  uint64_t numVocabularies = codec.number(0, kEntries);
  if (!plausible(numVocabularies))
    return fail();
  for (uint64_t v = 0; v < numVocabularies; ++v) {
    std::string vocabularyName = codec.string("");
    uint64_t fingerprint = codec.number(0, kFingerprint);
    uint64_t numEntries = codec.number(0, kEntries);
    if (!ok() || !plausible(numEntries) || numEntries >= UINT32_MAX / 2)
      return fail();
    auto vocabulary = VocabularyOp::create(builder, loc, vocabularyName, fingerprint);
    codec.beginVocabulary();
    OpBuilder entries = OpBuilder::atBlockEnd(&vocabulary.getBody().emplaceBlock());
    std::string previousSymbol;
    std::optional<uint64_t> previousIndex;
    uint32_t previousKind = 0;
    SmallVector<int64_t> previousMembers;
    for (uint64_t id = 0; id < numEntries; ++id) {
      uint64_t kindValue = codec.number(0, hashCombine(kKind, previousKind));
      std::optional<EntryKind> kind =
          symbolizeEntryKind(static_cast<uint32_t>(std::min<uint64_t>(kindValue, UINT32_MAX)));
      if (!ok() || !kind) {
        corrupt("entry kind " + Twine(kindValue) + " is unknown");
        return fail();
      }
      uint32_t k = static_cast<uint32_t>(kindValue);
      bool afterGroup = previousKind == static_cast<uint32_t>(EntryKind::Group);
      previousKind = k;
      if (*kind == EntryKind::Group && afterGroup && version >= 2 &&
          codec.flag(false, kExtendsGroup)) {
        previousMembers.push_back(codec.member(0, numEntries));
        if (!ok())
          return fail();
        EntryOp::create(entries, loc, id, *kind, previousSymbol,
                        builder.getI64IntegerAttr(
                            static_cast<int64_t>(previousIndex.value_or(0))),
                        FlatSymbolRefAttr(),
                        builder.getDenseI64ArrayAttr(previousMembers));
        continue;
      }
      bool sameSymbol = codec.flag(false, hashCombine(kSameSymbol, k));
      std::string symbol =
          sameSymbol ? previousSymbol : codec.entrySymbol("", k);
      if (symbol.empty() && ok())
        corrupt("an entry without a symbol");
      previousSymbol = symbol;
      IntegerAttr index;
      std::optional<uint64_t> indexValue;
      if (codec.flag(false, hashCombine(kHasIndex, k))) {
        indexValue = codec.index(0, sameSymbol, previousIndex, k);
        if (*indexValue > static_cast<uint64_t>(INT64_MAX)) {
          corrupt("an entry index out of range");
          return fail();
        }
        index = builder.getI64IntegerAttr(static_cast<int64_t>(*indexValue));
      }
      previousIndex = indexValue;
      FlatSymbolRefAttr callee;
      if (codec.flag(false, hashCombine(kHasCallee, k))) {
        std::string calleeName = codec.callee("");
        if (calleeName.empty() && ok())
          corrupt("an entry with an empty callee");
        callee = FlatSymbolRefAttr::get(context, calleeName);
      }
      DenseI64ArrayAttr members;
      if (*kind == EntryKind::Group && version >= 2) {
        previousMembers = codec.members({}, numEntries);
        members = builder.getDenseI64ArrayAttr(previousMembers);
      }
      if (!ok())
        return fail();
      EntryOp::create(entries, loc, id, *kind, symbol, index, callee, members);
    }

    Alphabet alphabet;
    alphabet.numTokens = static_cast<uint32_t>(numEntries);
    uint64_t numGrammars = codec.number(0, kGrammars);
    if (!ok() || !plausible(numGrammars))
      return fail();
    SmallVector<GrammarOp> grammars;
    SmallVector<RuleOp> rules;
    ruleNames.clear();
    for (uint64_t g = 0; g < numGrammars; ++g) {
      std::string grammarName = codec.string("");
      auto grammar = GrammarOp::create(builder, loc, grammarName, vocabularyName);
      OpBuilder ruleBuilder = OpBuilder::atBlockEnd(&grammar.getBody().emplaceBlock());
      uint64_t numRules = codec.number(0, kRules);
      if (!ok() || !plausible(numRules) || numRules + rules.size() >= UINT32_MAX / 4)
        return fail();
      bool canonical = codec.flag(false, kCanonicalNames);
      for (uint64_t r = 0; r < numRules; ++r) {
        std::string ruleName = canonical ? ("r" + Twine(r)).str() : codec.string("");
        if (!ok())
          return fail();
        auto rule = RuleOp::create(ruleBuilder, loc, ruleName);
        rule.getBody().emplaceBlock();
        rules.push_back(rule);
        ruleNames.push_back(rule.getSymNameAttr());
      }
      grammars.push_back(grammar);
    }
    alphabet.numRules = static_cast<uint32_t>(rules.size());
    uint64_t tableBits = codec.number(0, kTableBits);
    if (!ok() || tableBits < 10 || tableBits > 24) {
      corrupt("a model table size out of range");
      return fail();
    }
    // Version 4 bounds the match models' look-back (0: the whole history,
    // as versions 1 to 3 do).
    uint64_t windowBits = version >= 4 ? codec.number(0, kWindowBits) : 0;
    if (!ok() || (windowBits != 0 && (windowBits < kMinWindowBits ||
                                      windowBits > kMaxWindowBits))) {
      corrupt("a history window out of range");
      return fail();
    }
    // Version 5 codes symbols deep in a long match in runs (0: none).
    uint64_t runLength = version >= 5 ? codec.number(0, kRunLength) : 0;
    // (What a decoder accepts: SymbolModel's run lengths.)
    if (!ok() || (runLength != 0 &&
                  (runLength < trace::SymbolModel::kMinRunLength ||
                   runLength > trace::SymbolModel::kMaxRunLength))) {
      corrupt("a run length out of range");
      return fail();
    }
    BodyCoder bodies(codec, alphabet, static_cast<unsigned>(tableBits),
                     version, static_cast<unsigned>(windowBits),
                     static_cast<unsigned>(runLength));
    for (RuleOp rule : rules) {
      uint32_t hash = 0;
      unsigned blobs = 0;
      if (!unpackBody(bodies, rule.getBody().front(), 0, hash, "rule", blobs))
        return fail();
    }

    uint64_t numTraces = codec.number(0, kTraces);
    if (!ok() || !plausible(numTraces))
      return fail();
    for (uint64_t t = 0; t < numTraces; ++t) {
      std::string traceName = codec.string("");
      uint64_t traceFingerprint = codec.number(0, kFingerprint);
      uint64_t grammarRef = codec.number(0, kTraceGrammar);
      std::string inputText = codec.string("");
      if (!ok())
        return fail();
      if (grammarRef > grammars.size()) {
        corrupt("a trace names grammar " + Twine(grammarRef) + " of " +
                Twine(grammars.size()));
        return fail();
      }
      InputDescriptorAttr input;
      {
        // The parser's own diagnostic would quote the decoded bytes, and
        // name them as its buffer: a corrupt file prints garbage.
        ScopedDiagnosticHandler quiet(context, [](Diagnostic &) {
          return success();
        });
        input = llvm::dyn_cast_or_null<InputDescriptorAttr>(
            parseAttribute(inputText, context));
      }
      if (!input) {
        // The name is decoded bytes too: escaped, and cut.
        std::string name;
        llvm::raw_string_ostream nameStream(name);
        llvm::printEscapedString(StringRef(traceName).take_front(64),
                                 nameStream);
        corrupt("the input descriptor of trace '" + Twine(name) +
                (traceName.size() > 64 ? "...'" : "'") + " does not parse");
        return fail();
      }
      FlatSymbolRefAttr grammar =
          grammarRef ? FlatSymbolRefAttr::get(grammars[grammarRef - 1]) : nullptr;
      auto trace = TraceOp::create(builder, loc, traceName, vocabularyName,
                                   traceFingerprint, input, grammar);
      uint32_t hash = 0;
      unsigned blobs = 0;
      if (!unpackBody(bodies, trace.getBody().emplaceBlock(), 0, hash,
                      traceName, blobs))
        return fail();
    }
  }
  if (!ok())
    return fail();
  // The encoder's last four bytes are the decoder's last ones read.
  if (size_t unread = codec.coder.unread()) {
    corrupt(Twine(unread) + " bytes after the end of the coded stream");
    return fail();
  }
  return module;
}

} // namespace

/// Packs `module` (with the bodies `packer` was given) and writes the file.
static LogicalResult writePacked(Packer &packer, std::vector<uint8_t> &payload,
                                 Operation *module, raw_ostream &os,
                                 PackedSizes *sizes) {
  if (failed(packer.pack(module)))
    return failure();
  if (sizes) {
    *sizes = packer.sizes;
    sizes->total = kHeaderSize + payload.size();
  }
  char header[kHeaderSize];
  std::memcpy(header, kPackedTraceMagic, 4);
  llvm::support::endian::write32le(header + 4, kVersion);
  llvm::support::endian::write64le(header + 8, payload.size());
  llvm::support::endian::write64le(
      header + 16,
      phaedrus_fnv1a64(payload.data(), payload.size(), PHAEDRUS_FNV64_INIT));
  os.write(header, kHeaderSize);
  os.write(reinterpret_cast<const char *>(payload.data()), payload.size());
  return success();
}

LogicalResult mlir::phaedrus::exportPacked(Operation *module, raw_ostream &os,
                                          PackedSizes *sizes) {
  std::vector<uint8_t> payload;
  Packer packer(payload);
  return writePacked(packer, payload, module, os, sizes);
}

LogicalResult mlir::phaedrus::packWpp(StringRef bytes, MLIRContext *context,
                                      Location loc,
                                      const ImportWppOptions &options,
                                      raw_ostream &os, PackedSizes *sizes,
                                      uint64_t keepBytes,
                                      uint64_t compactAbove) {
  using Folders = std::map<uint32_t, trace::RepeatFolder>;
  using GroupFolders = std::map<uint32_t, trace::CallGroupRepeatFolder>;
  // The folded items are kept, and the coder reads them, while all threads
  // hold at most `keepBytes`: in the folders themselves (16 bytes an item)
  // up to `compactAbove` bytes, then compactly (`compact`: `kept`, each thread's
  // items as its folder seals them, 2-3 bytes each). Past the budget
  // (`overflow`), each thread is folded again while it is coded: memory is
  // then the budget, the coder's tables and its history, not the trace's
  // length. The coder's table size needs the number of symbols first
  // (`counted` as the items are sealed, once compact); past
  // 2^kMaxTableBits items it is the largest whatever that number (every
  // item codes to a symbol at least), so folding stops there; with fewer
  // items at the overflow the folders go on, counting the symbols of their
  // items and forgetting them.
  bool compact = false;
  bool overflow = false;
  bool countAll = true; // (decided at the overflow)
  uint64_t heldAtOverflow = 0;
  // Past the budget without counting, the first folding has nothing left to
  // do: each thread is folded again while it is coded.
  auto firstFoldingStopped = [&] { return overflow && !countAll; };
  std::map<uint32_t, uint64_t> counted;
  std::map<uint32_t, trace::CompactItems> kept;
  auto countOnly = [&](uint32_t thread, trace::RepeatFolder &folder) {
    uint64_t &symbols = counted[thread];
    if (!countAll)
      return folder.setSink([](const FoldedItem &) {}); // drop them
    folder.setSink([&symbols, &folder](const FoldedItem &item) {
      symbols += countItem(folder, item);
    });
  };
  auto keep = [&](uint32_t thread, trace::RepeatFolder &folder) {
    uint64_t &symbols = counted[thread];
    trace::CompactItems &items = kept[thread];
    folder.setSink([&symbols, &items, &folder](const FoldedItem &item) {
      symbols += countItem(folder, item);
      items.push_back(item);
    });
  };
  auto onNew = [&](uint32_t thread, trace::RepeatFolder &folder) {
    if (overflow)
      countOnly(thread, folder);
    else if (compact)
      keep(thread, folder);
  };
  Folders folders;
  GroupFolders grouped;
  uint64_t sinceCheck = 0;
  auto checkBudget = [&](uint64_t events, bool last = false) {
    if (overflow || ((sinceCheck += events) < kBudgetCheckEvents && !last))
      return;
    sinceCheck = 0;
    // Items and bytes held: those kept, and those the folders may still
    // fold (at most their window each).
    uint64_t held = 0, heldBytes = 0;
    for (auto &[thread, items] : kept) {
      held += items.size();
      heldBytes += items.bytes();
    }
    auto window = [&](const trace::RepeatFolder &folder) {
      held += folder.items().size();
      heldBytes += folder.items().size() * sizeof(FoldedItem);
    };
    for (auto &[thread, folder] : folders)
      window(folder);
    for (auto &[thread, folder] : grouped)
      window(folder.folded());
    // (Under a budget of less than twice compactAbove, compactly from half
    // the budget: the rest of it then holds several times more items.)
    if (!compact && heldBytes > std::min(compactAbove, keepBytes / 2) &&
        heldBytes <= keepBytes) {
      // (Compact items cost the coder's reading a little more than a
      // folder's: traces that fold to fewer items keep theirs there.)
      compact = true;
      for (auto &[thread, folder] : folders)
        keep(thread, folder);
      for (auto &[thread, folder] : grouped)
        keep(thread, folder.folder());
      return;
    }
    if (heldBytes <= keepBytes)
      return;
    overflow = true;
    heldAtOverflow = held;
    // Every item is still at hand at the end: count them.
    countAll = last || held < (uint64_t(1) << kMaxTableBits);
    kept.clear();
    for (auto &[thread, folder] : folders)
      countOnly(thread, folder);
    for (auto &[thread, folder] : grouped) {
      countOnly(thread, folder.folder());
      if (firstFoldingStopped())
        folder.stopFolding(); // the check goes on
    }
  };
  // The folder of the last event's thread, during one read of the file
  // into one map (whose nodes stay put): events come a chunk of one thread
  // at a time, so most need no lookup.
  struct LastFolder {
    uint32_t thread = 0;
    trace::RepeatFolder *folder = nullptr;
  };
  auto foldInto = [&](Folders &into, LastFolder &last, uint32_t thread,
                      uint32_t token, uint64_t length, auto &&onNewFolder) {
    if (!last.folder || last.thread != thread) {
      auto [it, fresh] =
          into.try_emplace(thread, options.maxPeriod, options.longPeriod);
      if (fresh)
        onNewFolder(thread, it->second);
      last = {thread, &it->second};
    }
    foldEvent(*last.folder, token, length);
  };

  // Pass 1 reads and checks the file. It folds a path-granularity trace as
  // the import does; in a function-granularity one it notes the tokens
  // seen (a trace that holds group tokens is not folded again, as
  // --phaedrus-call-groups leaves it).
  std::vector<bool> seen;
  bool functionGranularity = false;
  LastFolder firstReadFolder;
  // (The vocabulary is known once the file is read: `seen` is not sized by
  // a damaged word.)
  std::optional<uint32_t> outOfRange;
  auto firstRead = [&](uint32_t thread, uint32_t token, uint64_t length) {
    if (!functionGranularity) {
      if (!firstFoldingStopped())
        foldInto(folders, firstReadFolder, thread, token, length, onNew);
      return checkBudget(1);
    }
    if (token >= kMaxTraceToken) {
      if (!outOfRange)
        outOfRange = token;
      return;
    }
    if (token >= seen.size())
      seen.resize(std::max<size_t>(token + 1, 2 * seen.size()), false);
    seen[token] = true;
  };
  FailureOr<WppShell> shell = readWpp(
      bytes, context, loc, options, firstRead,
      [&](const trace::Header &header) {
        functionGranularity = header.functionGranularity();
      },
      [&](uint32_t thread, const uint32_t *tokens, size_t count) {
        for (size_t i = 0; i < count; ++i)
          firstRead(thread, tokens[i], 1);
      });
  // The checks importWpp's verification makes of the vocabulary (dense
  // ids, the fields each kind needs): packing reads those fields.
  if (failed(shell) || failed(verify(shell->vocabulary)))
    return failure();
  VocabularyOp vocabulary = shell->vocabulary;
  // Every token of a function trace is checked here, before the call
  // groups' passes read the entry of each (a path trace's are checked as
  // they are coded).
  uint64_t numEntries = vocabulary.getNumEntries();
  for (size_t token = numEntries; !outOfRange && token < seen.size(); ++token)
    if (seen[token])
      outOfRange = static_cast<uint32_t>(token);
  if (outOfRange)
    return emitTokenOutsideVocabulary(loc, *outOfRange, numEntries);
  // Later reads know how many events the file holds.
  ImportWppOptions rereadOptions = options;
  rereadOptions.expectedEvents = shell->events;
  // As --phaedrus-call-groups: a function trace over a vocabulary with the
  // build's groups, unless it holds group tokens (folded before).
  bool useGroups = functionGranularity && isFunctionGranularity(vocabulary);
  bool groups = false;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
    if (entry.getKind() != EntryKind::Group)
      continue;
    groups = true;
    if (entry.getId() < seen.size() && seen[entry.getId()])
      useGroups = false;
  }
  useGroups &= groups;
  std::optional<trace::CallGroupTable> table;
  if (useGroups) {
    FailureOr<trace::CallGroupTable> built = buildCallGroupTable(vocabulary);
    if (failed(built))
      return failure();
    table = std::move(*built);
  }

  // Folding from the file: the first folding of all threads (`only` empty),
  // or one thread folded again while it is coded. As the import folds, or
  // with call groups as --phaedrus-call-groups does: analyze, then rewrite
  // and fold repeats, and check that the rewrite expands back to the
  // recorded events (false if it does not).
  auto foldAsImported = [&](Folders &into, std::optional<uint32_t> only,
                            auto &&onNewFolder) {
    LastFolder last;
    rereadWpp(bytes, loc, rereadOptions,
              [&](uint32_t thread, uint32_t token, uint64_t length) {
                if (only ? thread != *only : firstFoldingStopped())
                  return;
                foldInto(into, last, thread, token, length, onNewFolder);
                checkBudget(1);
              });
  };
  // The call groups' analysis of each thread, kept for folding it again:
  // a copy of the folder after the analysis pass (its state is a byte per
  // group occurrence), so that folding again is one more read, not two.
  GroupFolders analyzed;
  auto foldGroups = [&](GroupFolders &into, std::optional<uint32_t> only,
                        auto &&onNewFolder) {
    bool first = !only;
    auto groupedOf = [&](uint32_t thread) -> trace::CallGroupRepeatFolder & {
      auto [it, fresh] = into.try_emplace(thread, *table, options.maxPeriod,
                                           options.longPeriod);
      if (fresh) {
        onNewFolder(thread, it->second.folder());
        if (first && firstFoldingStopped())
          it->second.stopFolding(); // the check goes on
      }
      return it->second;
    };
    // Events come in chunks of one thread: hand them on in batches.
    std::vector<uint32_t> batch;
    uint32_t batchThread = 0;
    auto inBatches = [&](auto &&sink) {
      auto flush = [&] {
        if (!batch.empty())
          sink(groupedOf(batchThread), batch.data(), batch.size());
        checkBudget(batch.size());
        batch.clear();
      };
      rereadWpp(
          bytes, loc, rereadOptions,
          [&](uint32_t thread, uint32_t token, uint64_t) {
            if (only && thread != *only)
              return;
            if (thread != batchThread || batch.size() == kBudgetCheckEvents)
              flush();
            batchThread = thread;
            batch.push_back(token);
          },
          // Stretches of plain tokens (all of a function trace, read
          // without a call per event) go on as they are, after the batch,
          // the budget checked as often as with batches (a check after
          // 64K events let a folder's items pass 2^24 before it, and their
          // buffer double: objects.lua's function trace peaked at 649 MiB
          // instead of 415).
          [&](uint32_t thread, const uint32_t *tokens, size_t count) {
            if (only && thread != *only)
              return;
            flush();
            for (size_t done = 0; done < count;) {
              size_t piece = std::min<size_t>(count - done, kBudgetCheckEvents);
              sink(groupedOf(thread), tokens + done, piece);
              checkBudget(piece);
              done += piece;
            }
          });
      flush();
    };
    if (first) {
      inBatches([](trace::CallGroupRepeatFolder &folder,
                   const uint32_t *tokens,
                   size_t count) { folder.analyze(tokens, count); });
      analyzed = into;
    } else if (auto it = analyzed.find(*only); it != analyzed.end()) {
      // Folding again: the analysis is the first folding's.
      auto &folder = into.try_emplace(*only, it->second).first->second;
      onNewFolder(*only, folder.folder());
    }
    inBatches([](trace::CallGroupRepeatFolder &folder, const uint32_t *tokens,
                 size_t count) { folder.rewrite(tokens, count); });
    bool exact = true;
    for (auto [thread, traceOp] : shell->traces)
      if (!only || thread == *only)
        exact &= groupedOf(thread).finish();
    return exact;
  };

  // A function-granularity trace is folded in passes of its own.
  if (useGroups && !foldGroups(grouped, std::nullopt, onNew)) {
    emitWarning(loc) << "call-group folding would not expand back to the "
                        "recorded trace (an internal error); the trace is "
                        "packed with its repeats folded only";
    useGroups = false;
    grouped.clear();
    counted.clear();
    kept.clear();
    compact = overflow = false;
    countAll = true;
  }
  if (functionGranularity && !useGroups)
    foldAsImported(folders, std::nullopt, onNew);
  checkBudget(0, /*last=*/true);
  if (!overflow)
    analyzed.clear();
  for (auto &[thread, folder] : folders)
    folder.finish();
  for (auto &[thread, folder] : grouped)
    folder.folder().finish(); // (the check finished the rest)

  std::vector<uint8_t> payload;
  Packer packer(payload);
  packer.progress = options.progress;
  packer.symbolsKnown = !overflow || countAll;
  auto renumber = [&](uint32_t token) { return shell->entryId(token); };
  for (auto [thread, traceOp] : shell->traces) {
    FoldedBody &body = packer.foldedBodies[traceOp];
    body.renumber = renumber;
    if (overflow) {
      // (Without counts, a bound that gives the same table size.)
      body.symbols = countAll ? counted[thread] + 1 : heldAtOverflow;
      uint32_t only = thread;
      body.produce = [&, only](FoldedItemSink sink) {
        auto streamTo = [&](uint32_t, trace::RepeatFolder &folder) {
          folder.setSink([&](const FoldedItem &item) { sink(folder, item); });
        };
        if (useGroups) {
          GroupFolders again;
          (void)foldGroups(again, only, streamTo); // checked before
        } else {
          Folders again;
          foldAsImported(again, only, streamTo);
          for (auto &[thread, folder] : again)
            folder.finish();
        }
      };
      continue;
    }
    const trace::RepeatFolder &folder =
        useGroups ? grouped
                        .try_emplace(thread, *table, options.maxPeriod,
                                     options.longPeriod)
                        .first->second.folded()
                  : folders
                        .try_emplace(thread, options.maxPeriod,
                                     options.longPeriod)
                        .first->second;
    if (!compact) {
      countItems(folder, folder.items(), body.symbols);
      body.produce = [&folder](FoldedItemSink sink) {
        for (const FoldedItem &item : folder.items())
          sink(folder, item);
      };
      continue;
    }
    body.symbols = counted[thread] + 1; // END
    const trace::CompactItems &items = kept[thread];
    body.produce = [&folder, &items](FoldedItemSink sink) {
      items.forEach([&](const FoldedItem &item) { sink(folder, item); });
    };
  }
  if (overflow) { // the first folding only counted
    folders.clear();
    grouped.clear();
  }
  if (failed(writePacked(packer, payload, *shell->module, os, sizes)))
    return failure();
  if (sizes && overflow)
    sizes->foldedAgain = shell->traces.size();
  if (sizes)
    sizes->keptCompactly = compact;
  return success();
}

OwningOpRef<ModuleOp> mlir::phaedrus::importPacked(StringRef bytes,
                                                   MLIRContext *context,
                                                   Location loc,
                                                   uint64_t inlineLimit,
                                                   uint64_t maxSymbols) {
  context->loadDialect<PhaedrusDialect>();
  auto error = [&]() {
    return emitError(loc) << "phaedrus-translate: ";
  };
  if (bytes.starts_with(PHAEDRUS_TRACE_MAGIC)) {
    error() << "not a packed trace: it is a trace file the runtime wrote "
               "(--import-wpp reads it, --pack-wpp packs it)";
    return nullptr;
  }
  if (bytes.size() < 4 || std::memcmp(bytes.data(), kPackedTraceMagic, 4) != 0) {
    error() << "not a packed trace (it does not start with 'PHPK')";
    return nullptr;
  }
  if (bytes.size() < kHeaderSize) {
    error() << "truncated packed trace: " << bytes.size()
            << " bytes, shorter than its " << kHeaderSize << "-byte header";
    return nullptr;
  }
  uint32_t version = llvm::support::endian::read32le(bytes.data() + 4);
  if (version < 1 || version > kVersion) {
    error() << "packed trace version " << version << " is not supported (this "
            << "build reads versions 1 to " << kVersion << ")";
    return nullptr;
  }
  uint64_t size = llvm::support::endian::read64le(bytes.data() + 8);
  uint64_t checksum = llvm::support::endian::read64le(bytes.data() + 16);
  uint64_t present = bytes.size() - kHeaderSize;
  if (present < size) {
    error() << "truncated packed trace: " << present << " of " << size
            << " payload bytes present; nothing can be recovered (the "
            << "payload is one coded stream)";
    return nullptr;
  }
  if (present > size) {
    error() << "packed trace has " << present - size
            << " bytes after its payload of " << size << " bytes";
    return nullptr;
  }
  const auto *payload = reinterpret_cast<const uint8_t *>(bytes.data()) + kHeaderSize;
  if (phaedrus_fnv1a64(payload, size, PHAEDRUS_FNV64_INIT) != checksum) {
    error() << "corrupt packed trace: the payload checksum does not match";
    return nullptr;
  }
  Unpacker unpacker(payload, size, version, context, loc, inlineLimit,
                    maxSymbols);
  OwningOpRef<ModuleOp> module = unpacker.unpack();
  if (module && failed(verify(*module)))
    return nullptr;
  return module;
}
