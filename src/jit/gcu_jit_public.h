// gcu_jit_public.h — the JIT's public functions live in include/grbcuda.h
// (grbcuda_register_type, grbcuda_register_binop); this header only points
// there for the JIT's own sources.
#ifndef GCU_JIT_PUBLIC_H
#define GCU_JIT_PUBLIC_H
#include "grbcuda.h"
#endif
