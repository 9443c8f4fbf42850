//===- phaedrus-model.cpp - Run a phaedrus model outside a compilation ----===//
//
// Loads a model file (from `phaedrus train`) and runs it with lib/Inference:
// logits of a token sequence, a generated profile, or a timing of generation.
// The test suite compares its output with PyTorch; bench/ times it.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/Predict/ModelSpec.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Featurize/Featurize.h"
#include "ToolSupport.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cmath>
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <chrono>

using namespace llvm;
using namespace mlir;
using namespace mlir::phaedrus;

static cl::OptionCategory category("phaedrus-model options");
static cl::opt<std::string> modelPath(cl::Positional, cl::Required,
                                      cl::desc("<model.mlir>"), cl::cat(category));
static cl::list<int64_t> logitIds(
    "logits", cl::CommaSeparated,
    cl::desc("Print the logits after each of these model token ids (lstm)"),
    cl::cat(category));
static cl::list<int64_t> descriptorIds(
    "descriptor-ids", cl::CommaSeparated,
    cl::desc("Descriptor ids (model order) for --generate / --log-counts"),
    cl::cat(category));
static cl::list<std::string> runArgv(
    "argv", cl::CommaSeparated,
    cl::desc("Instead of --descriptor-ids: featurize this command line, "
             "its arguments separated by commas (an argument with a comma "
             "in it cannot be given here: phaedrus predict takes any)"),
    cl::cat(category));
static cl::opt<std::string> runStdin("stdin",
                                     cl::desc("Standard input of --argv"),
                                     cl::cat(category));
static cl::opt<double> inputSize(
    "input-log2-size", cl::init(-1),
    cl::desc("log2 of the run's summed input file sizes, for a model with a "
             "size law (default: from the files of --argv; none with "
             "--descriptor-ids)"),
    cl::cat(category));
static cl::opt<bool> generate("generate",
                              cl::desc("Print the generated profile (lstm)"),
                              cl::cat(category));
static cl::opt<bool> logCounts("log-counts",
                               cl::desc("Print the mlp's output layer: "
                                        "log(1 + count) as \"log_counts\", "
                                        "or counts as \"counts\" for a "
                                        "model with output_counts = 1 "
                                        "(retrieval), the weight of "
                                        "each training run in the blend "
                                        "as \"blend\" when the model "
                                        "names its runs, and the total it "
                                        "scales to as \"total\" and the "
                                        "counts it predicts as "
                                        "\"predicted_counts\" when it has "
                                        "a size law"),
                               cl::cat(category));
static cl::opt<int64_t> seed("seed", cl::init(-1),
                             cl::desc("Sampling seed (-1: greedy)"),
                             cl::cat(category));
static cl::opt<double> temperature("temperature", cl::init(1.0),
                                   cl::desc("Sampling temperature"),
                                   cl::cat(category));
static cl::opt<unsigned> benchRepeats(
    "bench", cl::init(0),
    cl::desc("Time N full predictions; print tokens per second as JSON"),
    cl::cat(category));

static int fail(const Twine &message) {
  WithColor::error(errs(), "phaedrus-model") << message << "\n";
  return 1;
}

static int modelMain(int argc, char **argv) {
  mlir::phaedrus::parseToolCommandLine(
      argc, argv, category,
      "Runs a phaedrus model (from phaedrus train) with oneDNN\n\n"
      "  phaedrus-model MODEL --logits=1,5,9        logits after each id (lstm)\n"
      "  phaedrus-model MODEL --generate [--seed N] --descriptor-ids=... | --argv=...\n"
      "  phaedrus-model MODEL --log-counts --descriptor-ids=... | --argv=...\n"
      "                                   (mlp, retrieval)\n"
      "  phaedrus-model MODEL --bench=N --argv=...  time N predictions\n"
      "A run given by --argv=PROG,ARG,... may add --stdin FILE; a size law's\n"
      "input size comes from its files, or from --input-log2-size.\n");

  // What to do, before the model is read.
  if (logitIds.empty() && !generate && !logCounts && !benchRepeats)
    return fail("nothing to do: give --logits, --generate, --log-counts or "
                "--bench");
  if (!runArgv.empty() && !descriptorIds.empty())
    return fail("--argv and --descriptor-ids both give the run's "
                "descriptor: give one");
  if (inputSize.getNumOccurrences() && !std::isfinite(inputSize))
    return fail("--input-log2-size must be a number (it was taken for a "
                "tiny input)");

  MLIRContext context;
  // Diagnostics say file:line:col, as phaedrus-opt's do.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // (LLVM's and DLTI too: a program module given where the model belongs
  // is then read, and said to hold no model, instead of failing on its
  // first LLVM attribute.)
  context.loadDialect<PhaedrusDialect, LLVM::LLVMDialect, DLTIDialect>();
  OwningOpRef<ModuleOp> module =
      parseModuleFile(modelPath, &context,
                      FileLineColLoc::get(&context, modelPath, 0, 0),
                      "phaedrus-model", kModelFileAdvice);
  if (!module)
    return fail("cannot read a model from '" + modelPath + "'");
  auto models = llvm::to_vector(module->getOps<ModelOp>());
  if (models.size() != 1)
    return fail("'" + modelPath + "' must hold exactly one phaedrus.model, " +
                "it holds " + Twine(models.size()) +
                (models.empty() ? Twine(" (") + kModelFileAdvice + ")"
                                : Twine()));
  FailureOr<std::unique_ptr<inference::Model>> model = loadModel(models.front());
  if (failed(model))
    return 1;

  std::vector<int64_t> ids(descriptorIds.begin(), descriptorIds.end());
  inference::GenerateOptions options;
  if (inputSize >= 0)
    options.inputLog2Size = inputSize;
  if (!runArgv.empty()) {
    featurize::RunInput input{{runArgv.begin(), runArgv.end()}, runStdin, ""};
    std::vector<std::string> tokens, unknown;
    std::string error;
    if (!featurize::featurize(input, tokens, error))
      return fail(error);
    ids = (*model)->descriptorIds(tokens, unknown);
    if (!unknown.empty())
      WithColor::warning(errs(), "phaedrus-model")
          << unknown.size() << " of " << tokens.size()
          << " descriptor tokens were never seen in training and are left "
             "out: "
          << llvm::join(unknown, ", ") << "\n";
    if (inputSize < 0)
      options.inputLog2Size = featurize::inputLog2Size(tokens);
  }
  if (seed >= 0)
    options.seed = static_cast<uint64_t>(seed);
  options.temperature = temperature;
  std::string error;
  json::Object out;

  if (!logitIds.empty()) {
    std::vector<int64_t> sequence(logitIds.begin(), logitIds.end());
    std::vector<float> logits;
    if (!(*model)->sequenceLogits(sequence, logits, error))
      return fail(error);
    size_t n = (*model)->getTokenSpace().size();
    json::Array rows;
    for (size_t t = 0; t < sequence.size(); ++t)
      rows.push_back(json::Array(ArrayRef<float>(&logits[t * n], n)));
    out["logits"] = std::move(rows);
  }
  if (generate) {
    std::vector<inference::GeneratedToken> generated;
    if (!(*model)->generate(ids, options, generated, error))
      return fail(error);
    json::Array rows;
    for (const inference::GeneratedToken &g : generated)
      rows.push_back(json::Array{g.token, g.bucket, g.probability});
    out["generated"] = std::move(rows);
  }
  if (logCounts) {
    std::vector<float> values;
    if (!(*model)->predictLogCounts(ids, values, error))
      return fail(error);
    // A model whose output layer gives counts says so by the key.
    out[(*model)->outputsCounts() ? "counts" : "log_counts"] =
        json::Array(values);
    // A model that names the runs it blends: each run's weight.
    const std::vector<std::string> &runs = (*model)->runNames();
    std::vector<float> weights;
    if (!runs.empty()) {
      if (!(*model)->blendWeights(ids, weights, error))
        return fail(error);
      json::Object blend;
      for (size_t r = 0; r < runs.size(); ++r)
        blend[runs[r]] = weights[r];
      out["blend"] = std::move(blend);
    }
    // A model with a size law: the total its prediction scales to.
    if ((*model)->hasSizeLaw()) {
      double total = 0, exponent = 0;
      if (!(*model)->predictTotal(ids, options.inputLog2Size, total, error,
                                  &exponent))
        return fail(error);
      out["total"] = total;
      // The exponent it scaled by (fitted over the blended runs with the
      // local law).
      if (!runs.empty())
        out["size_exponent"] = exponent;
      // And the counts --phaedrus-predict attaches: the law's total shared
      // by the mixture, tokens of fixed counts at theirs.
      std::vector<uint64_t> counts;
      double confidence = 0;
      if (!(*model)->predictCounts(ids, options, counts, confidence, error))
        return fail(error);
      json::Array predicted;
      for (uint64_t count : counts)
        predicted.push_back(count);
      out["predicted_counts"] = std::move(predicted);
    }
  }
  if (benchRepeats) {
    // Whole predictions, as --phaedrus-predict makes them; the first one
    // warms up.
    std::vector<uint64_t> counts;
    double confidence = 0;
    if (!(*model)->predictCounts(ids, options, counts, confidence, error))
      return fail(error);
    std::vector<double> seconds;
    size_t steps = 0;
    for (unsigned r = 0; r < benchRepeats; ++r) {
      auto start = std::chrono::steady_clock::now();
      std::vector<inference::GeneratedToken> generated;
      if ((*model)->getKind() == inference::ModelKind::LSTM) {
        if (!(*model)->generate(ids, options, generated, error))
          return fail(error);
        // <bos>, descriptors, <sep>, two tokens per generated entry, <eos>.
        steps = ids.size() + 2 + 2 * generated.size() + 1;
      } else {
        if (!(*model)->predictCounts(ids, options, counts, confidence, error))
          return fail(error);
        steps = 1;
      }
      seconds.push_back(std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count());
    }
    std::sort(seconds.begin(), seconds.end());
    double median = seconds[seconds.size() / 2];
    out["steps"] = static_cast<int64_t>(steps);
    out["prediction_s_median"] = median;
    out["tokens_per_s"] = steps / median;
  }
  outs() << json::Value(std::move(out)) << "\n";
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // (On a large stack, as the other tools: a file nested 4,000 repeats deep
  // overran the main thread's in the parser and crashed.)
  return mlir::phaedrus::runWithLargeStack(
      [&] { return modelMain(argc, argv); });
}
