/*
** mandelbrot.c — escape-time counts over [-2, 1] x [-1, 1] on an h x w grid,
** at most max_iter iterations, counts stored as int64. With -fopenmp the rows
** are split over threads in static chunks (prange over rows).
** The check value is sum(count[k] * (k % 97 + 1)) over the row-major index k.
** usage: mandelbrot w h max_iter
*/
#include "bench.h"

static void mandelbrot(int64_t *restrict out, int64_t h, int64_t w, int64_t max_iter) {
  double dx = 3.0 / (double)w;
  double dy = 2.0 / (double)h;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < h; i++) {
    double ci = -1.0 + (double)i * dy;
    for (int64_t j = 0; j < w; j++) {
      double cr = -2.0 + (double)j * dx;
      double zr = 0.0, zi = 0.0;
      int64_t n = 0;
      while (n < max_iter && zr * zr + zi * zi <= 4.0) {
        double zi2 = 2.0 * zr * zi + ci;
        zr = zr * zr - zi * zi + cr;
        zi = zi2;
        n += 1;
      }
      out[i * w + j] = n;
    }
  }
}

static void (*volatile kernel)(int64_t *, int64_t, int64_t, int64_t) = mandelbrot;

typedef struct Ctx { int64_t *out, w, h, max_iter; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  kernel(c->out, c->h, c->w, c->max_iter);
}

int main(int argc, char **argv) {
  Ctx c;
  c.w = arg_int(argc, argv, 1);
  c.h = arg_int(argc, argv, 2);
  c.max_iter = arg_int(argc, argv, 3);
  c.out = xmalloc(sizeof(int64_t) * (size_t)(c.w * c.h));
  bench_run(step, &c);
  int64_t check = 0;
  for (int64_t k = 0; k < c.w * c.h; k++) check += c.out[k] * (k % 97 + 1);
  bench_check((double)check);
  free(c.out);
  return 0;
}
