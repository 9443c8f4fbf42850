//===- SampleProfile.cpp - Export a profile as an LLVM sample profile -----===//
//
// A sample profile names code by source line: a function's body samples
// sit at line offsets from the function's own line, and, in a build with
// -fdebug-info-for-profiling, at discriminators that tell apart the blocks
// one line holds (`if (c) return x;` is two blocks on one line). clang's
// sample loader weighs each instruction with the samples of its (offset,
// discriminator) and each block with the most of its instructions'. So the
// export gives each block's count to the (offset, discriminator) keys of
// its code, numbering discriminators the way LLVM's AddDiscriminators pass
// does on the same front-end IR that 'phaedrus ir' imported (the module
// keeps clang's block order and each instruction's line).
//
//===----------------------------------------------------------------------===//

#include "SampleProfile.h"

#include "phaedrus/Dialect/Phaedrus/Flow/FlowRepair.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <map>
#include <string>
#include <vector>
#include <optional>

using namespace mlir;
using namespace mlir::phaedrus;

/// The file and line of an op's own location (inside the fused location
/// with debug scope that 'phaedrus ir -g' gives), or nothing: an op without
/// one, or with line 0 (code clang attributes to no line).
static std::optional<std::pair<StringAttr, unsigned>> lineOf(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    if (file.getLine() == 0)
      return std::nullopt;
    return std::make_pair(file.getFilename(), file.getLine());
  }
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto line = lineOf(inner))
        return line;
  return std::nullopt;
}

/// The debug subprogram of a function, whose line the offsets count from.
static LLVM::DISubprogramAttr subprogramOf(Operation *function) {
  if (auto fused = dyn_cast<FusedLocWith<LLVM::DISubprogramAttr>>(
          function->getLoc()))
    return fused.getMetadata();
  return {};
}

/// Whether an op is an LLVM instruction that AddDiscriminators numbers:
/// constants and block tags (the blocks a computed goto takes the address
/// of) are no instructions, and of the intrinsics only the memory ones
/// (memcpy, memmove, memset) take discriminators.
static bool isNumbered(Operation &op) {
  StringRef name = op.getName().getStringRef();
  if (name.starts_with("llvm.mlir.") ||
      isa<LLVM::CallIntrinsicOp, LLVM::BlockTagOp>(op))
    return false;
  if (name.consume_front("llvm.intr."))
    return name.starts_with("memcpy") || name.starts_with("memmove") ||
           name.starts_with("memset");
  return true;
}

/// Whether clang's sample loader weighs an instruction with its samples
/// (SampleProfileLoaderBaseImpl::getInstWeight): not branches, whose lines
/// are often another block's, nor intrinsics.
static bool isWeighed(Operation &op) {
  return isNumbered(op) && !isa<LLVM::BrOp, LLVM::CondBrOp>(op) &&
         !op.getName().getStringRef().starts_with("llvm.intr.");
}

/// Whether AddDiscriminators takes an instruction for a call (any call but
/// an intrinsic's, inline assembly included).
static bool isCall(Operation &op) {
  return isa<LLVM::CallOp, LLVM::InvokeOp, LLVM::InlineAsmOp>(op);
}

/// The largest base discriminator a DILocation encodes (with duplication
/// factor 1 and copy id 0, as AddDiscriminators makes them); past it, LLVM
/// keeps the instruction's location as it was.
static constexpr unsigned kMaxDiscriminator = 0xfff;

namespace {
/// One body-sample key: a line offset and a discriminator.
using Key = std::pair<unsigned, unsigned>;

/// The body samples of one function: per key, the most of its blocks'
/// counts, or nothing when a block the profile leaves open has code there
/// (a known block's count would pin that one to it).
class BodySamples {
public:
  void add(Key key, std::optional<uint64_t> count) {
    auto [it, inserted] = samples.try_emplace(key, count);
    if (inserted)
      return;
    if (!count || !it->second)
      it->second.reset();
    else
      it->second = std::max(*it->second, *count);
  }
  std::map<Key, uint64_t> known() const {
    std::map<Key, uint64_t> out;
    for (auto &[key, count] : samples)
      if (count)
        out[key] = *count;
    return out;
  }

private:
  std::map<Key, std::optional<uint64_t>> samples;
};
} // namespace

/// The body samples of `function` from its block counts, numbered as
/// AddDiscriminators numbers the instructions of clang's front-end IR: per
/// (file, line), the first block with code on it has discriminator 0, each
/// further block the next number; then a second call on one line in one
/// block takes the next number again.
static std::map<Key, uint64_t>
bodySamples(LLVM::LLVMFuncOp function, LLVM::DISubprogramAttr subprogram,
            bool discriminators) {
  repairFlow(function);
  llvm::DenseMap<Block *, uint64_t> counts = knownBlockCounts(function);
  using Line = std::pair<StringAttr, unsigned>;
  llvm::DenseMap<Line, SmallVector<Block *, 2>> blocksOf; // in order of first code
  llvm::DenseMap<Line, unsigned> last; // LDM: the last number given
  llvm::DenseMap<Operation *, unsigned> discriminatorOf;
  auto offsetOf = [&](unsigned line) {
    // LLVM's FunctionSamples::getOffset: 16 bits of the difference.
    return (line - subprogram.getLine()) & 0xffff;
  };
  for (Block &block : function.getBody())
    for (Operation &op : block) {
      if (!isNumbered(op))
        continue;
      auto line = lineOf(op.getLoc());
      if (!line)
        continue;
      unsigned discriminator = 0;
      if (discriminators) {
        // (Blocks come in order: one already here is the last one.)
        SmallVector<Block *, 2> &blocks = blocksOf[*line];
        if (blocks.empty() || blocks.back() != &block) {
          blocks.push_back(&block);
          if (blocks.size() > 1)
            ++last[*line];
        }
        if (blocks.size() > 1 && last[*line] <= kMaxDiscriminator)
          discriminator = last[*line];
      }
      discriminatorOf[&op] = discriminator;
    }
  if (discriminators)
    for (Block &block : function.getBody()) {
      llvm::DenseSet<Line> callLines;
      for (Operation &op : block) {
        if (!isCall(op) || !isNumbered(op))
          continue;
        auto line = lineOf(op.getLoc());
        if (!line || callLines.insert(*line).second)
          continue;
        unsigned next = ++last[*line];
        if (next <= kMaxDiscriminator)
          discriminatorOf[&op] = next;
      }
    }
  BodySamples samples;
  for (Block &block : function.getBody()) {
    auto count = counts.find(&block);
    std::optional<uint64_t> known;
    if (count != counts.end())
      known = count->second;
    for (Operation &op : block) {
      auto discriminator = discriminatorOf.find(&op);
      if (discriminator == discriminatorOf.end() || !isWeighed(op))
        continue;
      samples.add({offsetOf(lineOf(op.getLoc())->second), discriminator->second},
                  known);
    }
  }
  return samples.known();
}

namespace {
/// One function's record, before it is written.
struct Record {
  std::string name;
  uint64_t head = 0;
  std::map<Key, uint64_t> body;
  /// The source function (directory/file, line) where the module has lines.
  std::optional<std::pair<std::string, unsigned>> source;
  bool local = false;
  /// Not written: merged into the record of the same name without suffix,
  /// or left out (a name several functions share).
  bool omitted = false;
};

/// `name` without llvm-link's suffix for a renamed static (`helper.5` ->
/// `helper`), or `name` itself.
StringRef unsuffixed(StringRef name) {
  auto [base, suffix] = name.rsplit('.');
  if (!suffix.empty() && !base.empty() &&
      llvm::all_of(suffix, [](char c) { return llvm::isDigit(c); }))
    return base;
  return name;
}
} // namespace

LogicalResult mlir::phaedrus::exportSampleProfile(Operation *module,
                                                  raw_ostream &os,
                                                  bool discriminators) {
  bool failedAny = false;
  size_t profiled = 0, withoutLines = 0;
  std::vector<Record> records;
  module->walk([&](FunctionOpInterface function) {
    auto count = function->getAttrOfType<EntryCountAttr>(
        PhaedrusDialect::getEntryCountAttrName());
    if (!count)
      return;
    ++profiled;
    StringRef name = function.getName();
    if (name.contains(':') || name.contains(' ')) {
      function->emitError() << "phaedrus-translate: @" << name
                            << " cannot be named in a text sample profile "
                               "(it holds ':' or a space)";
      failedAny = true;
      return;
    }
    Record record;
    record.name = name.str();
    record.head = count.getCount();
    auto llvmFunction = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation());
    record.local = llvmFunction &&
                   (llvmFunction.getLinkage() == LLVM::Linkage::Internal ||
                    llvmFunction.getLinkage() == LLVM::Linkage::Private);
    LLVM::DISubprogramAttr subprogram = subprogramOf(function);
    if (llvmFunction && subprogram) {
      record.body = bodySamples(llvmFunction, subprogram, discriminators);
      if (LLVM::DIFileAttr file = subprogram.getFile()) {
        // The file's path without "." and ".." (zstd's sources include one
        // header as lib/common/x.h and as lib/compress/../common/x.h).
        SmallString<256> path(file.getName().getValue());
        if (!llvm::sys::path::is_absolute(path)) {
          path = file.getDirectory().getValue();
          llvm::sys::path::append(path, file.getName().getValue());
        }
        llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
        record.source = {path.str().str(), subprogram.getLine()};
      }
    }
    if (!subprogram) {
      // No lines to name: the function's first line holds its entry count
      // and its branch weights, a proxy for the blocks it executed (none,
      // for a function that never ran).
      ++withoutLines;
      uint64_t total = record.head;
      function->walk([&](Operation *nested) {
        if (auto weights = nested->getAttrOfType<BranchWeightsAttr>(
                PhaedrusDialect::getBranchWeightsAttrName()))
          for (uint64_t w : weights.getWeights())
            total = llvm::SaturatingAdd(total, w);
      });
      if (total)
        record.body[{0, 0}] = total;
    }
    records.push_back(std::move(record));
  });
  // A source file that includes another (lz4hc.c includes lz4.c) has a copy
  // of each of its static functions, which llvm-link renames (`LZ4_count`,
  // `LZ4_count.9`), and which a separate build names alike: the build's
  // copies all take the one record of that name. Copies of the same source
  // function (the same file and line) have the same lines and
  // discriminators, so their samples add up: one record of the sum, under
  // the name both copies have there.
  llvm::StringMap<size_t> byName;
  for (size_t i = 0; i < records.size(); ++i)
    byName[records[i].name] = i;
  for (Record &copy : records) {
    StringRef base = unsuffixed(copy.name);
    auto it = byName.find(base);
    if (base == copy.name || !copy.local || !copy.source ||
        it == byName.end())
      continue;
    Record &into = records[it->second];
    if (!into.local || into.source != copy.source)
      continue;
    into.head = llvm::SaturatingAdd(into.head, copy.head);
    for (auto &[key, samples] : copy.body) {
      uint64_t &sum = into.body[key];
      sum = llvm::SaturatingAdd(sum, samples);
    }
    copy.omitted = true;
  }
  // Different static functions of one name (`helper` in a.c and b.c,
  // `helper` and `helper.1` in the module), or a static and a global one:
  // a separate build names each `helper` in its own file, and the sample
  // loader gives the record `helper` to every one of them (a.c's helper,
  // never run, gave b.c's hot one an entry count of 0, and with
  // -fprofile-sample-accurate a place in .text.unlikely; bzip2's two
  // `myfeof`; found by a review, 2026-11-28). No record can be right for
  // all of them: they get none, and a warning names them.
  llvm::StringMap<SmallVector<size_t>> byBase;
  for (size_t i = 0; i < records.size(); ++i)
    if (!records[i].omitted)
      byBase[records[i].local ? unsuffixed(records[i].name)
                              : StringRef(records[i].name)]
          .push_back(i);
  SmallVector<std::string> ambiguous;
  for (auto &[base, members] : byBase) {
    if (members.size() < 2)
      continue;
    std::string names;
    for (size_t i : members) {
      Record &r = records[i];
      r.omitted = true;
      names += (names.empty() ? "@" : ", @") + r.name;
      if (r.source)
        names += " (" + llvm::sys::path::filename(r.source->first).str() +
                 ":" + std::to_string(r.source->second) + ")";
    }
    ambiguous.push_back("`" + base.str() + "`: " + names);
  }
  if (!ambiguous.empty()) {
    llvm::sort(ambiguous);
    auto diag = mlir::emitWarning(wholeModuleLoc(module))
                << "phaedrus-translate: " << ambiguous.size()
                << " function name(s) stand for different functions in "
                   "different files, and a separate build names each of "
                   "them alike, so a record would be applied to all: they "
                   "get no record (";
    llvm::interleave(ambiguous, diag, "; ");
    diag << "); rename the static functions, or build with the profile "
            "lowered into the module (phaedrus build)";
  }
  for (const Record &record : records) {
    if (record.omitted)
      continue;
    // (With lines but none the profile knows, the head samples alone.)
    uint64_t total = 0;
    for (auto &[key, samples] : record.body)
      total = llvm::SaturatingAdd(total, samples);
    os << record.name << ":" << total << ":" << record.head << "\n";
    // Zero samples are written too: they tell the loader that a block did
    // not run (a block without samples is one it guesses about).
    for (auto &[key, samples] : record.body) {
      os << " " << key.first;
      if (key.second)
        os << "." << key.second;
      os << ": " << samples << "\n";
    }
  }
  Location fileLoc = wholeModuleLoc(module);
  // An empty file is no sample profile: clang would refuse it ("Unrecognized
  // sample profile encoding format"), far from here.
  if (!failedAny && !profiled) {
    mlir::emitError(fileLoc) << "phaedrus-translate: no function has a "
                                "phaedrus.entry_count, so there is no profile "
                                "to export: "
                             << kNoProfileAdvice;
    return failure();
  }
  if (!failedAny && withoutLines == profiled)
    mlir::emitWarning(fileLoc)
        << "phaedrus-translate: the module has no debug lines, so each "
           "function's samples sit on its first line, where clang applies "
           "them to few functions (docs/SampleProfile.md): make the module "
           "with `phaedrus ir --cflags -gline-tables-only`, and keep its "
           "lines when phaedrus-opt writes it (--mlir-print-debuginfo; the "
           "phaedrus driver does)";
  return failure(failedAny);
}
