/*
** expdecay.cu — seed 2's exponential_decay_kernel in CUDA C: out[i] =
** exp(-x[i] / tau) over n float64, 256 threads a block. x comes from the
** MINSTD stream of seed (as on the CPU); the check is the sum of out, in
** index order on the host. Row expdecay2: the same work, two elements a
** thread a block apart, both loads before the first store (not the seed's
** kernel: what reaches the copy roof).
** usage: expdecay [n seed reps]
*/
#include "bench_cuda.h"

__global__ void exponential_decay_kernel(const double *x, double *out, double tau, int64_t n) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) out[idx] = exp(-x[idx] / tau);
}

__global__ void exponential_decay_kernel2(const double *x, double *out, double tau, int64_t n) {
  int64_t w = blockDim.x, i = (int64_t)blockIdx.x * w * 2 + threadIdx.x;
  if (i + w < n) {
    double a = x[i], b = x[i + w];
    out[i] = exp(-a / tau);
    out[i + w] = exp(-b / tau);
  } else if (i < n) {
    out[i] = exp(-x[i] / tau);
  }
}

typedef struct Ctx { double *x, *out; int64_t n; } Ctx;

static void step(void *p) {
  Ctx *c = (Ctx *)p;
  exponential_decay_kernel<<<(unsigned)((c->n + 255) / 256), 256>>>(c->x, c->out, 0.5, c->n);
}

static void step2(void *p) {
  Ctx *c = (Ctx *)p;
  exponential_decay_kernel2<<<(unsigned)((c->n + 511) / 512), 256>>>(c->x, c->out, 0.5, c->n);
}

static double sum_out(const Ctx *c, double *h) {
  CK(cudaMemcpy(h, c->out, sizeof(double) * (size_t)c->n, cudaMemcpyDeviceToHost));
  double check = 0.0;
  for (int64_t i = 0; i < c->n; i++) check += h[i];
  return check;
}

int main(int argc, char **argv) {
  int64_t n = arg_int(argc, argv, 1, 100000000), seed = arg_int(argc, argv, 2, 777);
  int reps = (int)arg_int(argc, argv, 3, 20);
  double *h = (double *)xmalloc(sizeof(double) * (size_t)n);
  fill_uniform(h, n, seed);
  Ctx c = {NULL, NULL, n};
  CK(cudaMalloc(&c.x, sizeof(double) * (size_t)n));
  CK(cudaMalloc(&c.out, sizeof(double) * (size_t)n));
  CK(cudaMemcpy(c.x, h, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice));
  double t[MAX_REPS];
  time_events(step, &c, 3, reps, t);
  print_row("expdecay", t, reps, 1, sum_out(&c, h));
  CK(cudaMemset(c.out, 0, sizeof(double) * (size_t)n));
  time_events(step2, &c, 3, reps, t);
  print_row("expdecay2", t, reps, 1, sum_out(&c, h));
  return 0;
}
