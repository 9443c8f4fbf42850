# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "PHAEDRUS"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.phaedrus_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%phaedrus_src", config.phaedrus_src_root))
config.substitutions.append(("%phaedrus_obj", config.phaedrus_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%{cmake-generator}", config.cmake_generator))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%c_compiler", config.c_compiler))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.phaedrus_tools_dir, append_path=True)

tools = [
    "phaedrus-opt",
    "phaedrus-translate",
    "phaedrus-featurize",
    "phaedrus-model",
    ToolSubst("mlir-translate", unresolved="fatal"),
    ToolSubst("clang", unresolved="fatal"),
    ToolSubst("opt", unresolved="fatal"),
    ToolSubst("llc", unresolved="fatal"),
    ToolSubst("llvm-profdata", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.phaedrus_tools_dir, config.llvm_tools_dir])
