# docs/Passes.md from the generated pass references: the passes of
# PhaedrusTransforms (TRANSFORMS), then --phaedrus-predict (PREDICT), which
# has a library of its own because it links oneDNN. Run with cmake -P.
file(READ "${TRANSFORMS}" transforms)
file(READ "${PREDICT}" predict)
# Each generated page starts with the generator's comment; the second
# page's goes. After the first's, a note on the statistics every pass lists
# (a user took the empty report for a bug).
string(REGEX REPLACE "^<!--[^\n]*-->\n" "" predict "${predict}")
string(REGEX REPLACE "^(<!--[^\n]*-->\n)" "\\1
The statistics each pass lists below count with an LLVM built with them:
Debian's LLVM 22 is not (`-mlir-pass-statistics` prints an empty report;
docs/architecture.md).
" transforms "${transforms}")
file(WRITE "${OUT}" "${transforms}
## In the PhaedrusPredict library

`--phaedrus-predict` runs models with oneDNN, so it has a library of its
own: a tool gets it by linking `Phaedrus::PhaedrusPredict` and calling
`registerPhaedrusPredictPasses()` (phaedrus/Dialect/Phaedrus/Predict/Passes.h).
${predict}
## Named pipelines

`--phaedrus-compress` and `--phaedrus-measured-profile` run the passes
above in order: [Pipelines.md](Pipelines.md).
")
