//===- ProgramShape.cpp - What instrumentation sees of a program ----------===//

#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Trace/Format.h"

using namespace mlir;
using namespace mlir::phaedrus;

bool mlir::phaedrus::isRecordedFunction(LLVM::LLVMFuncOp function) {
  return !function.isExternal() &&
         function.getLinkage() != LLVM::Linkage::AvailableExternally &&
         !function.getName().starts_with("__phaedrus_");
}

ProgramShape mlir::phaedrus::analyzeProgram(ModuleOp module) {
  ProgramShape shape;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (isRecordedFunction(function))
      shape.functions.emplace(function.getName().str(), function);

  uint64_t fingerprint = PHAEDRUS_FNV64_INIT;
  auto mix = [&](StringRef bytes) {
    fingerprint = phaedrus_fnv1a64(bytes.data(), bytes.size(), fingerprint);
    fingerprint = phaedrus_fnv1a64("\0", 1, fingerprint);
  };
  for (auto &[name, function] : shape.functions) {
    mix(name);
    mix(std::to_string(function.getBlocks().size()));
    for (Block &block : function.getBlocks())
      mix(std::to_string(block.getNumSuccessors()));
    uint64_t index = 0;
    StringRef caller = function.getName();
    function.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !shape.functions.count(callee->str()))
        return;
      mix(*callee);
      shape.sites.push_back({call, caller, index++, *callee});
    });
  }
  llvm::sort(shape.sites, [](const ProgramShape::CallSite &a,
                             const ProgramShape::CallSite &b) {
    return std::tie(a.caller, a.index) < std::tie(b.caller, b.index);
  });
  shape.fingerprint = fingerprint;
  return shape;
}
