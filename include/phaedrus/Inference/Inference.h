//===- Inference.h - Running phaedrus models with oneDNN --------*- C++ -*-===//
//
// lib/Inference runs the models `phaedrus train` writes (docs/Model.md): the
// LSTM language model (embedding, oneDNN LSTM, linear, softmax) with
// constrained greedy or seeded generation, and the direct-count MLP. It has
// no MLIR dependency and never throws: oneDNN's exceptions stay inside the
// library (built with -fexceptions, unlike the MLIR code that calls it), and
// every failure comes back as a message.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_INFERENCE_INFERENCE_H
#define PHAEDRUS_INFERENCE_INFERENCE_H

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::phaedrus::inference {

/// A float32 tensor in row-major order (the layout PyTorch saves).
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

enum class ModelKind { LSTM, MLP };

/// Everything a model file holds that inference needs.
struct ModelSpec {
  ModelKind kind = ModelKind::LSTM;
  /// Size of the program vocabulary the model predicts counts for.
  int64_t vocabSize = 0;
  /// Descriptor tokens in model id order.
  std::vector<std::string> descriptors;
  /// Names of the training runs a blending model (hidden_softmax = 1) mixes,
  /// one per hidden unit; empty when the model file does not name them.
  std::vector<std::string> runs;
  /// Integer and float hyper-parameters (integers as exact doubles).
  std::map<std::string, double> hyperparameters;
  std::map<std::string, Tensor> weights;
};

/// The ids of an LSTM model's one token space: specials, descriptors, the
/// program vocabulary, count buckets (the same as python/phaedrus/model.py).
struct TokenSpace {
  enum Special : int64_t { Pad = 0, Bos = 1, Sep = 2, Eos = 3, Unk = 4 };
  int64_t numSpecials = 5, numDescriptors = 0, vocabSize = 0, numBuckets = 0;
  int64_t descriptorBase() const { return numSpecials; }
  int64_t programBase() const { return numSpecials + numDescriptors; }
  int64_t bucketBase() const { return programBase() + vocabSize; }
  int64_t size() const { return bucketBase() + numBuckets; }
};

/// The count a log-scale bucket decodes to: the geometric middle of the
/// bucket's range, at least 1.
uint64_t countOfBucket(int64_t bucket, int64_t bucketsPerOctave);

/// One generated vocabulary token with its count bucket and the
/// probability the model gave that bucket.
struct GeneratedToken {
  int64_t token;
  int64_t bucket;
  double probability;
};

/// Options of one prediction.
/// The lowest sampling temperature generation takes (lower ones make the
/// logits divided by it overflow).
inline constexpr double kMinTemperature = 1e-3;

struct GenerateOptions {
  /// Sample with this seed (SplitMix64, as in model.py); greedy without.
  std::optional<uint64_t> seed;
  double temperature = 1.0;
  /// At most this many vocabulary tokens (0: the vocabulary size).
  int64_t maxTokens = 0;
  /// log2 of the run's summed input file sizes (featurize::inputLog2Size),
  /// for a model with a size law; none when the run reads no file.
  std::optional<double> inputLog2Size;
};

/// A loaded model, ready to run. Not thread-safe; one per thread.
class Model {
public:
  /// Checks `spec` (kind, hyper-parameters, weight names and shapes) and
  /// prepares the oneDNN primitives. Returns null and sets `error` if the
  /// model is malformed or oneDNN refuses it.
  static std::unique_ptr<Model> create(const ModelSpec &spec,
                                       std::string &error);
  ~Model();

  ModelKind getKind() const;
  const TokenSpace &getTokenSpace() const;

  /// Maps descriptor tokens to model ids; tokens the model never saw are
  /// appended to `unknown` and left out.
  std::vector<int64_t> descriptorIds(const std::vector<std::string> &tokens,
                                     std::vector<std::string> &unknown) const;

  /// LSTM: the logits after each of `ids` (a row of size() floats per id),
  /// running the whole sequence through one LSTM primitive.
  bool sequenceLogits(const std::vector<int64_t> &ids,
                      std::vector<float> &logits, std::string &error);

  /// LSTM: generates a profile after `<bos> descriptorIds <sep>`.
  bool generate(const std::vector<int64_t> &descriptorIds,
                const GenerateOptions &options,
                std::vector<GeneratedToken> &result, std::string &error);

  /// MLP: the output layer for every vocabulary token: log(1 + count), or
  /// the count itself when outputsCounts().
  bool predictLogCounts(const std::vector<int64_t> &descriptorIds,
                        std::vector<float> &logCounts, std::string &error);

  /// MLP whose output layer gives counts (hyper-parameter output_counts =
  /// 1: the retrieval model's mixture of profiles, docs/Model.md).
  bool outputsCounts() const;

  /// The names of the training runs the model blends (ModelSpec::runs).
  const std::vector<std::string> &runNames() const;

  /// A model that names its runs: the weight of each run in the blend it
  /// predicts for `descriptorIds` (the hidden softmax, without the runs
  /// below blendFloor() times the heaviest; sums to 1).
  bool blendWeights(const std::vector<int64_t> &descriptorIds,
                    std::vector<float> &weights, std::string &error);

  /// A model that names its runs and outputs counts (a retrieval model):
  /// the runs' profiles as the model holds them, output.weight, [vocabulary
  /// size][runs] row-major: element token * runs + run is the run's count
  /// of the token over its total, times the model's scale.
  const std::vector<float> &runProfiles() const;

  /// A retrieval model: a run weighing less than this share of the
  /// heaviest run's weight is left out of a blend (hyper-parameter
  /// blend_floor, docs/Model.md; 0 when the model file has none).
  double blendFloor() const;

  /// A retrieval model whose totals follow its inputs' sizes (weights
  /// runs.log2_*, docs/Model.md).
  bool hasSizeLaw() const;

  /// A model with a size law: the total count it predicts for
  /// `descriptorIds` and an input of `inputLog2Size` (predictCounts' counts
  /// sum to it, up to rounding), and into `exponent` (if given) the
  /// exponent it scaled by: sizeExponent() without the local law; with it,
  /// fitted over the blend before its floor, so that a blend the floor
  /// leaves with one run still finds its slope against that run's siblings.
  bool predictTotal(const std::vector<int64_t> &descriptorIds,
                    std::optional<double> inputLog2Size, double &total,
                    std::string &error, double *exponent = nullptr);

  /// A model with a size law: its exponent (docs/Model.md; 0 when the
  /// training runs' totals did not follow their inputs' sizes).
  double sizeExponent() const;

  /// A model with the local size law (weight runs.pair_weight,
  /// hyper-parameter size_local_prior): each prediction's exponent is
  /// fitted over the runs it blends.
  bool hasLocalSizeLaw() const;

  /// A model with a size law, `weights` a blend of its runs: how far the
  /// sizes of the blended runs' inputs lie from an input of
  /// `inputLog2Size` bytes, as the blend's mean of (input's log2 size - the
  /// run's), over the runs that read files (nullopt if none did).
  std::optional<double> blendedSizeGap(const std::vector<float> &weights,
                                       double inputLog2Size) const;

  /// Predicted count of every vocabulary token, for either kind, and a
  /// confidence in [0, 1] (LSTM: mean probability of the generated buckets;
  /// MLP: exp(-validation loss) when the model file records it, else 0.5).
  bool predictCounts(const std::vector<int64_t> &descriptorIds,
                     const GenerateOptions &options,
                     std::vector<uint64_t> &counts, double &confidence,
                     std::string &error);

private:
  struct Impl;
  explicit Model(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::phaedrus::inference

#endif // PHAEDRUS_INFERENCE_INFERENCE_H
