//===- Inference.cpp - Running phaedrus models with oneDNN ----------------===//
//
// Built with exceptions: oneDNN's C++ API reports errors by throwing
// dnnl::error, which is caught at every entry point of the library.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Inference/Inference.h"
#include "phaedrus/Trace/SplitMix64.h"

#include "oneapi/dnnl/dnnl.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

using namespace mlir::phaedrus::inference;
using mlir::phaedrus::SplitMix64;
using dnnl::memory;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

namespace {
/// The largest exponent the local size law gives (model.py's
/// SIZE_EXPONENT_MAX).
constexpr double kMaxLocalExponent = 2.0;

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s + "]";
}

/// One LSTM layer's primitives for a sequence length, with its weights
/// reordered into the layouts the primitive wants.
struct LstmLayer {
  int64_t input = 0, hidden = 0;
  Tensor weightsLayer, weightsIter, bias; // ldigo, ldigo, ldgo
};
} // namespace

struct Model::Impl {
  ModelSpec spec;
  TokenSpace space;
  int64_t embeddingDim = 0, hiddenSize = 0, numLayers = 0;
  int64_t bucketsPerOctave = 4;
  std::unordered_map<std::string, int64_t> descriptorIndex;
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  std::vector<LstmLayer> layers;

  /// The single-step network used by generation, built once.
  struct Step {
    std::vector<dnnl::lstm_forward> lstm;
    std::vector<memory> src, weightsLayer, weightsIter, bias, dst;
    // Recurrent state: [layer][0 or 1], swapped every step.
    std::vector<memory> h[2], c[2];
    dnnl::matmul output;
    memory outWeights, outBias, logits;
    dnnl::softmax_forward softmax;
    memory probsIn, probsOut;
    int current = 0;
  };
  std::unique_ptr<Step> step;

  // MLP. With `hidden_softmax`, the hidden layer is a softmax instead of a
  // ReLU: the retrieval model (a similarity-weighted blend of the training
  // runs' profiles, docs/Model.md).
  bool hiddenSoftmax = false;
  // With `output_counts`, the output layer gives counts (the retrieval
  // model's mixture of profiles), not log(1 + count).
  bool outputCounts = false;
  // A blend's floor (hyper-parameter blend_floor, 0 when absent): runs
  // weighing less than it times the heaviest run are left out of the blend
  // and the rest scaled to sum to 1 again (floorBlend). The softmax before
  // the floor is kept in unfloored: the local size law fits its exponent
  // over it (exponentFor), against the blended runs' siblings, which the
  // floor may leave out.
  double blendFloor = 0;
  std::vector<float> unfloored;
  // A retrieval model with a size law (weights runs.log2_*, docs/Model.md):
  // the total of its prediction is the blend of its runs' totals, each
  // scaled by the input's size over the run's to the power sizeExponent.
  bool sizeLaw = false;
  double sizeExponent = 0;
  // The local law (hyper-parameter size_local_prior and weight
  // runs.pair_weight; null: off): a prediction's exponent is fitted over
  // the runs it blends (exponentFor).
  const std::vector<float> *pairWeight = nullptr;
  double localPrior = 0;
  // With the law, the tokens whose count was the same in every training
  // run keep it (tokens.fixed_count; -1 for the others); null without.
  const std::vector<float> *fixedCounts = nullptr;
  dnnl::matmul hidden, output;
  dnnl::softmax_forward hiddenNormalize;
  memory mlpIn, mlpHiddenW, mlpHiddenB, mlpHidden, mlpOutW, mlpOutB, mlpOut;

  const Tensor &weight(const std::string &name) const {
    return spec.weights.at(name);
  }

  memory wrap(const memory::desc &md, const float *data) {
    return memory(md, engine, const_cast<float *>(data));
  }

  bool check(std::string &error);
  void buildLstmLayers();
  void buildStep();
  void buildMlp();
  /// MLP: the optional size law of a retrieval model (weights runs.log2_*
  /// and tokens.fixed_count, hyper-parameter size_exponent).
  bool checkSizeLaw(std::string &error);
  /// The optional hyper-parameter blend_floor, into blendFloor.
  bool checkBlendFloor(std::string &error);
  /// MLP: the hidden layer (and its softmax) for `descriptorIds`, into
  /// mlpHidden; oneDNN may throw.
  bool runHidden(const std::vector<int64_t> &descriptorIds, std::string &error);
  /// The blend in mlpHidden without the runs below blendFloor times the
  /// heaviest, the rest scaled to sum to 1; the softmax as it was into
  /// unfloored.
  void floorBlend();
  /// The weights the local size law fits its exponent over: the blend in
  /// mlpHidden before the floor.
  const float *exponentWeights() const;
  /// runHidden, waited for, with oneDNN's exceptions caught: the blend's
  /// weights in mlpHidden.
  bool blend(const std::vector<int64_t> &descriptorIds, std::string &error);
  /// The size law's exponent for a blend of the runs with weights `w`.
  double exponentFor(const float *w) const;
  /// The size law's total for the blend in mlpHidden.
  double blendedTotal(std::optional<double> inputLog2Size) const;
  void resetState();
  const float *runStep(int64_t id);
};

static bool expectShape(const ModelSpec &spec, const std::string &name,
                        const std::vector<int64_t> &shape, std::string &error) {
  auto it = spec.weights.find(name);
  if (it == spec.weights.end()) {
    error = "the model has no weight '" + name + "'";
    return false;
  }
  const Tensor &t = it->second;
  if (t.shape != shape) {
    error = "weight '" + name + "' has shape " + shapeString(t.shape) +
            ", expected " + shapeString(shape);
    return false;
  }
  int64_t elements = 1;
  for (int64_t d : shape)
    elements *= d;
  if (static_cast<int64_t>(t.data.size()) != elements) {
    error = "weight '" + name + "' holds " + std::to_string(t.data.size()) +
            " values, its shape needs " + std::to_string(elements);
    return false;
  }
  return true;
}

bool Model::Impl::check(std::string &error) {
  auto hyper = [&](const char *name, int64_t &value, int64_t min) {
    auto it = spec.hyperparameters.find(name);
    if (it == spec.hyperparameters.end()) {
      error = std::string("the model has no hyper-parameter '") + name + "'";
      return false;
    }
    if (it->second != std::floor(it->second) || it->second < min ||
        it->second > 1e9) {
      error = std::string("hyper-parameter '") + name + "' is " +
              std::to_string(it->second) + ", expected an integer >= " +
              std::to_string(min);
      return false;
    }
    value = static_cast<int64_t>(it->second);
    return true;
  };
  if (spec.vocabSize < 1) {
    error = "the model's vocabulary is empty";
    return false;
  }
  // A NaN would come out as a count of 0, an infinity as the largest one.
  for (const auto &[name, tensor] : spec.weights)
    for (size_t i = 0; i < tensor.data.size(); ++i)
      if (!std::isfinite(tensor.data[i])) {
        error = "weight '" + name + "' holds " + std::to_string(tensor.data[i]) +
                " at element " + std::to_string(i) + ": a model's weights "
                "must be finite";
        return false;
      }
  for (const auto &[name, value] : spec.hyperparameters)
    if (!std::isfinite(value)) {
      error = "hyper-parameter '" + name + "' is " + std::to_string(value) +
              ", expected a finite number";
      return false;
    }
  if (spec.kind == ModelKind::MLP && spec.descriptors.empty()) {
    error = "the model has no descriptor tokens: an mlp predicts from the "
            "run's descriptor, and needs at least one";
    return false;
  }
  space.vocabSize = spec.vocabSize;
  space.numDescriptors = static_cast<int64_t>(spec.descriptors.size());
  for (size_t i = 0; i < spec.descriptors.size(); ++i)
    descriptorIndex.emplace(spec.descriptors[i], static_cast<int64_t>(i));
  if (!hyper("num_specials", space.numSpecials, 5) ||
      !hyper("num_buckets", space.numBuckets, 1) ||
      !hyper("buckets_per_octave", bucketsPerOctave, 1) ||
      !hyper("hidden_size", hiddenSize, 1))
    return false;
  int64_t d = space.numDescriptors, v = spec.vocabSize, hs = hiddenSize;
  if (spec.kind == ModelKind::MLP) {
    auto flag = [&](const char *name, bool &value) {
      auto it = spec.hyperparameters.find(name);
      if (it == spec.hyperparameters.end())
        return true;
      if (it->second != 0 && it->second != 1) {
        error = std::string("hyper-parameter '") + name + "' is " +
                std::to_string(it->second) + ", expected 0 or 1";
        return false;
      }
      value = it->second == 1;
      return true;
    };
    if (!flag("hidden_softmax", hiddenSoftmax) ||
        !flag("output_counts", outputCounts))
      return false;
    if (!checkBlendFloor(error))
      return false;
    if (!spec.runs.empty() && !hiddenSoftmax) {
      error = "the model names " + std::to_string(spec.runs.size()) +
              " training runs, but it does not blend runs (hidden_softmax "
              "is not 1)";
      return false;
    }
    if (!spec.runs.empty() && static_cast<int64_t>(spec.runs.size()) != hs) {
      error = "the model names " + std::to_string(spec.runs.size()) +
              " training runs for its " + std::to_string(hs) +
              " hidden units (one run each)";
      return false;
    }
    if (!expectShape(spec, "hidden.weight", {hs, d}, error) ||
        !expectShape(spec, "hidden.bias", {hs}, error) ||
        !expectShape(spec, "output.weight", {v, hs}, error) ||
        !expectShape(spec, "output.bias", {v}, error))
      return false;
    return checkSizeLaw(error);
  }
  if (!spec.runs.empty()) {
    error = "an lstm model names training runs; only a blending mlp may";
    return false;
  }
  if (!checkBlendFloor(error))
    return false;
  if (!hyper("embedding_dim", embeddingDim, 1) ||
      !hyper("num_layers", numLayers, 1))
    return false;
  int64_t n = space.size();
  if (!expectShape(spec, "embedding.weight", {n, embeddingDim}, error) ||
      !expectShape(spec, "output.weight", {n, hs}, error) ||
      !expectShape(spec, "output.bias", {n}, error))
    return false;
  for (int64_t l = 0; l < numLayers; ++l) {
    std::string s = std::to_string(l);
    int64_t in = l ? hs : embeddingDim;
    if (!expectShape(spec, "lstm.weight_ih_l" + s, {4 * hs, in}, error) ||
        !expectShape(spec, "lstm.weight_hh_l" + s, {4 * hs, hs}, error) ||
        !expectShape(spec, "lstm.bias_ih_l" + s, {4 * hs}, error) ||
        !expectShape(spec, "lstm.bias_hh_l" + s, {4 * hs}, error))
      return false;
  }
  return true;
}

bool Model::Impl::checkBlendFloor(std::string &error) {
  auto it = spec.hyperparameters.find("blend_floor");
  if (it == spec.hyperparameters.end())
    return true;
  char value[32];
  std::snprintf(value, sizeof value, "%g", it->second);
  if (!hiddenSoftmax) {
    error = std::string("hyper-parameter 'blend_floor' is ") + value +
            ", but the model does not blend runs (hidden_softmax is not 1)";
    return false;
  }
  if (!(it->second >= 0 && it->second < 1)) {
    error = std::string("hyper-parameter 'blend_floor' is ") + value +
            ", expected a share in [0, 1)";
    return false;
  }
  blendFloor = it->second;
  return true;
}

bool Model::Impl::checkSizeLaw(std::string &error) {
  int64_t v = spec.vocabSize, hs = hiddenSize;
  if (!spec.weights.count("runs.log2_total") &&
      !spec.weights.count("runs.log2_size")) {
    if (!spec.weights.count("tokens.fixed_count"))
      return true;
    error = "the model fixes token counts (weight 'tokens.fixed_count') "
            "but has no size law (weights 'runs.log2_*')";
    return false;
  }
  // The size law of a retrieval model's totals.
  if (!hiddenSoftmax || !outputCounts) {
    error = "the model scales the totals of training runs (weights "
            "'runs.log2_*'), but it does not blend runs' counts "
            "(hidden_softmax and output_counts are not both 1)";
    return false;
  }
  if (!expectShape(spec, "runs.log2_total", {hs}, error) ||
      !expectShape(spec, "runs.log2_size", {hs}, error))
    return false;
  for (const char *name : {"runs.log2_total", "runs.log2_size"})
    for (float value : weight(name).data)
      if (!std::isfinite(value) || value > 64) {
        error = std::string("weight '") + name + "' holds " +
                std::to_string(value) + ", expected a log2 of at most 64";
        return false;
      }
  auto exponent = spec.hyperparameters.find("size_exponent");
  if (exponent == spec.hyperparameters.end()) {
    error = "the model has no hyper-parameter 'size_exponent' (its "
            "weights 'runs.log2_*' need it)";
    return false;
  }
  if (!(exponent->second >= 0 && exponent->second <= 4)) {
    error = "hyper-parameter 'size_exponent' is " +
            std::to_string(exponent->second) + ", expected 0 to 4";
    return false;
  }
  sizeExponent = exponent->second;
  auto prior = spec.hyperparameters.find("size_local_prior");
  if (prior != spec.hyperparameters.end() ||
      spec.weights.count("runs.pair_weight")) {
    if (prior == spec.hyperparameters.end() ||
        !(prior->second > 0 && prior->second <= 100)) {
      error = "hyper-parameter 'size_local_prior' is " +
              (prior == spec.hyperparameters.end()
                   ? std::string("missing")
                   : std::to_string(prior->second)) +
              ", expected above 0 and at most 100 (the local size law, "
              "weight 'runs.pair_weight', needs it)";
      return false;
    }
    if (!expectShape(spec, "runs.pair_weight", {hs, hs}, error))
      return false;
    for (float value : weight("runs.pair_weight").data)
      if (!(value >= 0 && value <= 1)) {
        error = "weight 'runs.pair_weight' holds " + std::to_string(value) +
                ", expected 0 to 1";
        return false;
      }
    pairWeight = &weight("runs.pair_weight").data;
    localPrior = prior->second;
  }
  sizeLaw = true;
  if (!spec.weights.count("tokens.fixed_count"))
    return true;
  if (!expectShape(spec, "tokens.fixed_count", {v}, error))
    return false;
  fixedCounts = &weight("tokens.fixed_count").data;
  for (float count : *fixedCounts)
    if (!(count == -1 || (count >= 0 && count <= 1e18))) {
      error = "weight 'tokens.fixed_count' holds " + std::to_string(count) +
              ", expected a count or -1";
      return false;
    }
  return true;
}

void Model::Impl::buildLstmLayers() {
  // PyTorch keeps W_ih as [4H, in] with gates i, f, g, o; oneDNN's ldigo is
  // [in][gate][H] with gates i, f, c, o: the transpose. The two biases add.
  int64_t hs = hiddenSize;
  for (int64_t l = 0; l < numLayers; ++l) {
    std::string s = std::to_string(l);
    LstmLayer layer;
    layer.input = l ? hs : embeddingDim;
    layer.hidden = hs;
    auto transpose = [&](const Tensor &w, int64_t rows, int64_t cols) {
      Tensor t;
      t.shape = {cols, rows};
      t.data.resize(w.data.size());
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          t.data[c * rows + r] = w.data[r * cols + c];
      return t;
    };
    layer.weightsLayer = transpose(weight("lstm.weight_ih_l" + s), 4 * hs, layer.input);
    layer.weightsIter = transpose(weight("lstm.weight_hh_l" + s), 4 * hs, hs);
    const Tensor &bih = weight("lstm.bias_ih_l" + s), &bhh = weight("lstm.bias_hh_l" + s);
    layer.bias.shape = {4 * hs};
    layer.bias.data.resize(4 * hs);
    for (int64_t i = 0; i < 4 * hs; ++i)
      layer.bias.data[i] = bih.data[i] + bhh.data[i];
    layers.push_back(std::move(layer));
  }
}

namespace {
dnnl::lstm_forward::primitive_desc lstmDesc(const dnnl::engine &engine,
                                            int64_t steps, int64_t input,
                                            int64_t hidden) {
  memory::desc srcLayer({steps, 1, input}, dt::f32, tag::tnc);
  memory::desc iter({1, 1, 1, hidden}, dt::f32, tag::ldnc);
  memory::desc weightsLayer({1, 1, input, 4, hidden}, dt::f32, tag::ldigo);
  memory::desc weightsIter({1, 1, hidden, 4, hidden}, dt::f32, tag::ldigo);
  memory::desc bias({1, 1, 4, hidden}, dt::f32, tag::ldgo);
  memory::desc dstLayer({steps, 1, hidden}, dt::f32, tag::tnc);
  dnnl::lstm_forward::desc desc(
      dnnl::prop_kind::forward_inference,
      dnnl::rnn_direction::unidirectional_left2right, srcLayer, iter, iter,
      weightsLayer, weightsIter, bias, dstLayer, iter, iter);
  return dnnl::lstm_forward::primitive_desc(desc, engine);
}

dnnl::matmul::primitive_desc linearDesc(const dnnl::engine &engine,
                                        int64_t rows, int64_t in, int64_t out,
                                        bool relu) {
  // PyTorch's [out, in] weight is the [in, out] matrix in `ba` order.
  memory::desc src({rows, in}, dt::f32, tag::ab);
  memory::desc weights({in, out}, dt::f32, tag::ba);
  memory::desc bias({1, out}, dt::f32, tag::ab);
  memory::desc dst({rows, out}, dt::f32, tag::ab);
  dnnl::primitive_attr attr;
  if (relu) {
    dnnl::post_ops ops;
    ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
    attr.set_post_ops(ops);
  }
  return dnnl::matmul::primitive_desc(
      dnnl::matmul::desc(src, weights, bias, dst), attr, engine);
}
} // namespace

void Model::Impl::buildStep() {
  step = std::make_unique<Step>();
  Step &st = *step;
  for (LstmLayer &layer : layers) {
    auto pd = lstmDesc(engine, 1, layer.input, layer.hidden);
    st.lstm.emplace_back(pd);
    st.src.emplace_back(pd.src_layer_desc(), engine);
    st.weightsLayer.push_back(wrap(pd.weights_layer_desc(), layer.weightsLayer.data.data()));
    st.weightsIter.push_back(wrap(pd.weights_iter_desc(), layer.weightsIter.data.data()));
    st.bias.push_back(wrap(pd.bias_desc(), layer.bias.data.data()));
    st.dst.emplace_back(pd.dst_layer_desc(), engine);
    for (int k = 0; k < 2; ++k) {
      st.h[k].emplace_back(pd.src_iter_desc(), engine);
      st.c[k].emplace_back(pd.src_iter_c_desc(), engine);
    }
  }
  int64_t n = space.size();
  auto pd = linearDesc(engine, 1, hiddenSize, n, false);
  st.output = dnnl::matmul(pd);
  st.outWeights = wrap(pd.weights_desc(), weight("output.weight").data.data());
  st.outBias = wrap(pd.bias_desc(), weight("output.bias").data.data());
  st.logits = memory(pd.dst_desc(), engine);
  memory::desc probs({1, n}, dt::f32, tag::ab);
  st.softmax = dnnl::softmax_forward(dnnl::softmax_forward::primitive_desc(
      dnnl::softmax_forward::desc(dnnl::prop_kind::forward_inference, probs, 1),
      engine));
  st.probsIn = memory(probs, engine);
  st.probsOut = memory(probs, engine);
}

void Model::Impl::resetState() {
  for (int k = 0; k < 2; ++k)
    for (size_t l = 0; l < layers.size(); ++l) {
      std::memset(step->h[k][l].get_data_handle(), 0, layers[l].hidden * sizeof(float));
      std::memset(step->c[k][l].get_data_handle(), 0, layers[l].hidden * sizeof(float));
    }
  step->current = 0;
}

const float *Model::Impl::runStep(int64_t id) {
  Step &st = *step;
  const Tensor &embedding = weight("embedding.weight");
  std::memcpy(st.src[0].get_data_handle(), &embedding.data[id * embeddingDim],
              embeddingDim * sizeof(float));
  int from = st.current, to = 1 - st.current;
  for (size_t l = 0; l < layers.size(); ++l) {
    if (l)
      std::memcpy(st.src[l].get_data_handle(), st.dst[l - 1].get_data_handle(),
                  hiddenSize * sizeof(float));
    st.lstm[l].execute(stream, {{DNNL_ARG_SRC_LAYER, st.src[l]},
                                {DNNL_ARG_SRC_ITER, st.h[from][l]},
                                {DNNL_ARG_SRC_ITER_C, st.c[from][l]},
                                {DNNL_ARG_WEIGHTS_LAYER, st.weightsLayer[l]},
                                {DNNL_ARG_WEIGHTS_ITER, st.weightsIter[l]},
                                {DNNL_ARG_BIAS, st.bias[l]},
                                {DNNL_ARG_DST_LAYER, st.dst[l]},
                                {DNNL_ARG_DST_ITER, st.h[to][l]},
                                {DNNL_ARG_DST_ITER_C, st.c[to][l]}});
  }
  st.current = to;
  st.output.execute(stream, {{DNNL_ARG_SRC, st.dst.back()},
                             {DNNL_ARG_WEIGHTS, st.outWeights},
                             {DNNL_ARG_BIAS, st.outBias},
                             {DNNL_ARG_DST, st.logits}});
  stream.wait();
  return static_cast<const float *>(st.logits.get_data_handle());
}

void Model::Impl::buildMlp() {
  int64_t d = space.numDescriptors, v = spec.vocabSize;
  auto hiddenPd = linearDesc(engine, 1, d, hiddenSize, /*relu=*/!hiddenSoftmax);
  auto outputPd = linearDesc(engine, 1, hiddenSize, v, false);
  hidden = dnnl::matmul(hiddenPd);
  output = dnnl::matmul(outputPd);
  mlpIn = memory(hiddenPd.src_desc(), engine);
  mlpHiddenW = wrap(hiddenPd.weights_desc(), weight("hidden.weight").data.data());
  mlpHiddenB = wrap(hiddenPd.bias_desc(), weight("hidden.bias").data.data());
  mlpHidden = memory(hiddenPd.dst_desc(), engine);
  if (hiddenSoftmax) // in place on the hidden layer
    hiddenNormalize = dnnl::softmax_forward(dnnl::softmax_forward::primitive_desc(
        dnnl::softmax_forward::desc(dnnl::prop_kind::forward_inference,
                                    hiddenPd.dst_desc(), 1),
        engine));
  mlpOutW = wrap(outputPd.weights_desc(), weight("output.weight").data.data());
  mlpOutB = wrap(outputPd.bias_desc(), weight("output.bias").data.data());
  mlpOut = memory(outputPd.dst_desc(), engine);
}

uint64_t mlir::phaedrus::inference::countOfBucket(int64_t bucket,
                                                  int64_t bucketsPerOctave) {
  double value = std::floor(
      std::exp2((static_cast<double>(bucket) + 0.5) / bucketsPerOctave) + 0.5);
  if (value >= 1.8e19)
    return UINT64_MAX;
  return std::max<uint64_t>(1, static_cast<uint64_t>(value));
}

Model::Model(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Model::~Model() = default;

std::unique_ptr<Model> Model::create(const ModelSpec &spec, std::string &error) {
  auto impl = std::make_unique<Impl>();
  try {
    impl->spec = spec;
    if (!impl->check(error))
      return nullptr;
    if (spec.kind == ModelKind::LSTM) {
      impl->buildLstmLayers();
      impl->buildStep();
    } else {
      impl->buildMlp();
    }
  } catch (const dnnl::error &e) {
    error = std::string("oneDNN refused the model: ") + e.what();
    return nullptr;
  }
  return std::unique_ptr<Model>(new Model(std::move(impl)));
}

ModelKind Model::getKind() const { return impl->spec.kind; }
const TokenSpace &Model::getTokenSpace() const { return impl->space; }

std::vector<int64_t>
Model::descriptorIds(const std::vector<std::string> &tokens,
                     std::vector<std::string> &unknown) const {
  std::vector<int64_t> ids;
  for (const std::string &token : tokens) {
    auto it = impl->descriptorIndex.find(token);
    if (it == impl->descriptorIndex.end())
      unknown.push_back(token);
    else
      ids.push_back(it->second);
  }
  return ids;
}

bool Model::sequenceLogits(const std::vector<int64_t> &ids,
                           std::vector<float> &logits, std::string &error) {
  if (impl->spec.kind != ModelKind::LSTM) {
    error = "sequence logits need an lstm model";
    return false;
  }
  int64_t n = impl->space.size(), steps = static_cast<int64_t>(ids.size());
  for (int64_t id : ids)
    if (id < 0 || id >= n) {
      error = "token id " + std::to_string(id) + " is outside the model's " +
              std::to_string(n) + " ids";
      return false;
    }
  if (!steps) {
    logits.clear();
    return true;
  }
  try {
    Impl &m = *impl;
    const Tensor &embedding = m.weight("embedding.weight");
    std::vector<float> input(steps * m.embeddingDim);
    for (int64_t t = 0; t < steps; ++t)
      std::memcpy(&input[t * m.embeddingDim],
                  &embedding.data[ids[t] * m.embeddingDim],
                  m.embeddingDim * sizeof(float));
    std::vector<float> hidden;
    for (LstmLayer &layer : m.layers) {
      auto pd = lstmDesc(m.engine, steps, layer.input, layer.hidden);
      std::vector<float> out(steps * layer.hidden), zeros(layer.hidden, 0.f),
          hOut(layer.hidden), cOut(layer.hidden);
      dnnl::lstm_forward(pd).execute(
          m.stream,
          {{DNNL_ARG_SRC_LAYER, m.wrap(pd.src_layer_desc(), input.data())},
           {DNNL_ARG_SRC_ITER, m.wrap(pd.src_iter_desc(), zeros.data())},
           {DNNL_ARG_SRC_ITER_C, m.wrap(pd.src_iter_c_desc(), zeros.data())},
           {DNNL_ARG_WEIGHTS_LAYER, m.wrap(pd.weights_layer_desc(), layer.weightsLayer.data.data())},
           {DNNL_ARG_WEIGHTS_ITER, m.wrap(pd.weights_iter_desc(), layer.weightsIter.data.data())},
           {DNNL_ARG_BIAS, m.wrap(pd.bias_desc(), layer.bias.data.data())},
           {DNNL_ARG_DST_LAYER, m.wrap(pd.dst_layer_desc(), out.data())},
           {DNNL_ARG_DST_ITER, m.wrap(pd.dst_iter_desc(), hOut.data())},
           {DNNL_ARG_DST_ITER_C, m.wrap(pd.dst_iter_c_desc(), cOut.data())}});
      input = std::move(out);
    }
    auto pd = linearDesc(m.engine, steps, m.hiddenSize, n, false);
    logits.assign(steps * n, 0.f);
    dnnl::matmul(pd).execute(
        m.stream,
        {{DNNL_ARG_SRC, m.wrap(pd.src_desc(), input.data())},
         {DNNL_ARG_WEIGHTS, m.wrap(pd.weights_desc(), m.weight("output.weight").data.data())},
         {DNNL_ARG_BIAS, m.wrap(pd.bias_desc(), m.weight("output.bias").data.data())},
         {DNNL_ARG_DST, m.wrap(pd.dst_desc(), logits.data())}});
    m.stream.wait();
  } catch (const dnnl::error &e) {
    error = std::string("oneDNN failed: ") + e.what();
    return false;
  }
  return true;
}

bool Model::generate(const std::vector<int64_t> &descriptorIds,
                     const GenerateOptions &options,
                     std::vector<GeneratedToken> &result, std::string &error) {
  if (impl->spec.kind != ModelKind::LSTM) {
    error = "generation needs an lstm model";
    return false;
  }
  Impl &m = *impl;
  const TokenSpace &space = m.space;
  // (A temperature so small that logits divided by it overflow, 1e-320,
  // made every probability NaN, which was blamed on the model's weights.)
  if (!(options.temperature >= kMinTemperature) ||
      !std::isfinite(options.temperature)) {
    error = "the sampling temperature must be a number of at least 0.001 "
            "(lower ones overflow)";
    static_assert(kMinTemperature == 1e-3, "the message says 0.001");
    return false;
  }
  for (int64_t id : descriptorIds)
    if (id < 0 || id >= space.numDescriptors) {
      error = "descriptor id " + std::to_string(id) + " is not one of the "
              "model's " + std::to_string(space.numDescriptors);
      return false;
    }
  result.clear();
  try {
    m.resetState();
    const float *logits = m.runStep(TokenSpace::Bos);
    for (int64_t id : descriptorIds)
      logits = m.runStep(space.descriptorBase() + id);
    logits = m.runStep(TokenSpace::Sep);

    std::optional<SplitMix64> rng;
    if (options.seed)
      rng = SplitMix64{*options.seed};
    int64_t n = space.size();
    int64_t maxTokens = options.maxTokens > 0 ? options.maxTokens : space.vocabSize;
    std::vector<char> generated(space.vocabSize, 0);
    std::vector<char> allowed(n);
    float *probsIn = static_cast<float *>(m.step->probsIn.get_data_handle());
    const float *probs = static_cast<const float *>(m.step->probsOut.get_data_handle());
    int64_t previous = TokenSpace::Sep, pending = -1;
    for (int64_t i = 0; i < 2 * maxTokens; ++i) {
      // A bucket follows a vocabulary token; otherwise a vocabulary token
      // not generated yet, or the end.
      bool wantBucket = previous >= space.programBase() && previous < space.bucketBase();
      std::fill(allowed.begin(), allowed.end(), 0);
      if (wantBucket) {
        std::fill(allowed.begin() + space.bucketBase(), allowed.end(), 1);
      } else {
        for (int64_t t = 0; t < space.vocabSize; ++t)
          allowed[space.programBase() + t] = !generated[t];
        allowed[TokenSpace::Eos] = 1;
      }
      // Masked, tempered logits; the masked softmax through oneDNN.
      constexpr float kMasked = -1e30f;
      int64_t best = -1;
      for (int64_t k = 0; k < n; ++k) {
        probsIn[k] = allowed[k] ? static_cast<float>(logits[k] / options.temperature)
                                : kMasked;
        if (allowed[k] && (best < 0 || probsIn[k] > probsIn[best]))
          best = k;
      }
      m.step->softmax.execute(m.stream, {{DNNL_ARG_SRC, m.step->probsIn},
                                         {DNNL_ARG_DST, m.step->probsOut}});
      m.stream.wait();
      for (int64_t k = 0; k < n; ++k)
        if (allowed[k] && !std::isfinite(probs[k])) {
          error = "the model's probability of token id " + std::to_string(k) +
                  " is " + std::to_string(probs[k]) + ": its weights overflow";
          return false;
        }
      int64_t choice = best;
      if (rng) {
        double u = rng->uniform(), total = 0;
        int64_t last = -1;
        choice = -1;
        for (int64_t k = 0; k < n && choice < 0; ++k) {
          if (!allowed[k])
            continue;
          last = k;
          total += probs[k];
          if (u < total)
            choice = k;
        }
        if (choice < 0)
          choice = last;
      }
      if (choice == TokenSpace::Eos)
        break;
      if (pending < 0) {
        pending = choice - space.programBase();
        generated[pending] = 1;
      } else {
        result.push_back({pending, choice - space.bucketBase(), probs[choice]});
        pending = -1;
      }
      previous = choice;
      logits = m.runStep(choice);
    }
  } catch (const dnnl::error &e) {
    error = std::string("oneDNN failed: ") + e.what();
    return false;
  }
  return true;
}

bool Model::outputsCounts() const { return impl->outputCounts; }

const std::vector<std::string> &Model::runNames() const {
  return impl->spec.runs;
}

bool Model::Impl::runHidden(const std::vector<int64_t> &descriptorIds,
                            std::string &error) {
  float *in = static_cast<float *>(mlpIn.get_data_handle());
  std::fill(in, in + space.numDescriptors, 0.f);
  for (int64_t id : descriptorIds) {
    if (id < 0 || id >= space.numDescriptors) {
      error = "descriptor id " + std::to_string(id) + " is not one of the "
              "model's " + std::to_string(space.numDescriptors);
      return false;
    }
    in[id] = 1.f;
  }
  hidden.execute(stream, {{DNNL_ARG_SRC, mlpIn},
                          {DNNL_ARG_WEIGHTS, mlpHiddenW},
                          {DNNL_ARG_BIAS, mlpHiddenB},
                          {DNNL_ARG_DST, mlpHidden}});
  if (hiddenSoftmax) {
    hiddenNormalize.execute(stream, {{DNNL_ARG_SRC, mlpHidden},
                                     {DNNL_ARG_DST, mlpHidden}});
    if (blendFloor > 0) {
      stream.wait();
      floorBlend();
    }
  }
  return true;
}

void Model::Impl::floorBlend() {
  float *w = static_cast<float *>(mlpHidden.get_data_handle());
  unfloored.assign(w, w + hiddenSize);
  float floor = static_cast<float>(blendFloor) *
                *std::max_element(w, w + hiddenSize);
  double kept = 0;
  for (int64_t r = 0; r < hiddenSize; ++r) {
    if (w[r] < floor)
      w[r] = 0;
    kept += w[r];
  }
  for (int64_t r = 0; r < hiddenSize; ++r)
    w[r] = static_cast<float>(w[r] / kept);
}

const float *Model::Impl::exponentWeights() const {
  return blendFloor > 0 ? unfloored.data()
                        : static_cast<const float *>(mlpHidden.get_data_handle());
}

bool Model::Impl::blend(const std::vector<int64_t> &descriptorIds,
                        std::string &error) {
  try {
    if (!runHidden(descriptorIds, error))
      return false;
    stream.wait();
  } catch (const dnnl::error &e) {
    error = std::string("oneDNN failed: ") + e.what();
    return false;
  }
  return true;
}

double Model::Impl::exponentFor(const float *w) const {
  if (!pairWeight)
    return sizeExponent;
  // The slope of log2 total on log2 size between pairs of runs that read
  // files, pair (i, j) weighed by w_i w_j pairWeight[i][j]: the blended
  // runs against the runs alike to them. Shrunk toward the corpus's
  // exponent (model.py's RunTotals.exponent_for).
  const std::vector<float> &log2Total = weight("runs.log2_total").data;
  const std::vector<float> &log2Size = weight("runs.log2_size").data;
  double mass = 0, sxy = 0, sxx = 0;
  for (int64_t i = 0; i < hiddenSize; ++i) {
    if (log2Size[i] < 0 || w[i] <= 0)
      continue;
    for (int64_t j = i + 1; j < hiddenSize; ++j) {
      if (log2Size[j] < 0 || w[j] <= 0)
        continue;
      double u =
          static_cast<double>(w[i]) * w[j] * (*pairWeight)[i * hiddenSize + j];
      double dx = static_cast<double>(log2Size[i]) - log2Size[j];
      double dy = static_cast<double>(log2Total[i]) - log2Total[j];
      mass += u;
      sxy += u * dx * dy;
      sxx += u * dx * dx;
    }
  }
  if (mass <= 0)
    return sizeExponent;
  double b =
      (sxy / mass + localPrior * sizeExponent) / (sxx / mass + localPrior);
  return std::clamp(b, 0.0, kMaxLocalExponent);
}

double Model::Impl::blendedTotal(std::optional<double> inputLog2Size) const {
  const float *w = static_cast<const float *>(mlpHidden.get_data_handle());
  const std::vector<float> &log2Total = weight("runs.log2_total").data;
  const std::vector<float> &log2Size = weight("runs.log2_size").data;
  double exponent = exponentFor(exponentWeights());
  // The blend's geometric mean of the runs' scaled totals: a mean of log2
  // totals, so that a run of small weight whose total is far larger (a
  // workload set by an argument, extrapolated over many doublings of size)
  // cannot dominate it as it does an arithmetic mean (docs/Model.md).
  double log2Blend = 0, mass = 0;
  for (int64_t r = 0; r < hiddenSize; ++r) {
    if (!(w[r] > 0))
      continue;
    // A run without input files (log2 size -1), or an input without any,
    // keeps the run's total as it is.
    double shift = inputLog2Size && log2Size[r] >= 0
                       ? exponent * (*inputLog2Size - log2Size[r])
                       : 0;
    log2Blend += w[r] * std::min(64.0, log2Total[r] + shift);
    mass += w[r];
  }
  return mass > 0 ? std::exp2(log2Blend / mass) : 0;
}

bool Model::hasSizeLaw() const { return impl->sizeLaw; }

double Model::blendFloor() const { return impl->blendFloor; }

double Model::sizeExponent() const { return impl->sizeExponent; }

bool Model::hasLocalSizeLaw() const { return impl->pairWeight != nullptr; }

std::optional<double> Model::blendedSizeGap(const std::vector<float> &weights,
                                            double inputLog2Size) const {
  if (!impl->sizeLaw)
    return std::nullopt;
  const std::vector<float> &log2Size = impl->weight("runs.log2_size").data;
  double gap = 0, mass = 0;
  for (size_t r = 0; r < log2Size.size() && r < weights.size(); ++r) {
    if (log2Size[r] < 0) // a run without input files
      continue;
    gap += weights[r] * (inputLog2Size - log2Size[r]);
    mass += weights[r];
  }
  if (mass <= 0)
    return std::nullopt;
  return gap / mass;
}

bool Model::predictTotal(const std::vector<int64_t> &descriptorIds,
                         std::optional<double> inputLog2Size, double &total,
                         std::string &error, double *exponent) {
  Impl &m = *impl;
  if (!m.sizeLaw) {
    error = "the model has no size law (weights 'runs.log2_*')";
    return false;
  }
  if (!m.blend(descriptorIds, error))
    return false;
  total = m.blendedTotal(inputLog2Size);
  if (exponent)
    *exponent = m.exponentFor(m.exponentWeights());
  return true;
}

const std::vector<float> &Model::runProfiles() const {
  return impl->weight("output.weight").data;
}

bool Model::blendWeights(const std::vector<int64_t> &descriptorIds,
                         std::vector<float> &weights, std::string &error) {
  Impl &m = *impl;
  if (m.spec.runs.empty()) {
    error = "the model names no training runs to blend";
    return false;
  }
  if (!m.blend(descriptorIds, error))
    return false;
  const float *w = static_cast<const float *>(m.mlpHidden.get_data_handle());
  weights.assign(w, w + m.hiddenSize);
  return true;
}

bool Model::predictLogCounts(const std::vector<int64_t> &descriptorIds,
                             std::vector<float> &logCounts,
                             std::string &error) {
  if (impl->spec.kind != ModelKind::MLP) {
    error = "log counts need an mlp model";
    return false;
  }
  Impl &m = *impl;
  try {
    if (!m.runHidden(descriptorIds, error))
      return false;
    m.output.execute(m.stream, {{DNNL_ARG_SRC, m.mlpHidden},
                                {DNNL_ARG_WEIGHTS, m.mlpOutW},
                                {DNNL_ARG_BIAS, m.mlpOutB},
                                {DNNL_ARG_DST, m.mlpOut}});
    m.stream.wait();
    const float *out = static_cast<const float *>(m.mlpOut.get_data_handle());
    logCounts.assign(out, out + m.spec.vocabSize);
    for (size_t t = 0; t < logCounts.size(); ++t)
      if (!std::isfinite(logCounts[t])) {
        error = "the model's output for token " + std::to_string(t) + " is " +
                std::to_string(logCounts[t]) + ": its weights overflow";
        return false;
      }
  } catch (const dnnl::error &e) {
    error = std::string("oneDNN failed: ") + e.what();
    return false;
  }
  return true;
}

bool Model::predictCounts(const std::vector<int64_t> &descriptorIds,
                          const GenerateOptions &options,
                          std::vector<uint64_t> &counts, double &confidence,
                          std::string &error) {
  counts.assign(impl->spec.vocabSize, 0);
  if (impl->spec.kind == ModelKind::MLP) {
    std::vector<float> logCounts;
    if (!predictLogCounts(descriptorIds, logCounts, error))
      return false;
    // With a size law the mixture's shape stays and its total is the
    // law's (the output layer sums to the runs' common scale), less what
    // the tokens of fixed counts take.
    const std::vector<float> *fixed = impl->fixedCounts;
    auto isFixed = [&](size_t t) { return fixed && (*fixed)[t] >= 0; };
    double factor = 1;
    if (impl->sizeLaw) {
      double scaled = 0, fixedTotal = 0;
      for (size_t t = 0; t < logCounts.size(); ++t) {
        if (isFixed(t))
          fixedTotal += (*fixed)[t];
        else
          scaled += std::max(0.f, logCounts[t]);
      }
      if (scaled > 0)
        factor = std::max(0.0, impl->blendedTotal(options.inputLog2Size) -
                                   fixedTotal) /
                 scaled;
    }
    for (size_t t = 0; t < logCounts.size(); ++t) {
      double value = isFixed(t) ? (*fixed)[t]
                     : impl->outputCounts
                         ? std::max(0.f, logCounts[t]) * factor
                         : std::expm1(std::max(0.f, logCounts[t]));
      if (!(value < 1.8e19)) {
        error = "the model predicts " + std::to_string(value) +
                " events for token " + std::to_string(t) +
                ", more than a 64-bit count holds: its weights overflow";
        return false;
      }
      counts[t] = static_cast<uint64_t>(value + 0.5); // value >= 0
    }
    auto it = impl->spec.hyperparameters.find("validation_loss");
    confidence = it == impl->spec.hyperparameters.end()
                     ? 0.5
                     : std::exp(-std::max(0.0, it->second));
    return true;
  }
  std::vector<GeneratedToken> generated;
  if (!generate(descriptorIds, options, generated, error))
    return false;
  double total = 0;
  for (const GeneratedToken &g : generated) {
    counts[g.token] = countOfBucket(g.bucket, impl->bucketsPerOctave);
    total += g.probability;
  }
  confidence = generated.empty() ? 0 : total / generated.size();
  return true;
}
