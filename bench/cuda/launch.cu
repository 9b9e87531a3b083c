/*
** launch.cu — the host's cost of launching an empty kernel with 0, 1 and 3
** array arguments (<<<1, 32>>>, asynchronous): batches of `batch` launches
** timed on the host clock, each batch followed by a synchronize outside the
** timed interval; median, min and max over the batches, per launch. First,
** the first launch of the process (the module's load), context ready.
** usage: launch [batches batch]
*/
#include "bench_cuda.h"

__global__ void empty0(void) {}
__global__ void empty1(double *a) { (void)a; }
__global__ void empty3(double *a, double *b, double *c) { (void)a; (void)b; (void)c; }

int main(int argc, char **argv) {
  int batches = (int)arg_int(argc, argv, 1, 50), batch = (int)arg_int(argc, argv, 2, 100);
  double *d;
  CK(cudaMalloc(&d, sizeof(double)));  /* the context */
  double t[MAX_REPS];
  /* the first launch of the process: the driver loads the module nvcc built */
  double t0 = host_now();
  empty0<<<1, 32>>>();
  CK(cudaDeviceSynchronize());
  t[0] = host_now() - t0;
  print_row("firstlaunch", t, 1, 0, 0.0);
  for (int nargs = 0; nargs <= 3; nargs += nargs == 0 ? 1 : 2) {
    for (int b = -5; b < batches; b++) {
      CK(cudaDeviceSynchronize());
      double t0 = host_now();
      for (int i = 0; i < batch; i++) {
        if (nargs == 0) empty0<<<1, 32>>>();
        else if (nargs == 1) empty1<<<1, 32>>>(d);
        else empty3<<<1, 32>>>(d, d, d);
      }
      double t1 = host_now();
      if (b >= 0) t[b] = (t1 - t0) / batch;
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    char id[16];
    snprintf(id, sizeof id, "launch%d", nargs);
    print_row(id, t, batches, 0, 0.0);
  }
  return 0;
}
