//===- PhaedrusOps.h - phaedrus operations ----------------------*- C++ -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSOPS_H
#define PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSOPS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusAttrs.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.h"

#define GET_OP_CLASSES
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h.inc"

#endif // PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSOPS_H
