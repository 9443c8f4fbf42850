llvm.func @f(%c: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<12, model, confidence = 0.75>} {
  llvm.cond_br %c, ^bb1, ^bb1 {phaedrus.branch_weights = #phaedrus.branch_weights<[3, 9], model, confidence = 0.75>}
^bb1:
  llvm.return
}
llvm.func @g() {
  llvm.return
}
