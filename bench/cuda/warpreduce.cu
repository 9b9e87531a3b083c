/*
** warpreduce.cu — the sum of n float64 by a warp-shuffle block reduction,
** the algorithm of bench/kernels/cuda_warp_reduce.py: grid-stride partial
** sums, __shfl_down_sync within each warp, the 8 warps' sums through shared
** memory folded by the first warp, whose lane 0 adds them to out[0] with
** atomicAdd. x is the MINSTD stream of seed; out[0] is zeroed before each
** launch (outside the timed interval). The check is the sum it computed.
** usage: warpreduce [n seed blocks reps]
*/
#include "bench_cuda.h"

#define TPB 256
#define WARPS (TPB / 32)

__global__ void warp_reduce(const double *x, double *out, int64_t n) {
  __shared__ double s[WARPS];
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  double acc = 0.0;
  while (i < n) {
    acc += x[i];
    i += stride;
  }
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xFFFFFFFFu, acc, off);
  if (lane == 0) s[w] = acc;
  __syncthreads();
  if (w == 0) {
    acc = lane < WARPS ? s[lane] : 0.0;
    for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xFFFFFFFFu, acc, off);
    if (lane == 0) atomicAdd(out, acc);
  }
}

int main(int argc, char **argv) {
  int64_t n = arg_int(argc, argv, 1, 100000000), seed = arg_int(argc, argv, 2, 777);
  int blocks = (int)arg_int(argc, argv, 3, 1024), reps = (int)arg_int(argc, argv, 4, 20);
  double *h = (double *)xmalloc(sizeof(double) * (size_t)n);
  fill_uniform(h, n, seed);
  double *x, *out;
  CK(cudaMalloc(&x, sizeof(double) * (size_t)n));
  CK(cudaMalloc(&out, sizeof(double)));
  CK(cudaMemcpy(x, h, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  double t[MAX_REPS], check = 0.0;
  for (int r = -3; r < reps; r++) {
    CK(cudaMemsetAsync(out, 0, sizeof(double), 0));
    CK(cudaEventRecord(a, 0));
    warp_reduce<<<blocks, TPB>>>(x, out, n);
    CK(cudaEventRecord(b, 0));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 0) t[r] = ms * 1e-3;
    if (r == -3) CK(cudaMemcpy(&check, out, sizeof(double), cudaMemcpyDeviceToHost));
  }
  print_row("warpreduce", t, reps, 1, check);
  return 0;
}
