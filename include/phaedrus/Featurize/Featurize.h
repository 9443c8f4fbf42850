//===- Featurize.h - Descriptor tokens of a run's input ---------*- C++ -*-===//
//
// The input featurizer: turns the command line and input files of a run into
// descriptor tokens, without running the program. The same code serves the
// driver (training corpora) and --phaedrus-predict (the run to predict), so
// a model sees identical tokens for identical inputs. docs/Featurizer.md
// documents every token.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_FEATURIZE_FEATURIZE_H
#define PHAEDRUS_FEATURIZE_FEATURIZE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mlir::phaedrus::featurize {

/// What is known about a run before it happens.
struct RunInput {
  /// The argument vector, program name first.
  std::vector<std::string> argv;
  /// The file on standard input, if standard input is a file; empty otherwise.
  std::string stdinPath;
  /// Directory relative paths in argv and stdinPath are resolved against;
  /// empty means the current directory.
  std::string workingDirectory;
  /// The locale variables the run starts with (name and value, each name
  /// one of kLocaleVariables), the ones set; empty when none is set. None
  /// when not known: the run is then described without locale tokens.
  std::optional<std::vector<std::pair<std::string, std::string>>> locale =
      std::nullopt;
};

/// The environment variables that choose a run's locale (POSIX and glibc).
inline constexpr std::string_view kLocaleVariables[] = {
    "LC_ALL",      "LC_CTYPE",   "LC_COLLATE", "LC_MESSAGES", "LC_NUMERIC",
    "LC_TIME",     "LC_MONETARY", "LANG",      "LANGUAGE"};

inline bool isLocaleVariable(std::string_view name) {
  for (std::string_view known : kLocaleVariables)
    if (name == known)
      return true;
  return false;
}

/// Why `name` is refused as a locale variable, naming the ones taken.
inline std::string notALocaleVariable(std::string_view name) {
  std::string text = "'" + std::string(name) +
                     "' is not a locale variable (one of ";
  for (std::string_view known : kLocaleVariables)
    text += std::string(known) + (known == "LANGUAGE" ? ")" : ", ");
  return text;
}

/// The locale a category takes under `variables` (POSIX: LC_ALL, else the
/// category's own variable, else LANG, the first that is set and not
/// empty; else "C"), with "POSIX" as "C" and its codeset normalised as
/// glibc does (lower case, letters and digits only: "en_US.UTF-8" ->
/// "en_US.utf8").
std::string effectiveLocale(
    const std::vector<std::pair<std::string, std::string>> &variables,
    std::string_view category);

/// Descriptor tokens of `input`, in a fixed order (the argument count, the
/// options sorted, the operands in order, then files in argument order, then
/// standard input). Returns false and sets `error` when
/// `stdinPath` names no readable regular file; argument files that cannot
/// be read are described by their size and an `unreadable` token instead.
bool featurize(const RunInput &input, std::vector<std::string> &tokens,
               std::string &error);

/// Content sketch of one file's bytes (exposed for tests): the tokens that
/// follow the size token, each prefixed with `role` and a dot.
std::vector<std::string> sketchContent(const std::string &role,
                                       const std::string &bytes);

/// True for the tokens of a file's content that every new input has of its
/// own: its words and trigram buckets (`fileK.word=`, `stdin.gram=`, ...),
/// as opposed to those of the command line and of a file's shape.
bool isContentToken(const std::string &token);

/// True for the tokens of the command line (`argc=`, `opt=`, `operandJ=`)
/// and of the locale, which choose what a program does as its options do,
/// as opposed to those of standard input and of files.
bool isCommandLineToken(const std::string &token);

/// The argument of `input` that a token of its command line stands for when
/// the token gives it as a hash (`operand1=#bf0dc6c1`: an argument longer
/// than 32 characters or with spaces, such as a jq filter or an AWK
/// program); empty for any other token.
std::string hashedArgument(const RunInput &input, const std::string &token);

/// The log2 of the summed size of a run's input files, from their size
/// tokens (`fileK.size=B`, `stdin.size=B`, each taken at its bucket's
/// middle, 2^(B + 1/2) bytes); none when the tokens describe no file. A
/// retrieval model scales the totals of its runs by it (docs/Model.md).
std::optional<double> inputLog2Size(const std::vector<std::string> &tokens);

/// floor(log2(value + 1)): the log-scale bucket used for sizes and counts.
unsigned log2Bucket(uint64_t value);

/// The featurizer's version: raised whenever the tokens of some input
/// change. A model records the version its training runs were described
/// with (hyper-parameter `featurizer`), and --phaedrus-predict refuses a
/// model of another version: its tokens would mean other things.
/// 1: eight words per file; 2: thirty-two; 3: options sorted, apart from
/// operands (`opt=`, `operandJ=`), where 1 and 2 numbered every argument
/// (`argI=`), and a number as an option also gives its bucket (`opt=numB`);
/// 4: a directory named by the command line is described (`operandJ=dir`,
/// its files' size and number), where 3 gave its name; 5: the locale
/// (`locale=`, `locale.collate=`), where 4 did not see it, and a file or
/// directory attached to a short option (`-fFILE`: `opt=-f`, `opt=-f=file`),
/// where 4 gave `opt=-fFILE`; 6: an assignment operand (`N=100000`:
/// `operandJ=N=`, `operandJ=N=num16`), where 5 gave it verbatim.
constexpr unsigned kVersion = 6;

/// Bytes of a file the content sketch reads at most (its prefix).
constexpr uint64_t kSketchPrefix = 1 << 20;

/// Entries of a directory operand's tree the featurizer visits at most, and
/// how deep it goes.
constexpr uint64_t kMaxDirectoryEntries = 100000;
constexpr unsigned kMaxDirectoryDepth = 64;

} // namespace mlir::phaedrus::featurize

#endif // PHAEDRUS_FEATURIZE_FEATURIZE_H
