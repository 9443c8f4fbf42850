//===- PhaedrusOps.td - phaedrus operations ----------------*- tablegen -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSOPS_TD
#define PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSOPS_TD

include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.td"
include "phaedrus/Dialect/Phaedrus/IR/PhaedrusAttrDefs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

def Phaedrus_NonNegI64Attr : ConfinedAttr<I64Attr, [IntNonNegative]>;
def Phaedrus_PosI64Attr : ConfinedAttr<I64Attr, [IntPositive]>;

//===----------------------------------------------------------------------===//
// Vocabulary
//===----------------------------------------------------------------------===//

def Phaedrus_VocabularyOp : Phaedrus_Op<"vocabulary", [
    Symbol, IsolatedFromAbove, NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "Token ids of a program's functions, call sites, paths and groups";
  let description = [{
    The vocabulary maps token ids to what they stand for. Its body holds one
    `phaedrus.entry` per token; ids are dense (`0` to `n-1`, each exactly
    once, in any order) so that a model can use them as indices.

    `fingerprint` identifies the program module the vocabulary was derived
    from (a hash of its functions and their control-flow graphs). Traces and
    models name a vocabulary and repeat its fingerprint; the verifier refuses
    a trace or model whose fingerprint differs, so a stale trace or model is
    caught before it is used.

    Example:

    ```mlir
    phaedrus.vocabulary @vocab fingerprint(7421) {
      phaedrus.entry 0 function @main
      phaedrus.entry 1 function @compress
      phaedrus.entry 2 call_site @main[3] -> @compress
      phaedrus.entry 3 path @compress[5]
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, UI64Attr:$fingerprint);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `fingerprint` `(` $fingerprint `)` attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of entries, which is also one past the largest id.
    size_t getNumEntries();
  }];
}

def Phaedrus_EntryOp : Phaedrus_Op<"entry", [HasParent<"VocabularyOp">]> {
  let summary = "One token of a vocabulary";
  let description = [{
    Token `id` stands for `kind`:

    * `function`: an entry into function `symbol` (from an unknown or
      indirect call site, or the program entry);
    * `call_site`: an entry into `callee` from call site number `index` of
      function `symbol` (call sites are numbered in program order);
    * `path`: Ball-Larus acyclic path number `index` of function `symbol`;
    * `group`: a call group (`--phaedrus-call-groups`, input-consistent
      compression) stands for the call sites `members` (ids of `call_site`
      entries of function `symbol`, in the order they run) made one after
      another by one invocation of `symbol`; `index` is the group's number
      within `symbol`. A group of n call sites has entries for its prefixes
      of 2 to n members, all with the same `index`.

    `symbol` and `callee` name functions of the program module. They are
    not checked against it here, because vocabularies also travel in
    trace files without the program.

    Example:

    ```mlir
    phaedrus.entry 2 call_site @main[3] -> @compress
    phaedrus.entry 9 group @main[0] members [2, 4]
    ```
  }];
  let arguments = (ins Phaedrus_NonNegI64Attr:$id,
                       Phaedrus_EntryKind:$kind,
                       FlatSymbolRefAttr:$symbol,
                       OptionalAttr<Phaedrus_NonNegI64Attr>:$index,
                       OptionalAttr<FlatSymbolRefAttr>:$callee,
                       OptionalAttr<DenseI64ArrayAttr>:$members);
  let assemblyFormat = [{
    $id $kind $symbol (`[` $index^ `]`)? (`->` $callee^)?
    (`members` $members^)? attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Traces and their compressed structure
//===----------------------------------------------------------------------===//

def Phaedrus_TraceOp : Phaedrus_Op<"trace", [
    Symbol, IsolatedFromAbove, NoTerminator, SingleBlock, NoRegionArguments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "The whole program path of one run";
  let description = [{
    The token sequence a run produced, in order, with the descriptor of its
    input. The body is a sequence of `phaedrus.tokens` (literal tokens),
    `phaedrus.repeat` (a counted repetition) and `phaedrus.apply` (a use of
    a grammar rule from `grammar`); reading it top to bottom, expanding
    repeats and rules, gives the exact trace.

    The verifier checks that `vocabulary` names a `phaedrus.vocabulary` with
    the same fingerprint, that every token is an id of that vocabulary, and
    that `grammar`, when present, names a `phaedrus.grammar` over the same
    vocabulary.

    Example:

    ```mlir
    phaedrus.trace @run0 vocabulary(@vocab) fingerprint(7421)
        input(#phaedrus.input<argv = ["bzip2", "-c", "a.txt"]>) {
      phaedrus.tokens dense<[0, 2]> : tensor<2xi32>
      phaedrus.repeat 4096 {
        phaedrus.tokens dense<3> : tensor<1xi32>
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       FlatSymbolRefAttr:$vocabulary,
                       UI64Attr:$fingerprint,
                       Phaedrus_InputDescriptorAttr:$input,
                       OptionalAttr<FlatSymbolRefAttr>:$grammar);
  let hasVerifier = 1;
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `vocabulary` `(` $vocabulary `)` `fingerprint` `(` $fingerprint `)`
    `input` `(` $input `)` (`grammar` `(` $grammar^ `)`)? attr-dict-with-keyword $body
  }];
}

def Phaedrus_TokensOp : Phaedrus_Op<"tokens", [
    ParentOneOf<["TraceOp", "RepeatOp", "RuleOp"]>]> {
  let summary = "A literal run of trace tokens";
  let description = [{
    Tokens in order, as a one-dimensional `i32` elements attribute. Short
    runs are written inline (`dense<...>`); long ones live in a
    `dense_resource` blob so that traces of millions of events stay
    compact and fast to parse. Every token must be non-negative; the
    enclosing trace or grammar checks it against its vocabulary.

    Example:

    ```mlir
    phaedrus.tokens dense<[0, 1, 1, 2]> : tensor<4xi32>
    phaedrus.tokens dense_resource<run0_tokens> : tensor<1048576xi32>
    ```
  }];
  let arguments = (ins ElementsAttr:$tokens);
  let assemblyFormat = "$tokens attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tokens as a contiguous array. Splat attributes are materialized
    /// into `storage`; otherwise the attribute's own data is returned
    /// without a copy. Fails if a resource blob has no data.
    ::mlir::FailureOr<::llvm::ArrayRef<int32_t>>
    getTokenArray(::llvm::SmallVectorImpl<int32_t> &storage);
    /// getTokenArray for passes on verified IR: a blob released since
    /// verification is reported on the op.
    ::mlir::FailureOr<::llvm::ArrayRef<int32_t>>
    readTokens(::llvm::SmallVectorImpl<int32_t> &storage);
  }];
}

def Phaedrus_RepeatOp : Phaedrus_Op<"repeat", [
    ParentOneOf<["TraceOp", "RepeatOp", "RuleOp"]>,
    NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "A counted repetition of a sub-sequence";
  let description = [{
    The body, `count` times in a row: how loops and recursion fold. The
    count is exact and at least 1; models see it through log-scale buckets
    but the IR always keeps the exact number, so expansion is lossless.

    Example:

    ```mlir
    phaedrus.repeat 900 {
      phaedrus.tokens dense<[4, 5]> : tensor<2xi32>
      phaedrus.repeat 3 {
        phaedrus.tokens dense<6> : tensor<1xi32>
      }
    }
    ```
  }];
  let arguments = (ins Phaedrus_PosI64Attr:$count);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$count attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def Phaedrus_GrammarOp : Phaedrus_Op<"grammar", [
    Symbol, SymbolTable, IsolatedFromAbove, NoTerminator, SingleBlock,
    NoRegionArguments, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A set of grammar rules shared by compressed traces";
  let description = [{
    Grammar compression (SEQUITUR or Re-Pair class) replaces repeated
    sub-sequences by rules. A grammar holds `phaedrus.rule` definitions over
    the tokens of one vocabulary; traces that name it use its rules with
    `phaedrus.apply`. Rules may use other rules of the same grammar, but the
    verifier refuses cycles: every rule must expand to a finite sequence.

    Example:

    ```mlir
    phaedrus.grammar @g vocabulary(@vocab) {
      phaedrus.rule @r0 {
        phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
      }
      phaedrus.rule @r1 {
        phaedrus.apply @r0
        phaedrus.apply @r0
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, FlatSymbolRefAttr:$vocabulary);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `vocabulary` `(` $vocabulary `)` attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

def Phaedrus_RuleOp : Phaedrus_Op<"rule", [
    Symbol, HasParent<"GrammarOp">, NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "One grammar rule: a name for a token sub-sequence";
  let description = [{
    The body is a sequence like a trace body (`phaedrus.tokens`,
    `phaedrus.repeat`, `phaedrus.apply`). A rule must not be empty.

    Example:

    ```mlir
    phaedrus.rule @r0 {
      phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def Phaedrus_ApplyOp : Phaedrus_Op<"apply", [
    ParentOneOf<["TraceOp", "RepeatOp", "RuleOp"]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A use of a grammar rule inside a trace or rule";
  let description = [{
    Stands for the expansion of `rule`. Inside a trace, the rule is looked
    up in the trace's `grammar`; inside a rule, in the enclosing grammar.

    Example:

    ```mlir
    phaedrus.apply @r1
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$rule);
  let assemblyFormat = "$rule attr-dict";
  let extraClassDeclaration = [{
    /// The grammar `rule` is looked up in, or null if there is none.
    GrammarOp getGrammar(::mlir::SymbolTableCollection &symbolTable);
  }];
}

//===----------------------------------------------------------------------===//
// Models and prediction
//===----------------------------------------------------------------------===//

def Phaedrus_ModelOp : Phaedrus_Op<"model", [
    Symbol, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A trained model: architecture, hyper-parameters and weights";
  let description = [{
    A sequence model (`lstm`) or a direct-count model (`mlp`) trained on the
    traces of one program. `vocab_size` is the number of token ids the model
    reads and writes; it must equal the size of `vocabulary`, whose
    fingerprint must equal `fingerprint`, so that a model trained for
    another build is refused. `hyperparameters` holds integer and float
    settings (e.g. `hidden_size`, `num_layers`); `weights` maps each tensor
    name to a floating-point elements attribute, normally a
    `dense_resource` blob. `descriptors` lists the descriptor tokens (from
    the input featurizer) the model was trained on, in the order of their
    model ids; tokens of a future run that are not listed are unknown to the
    model. A model whose prediction blends the training runs' profiles (the
    retrieval model: an `mlp` with `hidden_softmax = 1`) may name them in
    `runs`, one per hidden unit, so that a prediction can say which runs it
    blends, and give each run's command-line descriptor tokens (`argc=N`,
    `opt=...`, `operandJ=...`) in `run_arguments`, one list per run, so that a prediction
    can say when it blends runs given other arguments than its input.
    docs/Model.md documents the kinds, their token spaces and the weight
    names and layouts.

    Example:

    ```mlir
    phaedrus.model @m lstm vocabulary(@vocab) fingerprint(7421) vocab_size(4)
        descriptors(["argc=1", "opt=-9"])
        hyperparameters({embedding_dim = 2 : i64, hidden_size = 2 : i64})
        weights({embedding = dense_resource<m_embedding> : tensor<4x2xf32>})
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       Phaedrus_ModelKind:$kind,
                       FlatSymbolRefAttr:$vocabulary,
                       UI64Attr:$fingerprint,
                       Phaedrus_PosI64Attr:$vocab_size,
                       OptionalAttr<StrArrayAttr>:$descriptors,
                       OptionalAttr<StrArrayAttr>:$runs,
                       OptionalAttr<ArrayAttr>:$run_arguments,
                       DictionaryAttr:$hyperparameters,
                       DictionaryAttr:$weights);
  let assemblyFormat = [{
    $sym_name $kind `vocabulary` `(` $vocabulary `)` `fingerprint` `(` $fingerprint `)`
    `vocab_size` `(` $vocab_size `)`
    (`descriptors` `(` $descriptors^ `)`)?
    (`runs` `(` $runs^ `)`)?
    (`run_arguments` `(` $run_arguments^ `)`)?
    `hyperparameters` `(` $hyperparameters `)`
    `weights` `(` $weights `)` attr-dict
  }];
  let hasVerifier = 1;
}

def Phaedrus_PredictOp : Phaedrus_Op<"predict", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Asks a model for the profile of a run that has not happened";
  let description = [{
    Requests a prediction of `model` for the run described by `input`.
    `--phaedrus-predict` evaluates it (with oneDNN) and replaces it with
    profile attributes of provenance `model` on the module's functions and
    branches.

    Example:

    ```mlir
    phaedrus.predict @m input(#phaedrus.input<argv = ["bzip2", "-9", "big.txt"]>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$model, Phaedrus_InputDescriptorAttr:$input);
  let hasVerifier = 1;
  let assemblyFormat = "$model `input` `(` $input `)` attr-dict";
}

#endif // PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSOPS_TD
