// A model file (as phaedrus train writes it) and the descriptor of the run
// to predict, given as options.
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-model.mlir input={#phaedrus.input<argv = ["p"]>}' | FileCheck %s
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<10, model
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<2, model
// CHECK: phaedrus.vocabulary @phaedrus_vocabulary
// CHECK: phaedrus.model @model mlp
// CHECK-NOT: phaedrus.predict

// A model trained on another build of the program.
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-model-other-build.mlir input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=STALE
// STALE: error: phaedrus-predict: the model in '{{.*}}predict-model-other-build.mlir' was trained on another build of the program (its fingerprint is 42, this module's is 16334456020999947734)

// A model file that is not there, or not a model.
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.absent input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=ABSENT
// ABSENT: phaedrus-predict: cannot read a model from '{{.*}}.absent': No such file or directory{{$}}
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-program.mlir input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=NOMODEL
// NOMODEL: phaedrus-predict: '{{.*}}predict-program.mlir' must hold exactly one phaedrus.model, it holds 0

// Weights in resource blobs, as phaedrus train writes them: the same
// prediction; the file's resources section missing (a file cut there), or
// a blob shorter than its tensor, is an error that names the weight.
// RUN: sed 's/"hidden.bias" = dense<0.0> : tensor<1xf32>/"hidden.bias" = dense_resource<model_hidden_bias> : tensor<1xf32>/' %S/Inputs/predict-model.mlir > %t.noblob.mlir
// RUN: cp %t.noblob.mlir %t.blob.mlir && cp %t.noblob.mlir %t.short.mlir
// RUN: printf '{-#\n  dialect_resources: {\n    builtin: {\n      model_hidden_bias: "0x0400000000000000"\n    }\n  }\n#-}\n' >> %t.blob.mlir
// RUN: printf '{-#\n  dialect_resources: {\n    builtin: {\n      model_hidden_bias: "0x04000000"\n    }\n  }\n#-}\n' >> %t.short.mlir
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.blob.mlir input={#phaedrus.input<argv = ["p"]>}' | FileCheck %s
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.noblob.mlir input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=NOBLOB
// NOBLOB: error: 'phaedrus.model' op weight 'hidden.bias' names resource blob 'model_hidden_bias', which holds no data (is the model file's dialect_resources section missing or cut short?)
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.short.mlir input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: 'phaedrus.model' op weight 'hidden.bias' holds 0 values, its type 'tensor<1xf32>' needs 1

// A model file cut short in its weights.
// RUN: head -c 700 %S/Inputs/predict-model.mlir > %t.cut.mlir
// One error, saying where the parser stopped (not the parser's own, which
// quotes the line it stopped in: a whole file of JSON, below).
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.cut.mlir input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: error: phaedrus-predict: cannot read a model from '{{.*}}cut.mlir' (line {{[0-9]+}}, column {{[0-9]+}}): {{.+}}
// CUT-NOT: error
// A corpus (JSON) where the model belongs.
// RUN: echo '{"format": "phaedrus-corpus", "runs": []}' > %t.corpus.json
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.corpus.json input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: error: phaedrus-predict: '{{.*}}corpus.json' is JSON, not MLIR: a corpus ('phaedrus train' makes a model of it)
// JSON-NOT: runs
// The same for phaedrus-opt's own input, and for another of the project's
// JSON files, on one line as a corpus is (the parser's error quoted it all).
// RUN: not phaedrus-opt %t.corpus.json 2>&1 | FileCheck %s --check-prefix=JSONIN
// JSONIN: error: '{{.*}}corpus.json' is JSON, not MLIR: a corpus ('phaedrus train' makes a model of it)
// JSONIN-NOT: runs
// RUN: printf '  {\n "format": "phaedrus-profile", "functions": []}' > %t.profile.json
// RUN: not phaedrus-opt %t.profile.json 2>&1 | FileCheck %s --check-prefix=JSONPROF
// JSONPROF: error: '{{.*}}profile.json' is JSON, not MLIR: a phaedrus-profile file
// RUN: echo '{"a": 1}' > %t.other.json
// RUN: not phaedrus-opt %t.other.json 2>&1 | FileCheck %s --check-prefix=JSONOTHER
// JSONOTHER: error: '{{.*}}other.json' is JSON, not MLIR{{$}}

// The input option must be a #phaedrus.input, and needs a model file.
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-model.mlir input={"p"}' 2>&1 | FileCheck %s --check-prefix=BADINPUT
// BADINPUT: phaedrus-predict: input must be a #phaedrus.input<...> attribute, got '"p"'
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: phaedrus-predict: input needs a model-file

// The model file's symbols must not clash with the module's.
// (A global does not change the program's fingerprint.)
// RUN: cp %S/Inputs/predict-program.mlir %t.clash.mlir
// RUN: echo 'llvm.mlir.global internal @model(0 : i32) : i32' >> %t.clash.mlir
// RUN: not phaedrus-opt %t.clash.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-model.mlir input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: phaedrus-predict: the module already has a symbol @model that the model file also defines

// Tokens the model never saw: of the command line and a file's shape (size,
// kind, entropy, lines) in a warning; the file's words and trigram buckets,
// which every new input has of its own, in a remark. Both are left out.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && printf 'local alpha = beta\n' > %t.dir/words.txt
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-model.mlir input={#phaedrus.input<argv = ["p", "words.txt"]>} input-dir=%t.dir' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNSEEN
// UNSEEN: warning: 6 of 14 descriptor tokens (of the command line, and of input files' size, kind, entropy and lines) were never seen in training and are left out: argc=1, operand1=file, file0.size=4, file0.kind=text, file0.entropy={{[0-9]+}}, file0.lines=1{{$}}
// UNSEEN: remark: 7 of 14 descriptor tokens (words and trigram buckets of input files) were never seen in training and are left out: file0.gram={{[0-9]+}}, file0.gram={{[0-9]+}}, file0.gram={{[0-9]+}}, file0.gram={{[0-9]+}}, file0.word={{[0-9]+}}, file0.word={{[0-9]+}}, file0.word={{[0-9]+}}{{$}}
// A hashed argument (a jq filter) is named back, cut short.
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-model.mlir input={#phaedrus.input<argv = ["jq", "-c", "[.[] | select(.email | test(\"^[a-m]\"))] | sort_by(.score) | .[0]"]>}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=HASHED
// HASHED: warning: {{.*}}operand1=#{{[0-9a-f]+}} (the argument '[.[] | select(.email | test("^[a-m]"))] | sor...'){{$}}
