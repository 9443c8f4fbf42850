//===- Predict.cpp - Profiles of unseen inputs from a trained model -------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/BranchWeights.h"
#include "phaedrus/Dialect/Phaedrus/Predict/ModelSpec.h"
#include "phaedrus/Dialect/Phaedrus/Predict/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Featurize/Featurize.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <cmath>

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSPREDICTPASS
#include "phaedrus/Dialect/Phaedrus/Predict/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

namespace {
/// Loaded models, once per phaedrus.model op however many predict ops use it.
using ModelCache = llvm::DenseMap<Operation *, std::unique_ptr<inference::Model>>;

struct PhaedrusPredictPass
    : public phaedrus::impl::PhaedrusPredictPassBase<PhaedrusPredictPass> {
  using PhaedrusPredictPassBase::PhaedrusPredictPassBase;

  /// Copies the vocabulary and model of `modelFile` into `module`; returns
  /// the model's name.
  FailureOr<StringAttr> importModelFile(ModuleOp module, uint64_t fingerprint);
  LogicalResult predict(PredictOp op, uint64_t fingerprint,
                        SymbolTableCollection &symbolTable,
                        llvm::StringMap<uint64_t> &entries,
                        CallSiteCounts &callSites,
                        PathBranchCounts &branches, ModelCache &models,
                        double &confidence);

  /// A blending model: zeroes in `counts` the path counts of the
  /// functions whose blended runs disagree on their paths by more than
  /// maxShapeDisagreement, so that they get no branch weights, and says
  /// which.
  /// `weights` are the blend's (empty for a model that does not blend).
  void dropDisagreeingShapes(PredictOp op, inference::Model &model,
                             VocabularyOp vocabulary,
                             const std::vector<float> &weights,
                             std::vector<uint64_t> &counts);

  void runOnOperation() override;
};
} // namespace

void PhaedrusPredictPass::dropDisagreeingShapes(
    PredictOp op, inference::Model &model, VocabularyOp vocabulary,
    const std::vector<float> &weights, std::vector<uint64_t> &counts) {
  if (weights.empty() || !model.outputsCounts() || maxShapeDisagreement >= 1.0)
    return;
  size_t numRuns = weights.size();
  const std::vector<float> &profiles = model.runProfiles();
  auto share = [&](size_t token, size_t run) {
    return static_cast<double>(profiles[token * numRuns + run]);
  };
  // Each function's path tokens.
  llvm::MapVector<StringRef, SmallVector<size_t>> paths;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>())
    if (entry.getKind() == EntryKind::Path &&
        static_cast<size_t>(entry.getId()) < counts.size())
      paths[entry.getSymbol()].push_back(entry.getId());
  // The disagreement of a function: each run's share of its paths against
  // the blend's (total variation distance), averaged with the weight of
  // what the run brings to the blend in that function. A blend of runs
  // that agree is their shape; of runs that disagree, a mean that none of
  // them has, which lays out the function for no input (Lua's numeric.lua
  // blends three scripts whose interpreter loops run other opcodes, 0.56
  // apart, and its predicted build ran 0.92x as fast as no profile).
  SmallVector<std::string> dropped;
  double droppedMass = 0, allMass = 0;
  for (auto &[function, tokens] : paths) {
    std::vector<double> mass(numRuns, 0.0), blend(tokens.size(), 0.0);
    double total = 0;
    for (size_t r = 0; r < numRuns; ++r) {
      for (size_t t : tokens)
        mass[r] += share(t, r);
      total += weights[r] * mass[r];
    }
    allMass += total;
    if (total <= 0)
      continue;
    for (size_t i = 0; i < tokens.size(); ++i)
      for (size_t r = 0; r < numRuns; ++r)
        blend[i] += weights[r] * share(tokens[i], r) / total;
    double disagreement = 0;
    for (size_t r = 0; r < numRuns; ++r) {
      if (mass[r] <= 0 || weights[r] <= 0)
        continue;
      double distance = 0;
      for (size_t i = 0; i < tokens.size(); ++i)
        distance += std::abs(share(tokens[i], r) / mass[r] - blend[i]);
      disagreement += weights[r] * mass[r] / total * distance / 2;
    }
    if (disagreement <= maxShapeDisagreement)
      continue;
    for (size_t t : tokens)
      counts[t] = 0;
    droppedMass += total;
    ++numFunctionsUnweighted;
    dropped.push_back(("@" + function + " (" +
                       llvm::formatv("{0:F2}", disagreement) + ")")
                          .str());
  }
  if (!dropped.empty())
    op.emitRemark() << "the runs the prediction blends disagree on the paths "
                       "of "
                    << dropped.size() << " function"
                    << (dropped.size() == 1 ? "" : "s") << " ("
                    << llvm::formatv("{0:F2}", allMass > 0 ? droppedMass / allMass : 0.0)
                    << " of the blend's paths), which get no branch weights "
                       "(LLVM estimates them; max-shape-disagreement="
                    << llvm::formatv("{0}", maxShapeDisagreement.getValue())
                    << "): " << llvm::join(dropped, ", ");
}

FailureOr<StringAttr>
PhaedrusPredictPass::importModelFile(ModuleOp module, uint64_t fingerprint) {
  MLIRContext *context = module.getContext();
  Location fileLoc = FileLineColLoc::get(context, modelFile, 0, 0);
  auto buffer = llvm::MemoryBuffer::getFile(modelFile);
  if (!buffer)
    return mlir::emitError(fileLoc)
           << "phaedrus-predict: cannot read a model from '" << modelFile
           << "': " << buffer.getError().message();
  if (failed(checkMlirFile((*buffer)->getBuffer(), modelFile, fileLoc,
                           "phaedrus-predict", kModelFileAdvice)))
    return failure();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  ParserConfig config(context);
  // The parser's own diagnostics would quote the offending line: all of a
  // corpus's JSON, given where the model belongs. Its first message, with
  // its place, goes into one error instead.
  std::string why;
  OwningOpRef<ModuleOp> file;
  {
    ScopedDiagnosticHandler quiet(context, [&](Diagnostic &diag) {
      if (why.empty() && diag.getSeverity() == DiagnosticSeverity::Error) {
        llvm::raw_string_ostream os(why);
        if (auto at = dyn_cast<FileLineColLoc>(diag.getLocation()))
          os << " (line " << at.getLine() << ", column " << at.getColumn()
             << ")";
        os << ": " << diag.str();
      }
      return success();
    });
    file = parseSourceFile<ModuleOp>(sourceMgr, config);
  }
  if (!file) {
    return mlir::emitError(fileLoc)
           << "phaedrus-predict: cannot read a model from '" << modelFile
           << "'" << why;
  }
  auto models = llvm::to_vector(file->getOps<ModelOp>());
  if (models.size() != 1)
    return mlir::emitError(fileLoc)
           << "phaedrus-predict: '" << modelFile << "' must hold exactly one "
           << "phaedrus.model, it holds " << models.size();
  ModelOp model = models.front();
  if (model.getFingerprint() != fingerprint)
    return model.emitError()
           << "phaedrus-predict: the model in '" << modelFile
           << "' was trained on another build of the program (its "
              "fingerprint is "
           << model.getFingerprint() << ", this module's is " << fingerprint
           << ")";
  auto vocabulary = SymbolTable::lookupNearestSymbolFrom<VocabularyOp>(
      model, model.getVocabularyAttr());
  SymbolTable symbols(module);
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  for (Operation *op : {vocabulary.getOperation(), model.getOperation()}) {
    StringAttr name = SymbolTable::getSymbolName(op);
    if (Operation *existing = symbols.lookup(name)) {
      // The same vocabulary may already be there (e.g. a second run).
      auto existingVocabulary = dyn_cast<VocabularyOp>(existing);
      if (existingVocabulary && isa<VocabularyOp>(op) &&
          existingVocabulary.getFingerprint() == fingerprint)
        continue;
      return mlir::emitError(fileLoc)
             << "phaedrus-predict: the module already has a symbol @"
             << name.getValue() << " that the model file also defines";
    }
    builder.clone(*op);
  }
  return model.getSymNameAttr();
}

/// Whether a descriptor token is an operand's number bucket (operandJ=numB,
/// or an assignment's, operandJ=NAME=numB): a size, such as a script's
/// count of rounds, which tells nothing of what the program does.
static bool isNumberOperand(StringRef token) {
  if (!token.starts_with("operand"))
    return false;
  StringRef value = token.rsplit('=').second;
  return value.consume_front("num") && !value.empty() &&
         llvm::all_of(value, llvm::isDigit);
}

/// The command-line descriptor tokens (argc=N, opt=..., operandJ=...) among
/// `tokens` but for numbers given as operands, sorted.
static std::vector<std::string> argumentTokens(ArrayRef<std::string> tokens) {
  std::vector<std::string> out;
  for (const std::string &token : tokens)
    if (featurize::isCommandLineToken(token) && !isNumberOperand(token))
      out.push_back(token);
  std::sort(out.begin(), out.end());
  return out;
}

/// The strings of a list attribute (the verifier checked the kinds).
static std::vector<std::string> strings(Attribute list) {
  std::vector<std::string> out;
  for (Attribute token : cast<ArrayAttr>(list))
    out.push_back(cast<StringAttr>(token).getValue().str());
  return out;
}

/// A blend that weighs runs given other arguments than the input, while a
/// training run was given the same ones, follows what the inputs hold and
/// not the options: say so (two sessions testing zlib's minigzip as users
/// got the `-h` run blended for `-9`, and for `-6`, at 0.50-1.00). Numbers
/// given as operands are left out of the comparison: a Tcl user's scripts,
/// each given its count of rounds, were warned about because another
/// script's count fell in the held-out one's bucket.
static void warnArgumentMismatch(PredictOp op, ArrayAttr runArguments,
                                 const std::vector<std::string> &runs,
                                 const std::vector<float> &weights,
                                 const std::vector<std::string> &tokens) {
  if (!runArguments || runArguments.size() != runs.size())
    return;
  std::vector<std::string> input = argumentTokens(tokens);
  double same = 0;
  size_t bestSame = runs.size(), heaviest = 0;
  for (size_t r = 0; r < runs.size(); ++r) {
    if (argumentTokens(strings(runArguments[r])) == input) {
      same += weights[r];
      if (bestSame == runs.size() || weights[r] > weights[bestSame])
        bestSame = r;
    }
    if (weights[r] > weights[heaviest])
      heaviest = r;
  }
  constexpr double kMostly = 0.5;
  if (bestSame == runs.size() || same >= kMostly)
    return;
  std::vector<std::string> differ;
  for (const std::string &token : strings(runArguments[heaviest]))
    if (!llvm::is_contained(input, token))
      differ.push_back(token);
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "the prediction weighs runs given other arguments than this input ("
      << runs[heaviest] << " " << llvm::format("%.2f", weights[heaviest])
      << ": " << (differ.empty() ? std::string("fewer") : llvm::join(differ, " "))
      << "), while the training run " << runs[bestSame]
      << ", given the same ones (" << llvm::join(input, " ") << "), weighs "
      << llvm::format("%.2f", weights[bestSame])
      << " (runs given the same arguments weigh "
      << llvm::format("%.2f", same)
      << " together): the blend follows what the inputs hold; where the "
         "options decide what the program does, train on runs that vary "
         "the options and the data independently (docs/Corpus.md)";
  op.emitWarning() << message;
}

/// The unseen tokens of an input file (`R.rest`, R `stdin` or `fileK`)
/// that the model knows under another role: training runs that read such
/// input another way (a script as an operand, where this run reads it on
/// standard input) share no tokens with it, and the blend is then blind.
/// Warns when at least half of the run's unseen file tokens are such.
static void warnOtherRole(PredictOp op, inference::Model &model,
                          ArrayRef<std::string> unknown) {
  auto roleOf = [](StringRef token) -> std::optional<StringRef> {
    StringRef role = token.split('.').first;
    if (role.size() == token.size())
      return std::nullopt;
    if (role == "stdin" ||
        (role.consume_front("file") && !role.empty() &&
         llvm::all_of(role, llvm::isDigit)))
      return token.split('.').first;
    return std::nullopt;
  };
  constexpr const char *kRoles[] = {"stdin", "file0", "file1", "file2"};
  size_t fileTokens = 0, elsewhere = 0;
  StringRef from, to;
  for (const std::string &token : unknown) {
    std::optional<StringRef> role = roleOf(token);
    if (!role)
      continue;
    ++fileTokens;
    StringRef rest = StringRef(token).drop_front(role->size());
    for (const char *other : kRoles) {
      if (*role == other)
        continue;
      std::vector<std::string> candidate{std::string(other) + rest.str()},
          missing;
      model.descriptorIds(candidate, missing);
      if (missing.empty()) {
        ++elsewhere;
        from = *role;
        to = other;
        break;
      }
    }
  }
  if (!elsewhere || 2 * elsewhere < fileTokens)
    return;
  auto describe = [](StringRef role) -> std::string {
    return role == "stdin" ? "on standard input"
                           : "as a file named by the command line (" +
                                 role.str() + ")";
  };
  op.emitWarning() << elsewhere << " of the " << fileTokens
                   << " unseen tokens of this run's input files were seen in "
                      "training under another role: this run reads its input "
                   << describe(from) << ", the training runs read theirs "
                   << describe(to)
                   << ". The model matches inputs by how the program gets "
                      "them: give the input as the training runs did";
}

/// A model that names the training runs it blends says which runs the
/// prediction mixes, heaviest first: what a user reads to judge it (a blend
/// of runs unlike the input says more training runs are needed).
static LogicalResult remarkBlend(PredictOp op, inference::Model &model,
                                 const std::vector<int64_t> &ids,
                                 const std::vector<float> &weights,
                                 std::optional<double> inputLog2Size,
                                 ArrayAttr runArguments,
                                 const std::vector<std::string> &tokens) {
  const std::vector<std::string> &runs = model.runNames();
  if (runs.empty())
    return success();
  std::string error;
  std::vector<size_t> order(runs.size());
  for (size_t r = 0; r < order.size(); ++r)
    order[r] = r;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return weights[a] != weights[b] ? weights[a] > weights[b] : a < b;
  });
  // Runs of at least 5%, and always the heaviest.
  constexpr float kShown = 0.05f;
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "the prediction blends the training runs ";
  size_t shown = 0, small = 0, dropped = 0;
  double rest = 0;
  for (size_t r : order) {
    if (shown && weights[r] == 0 && model.blendFloor() > 0) {
      ++dropped;
      continue;
    }
    if (shown && weights[r] < kShown) {
      rest += weights[r];
      ++small;
      continue;
    }
    os << (shown++ ? ", " : "") << runs[r] << " "
       << llvm::format("%.2f", weights[r]);
  }
  if (small)
    os << " and " << small << " more below " << llvm::format("%.2f", kShown)
       << " each (" << llvm::format("%.2f", rest) << " together)";
  // The floor's runs: what they would have added is not in the profile.
  if (dropped)
    os << ", leaving out " << dropped << (dropped == 1 ? " run" : " runs")
       << " below the blend floor (" << llvm::format("%g", model.blendFloor())
       << " of the heaviest run's weight)";
  // With a size law, how much the blend is scaled to: what the user checks
  // against the input (a larger input should get a larger total).
  double exponent = 0;
  if (model.hasSizeLaw()) {
    double total = 0;
    if (!model.predictTotal(ids, inputLog2Size, total, error, &exponent))
      return op.emitOpError() << "prediction failed: " << error;
    os << ", scaled to " << llvm::format("%.0f", total) << " events";
    if (inputLog2Size) {
      // The size the model takes, which is not the file's: each file's
      // size is its power of two's middle (a 2,000,000-byte file read as
      // "2^20.5 bytes" looked wrong to a zstd user).
      double bytes = std::exp2(*inputLog2Size);
      static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
      unsigned unit = 0;
      double scaled = bytes;
      while (scaled >= 1024 && unit + 1 < std::size(units)) {
        scaled /= 1024;
        ++unit;
      }
      os << " for an input taken as "
         << llvm::format(unit == 0 ? "%.0f" : "%.1f", scaled) << " "
         << units[unit] << " (2^" << llvm::format("%.1f", *inputLog2Size)
         << " bytes: each input file counts at the middle of its size's "
            "power of two)";
      // How the total follows the size, always: a user's sqlite input of
      // 5.8 MB, blended from runs on 0.6 and 1.7 MB without a law, got
      // 0.15x its real total, and nothing said the size was not used.
      if (model.hasLocalSizeLaw())
        os << ", with totals growing as size^"
           << llvm::format("%.2f", exponent)
           << " over the runs it blends";
      else if (exponent > 0)
        os << ", with totals growing as size^"
           << llvm::format("%.2f", exponent) << " (the training runs' law)";
      else
        os << ", at the totals of the runs it blends whatever its size (the "
              "training runs' totals did not follow their inputs' sizes)";
    }
  }
  op.emitRemark() << message;
  warnArgumentMismatch(op, runArguments, runs, weights, tokens);
  // A blend of runs on far smaller or larger inputs: without a law of
  // size, it predicts their totals, whatever this input's size; with one,
  // it extrapolates them far beyond the sizes trained on. Say so.
  constexpr double kFarLog2 = 3; // 8 times
  if (model.hasSizeLaw() && inputLog2Size) {
    if (std::optional<double> gap =
            model.blendedSizeGap(weights, *inputLog2Size);
        gap && std::abs(*gap) >= kFarLog2) {
      std::string warning;
      llvm::raw_string_ostream ws(warning);
      ws << "the runs the prediction blends read inputs about 2^"
         << llvm::format("%.1f", std::abs(*gap)) << " times "
         << (*gap > 0 ? "smaller" : "larger") << " than this one (2^"
         << llvm::format("%.1f", *inputLog2Size) << " bytes), and ";
      if (exponent == 0)
        ws << (model.hasLocalSizeLaw()
                   ? "the totals of the runs it blends did not follow their "
                     "inputs' sizes (size exponent 0 over them)"
                   : "the training runs' totals did not follow their inputs' "
                     "sizes (size_exponent 0)");
      else
        ws << "their totals are extrapolated as size^"
           << llvm::format("%.2f", exponent) << " that far";
      ws << ": the predicted counts may be far off; a training run on an "
            "input of about this size would help";
      op.emitWarning() << warning;
    }
  }
  return success();
}

LogicalResult PhaedrusPredictPass::predict(PredictOp op, uint64_t fingerprint,
                                           SymbolTableCollection &symbolTable,
                                           llvm::StringMap<uint64_t> &entries,
                                           CallSiteCounts &callSites,
                                           PathBranchCounts &branches,
                                           ModelCache &models,
                                           double &confidence) {
  auto model = symbolTable.lookupNearestSymbolFrom<ModelOp>(op, op.getModelAttr());
  if (!model)
    return op.emitOpError() << "names model " << op.getModelAttr()
                            << ", which is not a phaedrus.model";
  if (model.getFingerprint() != fingerprint)
    return op.emitOpError()
           << "uses model @" << model.getSymName()
           << ", trained on another build of the program (its fingerprint is "
           << model.getFingerprint() << ", this module's is " << fingerprint
           << ")";
  auto vocabulary = symbolTable.lookupNearestSymbolFrom<VocabularyOp>(
      model, model.getVocabularyAttr());
  // Descriptor tokens of another featurizer version mean other things (a
  // model from before the version was recorded is version 1).
  ArrayAttr descriptors = model.getDescriptorsAttr();
  if (descriptors && !descriptors.empty()) {
    double version = hyperparameter(model, "featurizer", 1);
    if (version != static_cast<double>(featurize::kVersion))
      return op.emitOpError()
             << "uses model @" << model.getSymName()
             << ", trained on runs described by featurizer version "
             << (version == std::floor(version)
                     ? std::to_string(static_cast<int64_t>(version))
                     : std::to_string(version))
             << "; this build describes inputs as version "
             << featurize::kVersion
             << " (docs/Featurizer.md): record the training runs again "
                "('phaedrus run'; the traces are not what is stale, the "
                "descriptions next to them are), then 'phaedrus corpus' and "
                "'phaedrus train'";
  }

  // The run to predict, as the featurizer sees it.
  featurize::RunInput input;
  for (Attribute arg : op.getInput().getArgv())
    input.argv.push_back(cast<StringAttr>(arg).getValue().str());
  if (StringAttr stdinPath = op.getInput().getStdin())
    input.stdinPath = stdinPath.getValue().str();
  input.workingDirectory = inputDir;
  if (DictionaryAttr locale = op.getInput().getLocale()) {
    input.locale.emplace();
    for (NamedAttribute variable : locale)
      input.locale->emplace_back(
          variable.getName().str(),
          cast<StringAttr>(variable.getValue()).getValue().str());
  }
  std::vector<std::string> tokens;
  std::string error;
  if (!featurize::featurize(input, tokens, error))
    return op.emitOpError() << "cannot describe its input: " << error;

  std::unique_ptr<inference::Model> &loaded = models[model];
  if (!loaded) {
    FailureOr<std::unique_ptr<inference::Model>> created = loadModel(model);
    if (failed(created))
      return failure();
    loaded = std::move(*created);
  }
  std::vector<std::string> unknown;
  std::vector<int64_t> ids = loaded->descriptorIds(tokens, unknown);
  // Unseen words and trigram buckets of an input file are expected (a new
  // script has its own identifiers): a remark. Unseen tokens of the command
  // line or of a file's size, kind or entropy mean a run unlike any in
  // training: a warning.
  std::vector<std::string> unknownContent, unknownShape;
  for (const std::string &token : unknown) {
    if (featurize::isContentToken(token)) {
      unknownContent.push_back(token);
      continue;
    }
    // A hashed argument (a jq filter, an AWK program) is named, cut short.
    std::string argument = featurize::hashedArgument(input, token);
    constexpr size_t kShown = 48;
    if (argument.size() > kShown)
      argument = argument.substr(0, kShown - 3) + "...";
    unknownShape.push_back(argument.empty()
                               ? token
                               : token + " (the argument '" + argument + "')");
  }
  if (!unknownShape.empty())
    op.emitWarning() << unknownShape.size() << " of " << tokens.size()
                     << " descriptor tokens (of the command line, and of "
                        "input files' size, kind, entropy and lines) were "
                        "never seen in training and are left out: "
                     << llvm::join(unknownShape, ", ");
  warnOtherRole(op, *loaded, unknown);
  if (!unknownContent.empty())
    op.emitRemark() << unknownContent.size() << " of " << tokens.size()
                    << " descriptor tokens (words and trigram buckets of "
                       "input files) were never seen in training and are "
                       "left out: "
                    << llvm::join(unknownContent, ", ");
  inference::GenerateOptions options;
  if (seed >= 0)
    options.seed = static_cast<uint64_t>(seed);
  options.temperature = temperature;
  options.inputLog2Size = featurize::inputLog2Size(tokens);
  std::vector<uint64_t> counts;
  if (!loaded->predictCounts(ids, options, counts, confidence, error))
    return op.emitOpError() << "prediction failed: " << error;
  // The blend's weights, once, for what says which runs it mixes and
  // where they disagree.
  std::vector<float> weights;
  if (!loaded->runNames().empty() && !loaded->blendWeights(ids, weights, error))
    return op.emitOpError() << "prediction failed: " << error;
  if (failed(remarkBlend(op, *loaded, ids, weights, options.inputLog2Size,
                         model.getRunArgumentsAttr(), tokens)))
    return failure();
  if (failed(addEntryCounts(vocabulary, counts, entries, op, &callSites)))
    return failure();
  dropDisagreeingShapes(op, *loaded, vocabulary, weights, counts);
  return branches.addPathCounts(vocabulary, counts, op);
}

void PhaedrusPredictPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = module.getContext();
  ProgramShape shape = analyzeProgram(module);
  uint64_t fingerprint = shape.fingerprint;
  if (!(maxShapeDisagreement >= 0.0)) {
    mlir::emitError(wholeModuleLoc(module))
        << "phaedrus-predict: max-shape-disagreement must be 0 or more (a "
           "distance from 0 to 1; 1 keeps every function's branch weights), "
           "got "
        << llvm::formatv("{0}", maxShapeDisagreement.getValue()).str();
    return signalPassFailure();
  }

  if (!modelFile.empty()) {
    FailureOr<StringAttr> modelName = importModelFile(module, fingerprint);
    if (failed(modelName))
      return signalPassFailure();
    if (!input.empty()) {
      Attribute parsed = parseAttribute(input, context);
      auto descriptor = dyn_cast_or_null<InputDescriptorAttr>(parsed);
      if (!descriptor) {
        mlir::emitError(wholeModuleLoc(module))
            << "phaedrus-predict: input must be a #phaedrus.input<...> "
               "attribute, got '"
            << input << "'";
        return signalPassFailure();
      }
      OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
      Location loc = NameLoc::get(StringAttr::get(context, "phaedrus-predict input"),
                                  FileLineColLoc::get(context, modelFile, 0, 0));
      PredictOp::create(builder, loc,
                        FlatSymbolRefAttr::get(*modelName), descriptor);
    }
  } else if (!input.empty()) {
    mlir::emitError(wholeModuleLoc(module),
                    "phaedrus-predict: input needs a model-file");
    return signalPassFailure();
  }

  auto predictOps = llvm::to_vector(module.getOps<PredictOp>());
  if (predictOps.empty()) {
    mlir::emitError(wholeModuleLoc(module),
                    "phaedrus-predict: the module has no phaedrus.predict op "
                    "(give model-file and input, or add one)");
    return signalPassFailure();
  }
  SymbolTableCollection symbolTable;
  llvm::StringMap<uint64_t> entries;
  CallSiteCounts callSites;
  PathBranchCounts branches(module);
  ModelCache models;
  double confidence = 0;
  for (PredictOp op : predictOps) {
    double one = 0;
    if (failed(predict(op, fingerprint, symbolTable, entries, callSites, branches,
                       models, one)))
      return signalPassFailure();
    confidence += one / predictOps.size();
    ++numPredictions;
    op.erase();
  }
  confidence = std::clamp(confidence, 0.0, 1.0);
  numBranchesAnnotated += branches.attach(Provenance::Model, confidence);
  numFunctionsAnnotated +=
      attachEntryCounts(module, entries, Provenance::Model, confidence);
  numBranchesAnnotated += attachCallSiteWeights(
      module, shape, callSites, branches, Provenance::Model, confidence);
  numFunctionsAnnotated -= withholdMisleadingEntryCounts(
      module, shape, callSites, "phaedrus-predict");
}
