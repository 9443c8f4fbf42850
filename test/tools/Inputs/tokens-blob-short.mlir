// A tokens op whose blob holds one token where its type says four (the
// fuzzing of 2026-11-28: every reader took the blob at its own length).
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 function @f
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) {
  phaedrus.tokens dense_resource<blob> : tensor<4xi32>
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x0400000001000000"
    }
  }
#-}
