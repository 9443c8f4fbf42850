//===- PhaedrusOps.cpp - phaedrus operations ------------------------------===//
//
// Verifiers that ODS cannot express: dense vocabulary ids, token ranges,
// symbol resolution, fingerprint agreement and acyclic grammars.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Trace/CallGroups.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::phaedrus;

#define GET_OP_CLASSES
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Looks up `name` from `from` and checks that it is an op of type OpTy.
/// Ops that are symbol tables themselves look from their parent, so that
/// their own symbols do not shadow the module's.
template <typename OpTy>
static FailureOr<OpTy> lookupSymbolOfType(Operation *from,
                                          SymbolTableCollection &symbolTable,
                                          FlatSymbolRefAttr name,
                                          StringRef what) {
  Operation *anchor = from;
  if (from->hasTrait<OpTrait::SymbolTable>() && from->getParentOp())
    anchor = from->getParentOp();
  Operation *target = symbolTable.lookupNearestSymbolFrom(anchor, name);
  if (!target)
    return from->emitOpError() << "refers to unknown " << what << " " << name;
  auto typed = dyn_cast<OpTy>(target);
  if (!typed)
    return from->emitOpError()
           << "refers to " << name << ", which is not a " << what;
  return typed;
}

/// Checks that every literal token nested in `body` (not through rule uses)
/// is an id of a vocabulary with `numEntries` entries.
static LogicalResult verifyTokensInRange(Region &body, size_t numEntries,
                                         StringAttr vocabulary) {
  WalkResult result = body.walk([&](TokensOp tokens) {
    SmallVector<int32_t> storage;
    // A splat is checked by its one value, without writing out its tokens.
    auto dense = dyn_cast<DenseIntElementsAttr>(tokens.getTokens());
    if (dense && dense.isSplat() && dense.getNumElements() > 0)
      storage.assign(1, dense.getSplatValue<int32_t>());
    FailureOr<ArrayRef<int32_t>> array =
        storage.empty() ? tokens.getTokenArray(storage)
                        : FailureOr<ArrayRef<int32_t>>(ArrayRef<int32_t>(storage));
    if (failed(array))
      return WalkResult::advance(); // The op's own verifier reports this.
    for (auto [position, token] : llvm::enumerate(*array)) {
      if (token < 0 || static_cast<size_t>(token) >= numEntries) {
        tokens.emitOpError()
            << "token " << token << " at position " << position
            << " is not an id of vocabulary @" << vocabulary.getValue()
            << " (ids are 0 to " << static_cast<int64_t>(numEntries) - 1
            << ")";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Checks that the op's fingerprint matches its vocabulary's.
static LogicalResult verifyFingerprint(Operation *op, VocabularyOp vocabulary,
                                       uint64_t fingerprint) {
  if (vocabulary.getFingerprint() != fingerprint)
    return op->emitOpError()
           << "fingerprint " << fingerprint << " does not match the fingerprint "
           << vocabulary.getFingerprint() << " of vocabulary @"
           << vocabulary.getSymName()
           << "; it was made for a different build of the program";
  return success();
}

//===----------------------------------------------------------------------===//
// VocabularyOp / EntryOp
//===----------------------------------------------------------------------===//

size_t VocabularyOp::getNumEntries() {
  return getBody().front().getOperations().size();
}

LogicalResult VocabularyOp::verifyRegions() {
  Block &block = getBody().front();
  size_t numEntries = block.getOperations().size();
  std::vector<EntryOp> byId(numEntries);
  llvm::DenseMap<std::tuple<int, Attribute, int64_t, Attribute, Attribute>,
                 int64_t>
      keys;
  for (Operation &op : block) {
    auto entry = dyn_cast<EntryOp>(op);
    if (!entry)
      return op.emitOpError()
             << "is not allowed in a vocabulary; only 'phaedrus.entry' is";
    uint64_t id = entry.getId();
    if (id >= numEntries)
      return entry.emitOpError()
             << "id " << id << " is out of range: the vocabulary has "
             << numEntries << " entries, so ids must be 0 to "
             << static_cast<int64_t>(numEntries) - 1;
    if (byId[id])
      return entry.emitOpError() << "id " << id << " is defined twice";
    byId[id] = entry;
    auto key = std::make_tuple(static_cast<int>(entry.getKind()),
                               Attribute(entry.getSymbolAttr()),
                               static_cast<int64_t>(entry.getIndex().value_or(-1)),
                               Attribute(entry.getCalleeAttr()),
                               Attribute(entry.getMembersAttr()));
    auto [it, inserted] = keys.try_emplace(key, static_cast<int64_t>(id));
    if (!inserted)
      return entry.emitOpError()
             << "id " << id << " stands for the same thing as id "
             << it->second;
  }
  // A group's members are call sites of the group's function.
  for (EntryOp entry : byId) {
    if (entry.getKind() != EntryKind::Group)
      continue;
    for (int64_t member : entry.getMembers().value_or(ArrayRef<int64_t>())) {
      EntryOp site = member >= 0 && static_cast<uint64_t>(member) < numEntries
                         ? byId[member]
                         : EntryOp();
      if (!site || site.getKind() != EntryKind::CallSite ||
          site.getSymbolAttr() != entry.getSymbolAttr())
        return entry.emitOpError()
               << "member " << member << " is not a call site of "
               << entry.getSymbolAttr();
    }
  }
  return success();
}

LogicalResult EntryOp::verify() {
  bool hasIndex = getIndex().has_value();
  bool hasCallee = static_cast<bool>(getCalleeAttr());
  if (getMembers() && getKind() != EntryKind::Group)
    return emitOpError("only a 'group' entry has members");
  switch (getKind()) {
  case EntryKind::Function:
    if (hasIndex || hasCallee)
      return emitOpError("a 'function' entry takes neither an index nor a callee");
    return success();
  case EntryKind::CallSite:
    if (!hasIndex || !hasCallee)
      return emitOpError(
          "a 'call_site' entry needs a call-site index and a callee");
    return success();
  case EntryKind::Path:
    if (!hasIndex || hasCallee)
      return emitOpError("a 'path' entry needs a path index and no callee");
    return success();
  case EntryKind::Group:
    if (!hasIndex || hasCallee || !getMembers() || getMembers()->size() < 2 ||
        getMembers()->size() > trace::CallGroupTable::kMaxMembers)
      return emitOpError("a 'group' entry needs a group index, 2 to ")
             << trace::CallGroupTable::kMaxMembers << " members and no callee";
    return success();
  }
  llvm_unreachable("unknown entry kind");
}

//===----------------------------------------------------------------------===//
// TraceOp
//===----------------------------------------------------------------------===//

/// The input descriptor's own rules, again: the parser checks them, but an
/// attribute built in C++ with `get` (which does not verify in a build
/// without assertions) reaches the op unchecked, and printed would not parse.
static LogicalResult verifyInputDescriptor(Operation *op,
                                           InputDescriptorAttr input) {
  return InputDescriptorAttr::verify(
      [&] { return op->emitOpError() << "input: "; }, input.getArgv(),
      input.getFiles(), input.getStdin(), input.getLocale());
}

LogicalResult TraceOp::verify() {
  return verifyInputDescriptor(*this, getInput());
}

LogicalResult TraceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<VocabularyOp> vocabulary = lookupSymbolOfType<VocabularyOp>(
      *this, symbolTable, getVocabularyAttr(), "vocabulary");
  if (failed(vocabulary) ||
      failed(verifyFingerprint(*this, *vocabulary, getFingerprint())))
    return failure();
  if (FlatSymbolRefAttr grammarName = getGrammarAttr()) {
    FailureOr<GrammarOp> grammar = lookupSymbolOfType<GrammarOp>(
        *this, symbolTable, grammarName, "grammar");
    if (failed(grammar))
      return failure();
    if (grammar->getVocabularyAttr() != getVocabularyAttr())
      return emitOpError() << "uses grammar " << grammarName
                           << " over vocabulary "
                           << grammar->getVocabularyAttr()
                           << ", not the trace's vocabulary "
                           << getVocabularyAttr();
  }
  return verifyTokensInRange(getBody(), vocabulary->getNumEntries(),
                             getVocabularyAttr().getAttr());
}

//===----------------------------------------------------------------------===//
// TokensOp
//===----------------------------------------------------------------------===//

FailureOr<ArrayRef<int32_t>>
TokensOp::getTokenArray(SmallVectorImpl<int32_t> &storage) {
  ElementsAttr attr = getTokens();
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    if (dense.isSplat()) {
      storage.assign(dense.getNumElements(), dense.getSplatValue<int32_t>());
      return ArrayRef<int32_t>(storage);
    }
    ArrayRef<char> raw = dense.getRawData();
    return ArrayRef<int32_t>(reinterpret_cast<const int32_t *>(raw.data()),
                             raw.size() / sizeof(int32_t));
  }
  if (auto resource = dyn_cast<DenseI32ResourceElementsAttr>(attr)) {
    std::optional<ArrayRef<int32_t>> array = resource.tryGetAsArrayRef();
    // (A blob of another length than its type says: not read at its own;
    // the verifier says which.)
    if (!array || static_cast<int64_t>(array->size()) !=
                      resource.getType().getNumElements())
      return failure();
    return *array;
  }
  auto values = attr.tryGetValues<int32_t>();
  if (!values)
    return failure();
  storage.assign(values->begin(), values->end());
  return ArrayRef<int32_t>(storage);
}

FailureOr<ArrayRef<int32_t>>
TokensOp::readTokens(SmallVectorImpl<int32_t> &storage) {
  FailureOr<ArrayRef<int32_t>> array = getTokenArray(storage);
  if (failed(array))
    return emitOpError("tokens have no data");
  return array;
}

LogicalResult TokensOp::verify() {
  ShapedType type = getTokens().getShapedType();
  if (type.getRank() != 1 || !type.getElementType().isSignlessInteger(32))
    return emitOpError() << "tokens must be a one-dimensional i32 elements "
                            "attribute, got "
                         << type;
  // The passes hold a body's tokens in memory, indexed by 32 bits. (A run
  // of equal tokens prints as a splat: a few bytes for any length.)
  if (type.getNumElements() > INT32_MAX)
    return emitOpError() << "holds " << type.getNumElements()
                         << " tokens, more than 2^31 - 1 in one op";
  if (auto dense = dyn_cast<DenseIntElementsAttr>(getTokens());
      dense && dense.isSplat())
    return success(); // checked without writing out its every token
  if (auto resource = dyn_cast<DenseI32ResourceElementsAttr>(getTokens())) {
    // A blob cut short or edited by hand was read at its own length: a
    // trace of other tokens, without a word.
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob()) {
      size_t bytes = blob->getData().size();
      if (bytes != static_cast<size_t>(type.getNumElements()) * 4)
        return emitOpError()
               << "tokens blob '" << resource.getRawHandle().getKey()
               << "' holds " << bytes << " bytes, where its type " << type
               << " takes " << type.getNumElements() * 4
               << " (4 a token): the blob was cut short or edited";
    }
  }
  SmallVector<int32_t> storage;
  if (failed(getTokenArray(storage)))
    return emitOpError() << "tokens have no data (a dense_resource blob that "
                            "is missing or was released)";
  return success();
}

//===----------------------------------------------------------------------===//
// GrammarOp / RuleOp / ApplyOp
//===----------------------------------------------------------------------===//

LogicalResult GrammarOp::verifyRegions() {
  // Only rules, and no rule may reach itself through uses.
  // Rules are visited in block order so that diagnostics are deterministic.
  llvm::DenseMap<StringAttr, RuleOp> rules;
  SmallVector<RuleOp> order;
  for (Operation &op : getBody().front()) {
    auto rule = dyn_cast<RuleOp>(op);
    if (!rule)
      return op.emitOpError()
             << "is not allowed in a grammar; only 'phaedrus.rule' is";
    rules[rule.getSymNameAttr()] = rule;
    order.push_back(rule);
  }
  // Iterative three-colour DFS over the use graph.
  enum class Colour { White, Grey, Black };
  llvm::DenseMap<StringAttr, Colour> colour;
  for (auto &[name, rule] : rules)
    colour[name] = Colour::White;
  for (RuleOp rootRule : order) {
    StringAttr root = rootRule.getSymNameAttr();
    if (colour[root] != Colour::White)
      continue;
    // Stack of (rule, its uses, next use to visit).
    struct Frame {
      StringAttr name;
      SmallVector<StringAttr> uses;
      size_t next = 0;
    };
    auto usesOf = [&](RuleOp rule) {
      SmallVector<StringAttr> uses;
      rule.getBody().walk([&](ApplyOp apply) {
        uses.push_back(apply.getRuleAttr().getAttr());
      });
      return uses;
    };
    SmallVector<Frame> stack;
    stack.push_back({root, usesOf(rootRule)});
    colour[root] = Colour::Grey;
    while (!stack.empty()) {
      Frame &frame = stack.back();
      if (frame.next == frame.uses.size()) {
        colour[frame.name] = Colour::Black;
        stack.pop_back();
        continue;
      }
      StringAttr use = frame.uses[frame.next++];
      auto it = rules.find(use);
      if (it == rules.end())
        continue; // ApplyOp::verifySymbolUses reports unknown rules.
      if (colour[use] == Colour::Grey)
        return it->second.emitOpError()
               << "is recursive: its expansion would be infinite (reached "
                  "again through @"
               << frame.name.getValue() << ")";
      if (colour[use] == Colour::White) {
        colour[use] = Colour::Grey;
        stack.push_back({use, usesOf(it->second)});
      }
    }
  }
  return success();
}

LogicalResult GrammarOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<VocabularyOp> vocabulary = lookupSymbolOfType<VocabularyOp>(
      *this, symbolTable, getVocabularyAttr(), "vocabulary");
  if (failed(vocabulary))
    return failure();
  return verifyTokensInRange(getBody(), vocabulary->getNumEntries(),
                             getVocabularyAttr().getAttr());
}

/// Whether a rule's or a repeat's body stands for at least one token: it
/// holds a token, a repeat or a rule use (each of them non-empty by its own
/// verifier), not only empty token runs.
static bool holdsTokens(Block &body) {
  return llvm::any_of(body, [](Operation &op) {
    auto tokens = dyn_cast<TokensOp>(op);
    return !tokens || tokens.getTokens().getShapedType().getNumElements() > 0;
  });
}

LogicalResult RepeatOp::verifyRegions() {
  if (!holdsTokens(getBody().front()))
    return emitOpError("must hold at least one token");
  return success();
}

LogicalResult RuleOp::verifyRegions() {
  if (!holdsTokens(getBody().front()))
    return emitOpError("must not be empty");
  return success();
}

GrammarOp ApplyOp::getGrammar(SymbolTableCollection &symbolTable) {
  if (auto grammar = (*this)->getParentOfType<GrammarOp>())
    return grammar;
  auto trace = (*this)->getParentOfType<TraceOp>();
  if (!trace || !trace.getGrammarAttr())
    return {};
  return dyn_cast_or_null<GrammarOp>(
      symbolTable.lookupNearestSymbolFrom(trace, trace.getGrammarAttr()));
}

LogicalResult ApplyOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  GrammarOp grammar = getGrammar(symbolTable);
  if (!grammar)
    return emitOpError() << "uses rule " << getRuleAttr()
                         << " but the enclosing trace names no grammar";
  Operation *rule = symbolTable.lookupSymbolIn(grammar, getRuleAttr());
  if (!rule || !isa<RuleOp>(rule))
    return emitOpError() << "uses rule " << getRuleAttr()
                         << ", which grammar @" << grammar.getSymName()
                         << " does not define";
  return success();
}

//===----------------------------------------------------------------------===//
// ModelOp / PredictOp
//===----------------------------------------------------------------------===//

LogicalResult ModelOp::verify() {
  for (NamedAttribute hyper : getHyperparameters())
    if (!isa<IntegerAttr, FloatAttr>(hyper.getValue()))
      return emitOpError() << "hyper-parameter '" << hyper.getName().getValue()
                           << "' must be an integer or a float, got "
                           << hyper.getValue();
  for (NamedAttribute weight : getWeights()) {
    auto elements = dyn_cast<ElementsAttr>(weight.getValue());
    if (!elements || !isa<FloatType>(elements.getShapedType().getElementType()))
      return emitOpError() << "weight '" << weight.getName().getValue()
                           << "' must be a floating-point elements attribute, "
                              "got "
                           << weight.getValue();
  }
  if (ArrayAttr runs = getRunsAttr()) {
    llvm::StringSet<> seen;
    for (Attribute run : runs) {
      StringRef name = cast<StringAttr>(run).getValue();
      if (name.empty())
        return emitOpError() << "names a training run with an empty name";
      if (!seen.insert(name).second)
        return emitOpError() << "names training run '" << name << "' twice";
    }
  }
  if (ArrayAttr arguments = getRunArgumentsAttr()) {
    ArrayAttr runs = getRunsAttr();
    if (!runs || runs.size() != arguments.size())
      return emitOpError() << "has run_arguments for " << arguments.size()
                           << " runs, but names "
                           << (runs ? runs.size() : 0) << " runs";
    for (Attribute list : arguments) {
      auto tokens = dyn_cast<ArrayAttr>(list);
      if (!tokens || !llvm::all_of(tokens, [](Attribute token) {
            return isa<StringAttr>(token);
          }))
        return emitOpError() << "run_arguments must be lists of strings, got "
                             << list;
    }
  }
  return success();
}

LogicalResult ModelOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<VocabularyOp> vocabulary = lookupSymbolOfType<VocabularyOp>(
      *this, symbolTable, getVocabularyAttr(), "vocabulary");
  if (failed(vocabulary) ||
      failed(verifyFingerprint(*this, *vocabulary, getFingerprint())))
    return failure();
  size_t numEntries = vocabulary->getNumEntries();
  if (static_cast<uint64_t>(getVocabSize()) != numEntries)
    return emitOpError() << "vocab_size " << getVocabSize()
                         << " does not match the " << numEntries
                         << " entries of vocabulary " << getVocabularyAttr();
  return success();
}

LogicalResult PredictOp::verify() {
  return verifyInputDescriptor(*this, getInput());
}

LogicalResult PredictOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return lookupSymbolOfType<ModelOp>(*this, symbolTable, getModelAttr(),
                                     "model");
}
