//===- Featurize.cpp - Descriptor tokens of a run's input -----------------===//

#include "phaedrus/Featurize/Featurize.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string_view>
#include <dirent.h>
#include <sys/stat.h>

using namespace mlir::phaedrus::featurize;

namespace {
constexpr uint32_t kNgramBuckets = 64;
constexpr unsigned kTopNgrams = 4;
constexpr uint32_t kWordBuckets = 4096;
constexpr unsigned kTopWords = 32;
constexpr size_t kMaxArgToken = 32;

uint32_t fnv1a32(const char *data, size_t size) {
  uint32_t hash = 2166136261u;
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ static_cast<unsigned char>(data[i])) * 16777619u;
  return hash;
}

std::string resolve(const RunInput &input, const std::string &path) {
  if (input.workingDirectory.empty() || path.empty() || path[0] == '/')
    return path;
  return input.workingDirectory + "/" + path;
}

bool isDirectory(const std::string &path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

/// The regular files under a directory (a directory operand: grep -r,
/// find, tar): how many and how many bytes, walked depth first in name
/// order without following symbolic links, at most kMaxDirectoryEntries
/// entries (then `complete` is false and the figures are of those seen).
struct DirectoryTotals {
  uint64_t files = 0, bytes = 0, entries = 0;
  bool complete = true;
};

void walkDirectory(const std::string &path, DirectoryTotals &totals,
                   unsigned depth) {
  DIR *dir = ::opendir(path.c_str());
  if (!dir)
    return;
  std::vector<std::string> names;
  while (struct dirent *entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..")
      names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  for (const std::string &name : names) {
    if (totals.entries >= kMaxDirectoryEntries) {
      totals.complete = false;
      return;
    }
    ++totals.entries;
    std::string child = path + "/" + name;
    struct stat info;
    if (::lstat(child.c_str(), &info) != 0)
      continue;
    if (S_ISREG(info.st_mode)) {
      ++totals.files;
      totals.bytes += static_cast<uint64_t>(info.st_size);
    } else if (S_ISDIR(info.st_mode) && depth < kMaxDirectoryDepth) {
      walkDirectory(child, totals, depth + 1);
    }
  }
}

bool isRegularFile(const std::string &path, uint64_t &size) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return false;
  size = static_cast<uint64_t>(info.st_size);
  return true;
}

/// Reads at most kSketchPrefix bytes; false if the file cannot be opened.
bool readPrefix(const std::string &path, std::string &bytes) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return false;
  bytes.resize(kSketchPrefix);
  file.read(&bytes[0], static_cast<std::streamsize>(kSketchPrefix));
  bytes.resize(static_cast<size_t>(file.gcount()));
  return !file.bad();
}

bool startsWith(const std::string &bytes, const char *magic, size_t size) {
  return bytes.size() >= size && bytes.compare(0, size, magic, size) == 0;
}

bool isText(const std::string &bytes) {
  size_t control = 0, high = 0;
  for (unsigned char c : bytes) {
    if (c >= 0x80)
      ++high;
    else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') ||
             c == 0x7f)
      ++control;
  }
  return control * 100 <= bytes.size() && high * 10 <= bytes.size() * 3;
}

std::string kindOf(const std::string &bytes) {
  static const struct {
    const char *magic;
    size_t size;
    const char *kind;
  } magics[] = {{"BZh", 3, "bzip2"},
                {"\x1f\x8b", 2, "gzip"},
                {"\xfd" "7zXZ\0", 6, "xz"},
                {"\x28\xb5\x2f\xfd", 4, "zstd"},
                {"\x7f" "ELF", 4, "elf"},
                {"PK\x03\x04", 4, "zip"},
                {"\x89PNG", 4, "png"},
                {"\xff\xd8\xff", 3, "jpeg"},
                {"%PDF", 4, "pdf"},
                {"\x1bLua", 4, "lua-bytecode"},
                {"PHDRWPP\n", 8, "phaedrus-trace"},
                {"#!", 2, "script"}};
  if (bytes.empty())
    return "empty";
  for (const auto &m : magics)
    if (startsWith(bytes, m.magic, m.size))
      return m.kind;
  return isText(bytes) ? "text" : "binary";
}

bool isNumber(const std::string &arg, uint64_t &magnitude) {
  // A leading '-' makes an option (bzip2 -9), not a negative number.
  size_t i = 0, digits = 0;
  double value = 0;
  for (; i < arg.size() && arg[i] >= '0' && arg[i] <= '9'; ++i, ++digits)
    value = value * 10 + (arg[i] - '0');
  if (i < arg.size() && arg[i] == '.')
    for (++i; i < arg.size() && arg[i] >= '0' && arg[i] <= '9'; ++i)
      ;
  if (!digits || i != arg.size())
    return false;
  magnitude = value >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(value);
  return true;
}

/// The length of an assignment's name (`N` in `N=100000`): an identifier
/// before the first '=', with a value after it; 0 for any other argument.
size_t assignmentName(const std::string &arg) {
  size_t equals = arg.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == arg.size() ||
      equals > kMaxArgToken)
    return 0;
  auto isStart = [](char c) {
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  };
  if (!isStart(arg[0]))
    return 0;
  for (size_t i = 1; i < equals; ++i)
    if (!isStart(arg[i]) && !(arg[i] >= '0' && arg[i] <= '9'))
      return 0;
  return equals;
}

std::string argToken(const std::string &arg) {
  bool plain = arg.size() <= kMaxArgToken &&
               std::none_of(arg.begin(), arg.end(), [](unsigned char c) {
                 return c <= ' ' || c == 0x7f;
               });
  if (plain)
    return arg;
  char hex[16];
  std::snprintf(hex, sizeof hex, "#%08x", fnv1a32(arg.data(), arg.size()));
  return hex;
}

/// The `count` largest entries of `counts` (index order breaks ties).
template <typename Key>
std::vector<Key> top(const std::map<Key, uint64_t> &counts, unsigned count) {
  std::vector<std::pair<Key, uint64_t>> entries(counts.begin(), counts.end());
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  std::vector<Key> keys;
  for (size_t i = 0; i < entries.size() && i < count; ++i)
    keys.push_back(entries[i].first);
  return keys;
}

void describeFile(const std::string &role, const std::string &path,
                  uint64_t size, std::vector<std::string> &tokens) {
  tokens.push_back(role + ".size=" + std::to_string(log2Bucket(size)));
  std::string bytes;
  if (!readPrefix(path, bytes)) {
    tokens.push_back(role + ".unreadable");
    return;
  }
  std::vector<std::string> sketch = sketchContent(role, bytes);
  tokens.insert(tokens.end(), sketch.begin(), sketch.end());
}
} // namespace

unsigned mlir::phaedrus::featurize::log2Bucket(uint64_t value) {
  if (value == UINT64_MAX)
    return 64;
  unsigned bucket = 0;
  for (uint64_t v = value + 1; v > 1; v >>= 1)
    ++bucket;
  return bucket;
}

std::vector<std::string>
mlir::phaedrus::featurize::sketchContent(const std::string &role,
                                         const std::string &bytes) {
  std::vector<std::string> tokens;
  std::string kind = kindOf(bytes);
  tokens.push_back(role + ".kind=" + kind);
  if (bytes.empty())
    return tokens;

  // Byte entropy in half bits per byte (0..16).
  std::array<uint64_t, 256> histogram{};
  for (unsigned char c : bytes)
    ++histogram[c];
  double entropy = 0;
  for (uint64_t n : histogram)
    if (n) {
      double p = static_cast<double>(n) / bytes.size();
      entropy -= p * std::log2(p);
    }
  tokens.push_back(role + ".entropy=" +
                   std::to_string(static_cast<unsigned>(entropy * 2)));

  // Hashed byte trigrams: the most frequent buckets.
  std::map<uint32_t, uint64_t> ngrams;
  for (size_t i = 0; i + 3 <= bytes.size(); ++i)
    ++ngrams[fnv1a32(bytes.data() + i, 3) % kNgramBuckets];
  for (uint32_t bucket : top(ngrams, kTopNgrams))
    tokens.push_back(role + ".gram=" + std::to_string(bucket));

  if (kind != "text" && kind != "script")
    return tokens;
  uint64_t lines = std::count(bytes.begin(), bytes.end(), '\n');
  tokens.push_back(role + ".lines=" + std::to_string(log2Bucket(lines)));
  // Hashed identifiers: the most frequent words of three or more characters.
  std::map<std::string, uint64_t> words;
  auto isWordStart = [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  for (size_t i = 0; i < bytes.size();) {
    if (!isWordStart(bytes[i])) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < bytes.size() &&
           (isWordStart(bytes[end]) || (bytes[end] >= '0' && bytes[end] <= '9')))
      ++end;
    if (end - i >= 3)
      ++words[bytes.substr(i, end - i)];
    i = end;
  }
  for (const std::string &word : top(words, kTopWords))
    tokens.push_back(role + ".word=" +
                     std::to_string(fnv1a32(word.data(), word.size()) %
                                    kWordBuckets));
  return tokens;
}

/// What a file's token says after its role ("size=5" of "file0.size=5",
/// "word=17" of "stdin.word=17"); empty for a token of the command line.
static std::string_view fileAttribute(const std::string &token) {
  // The role: "stdin" or "file" and the file's number (docs/Featurizer.md).
  size_t dot;
  if (token.rfind("stdin.", 0) == 0) {
    dot = 5;
  } else if (token.rfind("file", 0) == 0) {
    dot = 4;
    while (dot < token.size() && token[dot] >= '0' && token[dot] <= '9')
      ++dot;
    if (dot == 4 || dot >= token.size() || token[dot] != '.')
      return {};
  } else {
    return {};
  }
  return std::string_view(token).substr(dot + 1);
}

bool mlir::phaedrus::featurize::isContentToken(const std::string &token) {
  std::string_view attribute = fileAttribute(token);
  return attribute.substr(0, 5) == "word=" || attribute.substr(0, 5) == "gram=";
}

std::optional<double>
mlir::phaedrus::featurize::inputLog2Size(const std::vector<std::string> &tokens) {
  double total = 0;
  bool sized = false;
  for (const std::string &token : tokens) {
    std::string_view attribute = fileAttribute(token);
    if (attribute.substr(0, 5) != "size=")
      continue;
    std::string_view digits = attribute.substr(5);
    if (digits.empty() || digits.size() > 2 ||
        digits.find_first_not_of("0123456789") != std::string_view::npos)
      continue;
    unsigned bucket = 0;
    for (char c : digits)
      bucket = bucket * 10 + (c - '0');
    // The bucket's middle on the log scale: sizes in bucket B lie in
    // [2^B - 1, 2^(B+1) - 2].
    total += std::exp2(bucket + 0.5);
    sized = true;
  }
  if (!sized)
    return std::nullopt;
  return std::log2(total);
}

std::string mlir::phaedrus::featurize::effectiveLocale(
    const std::vector<std::pair<std::string, std::string>> &variables,
    std::string_view category) {
  auto value = [&](std::string_view name) -> std::string {
    for (const auto &[variable, setting] : variables)
      if (variable == name && !setting.empty())
        return setting;
    return "";
  };
  std::string locale = value("LC_ALL");
  if (locale.empty())
    locale = value(category);
  if (locale.empty())
    locale = value("LANG");
  if (locale.empty() || locale == "POSIX")
    return "C";
  // The codeset, between '.' and any '@modifier'.
  size_t dot = locale.find('.');
  if (dot == std::string::npos)
    return locale;
  size_t at = locale.find('@', dot);
  std::string codeset;
  for (size_t i = dot + 1; i < std::min(at, locale.size()); ++i) {
    char c = locale[i];
    if (std::isalnum(static_cast<unsigned char>(c)))
      codeset += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return locale.substr(0, dot + 1) + codeset +
         (at == std::string::npos ? "" : locale.substr(at));
}

bool mlir::phaedrus::featurize::isCommandLineToken(const std::string &token) {
  return token.rfind("argc=", 0) == 0 || token.rfind("opt=", 0) == 0 ||
         token.rfind("locale=", 0) == 0 || token.rfind("locale.", 0) == 0 ||
         token.rfind("operand", 0) == 0;
}

std::string
mlir::phaedrus::featurize::hashedArgument(const RunInput &input,
                                          const std::string &token) {
  size_t hash = token.rfind("#");
  if (!isCommandLineToken(token) || hash == std::string::npos ||
      token.size() - hash != 9)
    return {};
  std::string digits = token.substr(hash);
  for (size_t i = 1; i < input.argv.size(); ++i) {
    const std::string &arg = input.argv[i];
    // The whole argument, or the value or the name of a --name=value.
    std::vector<std::string> parts = {arg};
    if (size_t equals = arg.find('='); equals != std::string::npos)
      parts.insert(parts.end(), {arg.substr(equals + 1), arg.substr(0, equals),
                                 arg.substr(0, equals + 1)});
    for (const std::string &part : parts)
      if (!part.empty() && argToken(part) == digits)
        return arg;
  }
  return {};
}

bool mlir::phaedrus::featurize::featurize(const RunInput &input,
                                          std::vector<std::string> &tokens,
                                          std::string &error) {
  tokens.clear();
  size_t numArgs = input.argv.empty() ? 0 : input.argv.size() - 1;
  tokens.push_back("argc=" + std::to_string(numArgs));
  struct File {
    std::string role, path;
    uint64_t size;
    bool directory = false;
  };
  std::vector<File> files;
  // What a value says: "file" or "dir" (and the file or directory is
  // described, in argument order), "numB" or the value itself (hashed when
  // long).
  auto describeValue = [&](const std::string &value) {
    uint64_t size = 0, magnitude = 0;
    std::string path = resolve(input, value);
    if (!value.empty() && isRegularFile(path, size)) {
      files.push_back({"file" + std::to_string(files.size()), path, size});
      return std::string("file");
    }
    if (!value.empty() && isDirectory(path)) {
      files.push_back({"file" + std::to_string(files.size()), path, 0, true});
      return std::string("dir");
    }
    if (isNumber(value, magnitude))
      return "num" + std::to_string(log2Bucket(magnitude));
    return argToken(value);
  };
  // Options say the same in any order (as getopt reads them), so they are
  // sorted; operands keep their order among themselves.
  std::vector<std::string> options, operands;
  size_t numOperands = 0; // (an assignment gives two tokens)
  bool optionsEnded = false;
  for (size_t i = 1; i < input.argv.size(); ++i) {
    const std::string &arg = input.argv[i];
    if (!optionsEnded && arg == "--") {
      optionsEnded = true;
      continue;
    }
    if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
      std::string operand = "operand" + std::to_string(++numOperands) + "=";
      // An assignment (awk's `-v N=100000` and `N=100000` operands, make's
      // `CC=clang`, dd's `bs=1M`): its name alone, and its name with the
      // value described as an operand's (`N=num16`), as a long option's
      // value is; unless the whole argument names a file or a directory.
      size_t nameEnd = assignmentName(arg);
      uint64_t ignored = 0;
      std::string whole = resolve(input, arg);
      if (nameEnd && !isRegularFile(whole, ignored) && !isDirectory(whole)) {
        std::string name = arg.substr(0, nameEnd + 1);
        operands.push_back(operand + argToken(name));
        operands.push_back(operand + argToken(name) +
                           describeValue(arg.substr(nameEnd + 1)));
        continue;
      }
      operands.push_back(operand + describeValue(arg));
      continue;
    }
    size_t equals = arg.find('=');
    // A value attached to a short option that names a file or a directory
    // (grep -fpatterns.txt, gcc -Iinclude) is one, as a long option's is.
    uint64_t ignored = 0;
    std::string attached = arg[1] != '-' ? resolve(input, arg.substr(2)) : "";
    bool attachedPath =
        arg.size() > 2 && !attached.empty() &&
        (isRegularFile(attached, ignored) || isDirectory(attached));
    if ((arg.compare(0, 2, "--") == 0 && equals != std::string::npos) ||
        attachedPath) {
      // `--name=value`, or `-Xvalue` with no '=' between.
      size_t nameEnd = attachedPath ? 2 : equals;
      size_t valueStart = attachedPath ? 2 : equals + 1;
      std::string name = arg.substr(0, nameEnd);
      options.push_back("opt=" + argToken(name));
      options.push_back("opt=" + argToken(name + "=") +
                        describeValue(arg.substr(valueStart)));
    } else {
      options.push_back("opt=" + argToken(arg));
      // A number as an option (a level: xz -4) also gives its log2 bucket,
      // which the levels next to it share: a level no training run used
      // still meets its neighbours.
      uint64_t magnitude = 0;
      if (isNumber(arg.substr(1), magnitude))
        options.push_back("opt=num" + std::to_string(log2Bucket(magnitude)));
    }
  }
  std::sort(options.begin(), options.end());
  options.erase(std::unique(options.begin(), options.end()), options.end());
  tokens.insert(tokens.end(), options.begin(), options.end());
  tokens.insert(tokens.end(), operands.begin(), operands.end());
  if (input.stdinPath.empty()) {
    tokens.push_back("stdin=none");
  } else {
    std::string path = resolve(input, input.stdinPath);
    uint64_t size = 0;
    if (!isRegularFile(path, size)) {
      error = "standard input '" + input.stdinPath + "' is not a regular file";
      return false;
    }
    tokens.push_back("stdin=file");
    files.push_back({"stdin", path, size});
  }
  if (input.locale) {
    // The locale of characters (what is a letter, how many bytes one
    // takes: grep -i, a regex's `.`), and that of sorting where it differs.
    for (const auto &[name, value] : *input.locale)
      if (!isLocaleVariable(name)) {
        error = notALocaleVariable(name);
        return false;
      }
    std::string ctype = effectiveLocale(*input.locale, "LC_CTYPE");
    std::string collate = effectiveLocale(*input.locale, "LC_COLLATE");
    tokens.push_back("locale=" + argToken(ctype));
    if (collate != ctype)
      tokens.push_back("locale.collate=" + argToken(collate));
  }
  for (const File &file : files) {
    if (!file.directory) {
      describeFile(file.role, file.path, file.size, tokens);
      continue;
    }
    // A directory: the bytes and the number of the regular files under it
    // (its size is theirs, so that a model's size law sees it).
    DirectoryTotals totals;
    walkDirectory(file.path, totals, 0);
    tokens.push_back(file.role + ".size=" + std::to_string(log2Bucket(totals.bytes)));
    tokens.push_back(file.role + ".kind=directory");
    tokens.push_back(file.role + ".files=" + std::to_string(log2Bucket(totals.files)));
    if (!totals.complete)
      tokens.push_back(file.role + ".files=more");
  }
  return true;
}
