//===- ModelSpec.cpp - phaedrus.model ops as inference inputs -------------===//

#include "phaedrus/Dialect/Phaedrus/Predict/ModelSpec.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::phaedrus;

/// An integer or float hyper-parameter's value.
static double hyperparameterValue(Attribute value) {
  if (auto i = dyn_cast<IntegerAttr>(value))
    return static_cast<double>(i.getInt());
  return cast<FloatAttr>(value).getValueAsDouble();
}

double mlir::phaedrus::hyperparameter(ModelOp model, StringRef name,
                                      double fallback) {
  Attribute value = model.getHyperparameters().get(name);
  return value ? hyperparameterValue(value) : fallback;
}

LogicalResult mlir::phaedrus::loadModelSpec(ModelOp model,
                                            inference::ModelSpec &spec) {
  spec.kind = model.getKind() == ModelKind::LSTM ? inference::ModelKind::LSTM
                                                 : inference::ModelKind::MLP;
  spec.vocabSize = model.getVocabSize();
  spec.descriptors.clear();
  if (ArrayAttr descriptors = model.getDescriptorsAttr())
    for (Attribute d : descriptors)
      spec.descriptors.push_back(cast<StringAttr>(d).getValue().str());
  spec.runs.clear();
  if (ArrayAttr runs = model.getRunsAttr())
    for (Attribute r : runs)
      spec.runs.push_back(cast<StringAttr>(r).getValue().str());
  for (NamedAttribute hyper : model.getHyperparameters())
    spec.hyperparameters[hyper.getName().str()] =
        hyperparameterValue(hyper.getValue());
  for (NamedAttribute weight : model.getWeights()) {
    auto elements = cast<ElementsAttr>(weight.getValue());
    ShapedType type = elements.getShapedType();
    if (!type.getElementType().isF32())
      return model.emitOpError() << "weight '" << weight.getName().getValue()
                                 << "' must hold f32 values, got "
                                 << type.getElementType();
    inference::Tensor tensor;
    tensor.shape.assign(type.getShape().begin(), type.getShape().end());
    if (auto resource = dyn_cast<DenseF32ResourceElementsAttr>(elements)) {
      std::optional<ArrayRef<float>> data = resource.tryGetAsArrayRef();
      if (!data)
        return model.emitOpError()
               << "weight '" << weight.getName().getValue()
               << "' names resource blob '"
               << resource.getRawHandle().getKey()
               << "', which holds no data (is the model file's "
                  "dialect_resources section missing or cut short?)";
      tensor.data.assign(data->begin(), data->end());
    } else if (auto dense = dyn_cast<DenseElementsAttr>(elements)) {
      for (float v : dense.getValues<float>())
        tensor.data.push_back(v);
    } else {
      return model.emitOpError() << "weight '" << weight.getName().getValue()
                                 << "' is neither a dense_resource blob nor "
                                    "a dense literal";
    }
    if (static_cast<int64_t>(tensor.data.size()) != type.getNumElements())
      return model.emitOpError()
             << "weight '" << weight.getName().getValue() << "' holds "
             << tensor.data.size() << " values, its type " << type
             << " needs " << type.getNumElements();
    spec.weights[weight.getName().str()] = std::move(tensor);
  }
  return success();
}

FailureOr<std::unique_ptr<inference::Model>>
mlir::phaedrus::loadModel(ModelOp model) {
  inference::ModelSpec spec;
  if (failed(loadModelSpec(model, spec)))
    return failure();
  std::string error;
  std::unique_ptr<inference::Model> loaded =
      inference::Model::create(spec, error);
  if (!loaded)
    return model.emitOpError() << "cannot be run: " << error;
  return loaded;
}
