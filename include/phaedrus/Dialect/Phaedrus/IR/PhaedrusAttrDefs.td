//===- PhaedrusAttrDefs.td - phaedrus attributes and enums -*- tablegen -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSATTRDEFS_TD
#define PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSATTRDEFS_TD

include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Phaedrus_Provenance : I32EnumAttr<"Provenance",
    "where a profile value came from", [
      I32EnumAttrCase<"Measured", 0, "measured">,
      I32EnumAttrCase<"Model", 1, "model">,
      I32EnumAttrCase<"Static", 2, "static">,
      I32EnumAttrCase<"LLM", 3, "llm">
    ]> {
  let cppNamespace = "::mlir::phaedrus";
  let genSpecializedAttr = 0;
}

def Phaedrus_EntryKind : I32EnumAttr<"EntryKind",
    "what a vocabulary token stands for", [
      I32EnumAttrCase<"Function", 0, "function">,
      I32EnumAttrCase<"CallSite", 1, "call_site">,
      I32EnumAttrCase<"Path", 2, "path">,
      I32EnumAttrCase<"Group", 3, "group">
    ]> {
  let cppNamespace = "::mlir::phaedrus";
}

def Phaedrus_ModelKind : I32EnumAttr<"ModelKind",
    "the architecture of a phaedrus model", [
      I32EnumAttrCase<"LSTM", 0, "lstm">,
      I32EnumAttrCase<"MLP", 1, "mlp">
    ]> {
  let cppNamespace = "::mlir::phaedrus";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Phaedrus_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Phaedrus_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// A confidence is a probability-like score in [0, 1], printed so that it
// parses back to the same double.
def Phaedrus_ConfidenceParameter : AttrParameter<"::llvm::APFloat", "confidence in [0, 1]"> {
  let parser = "::mlir::phaedrus::parseConfidence($_parser)";
  let printer = "::mlir::phaedrus::printConfidence($_printer, $_self)";
}

// A count is a non-negative 64-bit integer; "-3" is refused, where the
// default parser of a uint64_t would wrap it around.
def Phaedrus_CountParameter : AttrParameter<"uint64_t", "a count"> {
  let parser = "::mlir::phaedrus::parseCount($_parser)";
}
def Phaedrus_CountArrayParameter
    : ArrayRefParameter<"uint64_t", "one weight per successor"> {
  let parser = "::mlir::phaedrus::parseCounts($_parser)";
}

def Phaedrus_EntryCountAttr : Phaedrus_Attr<"EntryCount", "entry_count"> {
  let summary = "How often a function is entered, with provenance and confidence";
  let description = [{
    The number of times a function is entered in one run (or a predicted
    run), where the number came from, and how far to trust it. Attach it to a
    function (any op implementing `FunctionOpInterface`, e.g. `llvm.func`)
    as the discardable attribute `phaedrus.entry_count`;
    `--phaedrus-lower-profile` turns it into LLVM's `function_entry_count`.

    The confidence is in [0, 1]: 1 for a measured count, the model's own
    estimate for a predicted one. (`get` in C++ does not check it in a build
    without assertions; the verifier of the function that holds the
    attribute does, as it does `#phaedrus.branch_weights`' on a branch and
    `#phaedrus.input`'s on a trace or predict op.)

    Example:

    ```mlir
    llvm.func @f() attributes {
        phaedrus.entry_count = #phaedrus.entry_count<120, model, confidence = 0.85>} {
      llvm.return
    }
    ```
  }];
  let parameters = (ins Phaedrus_CountParameter:$count,
                        EnumParameter<Phaedrus_Provenance>:$provenance,
                        Phaedrus_ConfidenceParameter:$confidence);
  let assemblyFormat = "`<` $count `,` $provenance `,` `confidence` `=` $confidence `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "uint64_t":$count, "Provenance":$provenance, "double":$confidence), [{
      return $_get($_ctxt, count, provenance, ::llvm::APFloat(confidence));
    }]>
  ];
  let extraClassDeclaration = [{
    double getConfidenceValue() const { return getConfidence().convertToDouble(); }
  }];
}

def Phaedrus_BranchWeightsAttr : Phaedrus_Attr<"BranchWeights", "branch_weights"> {
  let summary = "Relative frequencies of a branch's successors, with provenance and confidence";
  let description = [{
    One weight per successor of a branching terminator (`llvm.cond_br`,
    `llvm.switch`, `cf.cond_br`, `cf.switch`), in successor order: for a
    conditional branch the true destination first; for a switch the default
    destination first, then the cases. Attach it to the terminator as the
    discardable attribute `phaedrus.branch_weights`; the dialect checks that
    there is exactly one weight per successor. Weights are exact counts when
    measured and need not fit in 32 bits; `--phaedrus-lower-profile` scales
    them into LLVM's 32-bit `branch_weights`.

    Example:

    ```mlir
    llvm.cond_br %c, ^bb1, ^bb2 {
        phaedrus.branch_weights = #phaedrus.branch_weights<[990, 10], measured, confidence = 1.0>}
    ```
  }];
  let parameters = (ins Phaedrus_CountArrayParameter:$weights,
                        EnumParameter<Phaedrus_Provenance>:$provenance,
                        Phaedrus_ConfidenceParameter:$confidence);
  let assemblyFormat = "`<` `[` $weights `]` `,` $provenance `,` `confidence` `=` $confidence `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<uint64_t>":$weights, "Provenance":$provenance, "double":$confidence), [{
      return $_get($_ctxt, weights, provenance, ::llvm::APFloat(confidence));
    }]>
  ];
  let extraClassDeclaration = [{
    double getConfidenceValue() const { return getConfidence().convertToDouble(); }
  }];
}

def Phaedrus_InputFileAttr : Phaedrus_Attr<"InputFile", "file"> {
  let summary = "Metadata of one input file of a run";
  let description = [{
    An input file as the featurizer and the trace header see it: its path as
    given on the command line, its size in bytes, and a 64-bit content digest
    (FNV-1a of its first 64 KiB; 0 when it was not read).

    Example:

    ```mlir
    #phaedrus.file<"corpus/alice.txt", size = 152089, digest = 1209381>
    ```
  }];
  let parameters = (ins StringRefParameter<"path as given to the program">:$path,
                        "uint64_t":$size,
                        DefaultValuedParameter<"uint64_t", "0">:$digest);
  let assemblyFormat = "`<` $path `,` `size` `=` $size (`,` `digest` `=` $digest^)? `>`";
}

def Phaedrus_InputDescriptorAttr : Phaedrus_Attr<"InputDescriptor", "input"> {
  let summary = "Describes the input of one run: its command line and input files";
  let description = [{
    What is known about a run before it happens: its argument vector
    (`argv`, program name first), metadata of its input files, the file
    it reads on standard input (`stdin`), if any, and the locale variables
    it runs under (`locale`: the ones set, by name, such as `LC_ALL` and
    `LANG`; an empty dictionary when none is set, absent when not known). Traces
    record the descriptor of the run that produced them; `phaedrus.predict`
    names the descriptor of the run to predict. Every element of `argv` is a
    string and every element of `files` a `#phaedrus.file`.

    Example:

    ```mlir
    #phaedrus.input<argv = ["bzip2", "-9", "-c", "alice.txt"],
                    files = [#phaedrus.file<"alice.txt", size = 152089>]>
    #phaedrus.input<argv = ["grep", "-i", "error", "log.txt"],
                    locale = {LANG = "en_US.UTF-8"}>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$argv,
                        OptionalParameter<"::mlir::ArrayAttr">:$files,
                        OptionalParameter<"::mlir::StringAttr">:$stdin,
                        OptionalParameter<"::mlir::DictionaryAttr">:$locale);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSATTRDEFS_TD
