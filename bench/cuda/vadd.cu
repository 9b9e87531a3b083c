/*
** vadd.cu — seed 5's add_kernel in CUDA C: out[i] = x[i] + y[i] over n
** float32, 256 threads a block. x and y come from the MINSTD streams of two
** seeds, rounded to float32; the check is the sum of out as float64. Row
** vadd4: the same work, four elements a thread a block apart, every load
** before the first store (not the seed's kernel: what reaches the roof).
** usage: vadd [n seed_x seed_y reps]
*/
#include "bench_cuda.h"

__global__ void add_kernel(const float *x, const float *y, float *out, int64_t n) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) out[idx] = x[idx] + y[idx];
}

__global__ void add_kernel4(const float *x, const float *y, float *out, int64_t n) {
  int64_t w = blockDim.x, i = (int64_t)blockIdx.x * w * 4 + threadIdx.x;
  if (i + 3 * w < n) {
    float a0 = x[i] + y[i], a1 = x[i + w] + y[i + w];
    float a2 = x[i + 2 * w] + y[i + 2 * w], a3 = x[i + 3 * w] + y[i + 3 * w];
    out[i] = a0;
    out[i + w] = a1;
    out[i + 2 * w] = a2;
    out[i + 3 * w] = a3;
  } else {
    for (int k = 0; k < 4; k++) {
      int64_t j = i + k * w;
      if (j < n) out[j] = x[j] + y[j];
    }
  }
}

typedef struct Ctx { float *x, *y, *out; int64_t n; } Ctx;

static void step(void *p) {
  Ctx *c = (Ctx *)p;
  add_kernel<<<(unsigned)((c->n + 255) / 256), 256>>>(c->x, c->y, c->out, c->n);
}

static void step4(void *p) {
  Ctx *c = (Ctx *)p;
  add_kernel4<<<(unsigned)((c->n + 1023) / 1024), 256>>>(c->x, c->y, c->out, c->n);
}

static double sum_out(const Ctx *c, float *h) {
  CK(cudaMemcpy(h, c->out, sizeof(float) * (size_t)c->n, cudaMemcpyDeviceToHost));
  double check = 0.0;
  for (int64_t i = 0; i < c->n; i++) check += (double)h[i];
  return check;
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
  print_row("vadd", t, reps, 1, sum_out(&c, h));
  CK(cudaMemset(c.out, 0, sz));
  time_events(step4, &c, 3, reps, t);
  print_row("vadd4", t, reps, 1, sum_out(&c, h));
  return 0;
}
