/*
** jit_impl.h — what jit_cpu.c (the JIT) and jit_code.c (its removable
** code records) share; private to the two.
*/
#ifndef jit_impl_h
#define jit_impl_h

#include <stddef.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/TargetMachine.h>

#include "jit_cpu.h"

struct LmJit {
  LLVMOrcThreadSafeContextRef tsc;  // context modules are built in
  LLVMOrcLLJITRef jit;              // owns added modules, objects and code
  LLVMOrcJITDylibRef jd;            // the JIT's main JITDylib (owned by jit)
  LLVMTargetMachineRef tm;          // host TM for the optimiser and emission
  char *triple, *cpu, *features;    // from LLVM: LLVMDisposeMessage
  char *session_err;                // last error the ExecutionSession reported (malloc'd)
  unsigned added;                   // modules and objects added (maps_guard checks every so many)
  JitCode *codes;                   // every live JitCode (jit_free detaches them)
  long ncodes;
  JitCode **index;                  // published JitCodes by key: nindex buckets
  size_t nindex, nkeyed;
  unsigned removed;                 // code removed since the symbol pool was last swept
};

struct JitCode {
  LmJit *J;                         // NULL once detached (the JIT is gone)
  LLVMOrcResourceTrackerRef rt;     // tracks what was added with it; NULL once detached
  LLVMOrcThreadSafeContextRef tsc;  // its module's own context, until jit_code_drop_context
  int refs;
  int ndeps, capdeps;
  JitCode **deps;                   // code it calls (one reference each)
  char *key, *symbol, *ir;          // when published (malloc'd)
  JitCode *prev, *next;             // J->codes
  JitCode *hnext;                   // J->index bucket
};

/* a malloc'd formatted message into *err (err may be NULL) */
void jit_seterr(char **err, const char *fmt, ...);
/* consumes e and reports "what: message" */
void jit_seterr_llvm(char **err, const char *what, LLVMErrorRef e);
/* counts an added module or object; -1 and *err when too few memory
** mappings are left for more (jit_cpu.c) */
int jit_maps_guard(LmJit *J, char **err);
/* M (built in tsc; taken, also on failure) or a copy of obj, added to J's
** main JITDylib under rt (NULL: for good); 0, or -1 and *err */
int jit_add_module_rt(LmJit *J, LLVMOrcResourceTrackerRef rt, LLVMOrcThreadSafeContextRef tsc,
                      LLVMModuleRef M, char **err);
int jit_add_object_rt(LmJit *J, LLVMOrcResourceTrackerRef rt, const char *obj, size_t len, char **err);
/* every live code record leaves J, its tracker released (before the LLJIT goes) */
void jit_detach_codes(LmJit *J);

#endif
