/*
** libdevice.h — numba-cuda's cuda.libdevice functions (libdevice.def): a
** dense id per function, and the simulator's implementation of all of
** them behind one runtime entry (libdevice_sim.c), which kernels compiled
** for the simulator call with their arguments in LdVal slots.
*/
#ifndef libdevice_h
#define libdevice_h

#include <stdint.h>

typedef enum LdId {
#define LIBDEVICE(nm, ...) LD_##nm,
#include "libdevice.def"
#undef LIBDEVICE
  LD__COUNT
} LdId;

/* one argument or result, by the letter of its type in libdevice.def */
typedef union LdVal {
  double d;
  float f;
  int32_t i;
  int64_t l;
  int16_t h;
} LdVal;

#define LD_MAXIN 4   /* arguments a function takes (norm4d) */
#define LD_MAXOUT 3  /* its result and the pointers it writes (sincos: none, sin, cos) */

/* function id on in[0..nin): out[0] its result, out[1..] what its pointer arguments receive */
void lm_rt_libdevice(int32_t id, const LdVal *in, LdVal *out);

#endif
