//===- ModelSpec.h - phaedrus.model ops as inference inputs -----*- C++ -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_PREDICT_MODELSPEC_H
#define PHAEDRUS_DIALECT_PHAEDRUS_PREDICT_MODELSPEC_H

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Inference/Inference.h"

namespace mlir::phaedrus {

/// What a tool that reads a model says to do when given a trace instead.
inline constexpr llvm::StringLiteral kModelFileAdvice =
    "a model file comes from 'phaedrus train'";

/// Reads the kind, hyper-parameters, descriptor tokens and weights of `model`
/// (weights from dense_resource blobs or dense literals) for lib/Inference.
/// Emits an error on `model` when a weight has no data or is not f32.
LogicalResult loadModelSpec(ModelOp model, inference::ModelSpec &spec);

/// The hyper-parameter `name` of `model` (an integer or a float, as the op's
/// verifier allows), or `fallback` when the model has none.
double hyperparameter(ModelOp model, StringRef name, double fallback);

/// loadModelSpec, then inference::Model::create; errors on `model`.
FailureOr<std::unique_ptr<inference::Model>> loadModel(ModelOp model);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_PREDICT_MODELSPEC_H
