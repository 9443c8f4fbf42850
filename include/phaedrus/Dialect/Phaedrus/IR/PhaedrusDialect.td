//===- PhaedrusDialect.td - The phaedrus dialect -----------*- tablegen -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSDIALECT_TD
#define PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSDIALECT_TD

include "mlir/IR/DialectBase.td"
include "mlir/IR/OpBase.td"

def Phaedrus_Dialect : Dialect {
  let name = "phaedrus";
  let cppNamespace = "::mlir::phaedrus";
  let summary = "Whole program paths, compressed traces, models and predicted profiles";
  let description = [{
    The `phaedrus` dialect holds what Phaedrus knows about a program's dynamic
    behaviour, next to the program itself:

    * a **vocabulary** (`phaedrus.vocabulary`) of stable token ids for
      functions, call sites, Ball-Larus paths and compression groups, tied to
      the fingerprint of the module they were made from;
    * **traces** (`phaedrus.trace`): the Whole Program Path of one run as a
      token sequence, with the descriptor of the input that produced it;
      compressed traces keep their structure as counted repeats
      (`phaedrus.repeat`) and grammar rules (`phaedrus.grammar`,
      `phaedrus.rule`, `phaedrus.apply`);
    * **profiles**: `#phaedrus.entry_count` and `#phaedrus.branch_weights`
      attached to functions and branches as the discardable attributes
      `phaedrus.entry_count` and `phaedrus.branch_weights`, each with its
      provenance (measured, model, static, llm) and a confidence;
    * **models** (`phaedrus.model`) with hyper-parameters and weights in
      `dense_resource` blobs, and **predictions** (`phaedrus.predict`) that a
      pass evaluates into profile attributes.

    Example:

    ```mlir
    phaedrus.vocabulary @vocab fingerprint(42) {
      phaedrus.entry 0 function @main
      phaedrus.entry 1 function @work
    }
    phaedrus.trace @run0 vocabulary(@vocab) fingerprint(42)
        input(#phaedrus.input<argv = ["prog", "in.txt"]>) {
      phaedrus.tokens dense<0> : tensor<1xi32>
      phaedrus.repeat 1000 {
        phaedrus.tokens dense<1> : tensor<1xi32>
      }
    }
    llvm.func @work() attributes {
        phaedrus.entry_count = #phaedrus.entry_count<1000, measured, confidence = 1.0>} {
      llvm.return
    }
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute holding a function's entry count.
    static constexpr ::llvm::StringLiteral getEntryCountAttrName() {
      return ::llvm::StringLiteral("phaedrus.entry_count");
    }
    /// Name of the discardable attribute holding a branch's weights.
    static constexpr ::llvm::StringLiteral getBranchWeightsAttrName() {
      return ::llvm::StringLiteral("phaedrus.branch_weights");
    }
    /// Whether `op` may carry branch weights: a terminator with two
    /// successors or more (an llvm.switch without cases has one, and
    /// nothing to weigh).
    static bool takesBranchWeights(::mlir::Operation *op);
    /// Name of the discardable attribute that carries the lowered (32-bit)
    /// branch weights of an llvm.indirectbr, which the LLVM dialect cannot
    /// hold; `phaedrus-translate --mlir-to-llvmir` emits them as the
    /// instruction's !prof branch_weights, and --phaedrus-strip keeps them.
    static constexpr ::llvm::StringLiteral getIndirectBrWeightsAttrName() {
      return ::llvm::StringLiteral("phaedrus.indirectbr_weights");
    }
    /// Name of the discardable attribute that carries the count of an
    /// irreducible loop header (or of an indirectbr target) on its block's
    /// terminator, an i64, which the LLVM dialect cannot hold;
    /// `phaedrus-translate --mlir-to-llvmir` emits it as the instruction's
    /// !irr_loop loop_header_weight, and --phaedrus-strip keeps it.
    static constexpr ::llvm::StringLiteral getIrrLoopWeightAttrName() {
      return ::llvm::StringLiteral("phaedrus.irr_loop_weight");
    }
    /// Whether a `phaedrus.*` discardable attribute is lowered LLVM profile
    /// (kept by --phaedrus-strip, emitted by --mlir-to-llvmir) rather than
    /// phaedrus IR.
    static bool isLoweredProfileAttrName(::llvm::StringRef name) {
      return name == getIndirectBrWeightsAttrName() ||
             name == getIrrLoopWeightAttrName();
    }
    /// Name of the discardable attribute that marks an augmented trace
    /// (--phaedrus-augment) and says how it was made.
    static constexpr ::llvm::StringLiteral getAugmentedAttrName() {
      return ::llvm::StringLiteral("phaedrus.augmented");
    }
  }];
}

class Phaedrus_Op<string mnemonic, list<Trait> traits = []>
    : Op<Phaedrus_Dialect, mnemonic, traits>;

#endif // PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSDIALECT_TD
