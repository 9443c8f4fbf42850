//===- PhaedrusDialect.h - The phaedrus dialect -----------------*- C++ -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSDIALECT_H
#define PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSDIALECT_H

#include "mlir/IR/Dialect.h"

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.h.inc"

#endif // PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSDIALECT_H
