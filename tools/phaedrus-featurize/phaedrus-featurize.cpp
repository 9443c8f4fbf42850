//===- phaedrus-featurize.cpp - Descriptor tokens of a future run ---------===//
//
// Prints the descriptor tokens the featurizer makes of a command line and its
// input files, one per line (or as JSON). The driver uses it to describe the
// runs of a training corpus; --phaedrus-predict links the same library.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Featurize/Featurize.h"
#include "ToolSupport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::OptionCategory category("phaedrus-featurize options");
static cl::opt<std::string>
    stdinPath("stdin", cl::desc("File the run reads on standard input"),
              cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string>
    workingDirectory("cwd",
                     cl::desc("Directory the run starts in (relative paths "
                              "resolve against it; default: the current one)"),
                     cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string> localeVariables(
    "locale",
    cl::desc("The locale variables the run starts with, the ones set, as "
             "NAME=VALUE separated by commas (LC_ALL=C.UTF-8,LANG=en_US.UTF-8); "
             "empty for none set. Without it the locale is not described"),
    cl::value_desc("vars"), cl::cat(category));
static cl::opt<bool> printJson("json", cl::desc("Print a JSON array of strings"),
                          cl::cat(category));
static cl::opt<bool> printVersion(
    "print-featurizer-version",
    cl::desc("Print the featurizer's version (docs/Featurizer.md) and exit"),
    cl::cat(category));
static cl::list<std::string> runArgv(cl::Positional, cl::ZeroOrMore,
                                     cl::desc("<program> [arguments...]"));

/// The first option of the run's command line given without '--' before
/// it (`phaedrus-featurize bzip2 -9`), which LLVM would read as this tool's
/// own and refuse as unknown; empty if none.
static StringRef runOptionWithoutDashes(int argc, char **argv) {
  bool inRun = false;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--")
      return StringRef();
    if (!arg.starts_with("-")) {
      inRun = true;
      continue;
    }
    if (inRun)
      return arg;
    // This tool's options that take a value as the next argument.
    StringRef name = arg.ltrim('-');
    if (llvm::is_contained({stdinPath.ArgStr, workingDirectory.ArgStr,
                            localeVariables.ArgStr},
                           name))
      ++i;
  }
  return StringRef();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  if (StringRef option = runOptionWithoutDashes(argc, argv); !option.empty()) {
    WithColor::error(errs(), "phaedrus-featurize")
        << "'" << option << "' follows the program's name: pass the program "
           "and its arguments after '--' (phaedrus-featurize [options] -- "
           "PROGRAM ARGS...), or they are read as phaedrus-featurize's own\n";
    return 1;
  }
  mlir::phaedrus::parseToolCommandLine(
      argc, argv, category,
      "Phaedrus input featurizer\n\n"
      "  phaedrus-featurize [--stdin FILE] [--cwd DIR] [--locale VARS] -- "
      "PROGRAM ARGS...\n\n"
      "Prints the descriptor tokens of a run's command line and input files\n"
      "(arguments, file sizes in log2 buckets, file kinds from magic bytes,\n"
      "byte entropy, hashed byte trigrams and words) without running it.\n"
      "The tokens are documented in docs/Featurizer.md.\n");
  if (printVersion) {
    outs() << mlir::phaedrus::featurize::kVersion << "\n";
    return 0;
  }
  if (runArgv.empty()) {
    WithColor::error(errs(), "phaedrus-featurize")
        << "no command line given: pass the program and its arguments after "
           "'--'\n";
    return 1;
  }
  mlir::phaedrus::featurize::RunInput input;
  input.argv.assign(runArgv.begin(), runArgv.end());
  input.stdinPath = stdinPath;
  input.workingDirectory = workingDirectory;
  if (localeVariables.getNumOccurrences()) {
    input.locale.emplace();
    StringRef rest = localeVariables;
    while (!rest.empty()) {
      auto [item, tail] = rest.split(',');
      rest = tail;
      auto [name, value] = item.split('=');
      if (!item.contains('=') || name.empty()) {
        WithColor::error(errs(), "phaedrus-featurize")
            << "--locale: '" << item
            << "' is not NAME=VALUE (give the variables set, such as "
               "LC_ALL=C.UTF-8, separated by commas)\n";
        return 1;
      }
      input.locale->emplace_back(name.str(), value.str());
    }
  }
  std::vector<std::string> tokens;
  std::string error;
  if (!mlir::phaedrus::featurize::featurize(input, tokens, error)) {
    WithColor::error(errs(), "phaedrus-featurize") << error << "\n";
    return 1;
  }
  if (printJson) {
    json::Array array;
    for (const std::string &token : tokens)
      array.push_back(token);
    outs() << json::Value(std::move(array)) << "\n";
  } else {
    for (const std::string &token : tokens)
      outs() << token << "\n";
  }
  return 0;
}
