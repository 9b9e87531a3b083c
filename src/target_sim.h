/*
** target_sim.h — the CUDA simulator's target (target_sim in lower.h) and
** the kernel entries it builds: i32 entry(LmErr *err, void **params), the
** SimEntry of simrun.h.
*/
#ifndef target_sim_h
#define target_sim_h

#include <stdbool.h>

#include <llvm-c/Core.h>

#include "compile.h"
#include "simrun.h"

/* What an entry does: prep loads the parameters once (params: i8**), call
** runs one thread and returns its i32 status. */
typedef struct TsimBody {
  void (*prep)(void *ud, LLVMBuilderRef b, LLVMValueRef params);
  LLVMValueRef (*call)(void *ud, LLVMBuilderRef b, LLVMValueRef err);
  void *ud;
} TsimBody;

/* Adds entry `name` to M: with loop, the body runs for every threadIdx of
** the block (a SimKernel without fibers), else once (one fiber). */
LLVMValueRef tsim_build_entry(LLVMModuleRef M, LLVMBuilderRef b, const char *name, bool loop,
                              const TsimBody *body);

/* After lower_module with target_sim: the entry of the kernel spec (its name
** in the arena); fills k->fibers and k->stack (k->entry comes from the JIT). */
const char *tsim_kernel_entry(Compile *C, FuncSpec *spec, SimKernel *k);

#endif
