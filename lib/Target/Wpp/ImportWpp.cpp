//===- ImportWpp.cpp - Trace files to phaedrus IR -------------------------===//

#include "phaedrus/Target/Wpp/ImportWpp.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Trace/Format.h"
#include "phaedrus/Trace/RepeatFolder.h"
#include "phaedrus/Trace/TraceReader.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"

#include <map>

using namespace mlir;
using namespace mlir::phaedrus;

static std::string describeRecovery(const trace::ReadStatus &status) {
  return "recovered " + std::to_string(status.events) + " events in " +
         std::to_string(status.eventRecords) + " chunks from " +
         std::to_string(status.threads) + " thread(s), " +
         std::to_string(status.validBytes) + " of " +
         std::to_string(status.totalBytes) + " bytes";
}

static EntryKind parseKind(StringRef kind) {
  if (kind == "call_site")
    return EntryKind::CallSite;
  if (kind == "path")
    return EntryKind::Path;
  if (kind == "group")
    return EntryKind::Group;
  return EntryKind::Function;
}

OwningOpRef<ModuleOp> mlir::phaedrus::importWpp(StringRef bytes,
                                                MLIRContext *context,
                                                Location loc,
                                                const ImportWppOptions &options) {
  context->loadDialect<PhaedrusDialect>();
  trace::Header header;
  trace::Ending ending;
  std::map<uint32_t, trace::RepeatFolder> folders;
  // Path runs are three words (PHAEDRUS_PATH_MARK | function, path id,
  // length) or one (PHAEDRUS_PATH_SHORT | function << 16 | path id, length
  // 1); each distinct (function, path) becomes a vocabulary entry, numbered
  // after the static entries in order of first appearance.
  struct PendingRun {
    unsigned words = 0; // of the current run read so far
    uint32_t function = 0, path = 0;
  };
  std::map<uint32_t, PendingRun> pendingPath; // per thread
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> pathIds;
  std::vector<std::pair<uint32_t, uint32_t>> pathOrder;
  uint32_t firstPathId = 0; // set once the vocabulary is known
  uint64_t danglingPathMarks = 0;
  trace::ReadStatus status = trace::readTrace(
      bytes.data(), bytes.size(), header, ending,
      [&](uint32_t thread, const uint32_t *tokens, size_t count) {
        trace::RepeatFolder &folder =
            folders.try_emplace(thread, options.maxPeriod).first->second;
        PendingRun &pending = pendingPath[thread];
        auto pushPath = [&](uint32_t function, uint32_t path, uint32_t length) {
          auto key = std::make_pair(function, path);
          auto [it, inserted] = pathIds.try_emplace(key, pathOrder.size());
          if (inserted)
            pathOrder.push_back(key);
          folder.pushRun(PHAEDRUS_PATH_MARK | it->second, length);
        };
        for (size_t i = 0; i < count; ++i) {
          uint32_t word = tokens[i];
          if (pending.words == 1) {
            pending.path = word;
            pending.words = 2;
          } else if (pending.words == 2) {
            pushPath(pending.function, pending.path, word);
            pending.words = 0;
          } else if ((word & PHAEDRUS_PATH_KIND_MASK) == PHAEDRUS_PATH_SHORT) {
            pushPath((word & ~PHAEDRUS_PATH_KIND_MASK) >> 16, word & 0xffffu, 1);
          } else if (word & PHAEDRUS_PATH_MARK) {
            pending.function = word & ~PHAEDRUS_PATH_MARK;
            pending.words = 1;
          } else {
            folder.push(word);
          }
        }
      });
  for (auto &[thread, pending] : pendingPath)
    danglingPathMarks += pending.words != 0;

  if (!status.headerValid) {
    emitError(loc) << "cannot import trace: " << status.problem
                   << "; nothing was recovered";
    return {};
  }
  if (options.expectedFingerprint &&
      *options.expectedFingerprint != header.fingerprint) {
    emitError(loc) << "trace fingerprint " << header.fingerprint
                   << " does not match the expected fingerprint "
                   << *options.expectedFingerprint
                   << ": it was recorded from a different build of the program";
    return {};
  }
  if (!status.complete) {
    if (status.corrupt && !options.keepCorruptPrefix) {
      emitError(loc) << "trace is corrupt: " << status.problem
                     << "; the intact prefix has "
                     << describeRecovery(status)
                     << " (import it with --wpp-keep-prefix)";
      return {};
    }
    emitWarning(loc) << "trace is incomplete: " << status.problem << "; "
                     << describeRecovery(status);
  }
  std::string vocabularyError;
  std::optional<std::vector<trace::VocabularyEntry>> entries =
      trace::parseVocabulary(header.vocabulary, vocabularyError);
  if (!entries) {
    emitError(loc) << "cannot import trace: " << vocabularyError;
    return {};
  }
  if (entries->empty()) {
    emitError(loc) << "cannot import trace: it has no vocabulary";
    return {};
  }
  if (danglingPathMarks)
    emitWarning(loc) << "the trace ends inside a path event; "
                     << danglingPathMarks << " incomplete path event(s) dropped";
  // Path entries follow the static ones; path tokens were pushed as
  // PHAEDRUS_PATH_MARK | (index in pathOrder) and are renumbered on output.
  firstPathId = entries->size();
  for (auto [function, pathId] : pathOrder) {
    if (function >= entries->size() || (*entries)[function].kind != "function") {
      emitError(loc) << "corrupt trace: a path event names token " << function
                     << ", which is not a function of the vocabulary";
      return {};
    }
    trace::VocabularyEntry path;
    path.id = entries->size();
    path.kind = "path";
    path.symbol = (*entries)[function].symbol;
    path.index = pathId;
    entries->push_back(std::move(path));
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder builder = OpBuilder::atBlockEnd(module->getBody());
  auto fingerprint = builder.getIntegerAttr(
      builder.getIntegerType(64, /*isSigned=*/false), header.fingerprint);
  auto vocabulary = VocabularyOp::create(
      builder, loc, builder.getStringAttr("vocab"), fingerprint);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&vocabulary.getBody().emplaceBlock());
    for (const trace::VocabularyEntry &entry : *entries)
      EntryOp::create(
          builder, loc, builder.getI64IntegerAttr(entry.id),
          EntryKindAttr::get(context, parseKind(entry.kind)),
          FlatSymbolRefAttr::get(context, entry.symbol),
          entry.index ? builder.getI64IntegerAttr(*entry.index) : IntegerAttr(),
          entry.callee.empty() ? FlatSymbolRefAttr()
                               : FlatSymbolRefAttr::get(context, entry.callee),
          DenseI64ArrayAttr());
  }

  SmallVector<Attribute> argv, files;
  for (const std::string &arg : header.argv)
    argv.push_back(builder.getStringAttr(arg));
  for (const trace::InputFile &file : header.files)
    files.push_back(InputFileAttr::get(context, file.path, file.size, file.digest));
  auto input = InputDescriptorAttr::get(
      context, builder.getArrayAttr(argv),
      files.empty() ? ArrayAttr() : builder.getArrayAttr(files), StringAttr());

  // A run with no events at all still gets its (empty) trace.
  if (folders.empty())
    folders.try_emplace(0, options.maxPeriod);
  for (auto &[thread, folder] : folders) {
    folder.finish();
    std::string name = options.traceName;
    if (thread != 0)
      name += "_t" + std::to_string(thread);
    auto traceOp = TraceOp::create(builder, loc, builder.getStringAttr(name),
                                   FlatSymbolRefAttr::get(vocabulary),
                                   fingerprint, input, FlatSymbolRefAttr());
    OpBuilder body = OpBuilder::atBlockEnd(&traceOp.getBody().emplaceBlock());
    emitFoldedItems(body, loc, folder, name, options.inlineLimit,
                    [&](uint32_t token) {
                      // Path tokens were numbered in order of appearance.
                      return token & PHAEDRUS_PATH_MARK
                                 ? firstPathId + (token & ~PHAEDRUS_PATH_MARK)
                                 : token;
                    });
  }
  if (failed(verify(*module)))
    return {};
  return module;
}
