/*
** heat_coop.cu — `steps` explicit steps of the 1-D heat equation in one
** cooperative launch, the algorithm of bench/kernels/cuda_heat_coop.py: the
** grid strides over the rod, ping-pongs between u and v and syncs the grid
** (cooperative_groups::this_grid().sync()) once a step. u starts as the
** MINSTD stream of seed, v as a copy. The check is the sum of u after the
** first launch (an even number of steps ends in u).
** usage: heat_coop [n steps blocks seed reps]
*/
#include <cooperative_groups.h>

#include "bench_cuda.h"

#define TPB 256

__global__ void heat_coop(double *u, double *v, int64_t n, int64_t steps, double alpha) {
  cooperative_groups::grid_group g = cooperative_groups::this_grid();
  int64_t start = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t s = 0; s < steps; s++) {
    for (int64_t i = start; i < n; i += stride) {
      if (i > 0 && i < n - 1) {
        if (s % 2 == 0) v[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
        else u[i] = v[i] + alpha * (v[i - 1] - 2.0 * v[i] + v[i + 1]);
      }
    }
    g.sync();
  }
}

int main(int argc, char **argv) {
  int64_t n = arg_int(argc, argv, 1, 1 << 20), steps = arg_int(argc, argv, 2, 10000);
  int blocks = (int)arg_int(argc, argv, 3, 256);
  int64_t seed = arg_int(argc, argv, 4, 55);
  int reps = (int)arg_int(argc, argv, 5, 5);
  double alpha = 0.25;
  double *h = (double *)xmalloc(sizeof(double) * (size_t)n);
  fill_uniform(h, n, seed);
  double *u, *v;
  CK(cudaMalloc(&u, sizeof(double) * (size_t)n));
  CK(cudaMalloc(&v, sizeof(double) * (size_t)n));
  CK(cudaMemcpy(u, h, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(v, h, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice));
  void *args[] = {&u, &v, &n, &steps, &alpha};
  CK(cudaLaunchCooperativeKernel((void *)heat_coop, blocks, TPB, args, 0, 0));
  CK(cudaMemcpy(h, u, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost));
  double check = 0.0;
  for (int64_t i = 0; i < n; i++) check += h[i];
  double t[MAX_REPS];
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int r = -1; r < reps; r++) {
    CK(cudaEventRecord(a, 0));
    CK(cudaLaunchCooperativeKernel((void *)heat_coop, blocks, TPB, args, 0, 0));
    CK(cudaEventRecord(b, 0));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 0) t[r] = ms * 1e-3;
  }
  print_row("heatcoop", t, reps, 1, check);
  return 0;
}
