/*
** parallel.h — the runtime of prange loops: static chunks of [0, n) run by
** a pool of worker threads. Compiled code outlines a prange body into a
** ParBody and calls par_for; workers never see a lua_State.
*/
#ifndef parallel_h
#define parallel_h

#include <stdint.h>

/* Runs iterations [lo, hi) of a loop for worker `worker`; nonzero status on
** error (ZeroDivisionError, IndexError, raise: the compiled code's codes). */
typedef int32_t (*ParBody)(void *ctx, int64_t lo, int64_t hi, int64_t worker);

/* Runs body over [0, n) in static chunks, one chunk per worker, on the pool:
** with k = min(par_num_threads(), n) workers, worker t gets a contiguous
** chunk of n/k or n/k + 1 iterations, in order of t; worker ids are
** 0..k-1 < par_max_workers(). Returns 0, or the status of the first failing
** chunk (lowest worker id), after ALL workers have stopped. Nothing runs when
** n <= 0. Called from inside a parallel region (a nested prange, or a
** parallel function called from a worker), or with one thread, it runs the
** whole range serially on the calling thread as body(ctx, 0, n, 0): it never
** deadlocks. Safe from several OS threads at once and in a forked child. */
int32_t par_for(int64_t n, ParBody body, void *ctx);

/* The team size par_for uses now (1..par_max_workers()). */
int par_num_threads(void);
/* Upper bound of worker ids, fixed for the process: env LUMBA_NUM_THREADS
** when it is an integer in 1..PAR_MAXWORKERS, else the cores this process
** may run on (sched_getaffinity). Size per-worker reduction slots by it. */
int par_max_workers(void);
/* Sets the team size for every later par_for of the process: n in
** 1..par_max_workers(); returns the previous size, or -1 (nothing changed)
** for a bad n. */
int par_set_num_threads(int n);

#define PAR_MAXWORKERS 1024  /* cap on par_max_workers() */

#endif
