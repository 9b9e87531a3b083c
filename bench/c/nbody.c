/*
** nbody.c — one step of the direct O(n^2) n-body method with softening, in
** float64: every body's acceleration from all n bodies (itself included; the
** softening eps2 makes that term 0), then velocity and position updates
** (semi-implicit Euler). Positions and velocities are 3 x n (one row per
** coordinate); the step reads pos, vel and writes npos, nvel, so every call
** computes the same thing. With -fopenmp both loops over bodies are split
** over threads (prange over i).
** Inputs: pos from the MINSTD stream of seed, mass from seed + 1, vel = 0.
** The check value is sum((npos[k] + nvel[k]) * (k % 97 + 1)) over the
** row-major index k, in index order.
** usage: nbody n seed dt eps2
*/
#include <math.h>

#include "bench.h"

static void nbody(const double *restrict pos, const double *restrict vel, const double *restrict mass,
                  double *restrict npos, double *restrict nvel, int64_t n, double dt, double eps2) {
  const double *px = pos, *py = pos + n, *pz = pos + 2 * n;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) {
    double xi = px[i], yi = py[i], zi = pz[i];
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (int64_t j = 0; j < n; j++) {
      double dx = px[j] - xi;
      double dy = py[j] - yi;
      double dz = pz[j] - zi;
      double r2 = dx * dx + dy * dy + dz * dz + eps2;
      double inv = mass[j] / (r2 * sqrt(r2));
      ax += dx * inv;
      ay += dy * inv;
      az += dz * inv;
    }
    nvel[i] = vel[i] + dt * ax;
    nvel[n + i] = vel[n + i] + dt * ay;
    nvel[2 * n + i] = vel[2 * n + i] + dt * az;
  }
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) {
    npos[i] = pos[i] + dt * nvel[i];
    npos[n + i] = pos[n + i] + dt * nvel[n + i];
    npos[2 * n + i] = pos[2 * n + i] + dt * nvel[2 * n + i];
  }
}

static void (*volatile kernel)(const double *, const double *, const double *, double *, double *,
                               int64_t, double, double) = nbody;

typedef struct Ctx { double *pos, *vel, *mass, *npos, *nvel, dt, eps2; int64_t n; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  kernel(c->pos, c->vel, c->mass, c->npos, c->nvel, c->n, c->dt, c->eps2);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  c.dt = arg_num(argc, argv, 3);
  c.eps2 = arg_num(argc, argv, 4);
  size_t sz = sizeof(double) * (size_t)(3 * c.n);
  c.pos = xmalloc(sz);
  c.vel = xmalloc(sz);
  c.npos = xmalloc(sz);
  c.nvel = xmalloc(sz);
  c.mass = xmalloc(sizeof(double) * (size_t)c.n);
  fill_uniform(c.pos, 3 * c.n, seed);
  fill_uniform(c.mass, c.n, seed + 1);
  memset(c.vel, 0, sz);
  bench_run(step, &c);
  double check = 0.0;
  for (int64_t k = 0; k < 3 * c.n; k++) check += (c.npos[k] + c.nvel[k]) * (double)(k % 97 + 1);
  bench_check(check);
  free(c.pos);
  free(c.vel);
  free(c.npos);
  free(c.nvel);
  free(c.mass);
  return 0;
}
