//===- TraceBuild.cpp - Building trace bodies -----------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::phaedrus;

ElementsAttr mlir::phaedrus::makeTokensAttr(OpBuilder &builder,
                                            ArrayRef<uint32_t> tokens,
                                            StringRef blobName,
                                            uint64_t inlineLimit) {
  auto type = RankedTensorType::get({static_cast<int64_t>(tokens.size())},
                                    builder.getI32Type());
  ArrayRef<int32_t> values(reinterpret_cast<const int32_t *>(tokens.data()),
                           tokens.size());
  if (tokens.size() <= inlineLimit)
    return cast<ElementsAttr>(DenseIntElementsAttr::get(type, values));
  return cast<ElementsAttr>(DenseI32ResourceElementsAttr::get(
      type, blobName, HeapAsmResourceBlob::allocateAndCopyInferAlign(values)));
}

void mlir::phaedrus::flushTokenRun(OpBuilder &builder, Location loc,
                                   std::vector<uint32_t> &run,
                                   StringRef blobPrefix, unsigned &blobs,
                                   uint64_t inlineLimit) {
  if (run.empty())
    return;
  std::string name = (blobPrefix + "_" + Twine(blobs++)).str();
  TokensOp::create(builder, loc, makeTokensAttr(builder, run, name, inlineLimit));
  run.clear();
}

namespace {
struct ItemEmitter {
  const trace::RepeatFolder &folder;
  StringRef blobPrefix;
  uint64_t inlineLimit;
  function_ref<uint32_t(uint32_t)> renumber;
  Location loc;
  uint64_t minRepeatTokens;
  unsigned blobs = 0;

  /// Appends the tokens `item` stands for to `run`, renumbered.
  void expandInto(const trace::RepeatFolder::Item &item,
                  std::vector<uint32_t> &run) {
    size_t begin = run.size();
    folder.expand(item, run);
    if (renumber)
      for (size_t i = begin; i < run.size(); ++i)
        run[i] = renumber(run[i]);
  }

  void emit(OpBuilder &builder, trace::RepeatFolder::Items items) {
    std::vector<uint32_t> run;
    auto flush = [&] {
      flushTokenRun(builder, loc, run, blobPrefix, blobs, inlineLimit);
    };
    for (const trace::RepeatFolder::Item &item : items) {
      if (item.isToken() || folder.length(item) < minRepeatTokens) {
        expandInto(item, run);
        continue;
      }
      flush();
      auto repeat = RepeatOp::create(builder, loc,
                                     builder.getI64IntegerAttr(item.count));
      OpBuilder inner = OpBuilder::atBlockEnd(&repeat.getBody().emplaceBlock());
      emit(inner, folder.body(item.body));
    }
    flush();
  }
};
} // namespace

void mlir::phaedrus::emitFoldedItems(OpBuilder &builder, Location loc,
                                     const trace::RepeatFolder &folder,
                                     StringRef blobPrefix, uint64_t inlineLimit,
                                     function_ref<uint32_t(uint32_t)> renumber,
                                     uint64_t minRepeatTokens) {
  ItemEmitter{folder, blobPrefix, inlineLimit, renumber, loc, minRepeatTokens}
      .emit(builder, folder.items());
}
