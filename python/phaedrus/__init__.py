"""Phaedrus: predict a program's dynamic behaviour for unseen inputs and lower
the prediction into LLVM's profile. This package holds the `phaedrus` driver,
training (PyTorch), evaluation and plots. The version is the project's
(CMakeLists.txt), which the tools print with --version."""

__version__ = "0.1.0"
