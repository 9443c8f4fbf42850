//===- ProgramShape.h - What instrumentation sees of a program --*- C++ -*-===//
//
// The functions of an LLVM-dialect program that --phaedrus-instrument
// records, its direct call sites between them, and the module fingerprint
// that ties traces and models to this build of the program.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PROGRAMSHAPE_H
#define PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PROGRAMSHAPE_H

#include "phaedrus/Formats.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::phaedrus {

struct ProgramShape {
  struct CallSite {
    LLVM::CallOp call;
    StringRef caller;
    uint64_t index; // among the caller's recorded call sites, program order
    StringRef callee;
  };
  /// Functions with a body that the final link keeps, by name.
  std::map<std::string, LLVM::LLVMFuncOp> functions;
  /// Direct calls from one recorded function to another, sorted by caller
  /// and index.
  std::vector<CallSite> sites;
  /// Recorded functions entered only by their recorded direct call sites:
  /// internal, never address-taken, not a constructor. Traces never hold a
  /// `function` token of these (only their callers' call-site tokens).
  llvm::StringSet<> enteredOnlyByRecordedCalls;
  /// FNV-1a 64 over kPathNumberingScheme, then, in name order, each
  /// function's name, its number of blocks, each block's successor count
  /// and the callees of its call sites.
  uint64_t fingerprint = 0;
};

/// True for the functions instrumentation records.
bool isRecordedFunction(LLVM::LLVMFuncOp function);

/// The runtime function an instrumented module calls to register itself;
/// --phaedrus-instrument declares it, so a module that has it is
/// instrumented.
inline constexpr llvm::StringLiteral kRuntimeRegisterName = "__phaedrus_register";

/// Fails with an error about module `at` (the pass's; wholeModuleLoc)
/// naming `pass` if `program` is an instrumented module (it has
/// kRuntimeRegisterName): passes over traces need the plain program the
/// traces were recorded from, and an instrumented one has another
/// fingerprint (its recording code is part of its shape).
LogicalResult checkNotInstrumented(ModuleOp program, ModuleOp at,
                                   StringRef pass);

/// Analyzes an un-instrumented module.
ProgramShape analyzeProgram(ModuleOp module);

/// The plain program a pass over traces needs: `module` itself, or the file
/// `path` when given (parsed into `holder`, which owns it). Fails with a
/// diagnostic naming `pass` when the file cannot be read or the program has
/// no function bodies.
FailureOr<ModuleOp> loadProgram(ModuleOp module, StringRef path,
                                OwningOpRef<ModuleOp> &holder, StringRef pass);

/// MLIR's string literals do not span lines, so a text that ends inside one
/// was cut short (a copy or a write that did not finish). MLIR 22's parser
/// crashes on such a string of megabytes (a model's weights, cut in their
/// resource blob) after its error, so files are checked before they are
/// parsed. Returns the 1-based line of the unterminated string, or 0 if
/// the text does not end inside one (nor for MLIR bytecode).
size_t lineOfUnterminatedString(StringRef text);

/// Where a diagnostic about a whole module goes: its file at line 0, so
/// that the diagnostic does not quote the module op's line (all of its
/// attributes, 800 characters and more for a program from clang); the
/// module's own location if it has no file. (Inline: the tools that link
/// no pass use it too.)
inline Location wholeModuleLoc(Operation *module) {
  if (auto file = dyn_cast<FileLineColLoc>(module->getLoc()))
    return FileLineColLoc::get(file.getFilename(), 0, 0);
  return module->getLoc();
}

/// Why `text`, the contents of `path`, cannot be MLIR, or an empty string:
/// "'PATH' is a trace file the runtime wrote, not MLIR: ..." (or a packed
/// trace), "'PATH' is JSON, not MLIR" (naming a corpus or another of the
/// project's formats), or "'PATH' ends inside a string literal (line L):
/// the file was cut short (...)" (lineOfUnterminatedString). `advice`, if
/// given, replaces what the first two say to do with the file
/// (import or read it), for a caller that wants another kind of file (a
/// model: "a model file comes from 'phaedrus train'").
std::string whyNotMlir(StringRef path, StringRef text,
                       StringRef advice = StringRef());

/// Parses the MLIR file `path`. Fails, with an error at `loc` naming `who`,
/// if it cannot be read or cannot be MLIR (checkMlirFile); a
/// parse error is MLIR's own diagnostic, and a null result.
OwningOpRef<ModuleOp> parseModuleFile(StringRef path, MLIRContext *context,
                                      Location loc, StringRef who,
                                      StringRef advice = StringRef());

/// Fails with an error at `loc` naming `who` where whyNotMlir has a
/// reason.
LogicalResult checkMlirFile(StringRef text, StringRef path, Location loc,
                            StringRef who, StringRef advice = StringRef());

/// Fails with a diagnostic naming `pass` unless `vocabularyFingerprint`
/// (of vocabulary `name`, reported at `op`) is the program's.
LogicalResult checkProgramFingerprint(Operation *op, StringRef name,
                                      uint64_t vocabularyFingerprint,
                                      const ProgramShape &shape, StringRef pass);

/// A call group of Lemma 1 (--phaedrus-call-groups): a chain of recorded
/// call sites c1, c2, ... of one function such that, within one invocation,
/// every execution of c(i) is followed by one of c(i+1) as the next recorded
/// call and every c(i+1) is preceded by c(i) (their blocks are control
/// equivalent), so all members run equally often whenever each call
/// returns.
struct CallGroup {
  uint64_t index; // among the groups of its function
  std::vector<const ProgramShape::CallSite *> sites; // in the order they run
};

/// The call groups of a program, 2 to `maxMembers` members each, ordered by
/// caller and first call-site index. `explain`, if given, is told why each
/// call site that ends a group, or is in none, has no next member.
std::vector<CallGroup> findCallGroups(
    const ProgramShape &shape, size_t maxMembers,
    function_ref<void(const ProgramShape::CallSite &, StringRef why)> explain =
        nullptr);

/// A `group` vocabulary entry: a prefix of 2 or more members of a call
/// group, as call-site token ids.
struct CallGroupEntry {
  StringRef function;                 // the members' caller
  uint64_t index;                     // CallGroup::index
  std::vector<int64_t> members;
};

/// The `group` entries of `groups`: one per prefix of 2 to n members of each
/// group of n, in the order of `groups`, then of length. `siteToken` gives a
/// call site's token id (by caller and index) or nothing when the vocabulary
/// does not name it; a group with a member it does not name gets no entries.
/// --phaedrus-instrument (function granularity) and --phaedrus-call-groups
/// both number the entries this way, after the call sites.
std::vector<CallGroupEntry> callGroupEntries(
    ArrayRef<CallGroup> groups,
    function_ref<std::optional<int64_t>(StringRef caller, uint64_t index)>
        siteToken);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PROGRAMSHAPE_H
