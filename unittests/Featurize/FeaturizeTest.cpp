//===- FeaturizeTest.cpp - Properties of the input featurizer -------------===//

#include "phaedrus/Featurize/Featurize.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <unistd.h>

using namespace mlir::phaedrus::featurize;

namespace {
/// A scratch directory removed with its files at the end of a test.
class ScratchDir {
public:
  ScratchDir() {
    char pattern[] = "/tmp/phaedrus-featurize-XXXXXX";
    path = mkdtemp(pattern);
  }
  ~ScratchDir() {
    for (const std::string &file : files)
      std::remove(file.c_str());
    rmdir(path.c_str());
  }
  std::string write(const std::string &name, const std::string &bytes) {
    std::string file = path + "/" + name;
    std::ofstream(file, std::ios::binary) << bytes;
    files.push_back(file);
    return file;
  }
  std::string path;

private:
  std::vector<std::string> files;
};

std::vector<std::string> run(const RunInput &input) {
  std::vector<std::string> tokens;
  std::string error;
  EXPECT_TRUE(featurize(input, tokens, error)) << error;
  return tokens;
}

bool has(const std::vector<std::string> &tokens, const std::string &token) {
  return std::find(tokens.begin(), tokens.end(), token) != tokens.end();
}

std::string randomBytes(size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  std::string bytes(size, '\0');
  for (char &c : bytes)
    c = static_cast<char>(rng());
  return bytes;
}
} // namespace

TEST(Featurize, Log2BucketIsMonotoneAndExactAtPowersOfTwo) {
  EXPECT_EQ(log2Bucket(0), 0u);
  for (unsigned k = 0; k < 63; ++k) {
    uint64_t power = uint64_t(1) << k;
    EXPECT_EQ(log2Bucket(power - 1), k);
    if (power > 1)
      EXPECT_EQ(log2Bucket(power - 2), k - 1);
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    uint64_t a = rng() >> (rng() % 64), b = rng() >> (rng() % 64);
    if (a > b)
      std::swap(a, b);
    EXPECT_LE(log2Bucket(a), log2Bucket(b));
  }
  EXPECT_EQ(log2Bucket(UINT64_MAX), 64u);
}

TEST(Featurize, TokensDependOnContentNotOnPathsOrDirectories) {
  ScratchDir one, two;
  std::string text = "local t = {}\nfor i = 1, 100 do t[i] = i end\n";
  one.write("a.lua", text);
  two.write("renamed.lua", text);
  RunInput a{{"lua", "a.lua"}, "", one.path};
  RunInput b{{"/usr/bin/lua", "renamed.lua"}, "", two.path};
  EXPECT_EQ(run(a), run(b));
  // The same bytes on standard input give the same sketch under another role.
  RunInput viaStdin{{"lua", "-"}, "a.lua", one.path};
  std::vector<std::string> tokens = run(viaStdin);
  EXPECT_TRUE(has(tokens, "stdin=file"));
  EXPECT_TRUE(has(tokens, "stdin.kind=text"));
}

TEST(Featurize, DifferentContentChangesTheSketch) {
  ScratchDir dir;
  dir.write("text", std::string(5000, 'a') + "hello world hello\n");
  dir.write("random", randomBytes(5000, 1));
  std::vector<std::string> text = run({{"p", "text"}, "", dir.path});
  std::vector<std::string> random = run({{"p", "random"}, "", dir.path});
  EXPECT_TRUE(has(text, "file0.kind=text"));
  EXPECT_TRUE(has(random, "file0.kind=binary"));
  // 5000 random bytes have close to 8 bits of entropy per byte; a run of one
  // letter close to 0.
  EXPECT_TRUE(has(random, "file0.entropy=15"));
  EXPECT_TRUE(has(text, "file0.entropy=0"));
  EXPECT_NE(text, random);
}

TEST(Featurize, MagicBytesNameTheFileKind) {
  const std::pair<std::string, std::string> cases[] = {
      {"BZh91AY&SY", "bzip2"},     {"\x1f\x8b\x08", "gzip"},
      {"\x7f" "ELF\x02", "elf"},   {"#!/bin/sh\n", "script"},
      {std::string("\xfd" "7zXZ\0", 6), "xz"},
      {"\x1bLuaT", "lua-bytecode"}, {"", "empty"}};
  for (const auto &[bytes, kind] : cases) {
    std::vector<std::string> sketch = sketchContent("f", bytes);
    ASSERT_FALSE(sketch.empty());
    EXPECT_EQ(sketch.front(), "f.kind=" + kind) << kind;
  }
}

TEST(Featurize, OperandsBecomeNumberFileOrHashedTokensInOrder) {
  ScratchDir dir;
  dir.write("in.txt", "x\n");
  std::string longArg(100, 'z');
  std::vector<std::string> tokens =
      run({{"prog", "4096", "in.txt", "two words", longArg, "-"}, "", dir.path});
  ASSERT_GE(tokens.size(), 7u);
  EXPECT_EQ(tokens[0], "argc=5");
  EXPECT_EQ(tokens[1], "operand1=num12");
  EXPECT_EQ(tokens[2], "operand2=file");
  EXPECT_EQ(tokens[3].substr(0, 10), "operand3=#");
  EXPECT_EQ(tokens[4].substr(0, 10), "operand4=#");
  EXPECT_NE(tokens[3], tokens[4]);
  // A lone '-' (standard input, by convention) is an operand.
  EXPECT_EQ(tokens[5], "operand5=-");
  EXPECT_EQ(tokens[6], "stdin=none");
  EXPECT_TRUE(has(tokens, "file0.size=1"));
  // Numbers in one log2 bucket give the same token.
  EXPECT_EQ(run({{"prog", "5000"}, "", dir.path})[1], "operand1=num12");
}

TEST(Featurize, OptionsAreSortedAndApartFromOperands) {
  ScratchDir dir;
  dir.write("in.txt", "x\n");
  std::vector<std::string> tokens = run(
      {{"prog", "-T2", "in.txt", "--block-size=512KiB", "-9", "-c", "-c", "7"},
       "", dir.path});
  // Options in byte order, each once; a long option with a value also gives
  // its name alone.
  std::vector<std::string> expected = {
      "argc=7",         "opt=--block-size", "opt=--block-size=512KiB",
      "opt=-9",         "opt=-T2",          "opt=-c",
      "opt=num3",       "operand1=file",    "operand2=num3",
      "stdin=none"};
  ASSERT_GE(tokens.size(), expected.size());
  EXPECT_EQ(std::vector<std::string>(tokens.begin(), tokens.begin() + expected.size()),
            expected);
  // The same command line with its options in another order, or interleaved
  // otherwise with the operands, gives the same tokens.
  EXPECT_EQ(run({{"prog", "-c", "-9", "in.txt", "7", "--block-size=512KiB",
                  "-T2", "-c"},
                 "", dir.path}),
            tokens);
  // The operands' order counts.
  EXPECT_NE(run({{"prog", "-T2", "7", "--block-size=512KiB", "-9", "-c", "-c",
                  "in.txt"},
                 "", dir.path}),
            tokens);
}

TEST(Featurize, NumbersAsOptionsAlsoGiveTheirBucket) {
  ScratchDir dir;
  // Levels next to each other share a bucket (4 and 6: 2; 7 and 9: 3), so a
  // level no training run used still meets its neighbours.
  auto bucketOf = [&](const std::string &level) {
    std::vector<std::string> tokens = run({{"xz", level, "-c"}, "", dir.path});
    std::vector<std::string> buckets;
    for (const std::string &token : tokens)
      if (token.rfind("opt=num", 0) == 0)
        buckets.push_back(token);
    return buckets;
  };
  EXPECT_EQ(bucketOf("-4"), std::vector<std::string>{"opt=num2"});
  EXPECT_EQ(bucketOf("-6"), std::vector<std::string>{"opt=num2"});
  EXPECT_EQ(bucketOf("-9"), std::vector<std::string>{"opt=num3"});
  EXPECT_EQ(bucketOf("-0"), std::vector<std::string>{"opt=num0"});
  // Not for options that only hold digits (-T2) or for the operands.
  EXPECT_TRUE(bucketOf("-T2").empty());
  EXPECT_TRUE(bucketOf("4").empty());
  std::vector<std::string> tokens = run({{"xz", "-4", "-c"}, "", dir.path});
  EXPECT_TRUE(has(tokens, "opt=-4"));
}

TEST(Featurize, OptionValuesAreDescribedAsOperandsAre) {
  ScratchDir dir;
  dir.write("in.txt", "x\n");
  std::vector<std::string> tokens =
      run({{"prog", "--threads=16", "--input=in.txt", "--mode=fast"}, "", dir.path});
  EXPECT_TRUE(has(tokens, "opt=--threads=num4"));
  EXPECT_TRUE(has(tokens, "opt=--input=file"));
  EXPECT_TRUE(has(tokens, "opt=--mode=fast"));
  // A file named by an option's value is described like any other.
  EXPECT_TRUE(has(tokens, "file0.size=1"));
}

TEST(Featurize, AFileAttachedToAShortOptionIsDescribed) {
  ScratchDir dir;
  dir.write("patterns", "error\nwarn\n");
  dir.write("log", "an error here\nan error here\nan error here\n");
  std::vector<std::string> tokens =
      run({{"grep", "-fpatterns", "-i", "log"}, "", dir.path});
  std::vector<std::string> expected = {"argc=3",     "opt=-f",    "opt=-f=file",
                                       "opt=-i",     "operand1=file",
                                       "stdin=none", "file0.size=3"};
  ASSERT_GE(tokens.size(), expected.size());
  EXPECT_EQ(std::vector<std::string>(tokens.begin(), tokens.begin() + 7),
            expected);
  // The pattern file (11 bytes) is file0, its option coming first; the
  // log (42 bytes) file1.
  EXPECT_TRUE(has(tokens, "file1.size=5"));
  // A directory too; anything else attached stays one option.
  ScratchDir include;
  tokens = run({{"cc", "-I" + include.path, "-O2", "-Tnope"}, "", dir.path});
  EXPECT_TRUE(has(tokens, "opt=-I=dir"));
  EXPECT_TRUE(has(tokens, "opt=-O2"));
  EXPECT_TRUE(has(tokens, "opt=-Tnope"));
  EXPECT_FALSE(has(tokens, "opt=-T"));
}

TEST(Featurize, AssignmentsAreDescribedByNameAndValue) {
  // awk's -v N=300000 (the -v is an option of its own: the featurizer does
  // not know which options take a value) and a command-line assignment.
  ScratchDir dir;
  dir.write("prog.awk", "BEGIN { for (i = 0; i < N; i++) s += i }\n");
  dir.write("data.txt", "1 2 3\n");
  std::vector<std::string> tokens = run(
      {{"gawk", "-f", "prog.awk", "-v", "N=300000", "OFS=,", "out=data.txt"},
       "",
       dir.path});
  EXPECT_TRUE(has(tokens, "operand2=N=")) << ::testing::PrintToString(tokens);
  EXPECT_TRUE(has(tokens, "operand2=N=num18"));
  EXPECT_TRUE(has(tokens, "operand3=OFS="));
  EXPECT_TRUE(has(tokens, "operand3=OFS=,"));
  EXPECT_TRUE(has(tokens, "operand4=out=file"));
  EXPECT_FALSE(has(tokens, "operand2=N=300000"));
  // Other values of the parameter share its name's token.
  std::vector<std::string> other = run(
      {{"gawk", "-f", "prog.awk", "-v", "N=1000000"}, "", dir.path});
  EXPECT_TRUE(has(other, "operand2=N="));
  EXPECT_TRUE(has(other, "operand2=N=num19"));
  // Not assignments: no name, a name that is not an identifier, no value,
  // and a file whose name has a '='.
  dir.write("a=b", "x\n");
  tokens = run({{"p", "=5", "1x=2", "x=", "a=b"}, "", dir.path});
  EXPECT_TRUE(has(tokens, "operand1==5"));
  EXPECT_TRUE(has(tokens, "operand2=1x=2"));
  EXPECT_TRUE(has(tokens, "operand3=x="));
  EXPECT_TRUE(has(tokens, "operand4=file"));
}

TEST(Featurize, ArgumentsAfterDoubleDashAreOperands) {
  ScratchDir dir;
  std::vector<std::string> tokens = run({{"prog", "-v", "--", "-x", "--"}, "", dir.path});
  std::vector<std::string> expected = {"argc=4", "opt=-v", "operand1=-x",
                                       "operand2=--", "stdin=none"};
  EXPECT_EQ(tokens, expected);
}

TEST(Featurize, CommandLineTokensAreTheCountOptionsAndOperands) {
  for (const char *token : {"argc=0", "opt=-9", "opt=--level=num3", "operand1=file",
                            "operand12=num3"})
    EXPECT_TRUE(isCommandLineToken(token)) << token;
  for (const char *token : {"stdin=none", "stdin=file", "file0.size=3",
                            "stdin.word=12", "arg1=-9"})
    EXPECT_FALSE(isCommandLineToken(token)) << token;
}

TEST(Featurize, TheLocaleIsDescribedWhenKnown) {
  using Locale = std::vector<std::pair<std::string, std::string>>;
  RunInput input{{"grep", "-i", "x"}, "", ""};
  std::vector<std::string> unknown = run(input);
  EXPECT_EQ(std::count(unknown.begin(), unknown.end(), "locale=C"), 0);
  // Known and none set: the C locale.
  input.locale.emplace();
  std::vector<std::string> none = run(input);
  EXPECT_EQ(none.back(), "locale=C");
  EXPECT_EQ(std::vector<std::string>(none.begin(), none.end() - 1), unknown);
  // LC_ALL over LC_CTYPE over LANG; the codeset's spelling normalised.
  input.locale = Locale{{"LANG", "en_US.UTF-8"}};
  EXPECT_EQ(run(input).back(), "locale=en_US.utf8");
  input.locale = Locale{{"LANG", "en_US.UTF-8"}, {"LC_CTYPE", "C.utf8"}};
  std::vector<std::string> tokens = run(input);
  EXPECT_EQ(tokens[tokens.size() - 2], "locale=C.utf8");
  // Sorting follows LANG here, characters LC_CTYPE: both are told.
  EXPECT_EQ(tokens.back(), "locale.collate=en_US.utf8");
  input.locale = Locale{{"LC_ALL", "POSIX"}, {"LANG", "en_US.UTF-8"}};
  EXPECT_EQ(run(input).back(), "locale=C");
  // An empty variable is as unset; LANGUAGE chooses messages only.
  input.locale = Locale{{"LC_ALL", ""}, {"LANGUAGE", "de"}, {"LANG", "de_DE@euro"}};
  EXPECT_EQ(run(input).back(), "locale=de_DE@euro");
  EXPECT_EQ(effectiveLocale(Locale{{"LC_ALL", "sr_RS.ISO-8859-5@latin"}}, "LC_CTYPE"),
            "sr_RS.iso88595@latin");
  EXPECT_TRUE(isCommandLineToken("locale=C"));
  EXPECT_TRUE(isCommandLineToken("locale.collate=C"));
  // Anything else is not a locale variable.
  input.locale = Locale{{"HOME", "/root"}};
  std::string error;
  EXPECT_FALSE(featurize(input, tokens, error));
  EXPECT_NE(error.find("'HOME' is not a locale variable (one of LC_ALL, "),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("LANG, LANGUAGE)"), std::string::npos) << error;
}

TEST(Featurize, MissingStandardInputIsAnErrorNotAToken) {
  ScratchDir dir;
  std::vector<std::string> tokens;
  std::string error;
  EXPECT_FALSE(featurize({{"prog"}, "absent.bin", dir.path}, tokens, error));
  EXPECT_NE(error.find("absent.bin"), std::string::npos);
}

TEST(Featurize, EqualInputsGiveEqualTokensAcrossRandomFiles) {
  ScratchDir dir;
  for (unsigned seed = 0; seed < 20; ++seed) {
    std::string bytes = randomBytes(1 + seed * 997, seed);
    if (seed % 2)
      for (char &c : bytes)
        c = 'a' + static_cast<unsigned char>(c) % 26;
    std::string name = "f" + std::to_string(seed);
    dir.write(name, bytes);
    RunInput input{{"p", name}, "", dir.path};
    std::vector<std::string> first = run(input), second = run(input);
    EXPECT_EQ(first, second);
    EXPECT_TRUE(has(first, "file0.size=" + std::to_string(log2Bucket(bytes.size()))));
  }
}

TEST(Featurize, WordsAreTheThirtyTwoMostFrequentIdentifiers) {
  // Forty identifiers; idK (K = 0..39) occurs 100 - K times, so the 32 most
  // frequent are id0..id31; "wA", the most frequent of all, has two
  // characters and is not a word.
  ScratchDir dir;
  std::string text;
  for (int k = 0; k < 40; ++k)
    for (int n = 0; n < 100 - k; ++n)
      text += "id" + std::to_string(k) + " wA\n";
  dir.write("script", text);
  auto wordsOf = [&](const std::string &file) {
    std::vector<std::string> words;
    for (const std::string &token : run({{"p", file}, "", dir.path}))
      if (token.rfind("file0.word=", 0) == 0)
        words.push_back(token);
    return words;
  };
  std::vector<std::string> words = wordsOf("script");
  EXPECT_EQ(words.size(), 32u);
  // The most frequent first: a file with only id0 and id1 gives their
  // tokens as the first two of the longer list.
  dir.write("two", "id0 id0 id1\n");
  std::vector<std::string> twoWords = wordsOf("two");
  ASSERT_EQ(twoWords.size(), 2u);
  EXPECT_EQ(twoWords[0], words[0]);
  EXPECT_EQ(twoWords[1], words[1]);
}

TEST(Featurize, ContentTokensAreAFilesWordsAndTrigrams) {
  for (const char *token : {"file0.word=12", "file12.gram=3", "stdin.word=7",
                            "stdin.gram=0"})
    EXPECT_TRUE(isContentToken(token)) << token;
  // The command line (even an argument that looks like a word token) and a
  // file's shape are not content.
  for (const char *token :
       {"argc=1", "operand1=x.word=1", "opt=--x=file0.word=1", "file0.size=5",
        "stdin.kind=text", "file.word=1", "filex.word=1", "file0word=1",
        "file0.lines=2", "stdin=none"})
    EXPECT_FALSE(isContentToken(token)) << token;
}

TEST(Featurize, InputSizeSumsTheFilesAtTheirBucketsMiddles) {
  EXPECT_FALSE(inputLog2Size({"argc=1", "operand1=num3", "stdin=none"}));
  EXPECT_DOUBLE_EQ(*inputLog2Size({"argc=1", "operand1=file", "file0.size=3"}), 3.5);
  // Two files of one bucket: twice the size.
  EXPECT_DOUBLE_EQ(*inputLog2Size({"file0.size=3", "stdin.size=3"}), 4.5);
  // Tokens of the command line and malformed sizes are not files.
  EXPECT_FALSE(inputLog2Size({"operand1=file0.size=3", "filex.size=3",
                              "file0.size=", "file0.size=x1", "file0.size=123",
                              "stdin.sizes=3", "file.size=3"}));
  // Any set of files: log2 of the sum of 2^(B + 1/2), whatever the order.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::string> tokens = {"argc=2"};
    double sum = 0;
    for (int f = 0, n = rng() % 4 + 1; f < n; ++f) {
      unsigned bucket = rng() % 40;
      tokens.push_back((f ? "file" + std::to_string(f) : std::string("stdin")) +
                       ".size=" + std::to_string(bucket));
      sum += std::exp2(bucket + 0.5);
    }
    std::shuffle(tokens.begin(), tokens.end(), rng);
    ASSERT_TRUE(inputLog2Size(tokens));
    EXPECT_NEAR(*inputLog2Size(tokens), std::log2(sum), 1e-12);
  }
  // What the featurizer writes for a real file: 1000 bytes is bucket 9.
  ScratchDir dir;
  dir.write("in.txt", std::string(1000, 'a'));
  EXPECT_DOUBLE_EQ(*inputLog2Size(run({{"p", "in.txt"}, "", dir.path})), 9.5);
}

TEST(Featurize, HashedArgumentsAreNamedBack) {
  // A jq filter and an AWK program become hashes; each token names its
  // argument, whatever its place, and no other token names one.
  std::string filter = "[.[] | select(.email | test(\"^[a-m]\"))] | length";
  std::string program = "{ n += NF } END { print n, NR }";
  RunInput input{{"p", "-c", "--expr=" + program, filter, "short"}, "", ""};
  std::vector<std::string> tokens = run(input);
  int named = 0;
  for (const std::string &token : tokens) {
    std::string argument = hashedArgument(input, token);
    if (argument.empty())
      continue;
    ++named;
    EXPECT_NE(token.find("=#"), std::string::npos) << token;
    EXPECT_TRUE(argument == filter || argument == "--expr=" + program) << token;
  }
  // operand1=#..., opt=--expr=#...
  EXPECT_EQ(named, 2);
  EXPECT_EQ(hashedArgument(input, "operand2=short"), "");
  EXPECT_EQ(hashedArgument(input, "operand1=#00000000"), "");
  EXPECT_EQ(hashedArgument(input, "file0.word=#1234567"), "");
}
