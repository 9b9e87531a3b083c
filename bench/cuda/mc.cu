/*
** mc.cu — Monte-Carlo integration of 4 / (1 + x^2) over [0, 1) with
** numba-cuda's xoroshiro128+ streams, the algorithm of
** bench/kernels/cuda_mc.py: the states are made on the host as numba-cuda
** makes them (SplitMix64 of the seed, then one 2^64-step jump a state), each
** thread draws `samples` uniforms (x >> 11) * 2^-53 and writes its sum. The
** check is the sum of the first launch's outputs (later launches go on
** drawing from the same streams).
** usage: mc [threads samples seed reps]
*/
#include "bench_cuda.h"

#define TPB 256

static uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static void step(uint64_t *s) {
  uint64_t s0 = s[0], s1 = s[1] ^ s[0];
  s[0] = rotl(s0, 55) ^ s1 ^ (s1 << 14);
  s[1] = rotl(s1, 36);
}

static void jump(uint64_t *s) {
  static const uint64_t J[2] = {0xbeac0467eba5facbull, 0xd86b048b86aa9922ull};
  uint64_t a = 0, b = 0;
  for (int w = 0; w < 2; w++)
    for (int bit = 0; bit < 64; bit++) {
      if ((J[w] >> bit) & 1) {
        a ^= s[0];
        b ^= s[1];
      }
      step(s);
    }
  s[0] = a;
  s[1] = b;
}

__device__ double uniform_float64(uint64_t *states, int64_t i) {
  uint64_t s0 = states[2 * i], s1 = states[2 * i + 1];
  uint64_t r = s0 + s1;
  s1 ^= s0;
  states[2 * i] = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14);
  states[2 * i + 1] = (s1 << 36) | (s1 >> 28);
  return (double)(r >> 11) * (1.0 / 9007199254740992.0);
}

__global__ void mc_integrate(uint64_t *states, double *out, int64_t n, int64_t samples) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double acc = 0.0;
    for (int64_t k = 0; k < samples; k++) {
      double x = uniform_float64(states, i);
      acc += 4.0 / (1.0 + x * x);
    }
    out[i] = acc;
  }
}

int main(int argc, char **argv) {
  int64_t n = arg_int(argc, argv, 1, 1 << 20), samples = arg_int(argc, argv, 2, 1000);
  int64_t seed = arg_int(argc, argv, 3, 1);
  int reps = (int)arg_int(argc, argv, 4, 20);
  uint64_t *h = (uint64_t *)xmalloc(sizeof(uint64_t) * 2 * (size_t)n);
  h[0] = h[1] = splitmix64((uint64_t)seed);
  for (int64_t i = 1; i < n; i++) {
    h[2 * i] = h[2 * i - 2];
    h[2 * i + 1] = h[2 * i - 1];
    jump(&h[2 * i]);
  }
  uint64_t *states;
  double *out;
  CK(cudaMalloc(&states, sizeof(uint64_t) * 2 * (size_t)n));
  CK(cudaMalloc(&out, sizeof(double) * (size_t)n));
  CK(cudaMemcpy(states, h, sizeof(uint64_t) * 2 * (size_t)n, cudaMemcpyHostToDevice));
  int blocks = (int)((n + TPB - 1) / TPB);
  mc_integrate<<<blocks, TPB>>>(states, out, n, samples);
  CK(cudaGetLastError());
  double *o = (double *)xmalloc(sizeof(double) * (size_t)n), check = 0.0;
  CK(cudaMemcpy(o, out, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost));
  for (int64_t i = 0; i < n; i++) check += o[i];
  double t[MAX_REPS];
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int r = -2; r < reps; r++) {
    CK(cudaEventRecord(a, 0));
    mc_integrate<<<blocks, TPB>>>(states, out, n, samples);
    CK(cudaEventRecord(b, 0));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 0) t[r] = ms * 1e-3;
  }
  CK(cudaGetLastError());
  print_row("mc", t, reps, 1, check);
  return 0;
}
