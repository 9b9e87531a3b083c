/*
** vecmath.h — a vector math library for calls fast-math allows (afn): the
** loop vectoriser then calls one vector exp per vector instead of one scalar
** glibc exp per lane.
*/
#ifndef vecmath_h
#define vecmath_h

#include <llvm-c/Core.h>

/* The library in use, decided once per process at run time: "libmvec",
** "sleef", or "none" when $LUMBA_VECMATH says none or the library cannot be
** loaded (then calls stay scalar). Loads the library (RTLD_GLOBAL, so the
** JIT's process symbol search finds it) on the first call. */
const char *vecmath_name(void);

/* Marks every call of llvm.{exp,log,sin,cos,pow}.{f32,f64} in m with the
** library's vector variants (LLVM's "vector-function-abi-variant" call-site
** attribute) for the vector widths the CPU features allow, and declares
** them. Call only on modules compiled with afn, before the optimiser. No-op
** when vecmath_name() is "none". */
void vecmath_annotate(LLVMModuleRef m, const char *cpu_features);

#endif
