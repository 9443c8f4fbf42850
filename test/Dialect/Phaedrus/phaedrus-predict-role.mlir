// An input given another way than the training runs had it: the training
// run read a script as a file named by the command line (file0.*), this run
// reads the same script on standard input (stdin.*). No token meets, the
// blend is blind, and predict says why (a bc user piped a script that was
// itself a training input, 2026-11-27). Given as the training run had it,
// nothing is said.
// RUN: printf 'scale=20\nprint 4*a(1)\nquit\n' > %t.bc
// RUN: sed -e 's|ARGS||' -e 's|STDIN|, stdin = "%t.bc"|' %s | phaedrus-opt --phaedrus-predict 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: warning: 11 of the 11 unseen tokens of this run's input files were seen in training under another role: this run reads its input on standard input, the training runs read theirs as a file named by the command line (file0). The model matches inputs by how the program gets them: give the input as the training runs did
// RUN: sed -e 's|ARGS|, "%t.bc"|' -e 's|STDIN||' %s | phaedrus-opt --phaedrus-predict 2>&1 | FileCheck %s --check-prefix=FILE --implicit-check-not="another role"
// FILE: remark: the prediction blends the training runs pi 1.00

llvm.func @main() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(12061135125163621291) {
  phaedrus.entry 0 function @main
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(12061135125163621291) vocab_size(1)
    descriptors(["argc=1", "operand1=file", "stdin=none", "file0.size=4", "file0.kind=text",
                 "file0.entropy=8", "file0.gram=63", "file0.gram=33", "file0.gram=29",
                 "file0.gram=46", "file0.lines=2", "file0.word=2696", "file0.word=1846",
                 "file0.word=3185"]) runs(["pi"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<1.0> : tensor<1x14xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<5.0> : tensor<1x1xf32>, "output.bias" = dense<0.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["bc"ARGS]STDIN>)
