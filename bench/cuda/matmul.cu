/*
** matmul.cu — C = A B for n x n float32 matrices with 16 x 16 tiles in
** shared memory: the algorithm of bench/kernels/cuda_matmul.py, line for
** line (x = column, y = row; bounds checked). A and B come from the MINSTD
** streams of seed and seed + 1; the check is the sum of C as float64.
** usage: matmul [n seed reps]
*/
#include "bench_cuda.h"

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int64_t n) {
  __shared__ float sA[TILE][TILE];
  __shared__ float sB[TILE][TILE];
  int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int64_t t = 0; t < (n + TILE - 1) / TILE; t++) {
    int64_t k = t * TILE;
    sA[ty][tx] = (y < n && k + tx < n) ? A[y * n + k + tx] : 0.0f;
    sB[ty][tx] = (k + ty < n && x < n) ? B[(k + ty) * n + x] : 0.0f;
    __syncthreads();
    for (int j = 0; j < TILE; j++) acc += sA[ty][j] * sB[j][tx];
    __syncthreads();
  }
  if (y < n && x < n) C[y * n + x] = acc;
}

typedef struct Ctx { float *a, *b, *c; int64_t n; } Ctx;

static void step(void *p) {
  Ctx *c = (Ctx *)p;
  dim3 grid((unsigned)((c->n + TILE - 1) / TILE), (unsigned)((c->n + TILE - 1) / TILE)), block(TILE, TILE);
  matmul_tiled<<<grid, block>>>(c->a, c->b, c->c, c->n);
}

int main(int argc, char **argv) {
  int64_t n = arg_int(argc, argv, 1, 2048), seed = arg_int(argc, argv, 2, 31);
  int reps = (int)arg_int(argc, argv, 3, 20);
  size_t sz = sizeof(float) * (size_t)(n * n);
  float *h = (float *)xmalloc(sz);
  Ctx c = {NULL, NULL, NULL, n};
  CK(cudaMalloc(&c.a, sz));
  CK(cudaMalloc(&c.b, sz));
  CK(cudaMalloc(&c.c, sz));
  fill_uniform_f32(h, n * n, seed);
  CK(cudaMemcpy(c.a, h, sz, cudaMemcpyHostToDevice));
  fill_uniform_f32(h, n * n, seed + 1);
  CK(cudaMemcpy(c.b, h, sz, cudaMemcpyHostToDevice));
  double t[MAX_REPS];
  time_events(step, &c, 3, reps, t);
  CK(cudaMemcpy(h, c.c, sz, cudaMemcpyDeviceToHost));
  double check = 0.0;
  for (int64_t i = 0; i < n * n; i++) check += (double)h[i];
  print_row("matmul", t, reps, 1, check);
  return 0;
}
