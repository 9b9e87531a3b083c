/*
** bench_cuda.h — what the CUDA C references of `make bench-gpu` share: the
** MINSTD inputs of ../c/bench.h, error checks that print an ERROR line, and
** timing with CUDA events. Every program prints, per figure,
**   ROW <id> median=<s> min=<s> max=<s> reps=<n> [check=<v>]
** (seconds), the protocol of bench/run_gpu.lua.
*/
#ifndef bench_cuda_h
#define bench_cuda_h

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK(call)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      printf("ERROR %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

static inline int64_t minstd_next(int64_t s) { return s * 48271 % 2147483647; }

static inline void fill_uniform(double *x, int64_t n, int64_t seed) {
  int64_t s = seed;
  for (int64_t k = 0; k < n; k++) {
    s = minstd_next(s);
    x[k] = (double)s / 2147483647.0;
  }
}

static inline void fill_uniform_f32(float *x, int64_t n, int64_t seed) {
  int64_t s = seed;
  for (int64_t k = 0; k < n; k++) {
    s = minstd_next(s);
    x[k] = (float)((double)s / 2147483647.0);
  }
}

static inline double host_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* sorts t[0..n-1] and prints its ROW line; check is printed when has_check */
static inline void print_row(const char *id, double *t, int n, int has_check, double check) {
  qsort(t, (size_t)n, sizeof(double), cmp_double);
  double med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  printf("ROW %s median=%.9g min=%.9g max=%.9g reps=%d", id, med, t[0], t[n - 1], n);
  if (has_check) printf(" check=%.17g", check);
  printf("\n");
  fflush(stdout);
}

/* Runs step(ctx) warmup times, then reps times each between two events on
** the default stream; fills t[] with the seconds of each. */
static inline void time_events(void (*step)(void *), void *ctx, int warmup, int reps, double *t) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < warmup; i++) step(ctx);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  for (int i = 0; i < reps; i++) {
    CK(cudaEventRecord(a, 0));
    step(ctx);
    CK(cudaEventRecord(b, 0));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t[i] = ms * 1e-3;
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
}

static inline int64_t arg_int(int argc, char **argv, int i, int64_t dflt) {
  return i < argc ? strtoll(argv[i], NULL, 10) : dflt;
}

static inline void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) { puts("ERROR out of host memory"); exit(1); }
  return p;
}

#define MAX_REPS 1000

#endif
