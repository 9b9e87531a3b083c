/*
** dynsmem.cu — a 3-point average through a tile in dynamic shared memory,
** the algorithm of bench/kernels/cuda_dynsmem.py: each block loads its
** blockDim elements and one halo element each side (clamped at the ends)
** into `extern __shared__` memory sized at the launch, (256 + 2) float64,
** then writes out[i] = (s[t] + s[t + 1] + s[t + 2]) / 3. x is the MINSTD
** stream of seed. The check is the sum of out.
** usage: dynsmem [n seed reps]
*/
#include "bench_cuda.h"

#define TPB 256

__global__ void smooth3(const double *x, double *out, int64_t n) {
  extern __shared__ double s[];
  int64_t t = threadIdx.x;
  int64_t b0 = (int64_t)blockIdx.x * blockDim.x;
  for (int64_t j = t; j < (int64_t)blockDim.x + 2; j += blockDim.x) {
    int64_t k = b0 + j - 1;
    if (k < 0) k = 0;
    if (k > n - 1) k = n - 1;
    s[j] = x[k];
  }
  __syncthreads();
  int64_t i = b0 + t;
  if (i < n) out[i] = (s[t] + s[t + 1] + s[t + 2]) * (1.0 / 3.0);
}

int main(int argc, char **argv) {
  int64_t n = arg_int(argc, argv, 1, 100000000), seed = arg_int(argc, argv, 2, 777);
  int reps = (int)arg_int(argc, argv, 3, 20);
  double *h = (double *)xmalloc(sizeof(double) * (size_t)n);
  fill_uniform(h, n, seed);
  double *x, *out;
  CK(cudaMalloc(&x, sizeof(double) * (size_t)n));
  CK(cudaMalloc(&out, sizeof(double) * (size_t)n));
  CK(cudaMemcpy(x, h, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice));
  int blocks = (int)((n + TPB - 1) / TPB);
  size_t smem = (TPB + 2) * sizeof(double);
  double t[MAX_REPS];
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int r = -3; r < reps; r++) {
    CK(cudaEventRecord(a, 0));
    smooth3<<<blocks, TPB, smem>>>(x, out, n);
    CK(cudaEventRecord(b, 0));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 0) t[r] = ms * 1e-3;
  }
  CK(cudaMemcpy(h, out, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost));
  double check = 0.0;
  for (int64_t i = 0; i < n; i++) check += h[i];
  print_row("dynsmem", t, reps, 1, check);
  return 0;
}
