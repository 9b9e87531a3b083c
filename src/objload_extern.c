/*
** objload_extern.c — the external functions compiled CPU code may call, by name,
** for objload (objload.h): no dlsym at load time (a thread loading the
** backend holds the dynamic loader's lock for milliseconds). The names are
** those the lowering declares (builtins.def's MATH rows: libm names, and "f" for float32),
** the libm functions LLVM turns its intrinsics and library-call
** simplifications into, libc's memory functions, libgcc's helpers the code
** generator calls (as jit_cpu.c define_helpers) and lumba's runtime
** (compile.c rt_names). A name not here sends the object to the JIT.
*/
#include <math.h>
#include <string.h>

#include "complex_lua.h"
#include "libgcc.h"
#include "half_rt.h"
#include "lapack_rt.h"
#include "linalg_rt.h"
#include "nprandom_rt.h"
#include "nrt.h"
#include "objload.h"
#include "interrupt.h"
#include "stack.h"


typedef struct ExtSym {
  const char *name;
  void *addr;
} ExtSym;

#define F2(x) {#x, (void *)x}, {#x "f", (void *)x##f}

static const ExtSym table[] = {
    /* builtins.def's MATH rows and the intrinsics LLVM expands to library calls */
    F2(sqrt), F2(exp), F2(exp2), F2(expm1), F2(log), F2(log10), F2(log2), F2(log1p), F2(sin), F2(cos),
    F2(tan), F2(asin), F2(acos), F2(atan), F2(sinh), F2(cosh), F2(tanh), F2(asinh), F2(acosh), F2(atanh),
    F2(erf), F2(erfc), F2(tgamma), F2(lgamma), F2(cbrt), F2(fabs), F2(floor), F2(ceil), F2(trunc),
    F2(rint), F2(atan2), F2(hypot), F2(copysign), F2(pow), F2(fmod), F2(round), F2(nearbyint),
    F2(roundeven), F2(fmin), F2(fmax), F2(exp10), F2(ldexp), F2(sincos), F2(fma), F2(lround), F2(llround),
    F2(lrint), F2(llrint),
    /* libc */
    {"memcpy", (void *)memcpy}, {"memmove", (void *)memmove}, {"memset", (void *)memset},
    /* libgcc */
    {"__powidf2", (void *)__powidf2}, {"__powisf2", (void *)__powisf2}, {"__divti3", (void *)__divti3},
    {"__modti3", (void *)__modti3}, {"__udivti3", (void *)__udivti3}, {"__umodti3", (void *)__umodti3},
    LM_HALF_SYMS,  /* float16 conversions (half_rt.h) */
    /* lumba's runtime in core.so (par_for and the simulator's are in backend.so: such code is not loaded here) */
    {"nrt_alloc", (void *)nrt_alloc}, {"nrt_alloc_uninit", (void *)nrt_alloc_uninit}, {"nrt_incref", (void *)nrt_incref}, {"nrt_decref", (void *)nrt_decref},
    {"stack_limit", (void *)stack_limit}, {"lm_interrupt_poll", (void *)lm_interrupt_poll},
    /* matrix products (linalg_rt.h) */
    {"lm_prod_shape", (void *)lm_prod_shape}, {"lm_prod", (void *)lm_prod},
    /* np.random (nprandom_rt.h) */
    {"lm_nprand", (void *)lm_nprand}, {"lm_nprand_random", (void *)lm_nprand_random},
    {"lm_nprand_gauss", (void *)lm_nprand_gauss},
    /* complex power (complex_lua.h) */
    {"lm_rt_cpow", (void *)lm_rt_cpow}, {"lm_rt_cmath", (void *)lm_rt_cmath},
    /* np.linalg (lapack_rt.h) */
    {"lm_lapack", (void *)lm_lapack},
};

void *objload_extern(const char *name) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(table[i].name, name) == 0) return table[i].addr;
  return NULL;
}
