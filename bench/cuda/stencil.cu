/*
** stencil.cu — one Jacobi sweep of the 2-D 5-point stencil on an n x n
** float64 grid per launch, the kernel of bench/kernels/cuda_stencil.py
** (x = column, y = row; 32 x 8 threads a block). Check: from u0 (the MINSTD
** stream of seed) in both arrays, `sweeps` sweeps ping-pong a -> b -> a ...,
** then the sum of the last array written. Timing: single sweeps a -> b.
** usage: stencil [n seed sweeps reps]
*/
#include "bench_cuda.h"

__global__ void stencil_sweep(const double *a, double *b, int64_t n, int64_t m) {
  int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int64_t i = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 1 && i < n - 1 && j >= 1 && j < m - 1)
    b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
}

typedef struct Ctx { double *a, *b; int64_t n; } Ctx;

static void sweep(const double *a, double *b, int64_t n) {
  dim3 grid((unsigned)((n + 31) / 32), (unsigned)((n + 7) / 8)), block(32, 8);
  stencil_sweep<<<grid, block>>>(a, b, n, n);
}

static void step(void *p) {
  Ctx *c = (Ctx *)p;
  sweep(c->a, c->b, c->n);
}

int main(int argc, char **argv) {
  int64_t n = arg_int(argc, argv, 1, 8192), seed = arg_int(argc, argv, 2, 99);
  int64_t sweeps = arg_int(argc, argv, 3, 10);
  int reps = (int)arg_int(argc, argv, 4, 20);
  size_t sz = sizeof(double) * (size_t)(n * n);
  double *h = (double *)xmalloc(sz);
  fill_uniform(h, n * n, seed);
  Ctx c = {NULL, NULL, n};
  CK(cudaMalloc(&c.a, sz));
  CK(cudaMalloc(&c.b, sz));
  CK(cudaMemcpy(c.a, h, sz, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(c.b, h, sz, cudaMemcpyHostToDevice));
  for (int64_t s = 0; s < sweeps; s++) {
    if (s % 2 == 0) sweep(c.a, c.b, n);
    else sweep(c.b, c.a, n);
  }
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, sweeps % 2 ? c.b : c.a, sz, cudaMemcpyDeviceToHost));
  double check = 0.0;
  for (int64_t k = 0; k < n * n; k++) check += h[k];
  double t[MAX_REPS];
  time_events(step, &c, 3, reps, t);
  print_row("stencil", t, reps, 1, check);
  return 0;
}
