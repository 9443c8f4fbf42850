//===- AttrVerifyTest.cpp - Attributes built in C++ are verified on ops ---===//
//
// The parser checks the profile attributes' and the input descriptor's
// rules, but `get` does not in a build without assertions: an attribute
// built in C++ with a confidence of 1.5 or an argv of integers reaches an op
// unchecked, and the printed IR would not parse again. The verifier of the op
// that holds it refuses it instead.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace mlir;
using namespace mlir::phaedrus;

namespace {

constexpr const char *kModule = R"mlir(
llvm.func @f(%c: i1) {
  llvm.cond_br %c, ^a, ^b
^a:
  llvm.return
^b:
  llvm.return
}
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @f
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
}
)mlir";

class AttrVerifyTest : public ::testing::Test {
protected:
  AttrVerifyTest() {
    context.loadDialect<PhaedrusDialect, LLVM::LLVMDialect>();
    module = parseSourceString<ModuleOp>(kModule, &context);
  }

  /// Verifies the module and returns the diagnostics ("" if it verifies).
  std::string verifyErrors() {
    std::string messages;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      messages += diagnostic.str() + "\n";
      return success();
    });
    if (succeeded(verify(*module)))
      return "";
    return messages.empty() ? "(failed without a message)" : messages;
  }

  LLVM::LLVMFuncOp function() {
    return module->lookupSymbol<LLVM::LLVMFuncOp>("f");
  }
  Operation *branch() { return &function().getBody().front().back(); }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(AttrVerifyTest, ModuleVerifies) {
  ASSERT_TRUE(module);
  EXPECT_EQ(verifyErrors(), "");
}

TEST_F(AttrVerifyTest, EntryCountConfidenceOutOfRange) {
  ASSERT_TRUE(module);
  for (double confidence : {1.5, -1.0, std::nan("")}) {
    function()->setAttr(PhaedrusDialect::getEntryCountAttrName(),
                        EntryCountAttr::get(&context, 5, Provenance::Model,
                                            confidence));
    std::string errors = verifyErrors();
    EXPECT_NE(errors.find("'phaedrus.entry_count': confidence must be in "
                          "[0, 1]"),
              std::string::npos)
        << confidence << ": " << errors;
  }
  function()->setAttr(PhaedrusDialect::getEntryCountAttrName(),
                      EntryCountAttr::get(&context, 5, Provenance::Model, 1.0));
  EXPECT_EQ(verifyErrors(), "");
}

TEST_F(AttrVerifyTest, BranchWeightsConfidenceOutOfRange) {
  ASSERT_TRUE(module);
  uint64_t weights[] = {1, 2};
  branch()->setAttr(PhaedrusDialect::getBranchWeightsAttrName(),
                    BranchWeightsAttr::get(&context, weights,
                                           Provenance::Model, 7.0));
  EXPECT_NE(verifyErrors().find("'phaedrus.branch_weights': confidence must "
                                "be in [0, 1], got 7"),
            std::string::npos)
      << verifyErrors();
  branch()->setAttr(PhaedrusDialect::getBranchWeightsAttrName(),
                    BranchWeightsAttr::get(&context, weights,
                                           Provenance::Model, 0.5));
  EXPECT_EQ(verifyErrors(), "");
}

TEST_F(AttrVerifyTest, InputDescriptorArgvOfIntegers) {
  ASSERT_TRUE(module);
  auto trace = module->lookupSymbol<TraceOp>("t");
  Builder builder(&context);
  trace.setInputAttr(InputDescriptorAttr::get(
      &context, builder.getArrayAttr({builder.getI64IntegerAttr(1)}),
      ArrayAttr(), StringAttr(), DictionaryAttr()));
  EXPECT_NE(verifyErrors().find("input: argv element 0 must be a string"),
            std::string::npos)
      << verifyErrors();
}

} // namespace
