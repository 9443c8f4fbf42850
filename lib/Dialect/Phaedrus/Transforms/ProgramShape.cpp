//===- ProgramShape.cpp - What instrumentation sees of a program ----------===//

#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Formats.h"
#include "phaedrus/Trace/Format.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::phaedrus;

bool mlir::phaedrus::isRecordedFunction(LLVM::LLVMFuncOp function) {
  return !function.isExternal() &&
         function.getLinkage() != LLVM::Linkage::AvailableExternally &&
         !function.getName().starts_with("__phaedrus_");
}

ProgramShape mlir::phaedrus::analyzeProgram(ModuleOp module) {
  ProgramShape shape;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (isRecordedFunction(function))
      shape.functions.emplace(function.getName().str(), function);

  uint64_t fingerprint = PHAEDRUS_FNV64_INIT;
  auto mix = [&](StringRef bytes) {
    fingerprint = phaedrus_fnv1a64(bytes.data(), bytes.size(), fingerprint);
    fingerprint = phaedrus_fnv1a64("\0", 1, fingerprint);
  };
  // Path ids mean something only under the numbering that made them
  // (BallLarus.cpp): a trace recorded by a build that numbered paths
  // differently must not match.
  mix(kPathNumberingScheme);
  for (auto &[name, function] : shape.functions) {
    mix(name);
    mix(std::to_string(function.getBlocks().size()));
    for (Block &block : function.getBlocks())
      mix(std::to_string(block.getNumSuccessors()));
    // Paths through an llvm.invoke are numbered since 2026-11-27; before,
    // such a function recorded its entries only. Its traces from then on
    // do not match one of before (C programs, without invokes, keep their
    // fingerprints).
    if (function
            .walk([](LLVM::InvokeOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      mix("invoke");
    uint64_t index = 0;
    StringRef caller = function.getName();
    function.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !shape.functions.count(callee->str()))
        return;
      mix(*callee);
      shape.sites.push_back({call, caller, index++, *callee});
    });
  }
  // Entered only by recorded direct calls: internal functions with no
  // symbol use other than one of those calls.
  llvm::DenseSet<Operation *> siteCalls;
  for (const ProgramShape::CallSite &site : shape.sites)
    siteCalls.insert(site.call);
  for (auto &[name, function] : shape.functions)
    if (function.getLinkage() == LLVM::Linkage::Internal ||
        function.getLinkage() == LLVM::Linkage::Private)
      shape.enteredOnlyByRecordedCalls.insert(name);
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(&module.getBodyRegion());
  if (!uses) {
    shape.enteredOnlyByRecordedCalls.clear(); // unknown uses
  } else {
    llvm::StringSet<> disqualified;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringRef name = use.getSymbolRef().getRootReference().getValue();
      if (!shape.enteredOnlyByRecordedCalls.contains(name))
        continue;
      // Vocabularies and traces next to the program name functions; they
      // do not enter them.
      if (use.getUser()->getName().getDialectNamespace() == "phaedrus")
        continue;
      auto call = dyn_cast<LLVM::CallOp>(use.getUser());
      if (!call || call.getCallee() != name || !siteCalls.contains(call))
        disqualified.insert(name);
    }
    for (const auto &name : disqualified)
      shape.enteredOnlyByRecordedCalls.erase(name.getKey());
  }

  llvm::sort(shape.sites, [](const ProgramShape::CallSite &a,
                             const ProgramShape::CallSite &b) {
    return std::tie(a.caller, a.index) < std::tie(b.caller, b.index);
  });
  shape.fingerprint = fingerprint;
  return shape;
}

size_t mlir::phaedrus::lineOfUnterminatedString(StringRef text) {
  if (text.empty() || text.back() == '\n' ||
      isBytecode(llvm::MemoryBufferRef(text, "")))
    return 0;
  size_t start = text.rfind('\n');
  start = start == StringRef::npos ? 0 : start + 1;
  StringRef line = text.drop_front(start);
  bool inString = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (inString) {
      if (c == '\\')
        ++i; // the escaped character
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
      break; // a comment to the end of the line
    }
  }
  return inString ? text.take_front(start).count('\n') + 1 : 0;
}

/// The "format" a JSON file of the project names near its start
/// ("phaedrus-corpus"), or an empty string.
static StringRef jsonFormat(StringRef json) {
  StringRef head = json.take_front(4096);
  size_t key = head.find("\"format\"");
  if (key == StringRef::npos)
    return StringRef();
  StringRef rest = head.drop_front(key + 8).ltrim();
  if (!rest.consume_front(":"))
    return StringRef();
  rest = rest.ltrim();
  if (!rest.consume_front("\""))
    return StringRef();
  StringRef format = rest.take_until([](char c) { return c == '"'; });
  return format.starts_with("phaedrus-") && format.size() < 64 ? format
                                                                : StringRef();
}

std::string mlir::phaedrus::whyNotMlir(StringRef path, StringRef text,
                                       StringRef advice) {
  // JSON (a corpus, a report): MLIR's parser would quote its first line,
  // all of a corpus written on one. No MLIR text starts with '{' and a
  // string ('{-#' opens file metadata).
  if (StringRef start = text.ltrim(); start.consume_front("{") &&
                                      start.ltrim().starts_with("\"")) {
    StringRef format = jsonFormat(text);
    std::string why = ("'" + path + "' is JSON, not MLIR").str();
    if (format == "phaedrus-corpus")
      why += ": a corpus ('phaedrus train' makes a model of it)";
    else if (!format.empty())
      why += (": a " + format + " file").str();
    return why;
  }
  if (text.starts_with(PHAEDRUS_TRACE_MAGIC))
    return ("'" + path + "' is a trace file the runtime wrote, not MLIR: " +
            (advice.empty() ? "import it with phaedrus-translate --import-wpp"
                            : advice))
        .str();
  if (text.starts_with(StringRef(kPackedTraceMagic, sizeof kPackedTraceMagic)))
    return ("'" + path + "' is a packed trace file, not MLIR: " +
            (advice.empty() ? "read it with phaedrus-translate --import-packed"
                            : advice))
        .str();
  if (size_t line = lineOfUnterminatedString(text))
    return ("'" + path + "' ends inside a string literal (line " +
            llvm::Twine(line) +
            "): the file was cut short (a copy or a write that did not "
            "finish?)")
        .str();
  return std::string();
}

LogicalResult mlir::phaedrus::checkMlirFile(StringRef text, StringRef path,
                                            Location loc, StringRef who,
                                            StringRef advice) {
  std::string why = whyNotMlir(path, text, advice);
  if (why.empty())
    return success();
  return mlir::emitError(loc) << who << ": " << why;
}

OwningOpRef<ModuleOp> mlir::phaedrus::parseModuleFile(StringRef path,
                                                      MLIRContext *context,
                                                      Location loc,
                                                      StringRef who,
                                                      StringRef advice) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer) {
    mlir::emitError(loc) << who << ": cannot open '" << path
                         << "': " << buffer.getError().message();
    return nullptr;
  }
  if (failed(checkMlirFile((*buffer)->getBuffer(), path, loc, who, advice)))
    return nullptr;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  ParserConfig config(context);
  return parseSourceFile<ModuleOp>(sourceMgr, config);
}

FailureOr<ModuleOp> mlir::phaedrus::loadProgram(ModuleOp module, StringRef path,
                                                OwningOpRef<ModuleOp> &holder,
                                                StringRef pass) {
  ModuleOp program = module;
  if (!path.empty()) {
    auto loc = FileLineColLoc::get(module.getContext(), path, 0, 0);
    holder = parseModuleFile(path, module.getContext(), loc, pass);
    if (!holder) {
      mlir::emitError(loc)
          << pass << ": cannot read the program from '" << path << "'";
      return failure();
    }
    program = *holder;
  }
  if (failed(checkNotInstrumented(program, module, pass)))
    return failure();
  if (llvm::none_of(program.getOps<LLVM::LLVMFuncOp>(), isRecordedFunction)) {
    mlir::emitError(wholeModuleLoc(module))
        << pass << ": "
        << (path.empty() ? "this module has no function bodies"
                         : "'" + path.str() + "' has no function bodies")
        << "; give the plain (not instrumented) program with program=FILE";
    return failure();
  }
  return program;
}

LogicalResult mlir::phaedrus::checkNotInstrumented(ModuleOp program,
                                                  ModuleOp at,
                                                  StringRef pass) {
  if (!program.lookupSymbol(kRuntimeRegisterName))
    return success();
  return mlir::emitError(wholeModuleLoc(at))
         << pass << ": the program is an instrumented module (it has @"
         << kRuntimeRegisterName
         << ", which --phaedrus-instrument adds): give the plain module the "
            "traces were recorded from (what 'phaedrus ir' wrote, prog.mlir, "
            "not prog.inst.mlir)";
}

LogicalResult mlir::phaedrus::checkProgramFingerprint(
    Operation *op, StringRef name, uint64_t vocabularyFingerprint,
    const ProgramShape &shape, StringRef pass) {
  if (vocabularyFingerprint == shape.fingerprint)
    return success();
  return op->emitError()
         << pass << ": vocabulary @" << name
         << " was made from another build of the program, or by a phaedrus "
            "that numbered paths differently (fingerprint "
         << vocabularyFingerprint << "; the program's is " << shape.fingerprint
         << "; an instrumented module has another fingerprint than the plain "
            "one it was made from)";
}
