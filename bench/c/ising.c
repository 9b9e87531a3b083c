/*
** ising.c — Ising energy of an N x N lattice with periodic boundaries, the
** loop of seed 1 (ising_energy_numba) in C. Built plain for the serial rows
** and with -fopenmp for the parallel rows (prange over rows there).
** usage: ising N seed
*/
#include "bench.h"

static double ising_energy(const double *spins, int64_t N, double J) {
  double energy = 0.0;
#pragma omp parallel for reduction(+ : energy) schedule(static)
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) {
      double s = spins[i * N + j];
      double neighbor_right = spins[i * N + (j + 1) % N];
      double neighbor_down = spins[((i + 1) % N) * N + j];
      energy -= J * s * (neighbor_right + neighbor_down);
    }
  }
  return energy;
}

/* called through a volatile pointer, so the compiler cannot hoist the
** kernel out of the timing loop or specialise it for the sizes */
static double (*volatile kernel)(const double *, int64_t, double) = ising_energy;

typedef struct Ctx { double *spins; int64_t N; double result; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  c->result = kernel(c->spins, c->N, 1.0);
}

int main(int argc, char **argv) {
  Ctx c;
  c.N = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  c.spins = xmalloc(sizeof(double) * (size_t)(c.N * c.N));
  fill_spins(c.spins, c.N * c.N, seed);
  bench_run(step, &c);
  bench_check(c.result);
  free(c.spins);
  return 0;
}
