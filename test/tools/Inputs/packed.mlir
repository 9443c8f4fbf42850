// Traces with every structure a packed file keeps: two vocabularies, a
// grammar with rules that use rules, nested repeats (short ones and long
// ones), rule uses in traces and repeats, input descriptors with files and
// standard input.
phaedrus.vocabulary @v fingerprint(18446744073709551615) {
  phaedrus.entry 0 function @main
  phaedrus.entry 2 call_site @main[0] -> @work
  phaedrus.entry 1 path @work[7]
  phaedrus.entry 3 call_site @work[1] -> @leaf
}
phaedrus.grammar @g vocabulary(@v) {
  phaedrus.rule @r0 {
    phaedrus.tokens dense<[2, 1]> : tensor<2xi32>
  }
  phaedrus.rule @r1 {
    phaedrus.apply @r0
    phaedrus.repeat 3 {
      phaedrus.tokens dense<3> : tensor<1xi32>
    }
    phaedrus.apply @r0
  }
}
phaedrus.trace @t0 vocabulary(@v) fingerprint(18446744073709551615)
    input(#phaedrus.input<argv = ["prog", "-9", "a.txt"],
                          files = [#phaedrus.file<"a.txt", size = 152089, digest = 12345>]>)
    grammar(@g) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 10000 {
    phaedrus.apply @r1
    phaedrus.repeat 40 {
      phaedrus.tokens dense<[3, 1]> : tensor<2xi32>
    }
  }
  phaedrus.repeat 2 {
    phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
  }
}
phaedrus.trace @t1 vocabulary(@v) fingerprint(18446744073709551615)
    input(#phaedrus.input<argv = ["prog"], stdin = "in.txt">) {
  phaedrus.tokens dense<[0, 2, 1, 3, 3]> : tensor<5xi32>
}
phaedrus.vocabulary @other fingerprint(7) {
  phaedrus.entry 0 function @f
}
phaedrus.trace @t2 vocabulary(@other) fingerprint(7)
    input(#phaedrus.input<argv = ["other"]>) {
  phaedrus.repeat 5 {
    phaedrus.tokens dense<0> : tensor<1xi32>
  }
}
