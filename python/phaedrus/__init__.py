"""Phaedrus: predict a program's dynamic behaviour for unseen inputs and lower
the prediction into LLVM's profile. This package holds the `phaedrus` driver
and (later) training, evaluation and plots."""

__version__ = "0.1.0"
