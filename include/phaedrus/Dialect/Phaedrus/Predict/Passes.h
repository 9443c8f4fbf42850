//===- Passes.h - phaedrus prediction pass ----------------------*- C++ -*-===//
//
// --phaedrus-predict, in the PhaedrusPredict library (it runs models with
// oneDNN): link Phaedrus::PhaedrusPredict and call
// registerPhaedrusPredictPasses() to have it.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_PREDICT_PASSES_H
#define PHAEDRUS_DIALECT_PHAEDRUS_PREDICT_PASSES_H

#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"

namespace mlir::phaedrus {

#define GEN_PASS_DECL
#include "phaedrus/Dialect/Phaedrus/Predict/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "phaedrus/Dialect/Phaedrus/Predict/Passes.h.inc"

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_PREDICT_PASSES_H
