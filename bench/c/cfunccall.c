/*
** cfunccall.c — a right-hand side y' = t - y/2 called n times through a
** function pointer by an Euler loop (the @cfunc row: lumba's and Numba's
** cfunc are called through their address the same way, bench/c/lclock.c's
** cfunc_drive). The pointer is read from a volatile, so the call stays an
** indirect call, as a C library calling a user's callback.
** usage: cfunccall n
*/
#include "bench.h"

static double rhs(double t, double y) { return t - 0.5 * y; }

static double (*volatile callback)(double, double) = rhs;

typedef struct Ctx { int64_t n; double result; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  double (*f)(double, double) = callback;
  double y = 1.0, t = 0.0;
  for (int64_t i = 0; i < c->n; i++) {
    y += 1e-7 * f(t, y);
    t += 1e-7;
  }
  c->result = y;
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  bench_run(step, &c);
  bench_check(c.result);
  return 0;
}
