// A function whose name a text sample profile cannot hold.
llvm.func @"file.c:f"() attributes {phaedrus.entry_count = #phaedrus.entry_count<3, measured, confidence = 1.0>} {
  llvm.return
}
