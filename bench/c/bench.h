/*
** bench.h — the harness shared by the C references: the deterministic
** inputs every tool generates alike (MINSTD), timing with clock_gettime,
** and the RESULT line every runner of the suite prints.
*/
#ifndef bench_h
#define bench_h

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* MINSTD (Park-Miller): s' = s * 48271 mod (2^31 - 1). Every product stays
** below 2^53, so Lua 5.4, LuaJIT (doubles), Python and C all agree exactly. */
#define MINSTD_M 2147483647
static inline int64_t minstd_next(int64_t s) { return s * 48271 % MINSTD_M; }

/* x[k] = s_{k+1} / (2^31 - 1), in (0, 1); exact in every tool */
static inline void fill_uniform(double *x, int64_t n, int64_t seed) {
  int64_t s = seed;
  for (int64_t k = 0; k < n; k++) {
    s = minstd_next(s);
    x[k] = (double)s / 2147483647.0;
  }
}

/* spins of +1.0 / -1.0, row-major */
static inline void fill_spins(double *x, int64_t n, int64_t seed) {
  int64_t s = seed;
  for (int64_t k = 0; k < n; k++) {
    s = minstd_next(s);
    x[k] = s >= 1073741824 ? 1.0 : -1.0;
  }
}

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* How long to measure: env BENCH_WARMUP runs untimed, then timed runs until
** at least BENCH_MINREPS and BENCH_BUDGET seconds, at most BENCH_MAXREPS. */
typedef struct BenchCfg {
  int warmup, minreps, maxreps;
  double budget;
} BenchCfg;

static inline double env_num(const char *name, double dflt) {
  const char *v = getenv(name);
  return v && *v ? atof(v) : dflt;
}

static inline BenchCfg bench_cfg(void) {
  BenchCfg c;
  c.warmup = (int)env_num("BENCH_WARMUP", 2);
  c.minreps = (int)env_num("BENCH_MINREPS", 5);
  c.maxreps = (int)env_num("BENCH_MAXREPS", 100);
  c.budget = env_num("BENCH_BUDGET", 1.0);
  if (c.minreps < 1) c.minreps = 1;
  if (c.maxreps < c.minreps) c.maxreps = c.minreps;
  return c;
}

static inline int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Times step(ctx) as BenchCfg says and prints
** "RESULT median=.. min=.. max=.. reps=..". The check value is printed
** by the caller afterwards (it may need the kernel's output). */
static inline void bench_run(void (*step)(void *), void *ctx) {
  BenchCfg c = bench_cfg();
  double *t = malloc(sizeof(double) * (size_t)c.maxreps);
  if (!t) { puts("ERROR out of memory"); exit(1); }
  for (int i = 0; i < c.warmup; i++) step(ctx);
  int n = 0;
  double start = bench_now();
  for (;;) {
    double t0 = bench_now();
    step(ctx);
    double t1 = bench_now();
    t[n++] = t1 - t0;
    if (n >= c.maxreps || (n >= c.minreps && t1 - start >= c.budget)) break;
  }
  qsort(t, (size_t)n, sizeof(double), cmp_double);
  double med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  printf("TIME median=%.9g min=%.9g max=%.9g reps=%d\n", med, t[0], t[n - 1], n);
  free(t);
}

static inline void bench_check(double v) { printf("CHECK %.17g\n", v); }

static inline int64_t arg_int(int argc, char **argv, int i) {
  if (i >= argc) { fprintf(stderr, "%s: missing argument %d\n", argv[0], i); exit(2); }
  return strtoll(argv[i], NULL, 10);
}

static inline double arg_num(int argc, char **argv, int i) {
  if (i >= argc) { fprintf(stderr, "%s: missing argument %d\n", argv[0], i); exit(2); }
  return strtod(argv[i], NULL);
}

static inline void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) { puts("ERROR out of memory"); exit(1); }
  return p;
}

#endif
