//===- CallGroups.h - Input-consistent folding of call groups ---*- C++ -*-===//
//
// Lemma 1 of Phaedrus, on function-granularity traces: call sites that one
// invocation of a function always makes one after another (a call group,
// found statically from the program's CFG) fold into one token. Where a run
// breaks the premise (a callee that longjmps or exits, a trace cut short),
// that occurrence stays as it was, so folding is exact on every trace.
//
// A function trace has an event per function entry and none per return, so
// the call tree is read back greedily: a `call_site` token whose caller is
// X pops the stack down to the nearest frame running X (all of it when
// there is none, then X becomes the root) and pushes the callee; a
// `function` token (entry from an unknown or indirect site) pushes its
// function on top. This reading is the same in the folder and in the
// expander, whatever the real tree was.
//
// A group token G standing for members c1..cL is written where c1 was.
// The expander writes c1 and makes the caller's frame owe c2..cL: whenever
// popping uncovers a frame that owes calls, the next owed call is written
// and its callee pushed, before the pop goes on. So c2 reappears just
// before the first later token whose reading leaves c1's subtree. The
// folder drops c(j+1) only when the expander will put it back exactly
// there: it must be the frame's next child in the reading, and the next
// token the folder keeps must be a call whose caller is not one of the
// frames c(j+1) pops (or the end of the trace). A member that fails this
// stays in the trace and ends the occurrence there, so a prefix of 2..n
// members of a group of n has a token of its own.
//
// Folding reads the trace twice (analyze, then rewrite); memory is the call
// stack plus one byte per group occurrence. No MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_CALLGROUPS_H
#define PHAEDRUS_TRACE_CALLGROUPS_H

#include "phaedrus/Trace/Format.h"
#include "phaedrus/Trace/RepeatFolder.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::phaedrus::trace {

/// What each token id means for reading the call tree, and the groups.
class CallGroupTable {
public:
  static constexpr uint32_t kNone = UINT32_MAX;
  /// Longest group (occurrence lengths are kept in a byte).
  static constexpr size_t kMaxMembers = 255;

  enum class Kind : uint8_t {
    Other, ///< means nothing to the reading: kept, reads nothing
    Entry, ///< `function`: entry into `callee` from an unknown site
    Call,  ///< `call_site`: `caller` calls `callee`
    Group, ///< a prefix of `length` members of group `group`
    Path,  ///< `path`: a path of `caller` (folding keeps it like Other)
  };
  struct Token {
    Kind kind = Kind::Other;
    /// Call and Group: the calling function; Path: the function.
    uint32_t caller = kNone;
    uint32_t callee = kNone;
    uint32_t group = kNone;
    /// Call: position in its group (0-based); Group: number of members.
    uint32_t position = 0;
  };

  explicit CallGroupTable(size_t numTokens) : tokens(numTokens) {}

  size_t size() const { return tokens.size(); }
  const Token &operator[](uint32_t token) const { return tokens[token]; }

  void setEntry(uint32_t token, uint32_t callee);
  void setCall(uint32_t token, uint32_t caller, uint32_t callee);
  void setPath(uint32_t token, uint32_t function);
  /// Adds a group of call tokens (set before), all of one caller, each in no
  /// other group, 2 to kMaxMembers of them. Returns its number, or kNone and
  /// says why in `error`.
  uint32_t addGroup(const std::vector<uint32_t> &members, std::string &error);
  /// Token `token` stands for the first `length` members of `group`.
  bool setGroupToken(uint32_t token, uint32_t group, uint32_t length,
                     std::string &error);

  const std::vector<uint32_t> &members(uint32_t group) const {
    return groups[group];
  }
  /// The token for the first `length` members of `group`, or kNone.
  uint32_t groupToken(uint32_t group, uint32_t length) const {
    return prefixTokens[group][length];
  }
  bool hasGroupTokens() const { return numGroupTokens != 0; }

private:
  std::vector<Token> tokens;
  std::vector<std::vector<uint32_t>> groups;
  std::vector<std::vector<uint32_t>> prefixTokens; // [group][length]
  size_t numGroupTokens = 0;
};

/// A hash of a token stream and its length, to check a rewrite against its
/// source in the same process (never stored): a token at a time, one
/// multiply (byte-wise FNV-1a, four dependent multiplies a token, took 7%
/// of --pack-wpp on a Lua function trace).
struct StreamDigest {
  uint64_t hash = PHAEDRUS_FNV64_INIT;
  uint64_t length = 0;
  void add(uint32_t token) {
    hash = (hash ^ token) * 0x9e3779b97f4a7c15ull;
    hash ^= hash >> 29;
    ++length;
  }
  /// (An output for CallGroupExpander: the check hashes what it expands
  /// without storing it.)
  void push_back(uint32_t token) { add(token); }
  bool operator==(const StreamDigest &o) const {
    return hash == o.hash && length == o.length;
  }
};

/// Folds call groups: feed the trace to analyze() then finishAnalysis(),
/// then the same trace again to rewrite(). Tokens must not be group tokens.
class CallGroupFolder {
public:
  explicit CallGroupFolder(const CallGroupTable &table) : table(table) {}

  void analyze(const uint32_t *tokens, size_t count);
  void finishAnalysis();
  /// Appends the folded form of `tokens` to `out`.
  void rewrite(const uint32_t *tokens, size_t count,
               std::vector<uint32_t> &out);

  /// The analyzed stream (for checking the result with CallGroupExpander).
  const StreamDigest &sourceDigest() const { return source; }
  /// Tokens the rewrite leaves out.
  uint64_t numDropped() const { return dropped; }

private:
  struct Frame {
    uint32_t function;
    uint32_t group = CallGroupTable::kNone;
    uint32_t matched = 0;
    uint32_t limit = 0;     // rewrite: members to leave out up to
    uint64_t occurrence = 0; // analyze: index into occurrenceLengths
  };
  /// A member left out during analysis, to be checked against the next
  /// token that is kept.
  struct Check {
    uint64_t occurrence;
    uint32_t position; // 1-based member number
    uint32_t caller;
    /// The functions of the frames the member popped: popped[begin, end).
    size_t poppedBegin, poppedEnd;
  };
  enum class Next { Call, NoPop, End };
  void resolve(Next next, uint32_t caller);
  /// Pops down to the nearest frame running `caller`; false if none (the
  /// stack is then empty). Records popped functions in `popped` if given.
  bool popTo(uint32_t caller, std::vector<uint32_t> *popped);

  const CallGroupTable &table;
  std::vector<Frame> stack;
  std::vector<uint8_t> occurrenceLengths;
  std::vector<Check> pending;
  std::vector<uint32_t> popped; // of every pending check, and the last call
  StreamDigest source;
  uint64_t nextOccurrence = 0;
  uint64_t dropped = 0;
};

/// Undoes CallGroupFolder: feed the folded stream, then finish(). `Out` is
/// anything with push_back(uint32_t): a vector, or a StreamDigest.
class CallGroupExpander {
public:
  explicit CallGroupExpander(const CallGroupTable &table) : table(table) {}
  template <typename Out>
  void push(const uint32_t *tokens, size_t count, Out &out);
  template <typename Out> void finish(Out &out) {
    attach(CallGroupTable::kNone, out);
  }

private:
  struct Frame {
    uint32_t function;
    uint32_t group = CallGroupTable::kNone;
    uint32_t next = 0;
    uint32_t length = 0;
  };
  /// Pops down to the nearest frame running `caller`, writing owed calls of
  /// uncovered frames; with kNone (the end) pops everything.
  template <typename Out> void attach(uint32_t caller, Out &out);

  const CallGroupTable &table;
  std::vector<Frame> stack;
};

template <typename Out>
void CallGroupExpander::attach(uint32_t caller, Out &out) {
  while (true) {
    if (stack.empty()) {
      if (caller != CallGroupTable::kNone)
        stack.push_back({caller});
      return;
    }
    if (stack.back().function == caller)
      return;
    stack.pop_back();
    if (stack.empty())
      continue;
    Frame &uncovered = stack.back();
    if (uncovered.next < uncovered.length) {
      uint32_t member = table.members(uncovered.group)[uncovered.next++];
      out.push_back(member);
      stack.push_back({table[member].callee});
    }
  }
}

template <typename Out>
void CallGroupExpander::push(const uint32_t *tokens, size_t count, Out &out) {
  using Kind = CallGroupTable::Kind;
  for (size_t i = 0; i < count; ++i) {
    uint32_t token = tokens[i];
    const CallGroupTable::Token &info = table[token];
    switch (info.kind) {
    case Kind::Other:
    case Kind::Path:
      out.push_back(token);
      break;
    case Kind::Entry:
      out.push_back(token);
      stack.push_back({info.callee});
      break;
    case Kind::Call:
      attach(info.caller, out);
      out.push_back(token);
      stack.push_back({info.callee});
      break;
    case Kind::Group: {
      uint32_t first = table.members(info.group)[0];
      attach(info.caller, out);
      out.push_back(first);
      Frame &caller = stack.back();
      caller.group = info.group;
      caller.next = 1;
      caller.length = info.position;
      stack.push_back({table[first].callee});
      break;
    }
    }
  }
}

/// Call groups, then repeats, of one trace, checked: what
/// --phaedrus-call-groups makes of a trace and --pack-wpp of a thread's
/// events. Feed the trace to analyze() and then again to rewrite(); the
/// rewritten stream folds into `folded()`, and finish() says whether it
/// expands back to the analyzed one (it should; when it does not, the
/// folding must not be used).
class CallGroupRepeatFolder {
public:
  CallGroupRepeatFolder(const CallGroupTable &table, unsigned maxPeriod,
                        unsigned longPeriod = RepeatFolder::kDefaultLongPeriod)
      : groups(table), expander(table), repeats(maxPeriod, longPeriod) {}

  void analyze(const uint32_t *tokens, size_t count) {
    groups.analyze(tokens, count);
  }
  void rewrite(const uint32_t *tokens, size_t count);
  /// Ends the rewrite; true if the folded trace expands to the analyzed one.
  bool finish();

  const RepeatFolder &folded() const { return repeats; }
  /// The repeat folder the rewrite feeds (to give it a sink).
  RepeatFolder &folder() { return repeats; }
  /// Rewrites and checks from now on without folding repeats (folded() is
  /// then incomplete): for a caller that only wants the check.
  void stopFolding() { folding = false; }
  /// Tokens the call groups leave out.
  uint64_t numDropped() const { return groups.numDropped(); }

private:
  /// Ends the analysis once, before the first rewrite.
  void endAnalysis();

  CallGroupFolder groups;
  CallGroupExpander expander;
  RepeatFolder repeats;
  StreamDigest digest;
  bool analyzed = false;
  bool folding = true;
  std::vector<uint32_t> rewritten;
};

} // namespace mlir::phaedrus::trace

#endif // PHAEDRUS_TRACE_CALLGROUPS_H
