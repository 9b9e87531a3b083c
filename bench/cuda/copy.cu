/*
** copy.cu — the device-to-device copy roof (cudaMemcpyAsync of n float64
** between two device buffers; read and write both count) and host <->
** device transfers of 1 GiB from pageable (malloc, touched) and pinned
** (cudaMallocHost) memory, each timed with events.
** usage: copy [n reps transfer_bytes transfer_reps]
*/
#include "bench_cuda.h"

typedef struct Ctx { void *dst; const void *src; size_t bytes; cudaMemcpyKind kind; } Ctx;

static void step(void *p) {
  Ctx *c = (Ctx *)p;
  CK(cudaMemcpyAsync(c->dst, c->src, c->bytes, c->kind, 0));
}

int main(int argc, char **argv) {
  int64_t n = arg_int(argc, argv, 1, 100000000);
  int reps = (int)arg_int(argc, argv, 2, 20);
  size_t tb = (size_t)arg_int(argc, argv, 3, (int64_t)1 << 30);
  int treps = (int)arg_int(argc, argv, 4, 5);
  double t[MAX_REPS];
  void *a, *b;
  CK(cudaMalloc(&a, sizeof(double) * (size_t)n));
  CK(cudaMalloc(&b, sizeof(double) * (size_t)n));
  CK(cudaMemset(a, 0, sizeof(double) * (size_t)n));
  Ctx c = {b, a, sizeof(double) * (size_t)n, cudaMemcpyDeviceToDevice};
  time_events(step, &c, 3, reps, t);
  print_row("copy", t, reps, 0, 0.0);
  CK(cudaFree(a));
  CK(cudaFree(b));

  void *d, *pageable, *pinned;
  CK(cudaMalloc(&d, tb));
  pageable = xmalloc(tb);
  memset(pageable, 1, tb);
  CK(cudaMallocHost(&pinned, tb));
  memset(pinned, 1, tb);
  struct { const char *id; void *dst; const void *src; cudaMemcpyKind kind; } tr[4] = {
    {"h2d-pageable", d, pageable, cudaMemcpyHostToDevice},
    {"d2h-pageable", pageable, d, cudaMemcpyDeviceToHost},
    {"h2d-pinned", d, pinned, cudaMemcpyHostToDevice},
    {"d2h-pinned", pinned, d, cudaMemcpyDeviceToHost},
  };
  for (int i = 0; i < 4; i++) {
    Ctx ct = {tr[i].dst, tr[i].src, tb, tr[i].kind};
    time_events(step, &ct, 1, treps, t);
    print_row(tr[i].id, t, treps, 0, 0.0);
  }
  CK(cudaFreeHost(pinned));
  free(pageable);
  CK(cudaFree(d));
  return 0;
}
