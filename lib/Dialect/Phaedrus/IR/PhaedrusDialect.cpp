//===- PhaedrusDialect.cpp - The phaedrus dialect -------------------------===//
//
// Dialect registration, attribute verifiers and the verification of the
// dialect's discardable attributes on other dialects' operations.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Featurize/Featurize.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::phaedrus;

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.cpp.inc"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusAttrDefs.cpp.inc"

void PhaedrusDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusAttrDefs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Count parameters
//===----------------------------------------------------------------------===//

FailureOr<uint64_t> mlir::phaedrus::parseCount(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalMinus()))
    return parser.emitError(loc, "a count must not be negative"), failure();
  uint64_t value;
  if (parser.parseInteger(value))
    return failure();
  return value;
}

FailureOr<SmallVector<uint64_t>> mlir::phaedrus::parseCounts(AsmParser &parser) {
  SmallVector<uint64_t> values;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        FailureOr<uint64_t> value = parseCount(parser);
        if (failed(value))
          return failure();
        values.push_back(*value);
        return success();
      }))
    return failure();
  return values;
}

//===----------------------------------------------------------------------===//
// Confidence parameter
//===----------------------------------------------------------------------===//

FailureOr<llvm::APFloat> mlir::phaedrus::parseConfidence(AsmParser &parser) {
  double value;
  if (parser.parseFloat(value))
    return failure();
  return llvm::APFloat(value);
}

/// The shortest decimal form of `confidence` that reads back as the same
/// double, always with a decimal point as MLIR's lexer needs ("1.0e-05").
static std::string formatConfidence(double confidence) {
  for (int precision = 1; precision <= 17; ++precision) {
    llvm::SmallString<32> text;
    llvm::raw_svector_ostream os(text);
    os << llvm::format("%.*g", precision, confidence);
    if (std::strtod(text.c_str(), nullptr) == confidence) {
      // MLIR's lexer needs a decimal point in every float ("1.0e-05").
      if (text.find('.') == llvm::StringRef::npos) {
        size_t exponent = text.find_first_of("eE");
        if (exponent == llvm::StringRef::npos)
          text += ".0";
        else
          text.insert(text.begin() + exponent, {'.', '0'});
      }
      return text.str().str();
    }
  }
  return llvm::formatv("{0}", confidence).str();
}

void mlir::phaedrus::printConfidence(AsmPrinter &printer,
                                     const llvm::APFloat &value) {
  printer << formatConfidence(value.convertToDouble());
}

static LogicalResult verifyConfidence(function_ref<InFlightDiagnostic()> emitError,
                                      const llvm::APFloat &value) {
  if (&value.getSemantics() != &llvm::APFloat::IEEEdouble())
    return emitError() << "confidence must be a double";
  double confidence = value.convertToDouble();
  if (!(confidence >= 0.0 && confidence <= 1.0))
    return emitError() << "confidence must be in [0, 1], got "
                       << formatConfidence(confidence);
  return success();
}

//===----------------------------------------------------------------------===//
// Attribute verifiers
//===----------------------------------------------------------------------===//

LogicalResult EntryCountAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                     uint64_t count, Provenance provenance,
                                     llvm::APFloat confidence) {
  return verifyConfidence(emitError, confidence);
}

LogicalResult
BranchWeightsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<uint64_t> weights, Provenance provenance,
                          llvm::APFloat confidence) {
  if (weights.size() < 2)
    return emitError() << "branch weights need at least two weights, got "
                       << weights.size();
  return verifyConfidence(emitError, confidence);
}

LogicalResult
InputDescriptorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayAttr argv, ArrayAttr files, StringAttr stdinPath,
                            DictionaryAttr locale) {
  for (auto [i, arg] : llvm::enumerate(argv))
    if (!isa<StringAttr>(arg))
      return emitError() << "argv element " << i << " must be a string, got "
                         << arg;
  if (files)
    for (auto [i, file] : llvm::enumerate(files))
      if (!isa<InputFileAttr>(file))
        return emitError() << "files element " << i
                           << " must be a #phaedrus.file, got " << file;
  if (locale)
    for (NamedAttribute variable : locale) {
      if (!featurize::isLocaleVariable(variable.getName().getValue()))
        return emitError() << "locale: "
                           << featurize::notALocaleVariable(
                                  variable.getName().getValue());
      if (!isa<StringAttr>(variable.getValue()))
        return emitError() << "locale variable "
                           << variable.getName().getValue()
                           << " must be a string, got " << variable.getValue();
    }
  return success();
}

//===----------------------------------------------------------------------===//
// Discardable attributes on other dialects' operations
//===----------------------------------------------------------------------===//

/// Weights, one per successor of `op`.
static LogicalResult verifyWeightCount(Operation *op, StringRef name,
                                       size_t numWeights) {
  if (numWeights == op->getNumSuccessors())
    return success();
  return op->emitOpError() << "'" << name << "' has " << numWeights
                           << " weights but the operation has "
                           << op->getNumSuccessors() << " successors";
}

bool PhaedrusDialect::takesBranchWeights(Operation *op) {
  return op->getNumSuccessors() >= 2;
}

LogicalResult PhaedrusDialect::verifyOperationAttribute(Operation *op,
                                                        NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  // The attributes' own rules, again: the parser checks them, but one built
  // in C++ with `get` (which does not verify in a build without assertions)
  // reaches here unchecked, and printed would not parse.
  auto emitError = [&] { return op->emitOpError() << "'" << name << "': "; };
  if (name == getEntryCountAttrName()) {
    auto count = dyn_cast<EntryCountAttr>(attr.getValue());
    if (!count)
      return op->emitOpError() << "'" << name
                               << "' must be a #phaedrus.entry_count, got "
                               << attr.getValue();
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError() << "'" << name
                               << "' may only be attached to a function";
    return EntryCountAttr::verify(emitError, count.getCount(),
                                  count.getProvenance(), count.getConfidence());
  }
  if (name == getBranchWeightsAttrName()) {
    auto weights = dyn_cast<BranchWeightsAttr>(attr.getValue());
    if (!weights)
      return op->emitOpError() << "'" << name
                               << "' must be a #phaedrus.branch_weights, got "
                               << attr.getValue();
    if (!takesBranchWeights(op))
      return op->emitOpError()
             << "'" << name
             << "' may only be attached to a terminator with at least two "
                "successors";
    if (failed(BranchWeightsAttr::verify(emitError, weights.getWeights(),
                                         weights.getProvenance(),
                                         weights.getConfidence())))
      return failure();
    return verifyWeightCount(op, name, weights.getWeights().size());
  }
  if (name == getIndirectBrWeightsAttrName()) {
    auto weights = dyn_cast<DenseI32ArrayAttr>(attr.getValue());
    if (!weights)
      return op->emitOpError() << "'" << name
                               << "' must be an array<i32: ...>, got "
                               << attr.getValue();
    // By name: the dialect does not depend on the LLVM dialect.
    if (op->getName().getStringRef() != "llvm.indirectbr")
      return op->emitOpError() << "'" << name
                               << "' may only be attached to llvm.indirectbr";
    return verifyWeightCount(op, name, weights.size());
  }
  if (name == getIrrLoopWeightAttrName()) {
    auto weight = dyn_cast<IntegerAttr>(attr.getValue());
    if (!weight || !weight.getType().isInteger(64))
      return op->emitOpError() << "'" << name << "' must be an i64, got "
                               << attr.getValue();
    if (weight.getValue().isNegative())
      return op->emitOpError() << "'" << name
                               << "' must not be negative, got "
                               << weight.getValue().getSExtValue();
    // By name: the dialect does not depend on the LLVM dialect.
    if (!op->hasTrait<OpTrait::IsTerminator>() ||
        op->getName().getDialectNamespace() != "llvm")
      return op->emitOpError()
             << "'" << name
             << "' may only be attached to the terminator of an LLVM block";
    return success();
  }
  if (name == getAugmentedAttrName()) {
    auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
    auto from = dict ? dict.getAs<ArrayAttr>("from") : ArrayAttr();
    if (!isa<TraceOp>(op) || !from || from.empty() ||
        !llvm::all_of(from, llvm::IsaPred<FlatSymbolRefAttr>))
      return op->emitOpError()
             << "'" << name
             << "' must be a dictionary on a phaedrus.trace whose 'from' lists "
                "the traces it was made from";
    return success();
  }
  return op->emitOpError() << "unknown phaedrus attribute '" << name << "'";
}
