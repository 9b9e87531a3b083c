/* parallel: par_for covers [0, n) once in contiguous chunks, per-worker
** partial sums add up to the serial sum, the lowest failing chunk's status
** comes back after every chunk finished, nested loops run serially, the
** team size follows LUMBA_NUM_THREADS and par_set_num_threads, two threads
** run loops at once, and a forked child runs loops. Also built under
** ThreadSanitizer by `make tsan`. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parallel.h"
#include "test.h"

/* --- sum with per-worker partials: the shape of a compiled reduction */
typedef struct {
  const int32_t *a;
  int64_t partial[PAR_MAXWORKERS];  // one slot per worker id
  unsigned char *seen;              // iterations run (each must be 1)
  int64_t chunk_lo[PAR_MAXWORKERS], chunk_hi[PAR_MAXWORKERS];
  _Atomic int calls;
} SumCtx;

static int32_t sum_body(void *p, int64_t lo, int64_t hi, int64_t w) {
  SumCtx *c = p;
  int64_t s = 0;
  for (int64_t i = lo; i < hi; i++) {
    s += c->a[i];
    c->seen[i]++;
  }
  c->partial[w] += s;
  c->chunk_lo[w] = lo;
  c->chunk_hi[w] = hi;
  atomic_fetch_add(&c->calls, 1);
  return 0;
}

/* par_for over a[0..n) summed into partials; -1 if some iteration ran
** not exactly once */
static int64_t par_sum(const int32_t *a, int64_t n, int *calls) {
  SumCtx *c = calloc(1, sizeof *c);
  c->a = a;
  c->seen = calloc((size_t)n + 1, 1);
  int32_t st = par_for(n, sum_body, c);
  int64_t total = st ? -2 : 0;
  for (int w = 0; w < par_max_workers(); w++) total += c->partial[w];
  for (int64_t i = 0; i < n; i++)
    if (c->seen[i] != 1) total = -1;
  if (calls) *calls = atomic_load(&c->calls);
  free(c->seen);
  free(c);
  return total;
}

static int32_t *make_data(int64_t n) {
  int32_t *a = malloc((size_t)n * sizeof *a);
  for (int64_t i = 0; i < n; i++) a[i] = (int32_t)((i * 7919) % 1000) - 300;
  return a;
}

static int64_t serial_sum(const int32_t *a, int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; i++) s += a[i];
  return s;
}

static void test_sum(void) {
  int64_t n = 10 * 1000 * 1000;
  int32_t *a = make_data(n);
  int calls = 0;
  ASSERT(serial_sum(a, n), par_sum(a, n, &calls));
  ASSERT(4, calls);  // one chunk per worker
  /* fewer iterations than workers: one chunk each, nothing empty */
  ASSERT(serial_sum(a, 3), par_sum(a, 3, &calls));
  ASSERT(3, calls);
  ASSERT(0, par_sum(a, 0, &calls));
  ASSERT(0, calls);
  free(a);
}

/* the chunks are contiguous, in worker order, and differ by at most one */
static void test_chunks(void) {
  int32_t a[10] = {0};
  SumCtx *c = calloc(1, sizeof *c);
  c->a = a;
  c->seen = calloc(11, 1);
  ASSERT(0, par_for(10, sum_body, c));
  ASSERT(0, c->chunk_lo[0]);
  ASSERT(3, c->chunk_hi[0]);
  ASSERT(3, c->chunk_lo[1]);
  ASSERT(6, c->chunk_hi[1]);
  ASSERT(6, c->chunk_lo[2]);
  ASSERT(8, c->chunk_hi[2]);
  ASSERT(8, c->chunk_lo[3]);
  ASSERT(10, c->chunk_hi[3]);
  free(c->seen);
  free(c);
}

/* --- status: chunks 1 and 2 fail, every chunk still runs to its end */
typedef struct {
  _Atomic int finished;
  _Atomic int32_t sink;
} FailCtx;

static int32_t fail_body(void *p, int64_t lo, int64_t hi, int64_t w) {
  FailCtx *c = p;
  (void)lo;
  (void)hi;
  if (w == 1) return 3;  // fails at once
  volatile int32_t x = 0;
  for (int i = 0; i < 2000000; i++) x += i & 7;  // the others take a while
  atomic_store(&c->sink, x);
  atomic_fetch_add(&c->finished, 1);
  return w == 2 ? 5 : 0;
}

static void test_status(void) {
  FailCtx c = {0};
  ASSERT(3, par_for(100, fail_body, &c));
  ASSERT(3, atomic_load(&c.finished));  // workers 0, 2, 3 had all finished
}

/* --- nesting: an inner par_for inside a worker runs serially, on that thread */
typedef struct {
  _Atomic int inner_calls, inner_ok;
  _Atomic int64_t total;
} NestCtx;

typedef struct {
  NestCtx *outer;
  pthread_t thread;
  int64_t sum;
} InnerCtx;

static int32_t inner_body(void *p, int64_t lo, int64_t hi, int64_t w) {
  InnerCtx *c = p;
  atomic_fetch_add(&c->outer->inner_calls, 1);
  if (w == 0 && lo == 0 && hi == 100 && pthread_equal(c->thread, pthread_self()))
    atomic_fetch_add(&c->outer->inner_ok, 1);
  for (int64_t i = lo; i < hi; i++) c->sum += i;
  return 0;
}

static int32_t outer_body(void *p, int64_t lo, int64_t hi, int64_t w) {
  (void)w;
  for (int64_t i = lo; i < hi; i++) {
    InnerCtx in = {p, pthread_self(), 0};
    int32_t st = par_for(100, inner_body, &in);
    if (st) return st;
    atomic_fetch_add(&((NestCtx *)p)->total, in.sum);
  }
  return 0;
}

static void test_nested(void) {
  NestCtx c = {0};
  ASSERT(0, par_for(8, outer_body, &c));
  ASSERT(8, atomic_load(&c.inner_calls));  // one serial call per inner loop
  ASSERT(8, atomic_load(&c.inner_ok));
  ASSERT(8 * 4950, atomic_load(&c.total));
}

/* --- team size */
typedef struct {
  _Atomic int calls;
  pthread_t caller;
  _Atomic int on_caller;
} CountCtx;

static int32_t count_body(void *p, int64_t lo, int64_t hi, int64_t w) {
  CountCtx *c = p;
  (void)lo;
  (void)hi;
  (void)w;
  atomic_fetch_add(&c->calls, 1);
  if (pthread_equal(c->caller, pthread_self())) atomic_fetch_add(&c->on_caller, 1);
  return 0;
}

static void test_num_threads(void) {
  ASSERT(4, par_set_num_threads(3));
  ASSERT(3, par_num_threads());
  CountCtx c = {0, pthread_self(), 0};
  ASSERT(0, par_for(1000, count_body, &c));
  ASSERT(3, atomic_load(&c.calls));
  ASSERT(-1, par_set_num_threads(0));
  ASSERT(-1, par_set_num_threads(5));  // above par_max_workers()
  ASSERT(3, par_num_threads());
  ASSERT(3, par_set_num_threads(1));
  CountCtx d = {0, pthread_self(), 0};
  ASSERT(0, par_for(1000, count_body, &d));
  ASSERT(1, atomic_load(&d.calls));
  ASSERT(1, atomic_load(&d.on_caller));  // one thread: the caller
  ASSERT(1, par_set_num_threads(4));
}

/* --- two OS threads (two Lua states) run loops at the same time */
static void *loop_thread(void *arg) {
  const int32_t *a = arg;
  long good = 1;
  for (int round = 0; round < 20; round++)
    if (par_sum(a, 100000 + round, NULL) != serial_sum(a, 100000 + round)) good = 0;
  return (void *)good;
}

static void test_threads(void) {
  int32_t *a = make_data(100020);
  pthread_t th[2];
  for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, loop_thread, a);
  for (int i = 0; i < 2; i++) {
    void *ok;
    pthread_join(th[i], &ok);
    ASSERT(1, (long)ok);
  }
  free(a);
}

/* --- fork after the pool ran: the child's loops run (an alarm turns a hang
** into a failure) */
static void test_fork(void) {
  int32_t *a = make_data(200000);
  ASSERT(serial_sum(a, 200000), par_sum(a, 200000, NULL));
  pid_t pid = fork();
  if (pid == 0) {
    alarm(30);
    int ok = 1;
    for (int round = 0; round < 3; round++) {
      int calls = 0;
      if (par_sum(a, 200000, &calls) != serial_sum(a, 200000) || calls != 4) ok = 0;
    }
    _exit(ok ? 0 : 1);
  }
  int st = -1;
  ASSERT(pid, waitpid(pid, &st, 0));
  ASSERT(1, WIFEXITED(st));
  ASSERT(0, WEXITSTATUS(st));
  /* and the parent's pool still works */
  ASSERT(serial_sum(a, 200000), par_sum(a, 200000, NULL));
  free(a);
}

int main(void) {
  setenv("LUMBA_NUM_THREADS", "4", 1);  // read at the first call
  ASSERT(4, par_max_workers());
  ASSERT(4, par_num_threads());
  test_sum();
  test_chunks();
  test_status();
  test_nested();
  test_num_threads();
  test_threads();
  test_fork();
  TEST_END();
}
