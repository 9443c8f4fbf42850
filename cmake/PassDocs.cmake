# docs/Passes.md from the generated pass references: the passes of
# PhaedrusTransforms (TRANSFORMS), then --phaedrus-predict (PREDICT), which
# has a library of its own because it links oneDNN. Run with cmake -P.
file(READ "${TRANSFORMS}" transforms)
file(READ "${PREDICT}" predict)
# Each generated page starts with the generator's comment; the second
# page's goes.
string(REGEX REPLACE "^<!--[^\n]*-->\n" "" predict "${predict}")
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
