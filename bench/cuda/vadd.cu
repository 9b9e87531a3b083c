/*
** vadd.cu — seed 5's add_kernel in CUDA C: out[i] = x[i] + y[i] over n
** float32, 256 threads a block. x and y come from the MINSTD streams of two
** seeds, rounded to float32; the check is the sum of out as float64.
** usage: vadd [n seed_x seed_y reps]
*/
#include "bench_cuda.h"

__global__ void add_kernel(const float *x, const float *y, float *out, int64_t n) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) out[idx] = x[idx] + y[idx];
}

typedef struct Ctx { float *x, *y, *out; int64_t n; } Ctx;

static void step(void *p) {
  Ctx *c = (Ctx *)p;
  add_kernel<<<(unsigned)((c->n + 255) / 256), 256>>>(c->x, c->y, c->out, c->n);
}

int main(int argc, char **argv) {
  int64_t n = arg_int(argc, argv, 1, 100000000);
  int64_t sx = arg_int(argc, argv, 2, 2718), sy = arg_int(argc, argv, 3, 3141);
  int reps = (int)arg_int(argc, argv, 4, 20);
  size_t sz = sizeof(float) * (size_t)n;
  float *h = (float *)xmalloc(sz);
  Ctx c = {NULL, NULL, NULL, n};
  CK(cudaMalloc(&c.x, sz));
  CK(cudaMalloc(&c.y, sz));
  CK(cudaMalloc(&c.out, sz));
  fill_uniform_f32(h, n, sx);
  CK(cudaMemcpy(c.x, h, sz, cudaMemcpyHostToDevice));
  fill_uniform_f32(h, n, sy);
  CK(cudaMemcpy(c.y, h, sz, cudaMemcpyHostToDevice));
  double t[MAX_REPS];
  time_events(step, &c, 3, reps, t);
  CK(cudaMemcpy(h, c.out, sz, cudaMemcpyDeviceToHost));
  double check = 0.0;
  for (int64_t i = 0; i < n; i++) check += (double)h[i];
  print_row("vadd", t, reps, 1, check);
  return 0;
}
