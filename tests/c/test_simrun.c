/* The simulator's runtime with kernels written in C the way target_sim.c
** compiles them: loop entries over threadIdx, fiber entries with barriers,
** shared memory, and the failures it reports. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "simrun.h"
#include "test.h"

static int64_t gid(const SimCtx *c, int a) {
  return c->reg[SIMCTX_CTAID + a] * c->reg[SIMCTX_NTID + a] + c->reg[SIMCTX_TID + a];
}

/* out[i] = i for i = cuda.grid(1) < n, else IndexError like a checked store
** (params: int64 *out, int64 n, int64 size of out) */
static int32_t fill(LmErr *err, void **params) {
  SimCtx *c = simrun_ctx();
  int64_t *out = *(int64_t **)params[0];
  int64_t n = *(int64_t *)params[1], size = *(int64_t *)params[2];
  for (int64_t x = 0; x < c->reg[SIMCTX_NTID]; x++) {
    c->reg[SIMCTX_TID] = x;
    int64_t i = gid(c, 0);
    if (i >= n) continue;
    if (i >= size) {
      *err = (LmErr){.kind = LMERR_INDEX, .axis = 0, .index = i, .size = size};
      return LMERR_INDEX;
    }
    out[i] = i;
  }
  return 0;
}

/* one fiber: a block-wide tree sum in shared memory, written by thread 0 to
** out[blockIdx.x]; without_barrier skips the barriers (params: int64 *in,
** int64 *out, int64 without_barrier) */
static char site;
static int32_t block_sum(LmErr *err, void **params) {
  (void)err;
  SimCtx *c = simrun_ctx();
  int64_t *in = *(int64_t **)params[0], *out = *(int64_t **)params[1];
  int64_t skip = *(int64_t *)params[2];
  int64_t t = c->reg[SIMCTX_TID], nt = c->reg[SIMCTX_NTID];
  volatile int64_t *s = simrun_shared(&site, nt * 8);
  s[t] = in[gid(c, 0)];
  if (!skip) simrun_barrier();
  for (int64_t step = nt / 2; step > 0; step /= 2) {
    if (t < step) s[t] += s[t + step];
    if (!skip) simrun_barrier();
  }
  if (t == 0) out[c->reg[SIMCTX_CTAID]] = s[0];
  return 0;
}

/* threads with threadIdx.x >= params[0] return before the barrier */
static int32_t early_return(LmErr *err, void **params) {
  (void)err;
  if (simrun_ctx()->reg[SIMCTX_TID] >= *(int64_t *)params[0]) return 0;
  simrun_barrier();
  return 0;
}

/* warp-synchronous exchange: lane l reads lane (l + 1) % 32 after syncwarp */
static char wsite;
static int32_t warp_rotate(LmErr *err, void **params) {
  (void)err;
  SimCtx *c = simrun_ctx();
  int64_t *out = *(int64_t **)params[0];
  int64_t t = c->reg[SIMCTX_TID];
  volatile int64_t *s = simrun_shared(&wsite, c->reg[SIMCTX_NTID] * 8);
  s[t] = 100 + t;
  simrun_syncwarp(-1);
  out[t] = s[t / 32 * 32 + (t + 1) % 32];
  return 0;
}

/* thread 0 waits at syncwarp, the others at syncthreads */
static int32_t mixed(LmErr *err, void **params) {
  (void)err;
  (void)params;
  if (simrun_ctx()->reg[SIMCTX_TID] == 0) simrun_syncwarp(-1);
  else simrun_barrier();
  return 0;
}

/* atomics from every thread of every block at once */
static int32_t count(LmErr *err, void **params) {
  (void)err;
  SimCtx *c = simrun_ctx();
  _Atomic int64_t *bins = *(_Atomic int64_t **)params[0];
  for (int64_t x = 0; x < c->reg[SIMCTX_NTID]; x++) {
    c->reg[SIMCTX_TID] = x;
    atomic_fetch_add(&bins[gid(c, 0) % 7], 1);
  }
  return 0;
}

/* rounds of a grid-wide scan: each round, thread g adds the value of thread
** g - 1 of the previous round (read across blocks, after a grid sync);
** threads >= params[2] return first (the grid's barrier then fails) */
static int32_t grid_rounds(LmErr *err, void **params) {
  (void)err;
  SimCtx *c = simrun_ctx();
  int64_t *a = *(int64_t **)params[0], *b = *(int64_t **)params[1];
  int64_t rounds = *(int64_t *)params[2], live = *(int64_t *)params[3];
  int64_t g = gid(c, 0);
  if (g >= live) return 0;
  for (int64_t r = 0; r < rounds; r++) {
    int64_t *from = r % 2 ? b : a, *to = r % 2 ? a : b;
    to[g] = from[g] + (g > 0 ? from[g - 1] : 0);
    simrun_grid_sync();
  }
  return 0;
}

static const char *message(const SimFail *f) {
  static char buf[512];
  simrun_message(f, buf, sizeof buf);
  return buf;
}

int main(void) {
  SimFail f;
  par_set_num_threads(par_max_workers() < 4 ? par_max_workers() : 4);

  /* a loop kernel over 3 blocks of 4 threads, bounded by n */
  int64_t out[16], n = 10, size = 16;
  for (int i = 0; i < 16; i++) out[i] = -1;
  void *p1[] = {&(int64_t *){out}, &n, &size};
  SimKernel kfill = {fill, false, 0, false};
  ASSERT(0, simrun_launch(&kfill, (unsigned[]){3, 1, 1}, (unsigned[]){4, 1, 1}, p1, &f));
  ASSERT(9, out[9]);
  ASSERT(-1, out[10]);
  ASSERT(0, out[0]);

  /* an out-of-bounds store names the lowest failing block and its thread */
  n = 1000;
  size = 10;
  ASSERT(1, simrun_launch(&kfill, (unsigned[]){4, 1, 1}, (unsigned[]){4, 1, 1}, p1, &f));
  ASSERT_STR("IndexError in block (2,0,0) thread (2,0,0): index 10 out of bounds for axis 0 with size 10",
             message(&f));

  /* barriers: each block's sum, right with them; the first block still
  ** holds its threads' values where the barrier-free run is wrong */
  int64_t in[256], sums[4];
  for (int i = 0; i < 256; i++) in[i] = i + 1;
  int64_t skip = 0;
  void *p2[] = {&(int64_t *){in}, &(int64_t *){sums}, &skip};
  SimKernel ksum = {block_sum, true, 0, false};
  ASSERT(0, simrun_launch(&ksum, (unsigned[]){4, 1, 1}, (unsigned[]){64, 1, 1}, p2, &f));
  ASSERT(64 * 65 / 2, sums[0]);
  ASSERT(256 * 257 / 2 - 192 * 193 / 2, sums[3]);
  skip = 1;
  ASSERT(0, simrun_launch(&ksum, (unsigned[]){4, 1, 1}, (unsigned[]){64, 1, 1}, p2, &f));
  ASSERT(1, sums[0] != 64 * 65 / 2);

  /* a barrier that part of the block never reaches */
  int64_t cut = 5;
  void *p3[] = {&cut};
  SimKernel kearly = {early_return, true, 0, false};
  ASSERT(1, simrun_launch(&kearly, (unsigned[]){2, 1, 1}, (unsigned[]){8, 1, 1}, p3, &f));
  ASSERT_STR("cuda.syncthreads() in block (0,0,0) was reached by 5 of its 8 threads: the others returned",
             message(&f));
  cut = 8;
  ASSERT(0, simrun_launch(&kearly, (unsigned[]){2, 1, 1}, (unsigned[]){8, 1, 1}, p3, &f));

  /* syncwarp orders the warps of a block independently */
  int64_t rot[64];
  void *p4[] = {&(int64_t *){rot}};
  SimKernel krot = {warp_rotate, true, 0, false};
  ASSERT(0, simrun_launch(&krot, (unsigned[]){1, 1, 1}, (unsigned[]){64, 1, 1}, p4, &f));
  ASSERT(101, rot[0]);
  ASSERT(100, rot[31]);
  ASSERT(132, rot[63]);

  SimKernel kmixed = {mixed, true, 0, false};
  ASSERT(1, simrun_launch(&kmixed, (unsigned[]){1, 1, 1}, (unsigned[]){4, 1, 1}, NULL, &f));
  ASSERT_STR("threads of block (0,0,0) wait at cuda.syncthreads() and at cuda.syncwarp() at once (a deadlock on a GPU)",
             message(&f));

  /* a grid sync: every block of the grid at once; a value crosses from
  ** block to block each round (row r of Pascal's triangle) */
  int64_t ga[32], gb[32], rounds = 4, live = 32;
  for (int i = 0; i < 32; i++) ga[i] = 1;
  void *p6[] = {&(int64_t *){ga}, &(int64_t *){gb}, &rounds, &live};
  SimKernel kgrid = {grid_rounds, true, 0, true};
  ASSERT(0, simrun_launch(&kgrid, (unsigned[]){4, 1, 1}, (unsigned[]){8, 1, 1}, p6, &f));
  ASSERT(1, ga[0]);
  ASSERT(1 + 4 + 6 + 4 + 1, ga[31]);   /* the sum of row 4 */
  ASSERT(1 + 4 + 6, ga[2]);            /* C(4,0) + C(4,1) + C(4,2) */
  ASSERT(1 + 4 + 6 + 4, ga[3]);
  live = 12;
  ASSERT(1, simrun_launch(&kgrid, (unsigned[]){4, 1, 1}, (unsigned[]){8, 1, 1}, p6, &f));
  ASSERT_STR("cuda.cg.this_grid().sync() in block (1,0,0) was reached by 4 of its 8 threads: the others returned or wait at another barrier",
             message(&f));

  /* atomics across blocks on several workers */
  _Atomic int64_t bins[7];
  for (int i = 0; i < 7; i++) atomic_init(&bins[i], 0);
  void *p5[] = {&(_Atomic int64_t *){bins}};
  SimKernel kcount = {count, false, 0, false};
  ASSERT(0, simrun_launch(&kcount, (unsigned[]){1000, 1, 1}, (unsigned[]){70, 1, 1}, p5, &f));
  int64_t total = 0;
  for (int i = 0; i < 7; i++) total += atomic_load(&bins[i]);
  ASSERT(1000 * 70, total);
  ASSERT(10000, atomic_load(&bins[0]));

  /* the message of a user raise splits its kind from its text */
  f = (SimFail){.kind = SIMFAIL_THREAD, .status = LMERR_RAISE, .block = {1, 2, 3}, .thread = {4, 5, 6}};
  f.err.msg = "ValueError: negative";
  ASSERT_STR("ValueError in block (1,2,3) thread (4,5,6): negative", message(&f));
  f.err.msg = "AssertionError";
  ASSERT_STR("AssertionError in block (1,2,3) thread (4,5,6)", message(&f));
  TEST_END();
}
