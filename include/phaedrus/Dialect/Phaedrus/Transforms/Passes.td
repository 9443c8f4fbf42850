//===- Passes.td - phaedrus passes -------------------------*- tablegen -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PASSES_TD
#define PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PhaedrusInstrumentPass : Pass<"phaedrus-instrument", "::mlir::ModuleOp"> {
  let summary = "Instrument an LLVM-dialect program to record its whole program path";
  let description = [{
    Makes the program record every function entry, with the call site it
    came from, into a trace file through `libphaedrus_rt`. Works on
    LLVM-dialect modules as `mlir-translate --import-llvm` makes them from
    clang-22 IR. The result must be linked into an executable together
    with `libphaedrus_rt.a`: the runtime's thread-locals are declared
    `dso_local`, so that code reaches them at a fixed offset from the
    thread pointer (x86-64: `%fs:offset`, local-exec), which a shared
    library cannot do (the linker refuses it). When the program carries
    clang's TBAA, the instrumentation's loads and stores of its own memory
    get TBAA types of their own ("phaedrus pending site", "phaedrus
    cursor", "phaedrus event"), so that LLVM keeps the program's values in
    registers across a record.

    With `granularity=path` it also records Ball-Larus acyclic paths: each
    function keeps its current path number in a local (edge increments, so
    most edges cost nothing). A path ends at a back edge, on an edge into a
    target of a computed goto (`llvm.indirectbr`) or at a return. Runs of
    the same path completed consecutively are counted in locals and
    recorded as three words (`0x80000000 | function`, path id, run length),
    or as one (`0xC0000000 | function << 16 | path id`) for a run of length
    1 when the function's token is below 2^14 and the id below 2^16, when
    the path changes, before every call and at returns, so that events
    stay in order and tight loops cost a compare and an add per iteration.
    A function with computed gotos (an interpreter's dispatch) records each
    path as it ends instead, without runs: its path changes at nearly every
    jump. So does a function without loops, which completes one path per
    call, at its return; when all its path ids fit the one-word form, that
    is a single store. When such a function also makes no call (and has
    no inline assembly and no `unreachable`) and every token of the
    vocabulary is below 2^14, that one word carries its entry too
    (`0x40000000 | entry token << 16 | path id`): it records nothing at
    entry, and its direct callers pass their call-site token to it as an
    extra last argument (of its direct-entry copy, or of itself when only
    recorded direct calls enter it) instead of recording it, one record
    per call instead of two. Branch frequencies and
    per-call-site path spectra follow exactly from the recorded paths.
    Functions with a single path (no branches) record no path events: their
    entry event already determines the path. A
    function with more than 2^32 - 1 acyclic paths (a long run of
    branches: 2^k paths through k if-else statements) is cut into segments:
    edges into blocks where paths multiply become break edges, as back
    edges are, from the end of the function until its paths fit
    (thresholds 2^24, 2^20, ... paths per block; edges from blocks with one
    successor first, then any). A call completes one path per segment it
    runs through; edge counts stay exact, and a branch with several break
    edges out gets them from the paths that start at their targets when no
    other break edge enters those (otherwise it is left without weights).
    The cuts depend on the function alone, so the profile passes decode
    the same numbering. A call that may throw (`llvm.invoke`, in C++ code
    with destructors or `try`) is a branch of two edges: the unwind edge,
    which can carry no code (its target must begin with the landing pad),
    takes the value 0, so that only the normal edge adds to the path
    register, and a path that ends in `llvm.resume` is recorded before it;
    the branch weights the traces give invokes are those of clang's
    instrumentation PGO. Where an exception leaves a function through a
    call that is not an invoke, clang's counts of that function's branches
    are not exact (it derives some edges by flow conservation, which the
    throw breaks) and the trace's are: a C++ user's expression evaluator
    took a loop exit 67,317 times by a counter in its source, the trace
    said 67,317 and clang's profile 75,249, so eval's overlap with clang's
    oracle counts such a difference against the exact profile. A function in which an unwind edge would have to
    end a path (a loop closed through a landing pad) records only its
    entries, with a warning, as does one with more paths than the cuts
    bring below 2^32. An exception thrown through a call that is not an
    invoke leaves the caller's path unfinished, as `longjmp` does, and so
    does `exit()` for every function still running when it is called. The
    path of the function that makes such a call is recorded where the
    compiler knows the call does not return (the block ends in
    `unreachable` after `exit`, `abort`, `longjmp` or a `noreturn`
    function): before the block's first call, its path complete on entry.
    Until 2026-11-28 it was lost too, and a taken error branch weighed 0,
    which LLVM reads as never taken (a parser that longjmps out on every
    10th item weighed [0, 9000] where it took [1000, 9000]). A
    bc user's scripts ended in `quit`, which bc runs as `exit()` from inside
    its parser: `yyparse`'s unfinished paths left a few of its branch counts
    one short of clang's, and the build of that input's own trace shared
    0.09 of the oracle's code (`yyparse` laid out in 7 KB against 41 KB),
    where the same script without `quit` shared 0.79 (2026-11-27). Let the
    runs to record end by returning from `main` where the program allows.

    Instrumented functions are those with a body that the final link keeps
    (not `available_externally`). The vocabulary has a `function` entry for
    each of them and a `call_site` entry for each direct call from one of
    them to another (call sites numbered in program order within their
    caller). Ids are assigned in sorted order of symbol names, so they only
    depend on the program, not on the build.

    * Before each such direct call, the caller records the call-site token
      inline when the callee is entered only by such calls (internal, never
      address-taken) or has a direct-entry copy; otherwise it stores the
      token (plus one) into the thread-local `__phaedrus_site`.
    * Direct-entry copies (`direct-copies=true`, the default): a function
      with direct callers that may also be entered otherwise (external, or
      address-taken) gets an internal copy `__phaedrus_direct.NAME` without
      the entry hook, and its direct calls go to the copy. Direct calls so
      cost one inline record instead of the hand-over and the callee's
      record, and LLVM inlines the small copy as it would the
      uninstrumented function. Functions that take the address of their own
      blocks get no copy.
    * At entry, each other instrumented function (not a copy, not one
      entered only by recorded direct calls) takes the pending call-site
      token (clearing it) or else its own `function` token (indirect calls,
      calls from uninstrumented code such as `qsort` callbacks, the program
      entry) and records it inline; a function to which no call site hands
      a token (with direct-entry copies, every function that can be copied)
      records its own token without reading `__phaedrus_site`: a store at
      the thread's buffer cursor
      while it is below its limit, else a call into the runtime, which
      writes the full buffer. One event is one 32-bit word, or one 16-bit
      word when every token of the vocabulary is below 2^16 (below);
      recorded by the caller it costs about seven instructions, with the
      hand-over about a dozen instructions.
    * Narrow events (`narrow-events=true`, the default, function
      granularity): when the vocabulary has at most 65,536 entries (bzip2
      and Lua 5.4 have 583 and 6,327), each event is stored as a 16-bit
      word and the runtime writes 16-bit records (`EV2Z`,
      docs/TraceFormat.md). Half the bytes per event to store, for the
      writer thread to read and compress, and for the program's thread to
      take back from the writer's caches when it refills a buffer. Against
      `narrow-events=false`
      (Lua 5.4 at scale 8, 7 interleaved rounds, median of per-round
      ratios to the uninstrumented program): queues.lua 2.23x -> 1.94x,
      gc.lua 1.58x -> 1.45x, strings.lua 1.73x -> 1.43x; the median over
      bzip2's and Lua's 30 inputs did not move (1.32x, 1.33x), code layout
      moving single inputs as much (bench/README.md). Traces read the same
      either way. Larger vocabularies, and path granularity, keep 32-bit words.
    * The cursor in registers (`thread-cursor=true`, the default). Through
      the thread-local, each record's cursor store feeds the next record's
      load, a store-to-load chain of about five cycles per record that
      out-of-order execution cannot hide when records come every few
      nanoseconds (Lua's tables.lua: one per 2 ns). So each function keeps
      the cursor in a local, which LLVM promotes to a register, and the
      functions entered only by direct calls from the module (internal
      functions and the direct-entry copies; not those with varargs, a
      result that does not fit in a register beside the cursor, an
      `llvm.invoke` or a `musttail` call) take it as an extra last
      argument and return it with their result (`{result, cursor}`, or the
      cursor alone). The others load the thread-local at entry and store it
      at their returns. Around every other call (external functions,
      indirect calls, functions entered otherwise, the runtime's slow
      paths) the local is stored to the thread-local and reloaded after,
      except for declared functions that write no memory the module can
      reach (`memory_effects` with `other` at most `read`) and the C
      library's `malloc`, `calloc`, `realloc` and `free`, which call no
      user code. Functions with an `llvm.invoke` keep recording through the
      thread-local. Side by side with `thread-cursor=false` (Lua at scale
      8, medians of 7 interleaved rounds against the uninstrumented
      program): tables.lua 1.50x -> 1.19x, strings.lua 1.35x -> 1.18x,
      objects.lua 1.43x -> 1.33x. The thread-local lags behind between
      calls out of the module, so a fatal signal's handler writes a
      crashing thread's events only up to its last such call, and a signal
      handler that runs instrumented code starts from the lagging position
      (docs/TraceFormat.md, Signal handlers: such handlers' events are not
      reliable in either mode; the runtime stays safe, and inline records
      test the cursor's offset in its own buffer, so they never write
      outside it).
    * Recording writes memory: instrumented functions, and calls of them
      and indirect calls, lose a `memory_effects` that says they write none
      (clang's for `__attribute__((const))` and `pure`), which would let
      LLVM merge or drop calls and their events.
    * A module constructor (priority 0) registers the vocabulary text and the
      module fingerprint with the runtime, which opens the trace file.

    The pass adds a `phaedrus.vocabulary @phaedrus_vocabulary` op describing
    the tokens; remove it with `--phaedrus-strip` before translating to LLVM
    IR. Re-instrumenting an instrumented module is refused.

    At function granularity the vocabulary also holds the module's call
    groups (Lemma 1): the `group` entries `--phaedrus-call-groups` would add,
    numbered the same way after the call sites. The instrumented program
    never records them; they travel with the vocabulary into every trace, so
    that `--phaedrus-call-groups` can fold a trace without reading the
    program again (Lua 5.4: 1,281 entries next to 5,046).

    The fingerprint hashes, in sorted order, each instrumented function's
    name, its number of blocks, the successor count of each block and the
    callees of its direct calls.

    Before:

    ```mlir
    llvm.func @f() { llvm.return }
    llvm.func @main() -> i32 {
      llvm.call @f() : () -> ()
      ...
    }
    ```

    After (abridged):

    ```mlir
    llvm.func @f() {            // entered other than by main's direct call
      %own = llvm.mlir.constant(0 : i32) : i32             // token of @f
      %room = llvm.icmp "ult" %cursor, %limit : !llvm.ptr
      llvm.cond_br %room weights([65535, 1]), ^store, ^call_runtime
      ...                                     // store %own, advance
      llvm.return
    }
    llvm.func internal @__phaedrus_direct.f() {   // for direct calls
      llvm.return
    }
    llvm.func @main() -> i32 {
      ...
      %s = llvm.mlir.constant(2 : i32) : i32   // call site main[0] -> f
      ...                                      // record %s inline
      llvm.call @__phaedrus_direct.f() : () -> ()
    }
    ```
  }];
  let options = [
    Option<"granularity", "granularity", "::mlir::phaedrus::Granularity",
           "::mlir::phaedrus::Granularity::Function",
           "What to record (default: function)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::phaedrus::Granularity::Function, "function",
                        "function entries with their call sites"),
             clEnumValN(::mlir::phaedrus::Granularity::Path, "path",
                        "function entries and Ball-Larus acyclic paths"))}]>,
    Option<"directCopies", "direct-copies", "bool", "true",
           "Give functions entered both by direct calls and otherwise an "
           "internal copy for the direct calls, which record their token "
           "themselves (default: true)">,
    Option<"narrowEvents", "narrow-events", "bool", "true",
           "At function granularity, record 16-bit events when every token "
           "is below 2^16 (false: always 32-bit) (default: true)">,
    Option<"threadCursor", "thread-cursor", "bool", "true",
           "Keep the event cursor in a local of each function, passed along "
           "direct calls as an argument and result, instead of in the "
           "thread-local at every record (default: true)">
  ];
  let statistics = [
    Statistic<"numPathFunctions", "path-functions",
              "Number of functions whose paths are recorded">,
    Statistic<"numFunctions", "functions", "Number of functions instrumented">,
    Statistic<"numCallSites", "call-sites", "Number of call sites instrumented">,
    Statistic<"numCallerRecorded", "caller-recorded-sites",
              "Call sites that record their token themselves (the callee is "
              "only ever called directly, or is a direct-entry copy)">,
    Statistic<"numDirectCopies", "direct-copies",
              "Functions given a direct-entry copy">,
    Statistic<"numEntriesWithPath", "entries-with-path",
              "Call sites that pass their token to a callee that records it "
              "with its path (path granularity)">,
    Statistic<"numCursorCarriers", "cursor-carriers",
              "Functions that take the event cursor as an argument and "
              "return it (thread-cursor)">,
    Statistic<"numGroupEntries", "group-entries",
              "Vocabulary entries of call groups (function granularity)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::phaedrus::PhaedrusDialect"];
}

def PhaedrusExpandPass : Pass<"phaedrus-expand", "::mlir::ModuleOp"> {
  let summary = "Expand compressed traces back into flat token sequences";
  let description = [{
    Undoes trace compression: every `phaedrus.repeat` is unrolled, every
    `phaedrus.apply` replaced by its rule's expansion and every call-group
    token (`--phaedrus-call-groups`) by the call sites it stands for, so that each
    `phaedrus.trace` ends up with a single `phaedrus.tokens` holding its
    exact token sequence. Sequences longer than `inline-limit` tokens go into
    a `dense_resource` blob named after the trace. The trace's `grammar`
    reference is dropped, and grammars no trace refers to any more are
    erased. Vocabularies keep their `group` entries: a function-granularity
    build records its call groups there (`--phaedrus-instrument`), so they
    belong to the recorded trace, and `--phaedrus-call-groups` can fold the
    expanded trace again without the program. Expansion is exact:
    compressing and expanding gives back the original trace.

    A trace whose expansion would exceed `max-tokens` is reported and left
    unchanged (the pass fails), so a highly compressed trace never exhausts
    memory by accident.

    Before:

    ```mlir
    phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
      phaedrus.tokens dense<0> : tensor<1xi32>
      phaedrus.repeat 3 {
        phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
      }
    }
    ```

    After:

    ```mlir
    phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
      phaedrus.tokens dense<[0, 1, 2, 1, 2, 1, 2]> : tensor<7xi32>
    }
    ```
  }];
  let options = [
    Option<"maxTokens", "max-tokens", "uint64_t", "uint64_t(1) << 30",
           "Refuse to expand a trace into more tokens than this (default: 2^30)">,
    Option<"inlineLimit", "inline-limit", "uint64_t", "1024",
           "Longest sequence written inline; longer ones become dense_resource blobs (default: 1024)">
  ];
  let statistics = [
    Statistic<"numTracesExpanded", "traces-expanded", "Number of traces expanded">,
    Statistic<"numTokensWritten", "tokens-written", "Number of tokens written">
  ];
}

def PhaedrusCallGroupsPass : Pass<"phaedrus-call-groups", "::mlir::ModuleOp"> {
  let summary = "Input-consistent compression: fold call groups (Lemma 1) into one token";
  let description = [{
    Lemma 1 of Phaedrus: in the absence of inter-procedural control flow,
    calls that are control dependent on the same branch and lie on the same
    side of it run equally often on every input. This pass finds such calls
    in the program's CFG and folds each occurrence of them in a
    function-granularity trace into one token, so traces of different
    inputs differ less.

    A *call group* is a chain c1, c2, ... of recorded direct call sites of
    one function where, for each link c(i) -> c(i+1): every path from c(i)
    reaches c(i+1) as the next recorded call site, without coming back to
    c(i), returning or reaching `unreachable` (a call that does not
    return); and every path into c(i+1)'s block comes from c(i) without
    another recorded call site and without passing c(i+1) twice. Then c(i)
    and c(i+1) are control equivalent (c(i) dominates c(i+1), c(i+1)
    post-dominates c(i), in the same loops) and nothing recorded runs
    between them in their function: each run of c(i) whose callee returns
    is followed, in the same invocation, by exactly one run of c(i+1).
    Calls to functions outside the trace (external, or through pointers) may
    run between members. The vocabulary gets one `group` entry per prefix of
    2 to n members of each group of n (ids after the existing ones, in the
    order of caller and call-site index, the same for every trace of the
    build).

    When the condition breaks at run time the calls stay as they were: a
    callee that does not return (`exit`, `abort`, `longjmp`, a signal), a
    trace cut short, and places where the call tree cannot be read back.
    A function trace records entries but no returns, so the tree is read
    greedily (a call from X belongs to the nearest open invocation of X);
    the token of a group stands where c1 was and c2... are put back when
    the reading leaves c1's callee (docs/architecture.md). Each member is
    folded only where that gives back the recorded trace exactly, and the
    pass checks every rewritten trace by expanding it again, so
    `--phaedrus-expand` always returns the recorded trace. Counting
    (`--phaedrus-trace-profile`, `--export-trace-counts`) counts a group
    token as an entry of each member's callee.

    The groups come from the plain program (the module the instrumented
    build was made from): the module itself if it has function bodies,
    otherwise `program`; its fingerprint must be the vocabulary's. Without
    either, the `group` entries the vocabulary already has serve: at
    function granularity `--phaedrus-instrument` puts the program's groups
    there, so traces it recorded need no program (a vocabulary without
    groups then gets a warning and its traces are left for the other folds:
    the program has none, or its build predates the recorded groups).
    Traces whose grammar the folding replaces are folded again from their
    expansion, and a grammar no trace uses any more is erased. Reading a program costs time: on a Lua
    function trace of 0.64M events (closures.lua) the pass took 0.50 to
    0.68 s with the program and 0.05 to 0.07 s without (three runs each).
    Only function-granularity traces are folded: a path-granularity trace
    records a path token before every call, so no two calls of a function
    are adjacent in it, and its path tokens already tell which calls ran.
    Traces already folded are left alone. The result is folded into repeats
    like `--phaedrus-fold-repeats` does.

    Before (`@main` calls `@init` and then `@run` in one block, so the two
    calls form a group; `@run` calls `@step` in a loop):

    ```mlir
    phaedrus.vocabulary @v fingerprint(42) {
      phaedrus.entry 0 function @main
      phaedrus.entry 1 call_site @main[0] -> @init
      phaedrus.entry 2 call_site @main[1] -> @run
      phaedrus.entry 3 call_site @run[0] -> @step
    }
    phaedrus.trace @t vocabulary(@v) fingerprint(42) input(#phaedrus.input<argv = ["p"]>) {
      phaedrus.tokens dense<[0, 1, 2, 3, 3]> : tensor<5xi32>
    }
    ```

    After:

    ```mlir
    phaedrus.vocabulary @v fingerprint(42) {
      ...
      phaedrus.entry 4 group @main[0] members [1, 2]
    }
    phaedrus.trace @t vocabulary(@v) fingerprint(42) input(<argv = ["p"]>) {
      phaedrus.tokens dense<[0, 4]> : tensor<2xi32>
      phaedrus.repeat 2 {
        phaedrus.tokens dense<3> : tensor<1xi32>
      }
    }
    ```
  }];
  let options = [
    Option<"programPath", "program", "std::string", "\"\"",
           "The plain program (phaedrus IR or LLVM dialect file) whose CFG "
           "gives the groups, when the module holds only traces (default: "
           "the groups in the traces' vocabularies)">,
    Option<"explain", "explain", "bool", "false",
           "Report each group, and why each call site that ends one has no "
           "next member, as remarks on the program's calls (default: false)">,
    Option<"maxPeriod", "max-period", "unsigned", "8",
           "Longest block of items folded into a repeat afterwards wherever it "
           "repeats (default: 8)">,
    Option<"longPeriod", "long-period", "unsigned", "2048",
           "Longest block of items folded into a repeat afterwards where a hash of its "
           "last items finds it, when it has at least 32 items and occurs "
           "three times in a row (at most 2730; 0 or at most max-period: "
           "none) (default: 2048)">,
    Option<"maxTokens", "max-tokens", "uint64_t", "uint64_t(1) << 30",
           "Refuse to fold a trace of more tokens than this (folding reads "
           "every token) (default: 2^30)">,
    Option<"minRepeatTokens", "min-repeat-tokens", "uint64_t", "0",
           "Write a repeat that stands for fewer tokens than this as its "
           "tokens (fewer ops; the same trace) (default: 0)">,
    Option<"inlineLimit", "inline-limit", "uint64_t", "1024",
           "Longest token run written inline; longer ones become dense_resource blobs (default: 1024)">
  ];
  let statistics = [
    Statistic<"numGroups", "groups", "Number of call groups in the program">,
    Statistic<"numGroupTokens", "group-tokens",
              "Number of group entries added to vocabularies">,
    Statistic<"numTracesFolded", "traces-folded", "Number of traces folded">,
    Statistic<"numTokensFolded", "tokens-folded",
              "Number of call-site tokens now implied by a group token">
  ];
  let dependentDialects = ["::mlir::phaedrus::PhaedrusDialect"];
}

def PhaedrusAugmentPass : Pass<"phaedrus-augment", "::mlir::ModuleOp"> {
  let summary = "Make plausible traces of unseen inputs from recorded ones";
  let description = [{
    Adds `copies` augmented traces per recorded trace, each made by these
    transformations (all by default; `transforms` chooses), in this order:

    * `splice`: with probability `splice-rate`, the trace is cut at a call
      and continued with another trace of the same vocabulary from a call
      in the same call context (the same open frames, entered by the same
      call-site tokens): a run that did what one input did up to there and
      what another did from there on. The context is drawn uniformly from
      those both traces have.
    * `drop-leaves`: call sites that run at most `rare-count` times, are
      leaves wherever they run (their callee calls nothing) and do not run
      at all in some recorded trace of the vocabulary are each dropped with
      probability `drop-rate`, with the callee's path tokens: the rarely
      taken paths that depend on the input. (With one recorded trace
      nothing is known to depend on the input, and nothing is dropped.)
    * `resample`: every counted repeat (loop trip counts, calls in loops)
      gets a count drawn uniformly from a log-scale bucket (as the models
      see counts: `floor(buckets-per-octave * log2 n)`) drawn uniformly
      among the non-empty buckets within `spread` of its own: a run on an
      input a little larger or smaller.

    Each augmented trace is checked against the program's static call graph
    and dropped with a warning if it breaks it: every call-site token must
    come while its caller is running and every path token while its
    function is, reading the call tree as `--phaedrus-call-groups` does, and
    a `function` token (an entry from an unknown site) must enter a
    function that can be entered so (address-taken or not internal). Every
    recorded trace is checked first; one that does not read legally is not
    augmented (a warning says where it breaks).

    Augmenting reads every event of the recorded traces and writes every
    event of each copy, whatever their repeats fold: a recorded trace of
    more than `max-events` events (call groups expanded) is not augmented,
    and a warning says how long it is (a trace that folds to a few ops may
    stand for 2^60 events). A copy that its resampled counts make longer
    than `max-events` is dropped, with a warning (a wide `spread` drew
    counts up to 2^50, and checking such a copy's every event ran for
    hours).

    The augmented trace of recorded trace `@t` number k is `@t_augk`, placed
    after `@t`, with `@t`'s input descriptor and the attribute
    `phaedrus.augmented = {from = [@t, @partner], copy = k, seed = S,
    transforms = [...]}` (the partner only when spliced, the transforms
    that changed it). It is made from the recorded token stream (call groups
    expanded) and folded into repeats like `--phaedrus-fold-repeats`.
    Traces that carry `phaedrus.augmented` are not augmented again. The
    same seed gives the same traces: each copy draws from SplitMix64 seeded
    by the seed, the trace's name and k.

    The program (for its call graph) is the module itself if it has
    function bodies, otherwise `program`; its fingerprint must be the
    vocabulary's.
  }];
  let options = [
    Option<"programPath", "program", "std::string", "\"\"",
           "The plain program (phaedrus IR or LLVM dialect file) whose call "
           "graph augmented traces must respect, when the module holds only traces">,
    Option<"copies", "copies", "unsigned", "4",
           "Augmented traces made from each recorded trace (at most 1000) (default: 4)">,
    Option<"seed", "seed", "uint64_t", "1", "Seed of the random choices (default: 1)">,
    ListOption<"transforms", "transforms", "std::string",
               "Transformations to apply: splice, drop-leaves, resample "
               "(default: all)">,
    Option<"spliceRate", "splice-rate", "double", "0.5",
           "Probability that a copy is spliced with another trace (default: 0.5)">,
    Option<"rareCount", "rare-count", "uint64_t", "2",
           "Leaf call sites that run at most this often may be dropped (default: 2)">,
    Option<"dropRate", "drop-rate", "double", "0.5",
           "Probability that each rare leaf call site is dropped (default: 0.5)">,
    Option<"spread", "spread", "unsigned", "1",
           "Buckets away from its own that a resampled count may move (default: 1)">,
    Option<"maxEvents", "max-events", "uint64_t", "uint64_t(1) << 30",
           "Augment only recorded traces of at most this many events (each is "
           "read in full, and each copy written in full), and keep only "
           "copies of at most this many (default: 2^30)">,
    Option<"bucketsPerOctave", "buckets-per-octave", "unsigned", "4",
           "Count buckets per doubling (the models' is 4) (default: 4)">,
    Option<"maxPeriod", "max-period", "unsigned", "8",
           "Longest block of items folded into a repeat wherever it repeats "
           "(default: 8)">,
    Option<"longPeriod", "long-period", "unsigned", "2048",
           "Longest block of items folded into a repeat where a hash of its "
           "last items finds it, when it has at least 32 items and occurs "
           "three times in a row (at most 2730; 0 or at most max-period: "
           "none) (default: 2048)">,
    Option<"inlineLimit", "inline-limit", "uint64_t", "1024",
           "Longest token run written inline; longer ones become dense_resource blobs (default: 1024)">
  ];
  let statistics = [
    Statistic<"numAugmented", "augmented", "Number of augmented traces made">,
    Statistic<"numSpliced", "spliced", "Number of augmented traces spliced">,
    Statistic<"numLeavesDropped", "leaf-tokens-dropped",
              "Number of tokens dropped with rare leaf calls">,
    Statistic<"numCountsResampled", "counts-resampled",
              "Number of repeat counts resampled">,
    Statistic<"numSkipped", "skipped",
              "Number of recorded traces not augmented (illegal, too long, or copies rejected)">
  ];
  let dependentDialects = ["::mlir::phaedrus::PhaedrusDialect"];
}

def PhaedrusMergeTracesPass : Pass<"phaedrus-merge-traces", "::mlir::ModuleOp"> {
  let summary = "Bring the traces of other files into this module, over one vocabulary";
  let description = [{
    Each `--import-wpp` makes a module with its own vocabulary, whose path
    entries are numbered in the order that run met them. This pass reads
    the modules in `files` and adds every trace of theirs to this module,
    over this module's vocabulary of the same fingerprint (or, if it has
    none, a copy of theirs): entries are matched by what they stand for
    (kind, function, index, callee, members), path entries this vocabulary
    lacks are appended, and each trace's tokens are renumbered in place
    (its repeats stay as they are: time in the size of the IR). Passes that
    read several runs at once (`--phaedrus-augment` splices them) then see
    one vocabulary.

    A trace whose name this module has already, a trace that uses a grammar
    (merge before `--phaedrus-grammar`), a vocabulary of another build under
    this module's vocabulary's name, and call groups this vocabulary does
    not have are errors.
  }];
  let options = [
    ListOption<"files", "files", "std::string",
               "Modules (phaedrus IR files) whose traces to bring in">,
    Option<"inlineLimit", "inline-limit", "uint64_t", "1024",
           "Longest token run written inline; longer ones become dense_resource blobs (default: 1024)">
  ];
  let statistics = [
    Statistic<"numTracesMerged", "traces-merged", "Number of traces brought in">,
    Statistic<"numEntriesAdded", "entries-added",
              "Number of path entries added to vocabularies">
  ];
  let dependentDialects = ["::mlir::phaedrus::PhaedrusDialect"];
}

def PhaedrusFoldRepeatsPass : Pass<"phaedrus-fold-repeats", "::mlir::ModuleOp"> {
  let summary = "Fold the repeats of traces into nested counted repeats";
  let description = [{
    Rewrites the body of every `phaedrus.trace` (that uses no grammar) into
    its nested-repeat form: the trace is expanded as a stream and folded in
    one pass (a block of up to `max-period` items that occurs twice in a row
    becomes a `phaedrus.repeat`, which absorbs further occurrences; items are
    tokens or repeats, so loops within loops nest). Longer blocks, of 32 to
    `long-period` items, fold too when they occur three times in a row,
    where a hash of their last 4 items names the distance to their previous
    occurrence (an interpreter's loop over bytecodes, hundreds of items an
    iteration); while the last item is such a repeat, tokens are only
    compared with its expansion. Expansion of the result
    is exactly the original trace. It is the repeat-folding step of trace
    compression, and also refolds traces that were expanded or imported with
    a smaller period. Memory is the folded output; the expanded trace is
    never held. Only the last 8192 items may still fold: an item further
    back is final (the same rule as the import's folding and `--pack-wpp`'s,
    so that they fold alike; folding is greedy, so a fold that would reach
    that far back is rare).

    Before:

    ```mlir
    phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
      phaedrus.tokens dense<[0, 1, 2, 2, 1, 2, 2, 1, 2, 2]> : tensor<10xi32>
    }
    ```

    After:

    ```mlir
    phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) {
      phaedrus.tokens dense<0> : tensor<1xi32>
      phaedrus.repeat 3 {
        phaedrus.tokens dense<1> : tensor<1xi32>
        phaedrus.repeat 2 {
          phaedrus.tokens dense<2> : tensor<1xi32>
        }
      }
    }
    ```
  }];
  let options = [
    Option<"maxPeriod", "max-period", "unsigned", "8",
           "Longest block of items folded into a repeat wherever it repeats "
           "(default: 8)">,
    Option<"longPeriod", "long-period", "unsigned", "2048",
           "Longest block of items folded into a repeat where a hash of its "
           "last items finds it, when it has at least 32 items and occurs "
           "three times in a row (at most 2730; 0 or at most max-period: "
           "none) (default: 2048)">,
    Option<"maxTokens", "max-tokens", "uint64_t", "uint64_t(1) << 30",
           "Refuse to fold a trace of more tokens than this (folding reads "
           "every token) (default: 2^30)">,
    Option<"minRepeatTokens", "min-repeat-tokens", "uint64_t", "0",
           "Write a repeat that stands for fewer tokens than this as its "
           "tokens (fewer ops; the same trace) (default: 0)">,
    Option<"inlineLimit", "inline-limit", "uint64_t", "1024",
           "Longest token run written inline; longer ones become dense_resource blobs (default: 1024)">
  ];
  let statistics = [
    Statistic<"numTracesFolded", "traces-folded", "Number of traces folded">
  ];
}

def PhaedrusGrammarPass : Pass<"phaedrus-grammar", "::mlir::ModuleOp"> {
  let summary = "Grammar-compress traces with rules shared across traces";
  let description = [{
    Replaces frequent adjacent pairs of items in the traces' top-level
    sequences by rules (Re-Pair class; see `PairGrammar.h`), with one
    `phaedrus.grammar` per vocabulary shared by all its traces, so that a
    phrase common to several runs becomes one rule. Items are tokens and
    whole `phaedrus.repeat` ops (equal repeats are one symbol), so run it
    after `--phaedrus-fold-repeats`. Traces that already use a grammar are
    left alone. Expansion gives back every trace exactly.

    Before:

    ```mlir
    phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
      phaedrus.tokens dense<[1, 2, 3, 1, 2, 3, 1, 2, 3, 4]> : tensor<10xi32>
    }
    ```

    After:

    ```mlir
    phaedrus.grammar @v_grammar vocabulary(@v) {
      phaedrus.rule @r0 {
        phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
      }
      phaedrus.rule @r1 {
        phaedrus.apply @r0
        phaedrus.tokens dense<3> : tensor<1xi32>
      }
    }
    phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) grammar(@v_grammar) {
      phaedrus.apply @r1
      phaedrus.apply @r1
      phaedrus.apply @r1
      phaedrus.tokens dense<4> : tensor<1xi32>
    }
    ```
  }];
  let options = [
    Option<"minCount", "min-count", "unsigned", "3",
           "Replace only pairs that occur at least this many times (default: 3)">,
    Option<"inlineLimit", "inline-limit", "uint64_t", "1024",
           "Longest token run written inline; longer ones become dense_resource blobs (default: 1024)">
  ];
  let statistics = [
    Statistic<"numRules", "rules", "Number of grammar rules made">
  ];
}

def PhaedrusTraceProfilePass : Pass<"phaedrus-trace-profile", "::mlir::ModuleOp"> {
  let summary = "Attach measured function entry counts derived from traces";
  let description = [{
    Counts, for each function of the module that the traces' vocabulary
    names, how often the traces enter it, and attaches the result as
    `phaedrus.entry_count = #phaedrus.entry_count<N, measured, confidence = 1.0>`.
    A `function` token counts as an entry of its symbol, a `call_site` token
    as an entry of its callee. Counting works on the compressed form directly
    (a repeat multiplies its body's counts, a rule's counts are computed once
    per rule), so it costs time in the size of the IR, not of the trace.

    Traces come from the module itself and from `trace-files`: files that
    `phaedrus-translate --import-wpp` wrote, or trace files as the runtime
    wrote them (`.wpp`, told by their magic), which are counted in one pass
    without building their traces as IR (`countWpp`, as
    `--wpp-trace-counts`: seconds and megabytes where importing a long path
    trace takes minutes and gigabytes); each thread of such a file is a
    trace, named as `--import-wpp` names it (`run`, `run_t1`, ...). A trace
    must carry the fingerprint of this program (the one
    `--phaedrus-instrument` computes), or the pass fails: a trace of another
    build would attach wrong counts. That holds for the module's own traces
    too, wherever the module has function bodies (since 2026-11-27: before,
    only the files' were checked, and a merged or hand-placed trace of
    another build attached its counts wherever its ids happened to exist).
    A trace file cut short (a killed run)
    is counted as far as it is intact, with a warning. With several traces the counts are summed (like merging
    raw profiles); `trace` selects a single one. Functions the vocabulary names but the
    traces never enter get a count of 0: measured as cold. Functions outside
    the vocabulary are left alone.

    Function-granularity traces give the branch weights their call-site
    counts fix (since 2026-11-27). A call runs as often as its block (the
    first recorded call of a block; a later one can run less, after a call
    that did not return), so each block with a recorded call has a count,
    and the entry block has the entry count. Flow conservation (a block's
    inflow is its count, and so is its outflow) then fixes more: a block
    whose in-edges or out-edges are all known, an edge that is the one open
    edge into or out of a block of known count, every edge of a block that
    never ran. Every branch (`llvm.cond_br`, `llvm.switch`,
    `llvm.indirectbr`, `llvm.invoke`) whose edges are all fixed, and that
    ran, gets them as measured `phaedrus.branch_weights`; the others stay
    without (LLVM's static estimate). Counts that are not one flow (a call
    counted more often than its block can run, a trace of other code) fix
    nothing in that function. The counts are exact where every call returns
    (test_programs.py: the same run's path trace weighs every branch alike,
    switches included: bzip2 small-9, 30 of the 449 branches the path
    trace weighs; Lua closures.lua, 255 of 932; mujs, 37-39%, in a user's
    trial). A call that does not return (`exit`, a `longjmp` out of it: Lua's
    errors and coroutine yields, a JavaScript interpreter's throw) takes
    flow out of its block that conservation puts on its block's other
    edges, with nothing to tell: the trial measured Lua's `ccall` [193001,
    40015] where the run took [193001, 20015], and the loop exit of
    `unroll` on coroutines.lua [99999, 99999] for [99999, 2]. Path traces
    are not exact there either (the paths of the functions a `longjmp`
    leaves are never recorded, and a `setjmp` that returns twice counts
    the edges before it twice): on such programs both profiles are approximations. Traces with
    paths (a path-granularity vocabulary) are weighed by their paths
    alone; traces of both granularities given together get a warning,
    since their entry counts are summed and only the paths weigh branches
    (a function and a path recording of one run count it twice).

    A function with a call site that ran more than 1,024 times its entries
    (`kMaxCallsPerEntryWithoutWeights`: LLVM's static guess of about 32
    turns a loop, twice nested) in a loop (strongly connected blocks) with
    a branch that ran and has no weights (one the counts say never ran,
    such as an error check, needs none) is left without an entry count,
    with a remark naming the busiest such call: LLVM would estimate the loop's blocks from the count and take
    them for cold, as it did gawk's interpreter loop `r_interpret`, entered
    once with a call in it run 888,113 times (that run, by its own trace,
    0.935x and 0.925x as fast as with no profile in two interleaved A/Bs of
    15 and 31 rounds by CPU time; 0.970x and 0.947x without the count).
    Lua's `luaV_execute` on numeric.lua is left without one too: 1.042x and
    1.023x with its count, 1.030x and 1.021x without, the same within noise.
    A loop whose branches the call sites fix keeps its count: the weights
    say how often it turns. So does the loop of an interpreter entered once
    per interpreted call, which turns a few times per entry, unless it
    holds a branch of 16 or more ways (`kMinDispatchSuccessors`: the
    dispatch, a `switch` over opcodes or a computed `goto`) without weights
    that may have run: LLVM would spread the count evenly over the ways and
    take every opcode's calls for as hot as the loop. The JavaScript
    interpreter mujs's `jsR_run` (entered 293,656 times, 22 opcodes each)
    kept its count and grew from 17 KB to 949 KB with 7,300 inlined calls,
    its own function profile 0.964x as fast as no profile with 1.26 MB of
    code; without the count 0.976x with 332 KB (path profile 1.077x; 21
    interleaved rounds by CPU time, exc.js). Elsewhere the rule withholds
    parsers' and lexers' counts (gawk's `yyparse`, Lua's `llex`) and Lua's
    `luaV_execute` on objects.lua: gawk's wordlen.awk 1.001x -> 1.029x, Lua
    objects.lua 1.078x -> 1.072x (noise) with 399 -> 294 KB of code,
    bzip2 0.962x -> 0.964x. Measured with the function-granularity trace of
    a run, built into a binary timed on the same script or data at a larger
    size (interleaved rounds by CPU time, median speedup over no profile,
    entry counts alone -> with the call sites' weights; the path trace's
    for comparison): Lua objects.lua 1.055x -> 1.074x (path 1.124x, 31
    rounds; 1.065x -> 1.126x and 1.045x -> 1.083x in two runs of 21),
    numeric.lua 0.968x -> 0.991x (path 1.003x; 0.957x -> 0.984x, 0.970x ->
    1.034x), gawk's wordlen.awk 0.964x -> 1.008x (0.974x -> 1.003x).
    Filling the branches the counts leave open with profi's inferred flow
    as well (measured, not adopted) grew gawk's binary from 0.75 to 1.2 MB
    and was no faster beyond noise (1.033x against 1.003x; Lua objects
    1.113x against 1.126x, numeric 0.968x against 0.984x): outside what the
    counts fix, it guesses.
    `phaedrus-predict` does both with predicted counts of a
    function-granularity model. A blend of runs is one flow up to the
    rounding of each token's count, so there two counts may differ by 1 +
    1/256 of the larger (the first derivation stands); a larger
    contradiction (a model that does not blend runs, as an `lstm`) fixes
    nothing in that function.

    Path-granularity traces also give branch weights: each Ball-Larus path
    id is decoded on this (plain) module's function into the edges it took,
    and every `llvm.cond_br` and `llvm.switch` that ran gets
    `phaedrus.branch_weights` with the exact count of each successor edge.
    A branch whose edge the path numbers cannot tell apart (several back
    edges out of one block) is left unannotated.

    Before:

    ```mlir
    phaedrus.vocabulary @v fingerprint(1) {
      phaedrus.entry 0 function @main
      phaedrus.entry 1 function @work
    }
    phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
      phaedrus.tokens dense<0> : tensor<1xi32>
      phaedrus.repeat 10 { phaedrus.tokens dense<1> : tensor<1xi32> }
    }
    llvm.func @work() { llvm.return }
    ```

    After:

    ```mlir
    llvm.func @work() attributes {
        phaedrus.entry_count = #phaedrus.entry_count<10, measured, confidence = 1.0>} {
      llvm.return
    }
    ```
  }];
  let options = [
    Option<"traceName", "trace", "std::string", "\"\"",
           "Use only the trace with this symbol name (default: sum all traces)">,
    ListOption<"traceFiles", "trace-files", "std::string",
               "Also read the traces of these files: trace files as the "
               "runtime wrote them (.wpp, counted without IR) or phaedrus IR "
               "from phaedrus-translate --import-wpp; each must have been "
               "recorded from this build of the program">
  ];
  let statistics = [
    Statistic<"numFunctionsAnnotated", "functions-annotated",
              "Number of functions given an entry count">,
    Statistic<"numBranchesAnnotated", "branches-annotated",
              "Number of branches given weights from Ball-Larus path counts or call-site counts">
  ];
  let dependentDialects = ["::mlir::phaedrus::PhaedrusDialect"];
}

def PhaedrusStaticEstimatePass : Pass<"phaedrus-static-estimate", "::mlir::ModuleOp"> {
  let summary = "Attach the profile LLVM estimates without any run (a baseline)";
  let description = [{
    The profile a compiler guesses with no run at all, as phaedrus profile
    attributes with provenance `static`, for `--phaedrus-lower-profile` to
    lower like a measured or predicted one: the baseline that a prediction
    must beat to be worth its training runs (`phaedrus eval` reports it as
    the `static` build, docs/Eval.md).

    The program is translated to LLVM IR (a copy, without phaedrus ops or
    annotations), its `__builtin_expect` hints are lowered to branch
    weights as clang lowers them, and LLVM's own analyses estimate each
    function: BranchProbabilityInfo's heuristics (loop back edges and
    exits, unreachable and cold code, pointer, zero and floating-point
    comparisons, the hints) and the block frequencies BlockFrequencyInfo
    derives from them. Entry counts come from the call graph: each root
    (`main`, an address-taken function, and an externally visible function
    that no function here calls; not an `available_externally` copy, which
    the link drops and which gets no count) is entered `entry-count` times;
    each direct call enters its callee as often as its block is estimated
    to run. Recursive functions (a strongly connected component) go
    callers first: the component gets all its entries from outside, then
    its calls within it are counted once, from those entries (as LLVM's
    synthetic entry counts do), then its calls out. Each `llvm.cond_br` and
    `llvm.switch` of a function that is entered gets
    `phaedrus.branch_weights`: its block's count split by LLVM's
    probabilities. A positive estimate is at least 1 (0 would say "never
    ran", which no static estimate knows); counts saturate at 2^62. A
    function whose LLVM IR blocks do not line up with the module's (the
    module's come first, then those the translation adds for an edge that
    repeats a successor with other arguments) is left out, with a warning
    naming it, and so are the functions it calls (their count would miss
    its calls). Counts are relative: only their
    ratios mean anything, and `entry-count` sets their scale (a large one
    keeps the probabilities' resolution in integer weights). The
    confidence is 0: no run measured or predicted these counts.

    Before:

    ```mlir
    llvm.func @main(%n: i32) -> i32 {
      ...
      llvm.cond_br %done, ^exit, ^loop
      ...
    }
    ```

    After (`entry-count=1000`):

    ```mlir
    llvm.func @main(%n: i32) -> i32 attributes {
        phaedrus.entry_count = #phaedrus.entry_count<1000, static, confidence = 0.0>} {
      ...
      llvm.cond_br %done, ^exit, ^loop {phaedrus.branch_weights =
          #phaedrus.branch_weights<[1000, 31000], static, confidence = 0.0>}
      ...
    }
    ```
  }];
  let options = [
    Option<"entryCount", "entry-count", "uint64_t", "1048576",
           "How often each root function (main, address-taken, externally "
           "visible and not called here) is taken to be entered: the scale "
           "of every count (default: 1048576)">
  ];
  let statistics = [
    Statistic<"numFunctionsAnnotated", "functions-annotated",
              "Number of functions given an entry count">,
    Statistic<"numBranchesAnnotated", "branches-annotated",
              "Number of branches given weights">
  ];
  let dependentDialects = ["::mlir::phaedrus::PhaedrusDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def PhaedrusLowerProfilePass : Pass<"phaedrus-lower-profile", "::mlir::ModuleOp"> {
  let summary = "Lower phaedrus profile attributes to LLVM's profile metadata";
  let description = [{
    Turns the profile Phaedrus measured or predicted into the three pieces
    LLVM's optimizer reads:

    1. `phaedrus.entry_count` on an `llvm.func` becomes its
       `function_entry_count`;
    2. `phaedrus.branch_weights` on a branching terminator that implements
       `WeightedBranchOpInterface` (`llvm.cond_br`, `llvm.switch`,
       `cf.cond_br`, `cf.switch`) becomes its `branch_weights`, scaled
       proportionally into 32 bits when a weight is larger. On an
       `llvm.indirectbr` (a computed goto, such as an interpreter's
       dispatch), which the LLVM dialect gives no weights, it becomes the
       discardable `phaedrus.indirectbr_weights = array<i32: ...>`, which
       `--phaedrus-strip` keeps and `phaedrus-translate --mlir-to-llvmir`
       emits as the instruction's `!prof` branch weights (`mlir-translate`
       would drop it: translate with `phaedrus-translate`);
    3. a `ProfileSummary` module flag (format `InstrProf`) is computed from
       all lowered counts, with LLVM's 16 default cutoffs, so that LLVM's
       hot/cold queries see the profile at all. An existing `ProfileSummary`
       flag is replaced; other module flags are kept;
    4. unless `loop-header-weights=false`, the header blocks of irreducible
       loops (loops entered at more than one block, as a `switch` into the
       middle of a loop makes them) and the targets of an `llvm.indirectbr`
       get their block's count, where the profile determines it and the
       function ran, as the discardable `phaedrus.irr_loop_weight = N : i64`
       on their terminator, which `phaedrus-translate --mlir-to-llvmir` emits as
       `!irr_loop !{!"loop_header_weight", i64 N}`. LLVM's PGO does the
       same (`PGOUseFunc::annotateIrrLoopHeaderWeights`): branch
       probabilities alone do not say how often each header of such a loop
       is entered, and without the weights LLVM's block frequencies in an
       interpreter's dispatch loop are not the profile's. The loops are
       found as Steensgaard's loop nesting forest (the strongly connected
       components of the CFG, their headers the blocks entered from
       outside, the loops inside found without the edges into the
       headers).

    Function entry counts enter the summary as entry counts and branch
    weights as internal counts, as LLVM's `InstrProfSummaryBuilder` does
    for instrumentation profiles. The set of counts is not LLVM's: every
    weight of every weighted branch is one, where LLVM's PGO counts one
    counter per edge off its spanning tree (the hot edges are mostly on the
    tree, uncounted). A review measured 1.5-2.2 times LLVM's counts for the
    same run, and a higher hot threshold (bzip2 -9: 8,133 against 5,972);
    no function's hot or cold class changed on that input (2026-11-28).
    The phaedrus attributes are removed unless `keep-annotations` is set.

    First, unless `repair-flow=false`, each function's counts are made one
    consistent flow: a predicted profile's entry count and branch weights
    need not agree (the weights into a block summing to more than the
    weights out of it, the entry block's weights to other than the entry
    count), and LLVM's block frequencies assume they do. The repair is
    LLVM's own profile inference (profi: a min-cost flow over the blocks
    reachable from the entry; blocks that reach no exit, a loop left only
    through a call that does not return, such as `exit` or `longjmp` in a
    callee not marked `noreturn`, get a way out of the flow's own, where
    before 2026-11-28 they were left out and the flow into them was
    pushed around them), which changes the given counts as little as
    possible; only the entry count and branches that
    carry weights are written back, so a branch the profile says nothing
    about keeps LLVM's static estimate, and a function without an entry
    count (one left without it on purpose, `--phaedrus-trace-profile`)
    gets none (before 2026-11-27 it got the flow its weights implied, which
    gave gawk's interpreter loop back the count of 1 that had been
    withheld). A consistent profile passes unchanged. A function whose
    counts are all `measured` is not repaired: a run's counts are a flow
    unless the recording lost paths (a `longjmp` or an `exit` in a callee
    cuts the path it leaves, which is never recorded), and then no repair
    knows where the lost flow went; LLVM reads each branch's probabilities
    from the recorded weights (before 2026-11-28 profi's arbitrary split
    was written back: on Lua's `coroutines.lua`, `resume`'s "starting a
    coroutine?" branch became [100000, 2] where the trace and LLVM's own
    PGO agree starts are rare, and two opcodes of `luaV_execute` gained
    50,000 executions each). A function whose entry block is a loop header is left
    as it is. Cases of a switch that share a destination are one edge for
    the repair; the repaired count of that edge is split back over them in
    their given proportion (so a case the profile never takes stays at 0).

    Counts are checked before anything changes: an entry count above
    INT64_MAX, or a branch whose weights total more, is an error (LLVM and
    profi count in signed 64 bits), as is a profile attribute on an op that
    cannot carry it.

    Last, unless `mark-hot-cold=false`, functions are marked as LLVM's PGO
    instrumentation marks them when it applies a profile: a function whose
    entry count is hot for the summary (at least the minimum count of the
    99% cutoff) gets `inline_hint`; otherwise a function whose largest count
    is cold (at most the minimum count of the 99.9999% cutoff) gets the
    `cold` attribute (in `passthrough`). Only a function whose profile gives
    every block its count (a path-granularity profile), or one entered 0
    times, can be cold: a function-granularity profile counts a function's
    entries and the blocks its calls fix, not a loop that calls nothing,
    which LLVM's PGO counts (bzip2's `generateMTFValues`, entered once, its
    loop 1.4M times, was marked cold by its entry count until 2026-11-28,
    and laid out in `.text.unlikely`). The price: functions that LLVM's
    PGO does call cold, entered rarely, are no longer marked at function
    granularity either (on that bzip2 run, 4 of the 10 the change
    unmarked, among them `BZ2_compressBlock`). A function the source marks `hot`
    keeps it and is not marked cold, with a warning, as LLVM's PGO does.

    Before:

    ```mlir
    llvm.func @f() attributes {
        phaedrus.entry_count = #phaedrus.entry_count<7, model, confidence = 0.9>} {
      llvm.return
    }
    ```

    After:

    ```mlir
    llvm.module_flags [#llvm.mlir.module_flag<error, "ProfileSummary",
        #llvm.profile_summary<format = InstrProf, total_count = 7, ...>>]
    llvm.func @f() attributes {function_entry_count = 7 : i64, inline_hint} {
      llvm.return
    }
    ```

    (`inline_hint`: the only function, its count is hot for its own summary.)
  }];
  let options = [
    Option<"keepAnnotations", "keep-annotations", "bool", "false",
           "Keep the phaedrus profile attributes after lowering (default: false)">,
    Option<"emitSummary", "emit-summary", "bool", "true",
           "Emit the ProfileSummary module flag (default: true)">,
    Option<"repairFlow", "repair-flow", "bool", "true",
           "Make each function's counts a consistent flow first (profi) (default: true)">,
    Option<"markHotCold", "mark-hot-cold", "bool", "true",
           "Mark hot functions inline_hint and cold ones cold, as LLVM's PGO does (default: true)">,
    Option<"loopHeaderWeights", "loop-header-weights", "bool", "true",
           "Give irreducible loop headers and indirectbr targets their count "
           "(phaedrus.irr_loop_weight), as LLVM's PGO does (default: true)">
  ];
  let statistics = [
    Statistic<"numRepaired", "repaired-functions", "Number of functions whose counts the flow repair changed">,
    Statistic<"numHot", "hot-functions", "Number of functions marked inline_hint as hot">,
    Statistic<"numCold", "cold-functions", "Number of functions marked cold">,
    Statistic<"numEntryCounts", "entry-counts", "Number of function entry counts lowered">,
    Statistic<"numBranchWeights", "branch-weights", "Number of branch weight sets lowered">,
    Statistic<"numLoopHeaderWeights", "loop-header-weights", "Number of loop header weights set">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PhaedrusStripPass : Pass<"phaedrus-strip", "::mlir::ModuleOp"> {
  let summary = "Remove all phaedrus operations and attributes from a module";
  let description = [{
    Erases vocabularies, traces, grammars, models and predictions, and the
    `phaedrus.*` discardable attributes, leaving only the program. Run it
    after `--phaedrus-lower-profile` and before `phaedrus-translate
    --mlir-to-llvmir`. Two attributes stay: `phaedrus.indirectbr_weights`,
    the lowered weights of an `llvm.indirectbr`, and
    `phaedrus.irr_loop_weight`, a loop header's count, which are LLVM
    profile metadata the LLVM dialect has no place for; `phaedrus-translate
    --mlir-to-llvmir` emits them (`mlir-translate --mlir-to-llvmir` ignores
    them and translates the rest alike).

    Before:

    ```mlir
    phaedrus.vocabulary @v fingerprint(1) {
      phaedrus.entry 0 function @f
    }
    llvm.func @f() attributes {function_entry_count = 3 : i64,
        phaedrus.entry_count = #phaedrus.entry_count<3, measured, confidence = 1.0>} {
      llvm.return
    }
    ```

    After:

    ```mlir
    llvm.func @f() attributes {function_entry_count = 3 : i64} {
      llvm.return
    }
    ```
  }];
}

#endif // PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PASSES_TD
