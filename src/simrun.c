/*
** simrun.c — runs a simulated CUDA launch: blocks in static chunks on the
** prange pool, each chunk by one SimWorker. A worker runs a block as one
** call of a loop entry, or, for a kernel that synchronises, as one fiber
** per thread: the scheduler resumes every runnable fiber in threadIdx
** order until each has returned or waits at a barrier, then releases the
** barrier (or reports it reached by only part of the block) and goes round
** again. Fibers run on mmap'd stacks with a guard page below each. On
** x86-64 a switch is a dozen instructions (the callee-saved registers,
** MXCSR and the x87 control word, pushed on the old stack); elsewhere it is
** ucontext's swapcontext, whose signal-mask system call makes it some 50
** times slower. Under ASan the switches are announced to it.
**
** The one piece of global state is a _Thread_local pointer to the context
** of the thread being simulated on this OS thread: compiled code reads its
** threadIdx and blockIdx through it (simrun_ctx), and it changes at every
** fiber switch. A worker never moves a fiber to another OS thread.
*/
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "parallel.h"
#include "simrun.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define SIM_ASAN 1
#else
#define SIM_ASAN 0
#endif

#define WARP 32

/* ---- context switches ---- */

#if defined(__x86_64__) && !defined(SIMRUN_UCONTEXT)
typedef struct FiberCtx {
  void *sp;  // the stack pointer where its state was pushed
} FiberCtx;

/* void simrun_swap_(void **save, void *to): pushes the callee-saved state,
** stores the stack pointer in *save, then pops the state saved at `to` and
** returns into that context (System V ABI: rdi, rsi) */
void simrun_swap_(void **save, void *to) __attribute__((visibility("hidden")));
__asm__(".text\n"
        ".globl simrun_swap_\n"
        ".hidden simrun_swap_\n"
        ".type simrun_swap_, @function\n"
        ".p2align 4\n"
        "simrun_swap_:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size simrun_swap_, .-simrun_swap_\n");

static int ctx_init(FiberCtx *c) {
  c->sp = NULL;
  return 0;
}

/* a context that enters fn (which never returns) on the stack [stack, stack + size) */
static void ctx_start(FiberCtx *c, char *stack, size_t size, void (*fn)(void)) {
  uint64_t *sp = (uint64_t *)(((uintptr_t)(stack + size)) & ~(uintptr_t)15);
  *--sp = 0;                          /* fn's return address: it never returns */
  *--sp = (uint64_t)(uintptr_t)fn;    /* where simrun_swap_'s ret goes */
  for (int i = 0; i < 6; i++) *--sp = 0;
  --sp;                               /* MXCSR and the x87 control word, as now */
  uint32_t mxcsr;
  uint16_t fpucw;
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  __asm__ volatile("fnstcw %0" : "=m"(fpucw));
  memcpy(sp, &mxcsr, 4);
  memcpy((char *)sp + 4, &fpucw, 2);
  c->sp = sp;
}

static void ctx_switch(FiberCtx *from, FiberCtx *to) {
  simrun_swap_(&from->sp, to->sp);
}
#else
#include <ucontext.h>

typedef struct FiberCtx {
  ucontext_t uc;
} FiberCtx;

/* getcontext returns twice in principle (never here: fibers always start
** through makecontext), so it gets a frame of its own with no locals */
static __attribute__((noinline)) int ctx_init(FiberCtx *c) {
  return getcontext(&c->uc);
}

static void ctx_start(FiberCtx *c, char *stack, size_t size, void (*fn)(void)) {
  c->uc.uc_stack.ss_sp = stack;
  c->uc.uc_stack.ss_size = size;
  c->uc.uc_link = NULL;
  makecontext(&c->uc, fn, 0);
}

static void ctx_switch(FiberCtx *from, FiberCtx *to) {
  swapcontext(&from->uc, &to->uc);
}
#endif

enum { F_RUN, F_BAR, F_WARP, F_GRID, F_DONE };

struct SimFiber {
  SimCtx ctx;          // first: simrun_ctx() of this thread
  FiberCtx fc;
  int state;           // F_RUN / F_BAR / F_WARP / F_GRID / F_DONE
  uint32_t mask;       // F_WARP: lanes of the warp it waits for
  int64_t xval;        // the value it posts to a warp shuffle or vote
  int32_t status;      // F_DONE: the entry's result
  LmErr err;
  void *fake;          // ASan: the fake stack while switched out
};

typedef struct Shared {
  const void *id;      // allocation site
  void *p;
  int64_t bytes;
} Shared;

typedef struct Launch {
  const SimKernel *k;
  void **params;
  int64_t grid[3], block[3], nthreads;
  int64_t dyn_shared;          // bytes of dynamic shared memory per block
  _Atomic int64_t first_fail;  // lowest failing block so far (INT64_MAX: none)
  SimFail *fails;              // one per worker
} Launch;

struct SimWorker {
  const Launch *ln;
  SimCtx ctx;                  // loop blocks: the one context
  SimFiber *fibers;            // fiber blocks: one per thread
  char *stacks;                // fiber stacks, each above a guard page
  size_t stack, maplen;        // usable bytes per fiber; mapping length
  FiberCtx sched;              // the scheduler, while a fiber runs
  Shared *sh;                  // shared arrays (kept from block to block)
  int nsh, capsh;
  void *sched_fake;            // ASan: the scheduler's fake stack
  const void *sched_bottom;    // ASan: the scheduler's stack
  size_t sched_size;
};

static _Thread_local SimCtx *cur;

SimCtx *simrun_ctx(void) {
  return cur;
}

/* ---- shared memory ---- */

void *simrun_shared(const void *id, int64_t bytes) {
  SimWorker *w = cur->w;
  for (int i = 0; i < w->nsh; i++)
    if (w->sh[i].id == id) return w->sh[i].p;
  if (w->nsh == w->capsh) {
    int cap = w->capsh ? 2 * w->capsh : 8;
    Shared *s = realloc(w->sh, (size_t)cap * sizeof *s);
    if (s == NULL) return NULL;
    w->sh = s;
    w->capsh = cap;
  }
  size_t n = bytes > 0 ? ((size_t)bytes + 15) / 16 * 16 : 16;
  void *p = aligned_alloc(16, n);
  if (p == NULL) return NULL;
  memset(p, 0, n);
  w->sh[w->nsh++] = (Shared){id, p, bytes};
  return p;
}

/* ---- fibers ---- */

static char *fiber_stack(SimWorker *w, const SimFiber *f) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return w->stacks + (size_t)(f - w->fibers) * (w->stack + page) + page;
}

/* from fiber f back to the scheduler; a finished fiber's fake stack (ASan)
** is released, it never runs again */
static void to_scheduler(SimWorker *w, SimFiber *f, bool finished) {
#if SIM_ASAN
  __sanitizer_start_switch_fiber(finished ? NULL : &f->fake, w->sched_bottom, w->sched_size);
#else
  (void)finished;
#endif
  ctx_switch(&f->fc, &w->sched);
#if SIM_ASAN
  __sanitizer_finish_switch_fiber(f->fake, NULL, NULL);
#endif
}

static void to_fiber(SimWorker *w, SimFiber *f) {
  cur = &f->ctx;
#if SIM_ASAN
  __sanitizer_start_switch_fiber(&w->sched_fake, fiber_stack(w, f), w->stack);
#endif
  ctx_switch(&w->sched, &f->fc);
#if SIM_ASAN
  __sanitizer_finish_switch_fiber(w->sched_fake, NULL, NULL);
#endif
}

/* a fiber's whole life: run the thread, then switch away for good */
static void fiber_main(void) {
  SimFiber *f = cur->fiber;
  SimWorker *w = cur->w;
#if SIM_ASAN
  __sanitizer_finish_switch_fiber(NULL, &w->sched_bottom, &w->sched_size);
#endif
  f->status = w->ln->k->entry(&f->err, w->ln->params);
  f->state = F_DONE;
  to_scheduler(w, f, true);
}

static void wait_here(int state, uint32_t mask) {
  SimFiber *f = cur ? cur->fiber : NULL;
  if (f == NULL) return;  /* a loop block: its kernel never synchronises */
  f->state = state;
  f->mask = mask;
  to_scheduler(cur->w, f, false);
}

void simrun_barrier(void) {
  wait_here(F_BAR, 0);
}

void simrun_syncwarp(int32_t mask) {
  wait_here(F_WARP, (uint32_t)mask);
}

void simrun_grid_sync(void) {
  wait_here(F_GRID, 0);
}

/* ---- warp shuffles and votes: each lane posts its value, the lanes of
** the mask meet at a syncwarp, each reads what it needs, and they meet again
** before anyone posts the next value ---- */

static int my_index(void) {
  return (int)(cur->fiber - cur->w->fibers);
}

int64_t simrun_shfl(int32_t mask, int64_t v, int32_t lane, int32_t kind) {
  if (cur->fiber == NULL) return v;
  SimWorker *w = cur->w;
  int i = my_index(), me = i % WARP, base = i - me, n = (int)w->ln->nthreads;
  int src = kind == 0 ? (lane & (WARP - 1)) : kind == 1 ? me - lane : kind == 2 ? me + lane : me ^ (lane & (WARP - 1));
  if (src < 0 || src >= WARP || base + src >= n) src = me;  /* out of the warp: its own value, as the GPU */
  cur->fiber->xval = v;
  simrun_syncwarp(mask);
  int64_t r = w->fibers[base + src].xval;
  simrun_syncwarp(mask);
  return r;
}

/* kind 0 ballot (the mask of lanes whose pred is true), 1 all, 2 any, 3 eq */
int32_t simrun_vote(int32_t mask, int32_t pred, int32_t kind) {
  if (cur->fiber == NULL) return kind == 0 ? (pred != 0) << (my_index() % WARP) : kind == 3 ? 1 : pred != 0;
  SimWorker *w = cur->w;
  int i = my_index(), base = i - i % WARP, n = (int)w->ln->nthreads;
  cur->fiber->xval = pred != 0;
  simrun_syncwarp(mask);
  uint32_t ballot = 0, lanes = 0;
  for (int l = 0; l < WARP && base + l < n; l++) {
    if (!((uint32_t)mask & (1u << l))) continue;
    lanes |= 1u << l;
    if (w->fibers[base + l].xval) ballot |= 1u << l;
  }
  simrun_syncwarp(mask);
  if (kind == 0) return (int32_t)ballot;
  if (kind == 1) return ballot == lanes;
  if (kind == 2) return ballot != 0;
  return ballot == 0 || ballot == lanes;
}

/* the lanes of this thread's warp that have not returned: met at a
** syncwarp first, as the lanes of a converged warp run together on a GPU */
int32_t simrun_activemask(void) {
  if (cur->fiber == NULL) return 1 << (my_index() % WARP);
  SimWorker *w = cur->w;
  int i = my_index(), base = i - i % WARP, n = (int)w->ln->nthreads;
  simrun_syncwarp(-1);
  uint32_t m = 0;
  for (int l = 0; l < WARP && base + l < n; l++)
    if (w->fibers[base + l].state != F_DONE) m |= 1u << l;
  simrun_syncwarp(-1);
  return (int32_t)m;
}

/* releases every syncwarp whose lanes have all arrived (or returned) */
static bool release_warps(SimWorker *w) {
  int n = (int)w->ln->nthreads;
  bool any = false;
  /* decided for every fiber before any is released: a lane released first
  ** must not make its partners at the same syncwarp look not arrived (and
  ** so meet them at the next one, as warp shuffles would see) */
  bool release[1024];
  LM_ASSERT(n <= 1024);
  for (int i = 0; i < n; i++) {
    release[i] = false;
    SimFiber *f = &w->fibers[i];
    if (f->state != F_WARP) continue;
    int base = i / WARP * WARP;
    bool all = true;
    for (int l = 0; l < WARP && all && base + l < n; l++)
      if (f->mask & (1u << l)) all = w->fibers[base + l].state == F_WARP || w->fibers[base + l].state == F_DONE;
    release[i] = all;
  }
  for (int i = 0; i < n; i++)
    if (release[i]) {
      w->fibers[i].state = F_RUN;
      any = true;
    }
  return any;
}

static void thread_of(const SimCtx *c, int64_t t[3]) {
  for (int a = 0; a < 3; a++) t[a] = c->reg[SIMCTX_TID + a];
}

/* makes every thread of the block a fiber at its start */
static void start_fibers(SimWorker *w) {
  int n = (int)w->ln->nthreads;
  for (int i = 0; i < n; i++) {
    SimFiber *f = &w->fibers[i];
    f->state = F_RUN;
    f->status = 0;
    memset(&f->err, 0, sizeof f->err);
    memcpy(&f->ctx.reg[SIMCTX_CTAID], &w->ctx.reg[SIMCTX_CTAID], 3 * sizeof(int64_t));
    ctx_start(&f->fc, fiber_stack(w, f), w->stack, fiber_main);
  }
}

/* Runs the block's fibers until every one has returned (0), or every one
** waits at a grid sync (2), or a failure (1, *fail says which). */
static int step_fibers(SimWorker *w, SimFail *fail) {
  int n = (int)w->ln->nthreads;
  for (;;) {
    for (int i = 0; i < n; i++) {
      SimFiber *f = &w->fibers[i];
      if (f->state != F_RUN) continue;
      to_fiber(w, f);
      if (f->state == F_DONE && f->status != 0) {
        fail->kind = SIMFAIL_THREAD;
        fail->status = f->status;
        fail->err = f->err;
        thread_of(&f->ctx, fail->thread);
        return 1;
      }
    }
    int done = 0, bar = 0, warp = 0, grid = 0;
    for (int i = 0; i < n; i++) {
      int s = w->fibers[i].state;
      done += s == F_DONE;
      bar += s == F_BAR;
      warp += s == F_WARP;
      grid += s == F_GRID;
    }
    if (bar == 0 && warp == 0 && grid == 0) return 0;
    if (warp > 0 && release_warps(w)) continue;
    if (warp > 0) {
      fail->kind = SIMFAIL_MIXED;
      return 1;
    }
    if (grid > 0 && (done > 0 || bar > 0)) {  /* the grid's barrier needs the whole block */
      fail->kind = SIMFAIL_GRID;
      fail->arrived = grid;
      fail->nthreads = n;
      return 1;
    }
    if (grid > 0) return 2;
    if (done > 0) {
      fail->kind = SIMFAIL_BARRIER;
      fail->arrived = bar;
      fail->nthreads = n;
      return 1;
    }
    for (int i = 0; i < n; i++) w->fibers[i].state = F_RUN;
  }
}

static int run_fibers(SimWorker *w, SimFail *fail) {
  start_fibers(w);
  return step_fibers(w, fail);
}

static int run_loop(SimWorker *w, SimFail *fail) {
  LmErr err;
  memset(&err, 0, sizeof err);
  int32_t st = w->ln->k->entry(&err, w->ln->params);
  if (st == 0) return 0;
  fail->kind = SIMFAIL_THREAD;
  fail->status = st;
  fail->err = err;
  thread_of(&w->ctx, fail->thread);
  return 1;
}

/* ---- workers ---- */


static bool worker_init(SimWorker *w, const Launch *ln) {
  memset(w, 0, sizeof *w);
  w->ln = ln;
  w->ctx.w = w;
  for (int a = 0; a < 3; a++) {
    w->ctx.reg[SIMCTX_NTID + a] = ln->block[a];
    w->ctx.reg[SIMCTX_NCTAID + a] = ln->grid[a];
  w->ctx.reg[SIMCTX_DYNSMEM] = ln->dyn_shared;
  }
  if (!ln->k->fibers) return true;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t n = (size_t)ln->nthreads;
  w->stack = (ln->k->stack + page - 1) / page * page;
  if (w->stack < 16 * page) w->stack = 16 * page;
  w->fibers = calloc(n, sizeof *w->fibers);
  if (w->fibers == NULL) return false;
  w->maplen = n * (w->stack + page);
  void *m = mmap(NULL, w->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return false;
  w->stacks = m;
  for (size_t i = 0; i < n; i++) {
    SimFiber *f = &w->fibers[i];
    /* best effort: each guard splits the mapping, and a process has a
    ** bounded number of mappings (vm.max_map_count) */
    (void)mprotect(w->stacks + i * (w->stack + page), page, PROT_NONE);
    if (ctx_init(&f->fc) != 0) return false;
    f->ctx = w->ctx;
    f->ctx.fiber = f;
    int64_t bx = ln->block[0], by = ln->block[1];
    f->ctx.reg[SIMCTX_TID + 0] = (int64_t)i % bx;
    f->ctx.reg[SIMCTX_TID + 1] = (int64_t)i / bx % by;
    f->ctx.reg[SIMCTX_TID + 2] = (int64_t)i / (bx * by);
  }
  return true;
}

static void worker_free(SimWorker *w) {
  for (int i = 0; i < w->nsh; i++) free(w->sh[i].p);
  free(w->sh);
  if (w->stacks) munmap(w->stacks, w->maplen);
  free(w->fibers);
}

static void min_fail(Launch *ln, int64_t b) {
  int64_t seen = atomic_load(&ln->first_fail);
  while (b < seen && !atomic_compare_exchange_weak(&ln->first_fail, &seen, b)) {}
}

/* blocks [lo, hi) of the grid, x fastest */
static int32_t run_chunk(void *p, int64_t lo, int64_t hi, int64_t worker) {
  Launch *ln = p;
  SimFail *fail = &ln->fails[worker];
  SimCtx *saved = cur;
  SimWorker w;
  int32_t st = 0;
  if (!worker_init(&w, ln)) {
    fail->kind = SIMFAIL_MEMORY;
    min_fail(ln, lo);
    st = 1;
  }
  for (int64_t b = lo; b < hi && st == 0; b++) {
    if (b > atomic_load(&ln->first_fail)) break;  /* a lower block failed: this one cannot be the reported one */
    w.ctx.reg[SIMCTX_CTAID + 0] = b % ln->grid[0];
    w.ctx.reg[SIMCTX_CTAID + 1] = b / ln->grid[0] % ln->grid[1];
    w.ctx.reg[SIMCTX_CTAID + 2] = b / (ln->grid[0] * ln->grid[1]);
    cur = &w.ctx;
    st = ln->k->fibers ? run_fibers(&w, fail) : run_loop(&w, fail);
    if (st) {
      memcpy(fail->block, &w.ctx.reg[SIMCTX_CTAID], sizeof fail->block);
      min_fail(ln, b);
    }
  }
  cur = saved;
  worker_free(&w);
  return st;
}

/* A kernel that synchronises its grid (cuda.cg.this_grid().sync()): every
** block at once, as fibers of this OS thread. Each block runs until its
** threads all wait at the grid's barrier (or return); when every block
** waits, the barrier opens and they all go round again. The grid is no
** larger than a cooperative launch allows (kernel.c checks), so the
** fibers' memory stays bounded. */
static int run_grid(Launch *ln, int64_t nblocks, SimFail *fail) {
  SimWorker *ws = calloc((size_t)nblocks, sizeof *ws);
  char *state = calloc((size_t)nblocks, 1);  /* 0 runs, 1 waits at the grid's barrier, 2 returned */
  SimCtx *saved = cur;
  int st = 0;
  int64_t made = 0;
  if (ws == NULL || state == NULL) goto nomem;
  for (; made < nblocks; made++) {
    SimWorker *w = &ws[made];
    if (!worker_init(w, ln)) {
      made++;
      goto nomem;
    }
    w->ctx.reg[SIMCTX_CTAID + 0] = made % ln->grid[0];
    w->ctx.reg[SIMCTX_CTAID + 1] = made / ln->grid[0] % ln->grid[1];
    w->ctx.reg[SIMCTX_CTAID + 2] = made / (ln->grid[0] * ln->grid[1]);
    start_fibers(w);
  }
  for (;;) {
    int64_t waiting = 0, returned = 0;
    for (int64_t b = 0; b < nblocks; b++) {
      if (state[b] == 0) {
        cur = &ws[b].ctx;
        int r = step_fibers(&ws[b], fail);
        if (r == 1) {
          memcpy(fail->block, &ws[b].ctx.reg[SIMCTX_CTAID], sizeof fail->block);
          st = 1;
          goto out;
        }
        state[b] = r == 2 ? 1 : 2;
      }
      waiting += state[b] == 1;
      returned += state[b] == 2;
    }
    if (waiting == 0) break;
    if (returned > 0) {  /* part of the grid returned: its barrier would never open */
      fail->kind = SIMFAIL_GRID;
      fail->arrived = waiting * ln->nthreads;
      fail->nthreads = nblocks * ln->nthreads;
      fail->block[0] = -1;
      st = 1;
      goto out;
    }
    for (int64_t b = 0; b < nblocks; b++) {
      for (int64_t i = 0; i < ln->nthreads; i++) ws[b].fibers[i].state = F_RUN;
      state[b] = 0;
    }
  }
  goto out;
nomem:
  fail->kind = SIMFAIL_MEMORY;
  st = 1;
out:
  cur = saved;
  for (int64_t b = 0; b < made; b++) worker_free(&ws[b]);
  free(ws);
  free(state);
  return st;
}

int simrun_launch(const SimKernel *k, const unsigned grid[3], const unsigned block[3], void **params,
                  SimFail *fail) {
  return simrun_launch_shared(k, grid, block, 0, params, fail);
}

int simrun_launch_shared(const SimKernel *k, const unsigned grid[3], const unsigned block[3], int64_t dyn_shared,
                         void **params, SimFail *fail) {
  memset(fail, 0, sizeof *fail);
  Launch ln = {.k = k, .params = params, .nthreads = 1, .dyn_shared = dyn_shared};
  int64_t nblocks = 1;
  for (int a = 0; a < 3; a++) {
    ln.grid[a] = grid[a];
    ln.block[a] = block[a];
    nblocks *= grid[a];
    ln.nthreads *= block[a];
  }
  atomic_init(&ln.first_fail, INT64_MAX);
  if (k->grid_sync) return run_grid(&ln, nblocks, fail);
  int nw = par_max_workers();
  ln.fails = calloc((size_t)nw, sizeof *ln.fails);
  if (ln.fails == NULL) {
    fail->kind = SIMFAIL_MEMORY;
    return 1;
  }
  int32_t st = par_for(nblocks, run_chunk, &ln);
  if (st != 0) {
    /* the failure of the lowest block: blocks are numbered x fastest */
    int64_t best = INT64_MAX;
    for (int i = 0; i < nw; i++) {
      const SimFail *f = &ln.fails[i];
      if (f->kind == SIMFAIL_NONE) continue;
      int64_t b = f->block[0] + ln.grid[0] * (f->block[1] + ln.grid[1] * f->block[2]);
      if (b < best) {
        best = b;
        *fail = *f;
      }
    }
  }
  free(ln.fails);
  return st != 0;
}

/* ---- messages ---- */

int simrun_message(const SimFail *f, char *buf, size_t size) {
  char where[160];
  const int64_t *b = f->block, *t = f->thread;
  snprintf(where, sizeof where, "block (%lld,%lld,%lld)", (long long)b[0], (long long)b[1], (long long)b[2]);
  switch (f->kind) {
    case SIMFAIL_NONE: return snprintf(buf, size, "no failure");
    case SIMFAIL_MEMORY: return snprintf(buf, size, "MemoryError: not enough memory to simulate the launch");
    case SIMFAIL_BARRIER:
      return snprintf(buf, size, "cuda.syncthreads() in %s was reached by %lld of its %lld threads: the others returned",
                      where, (long long)f->arrived, (long long)f->nthreads);
    case SIMFAIL_MIXED:
      return snprintf(buf, size, "threads of %s wait at cuda.syncthreads() and at cuda.syncwarp() at once (a deadlock on a GPU)",
                      where);
    case SIMFAIL_GRID:
      if (b[0] < 0)
        return snprintf(buf, size, "cuda.cg.this_grid().sync() was reached by %lld of the grid's %lld threads: the others returned",
                        (long long)f->arrived, (long long)f->nthreads);
      return snprintf(buf, size, "cuda.cg.this_grid().sync() in %s was reached by %lld of its %lld threads: the others returned or wait at another barrier",
                      where, (long long)f->arrived, (long long)f->nthreads);
    case SIMFAIL_THREAD: break;
  }
  char who[320];
  snprintf(who, sizeof who, "in %s thread (%lld,%lld,%lld)", where, (long long)t[0], (long long)t[1], (long long)t[2]);
  const LmErr *e = &f->err;
  /* the statement that raised, as a traceback line after the message (Lua syntax: "file:line: " before it) */
  if (e->where && e->where[0]) {
    SimFail bare = *f;
    bare.err.where = NULL;
    if (e->where[0] == '\n') {
      int n = simrun_message(&bare, buf, size);
      size_t used = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
      return n + snprintf(buf + used, size - used, "%s", e->where);
    }
    int n = snprintf(buf, size, "%s", e->where);
    size_t used = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
    return n + simrun_message(&bare, buf + used, size - used);
  }
  switch (f->status) {
    case LMERR_ZERODIV_INT: return snprintf(buf, size, "ZeroDivisionError %s: integer division or modulo by zero", who);
    case LMERR_ZERODIV_FLOAT: return snprintf(buf, size, "ZeroDivisionError %s: division by zero", who);
    case LMERR_INDEX:
      return snprintf(buf, size, "IndexError %s: index %lld out of bounds for axis %d with size %lld", who,
                      (long long)e->index, (int)e->axis, (long long)e->size);
    case LMERR_MEMORY: return snprintf(buf, size, "MemoryError %s: %s", who, e->msg ? e->msg : "");
    case LMERR_VALUE: return snprintf(buf, size, "ValueError %s: %s", who, e->msg ? e->msg : "");
    case LMERR_VALUE_FMT: {
      char text[512];
      lmerr_format(e, text, sizeof text);
      return snprintf(buf, size, "ValueError %s: %s", who, text);
    }
    case LMERR_RAISE: {
      /* "ValueError: text" → "ValueError in block ... thread ...: text" */
      const char *m = e->msg ? e->msg : "Exception";
      const char *colon = strstr(m, ": ");
      if (colon == NULL) return snprintf(buf, size, "%s %s", m, who);
      return snprintf(buf, size, "%.*s %s%s", (int)(colon - m), m, who, colon);
    }
    default: return snprintf(buf, size, "lumba: compiled code failed with status %d %s", (int)f->status, who);
  }
}

/* ---- special registers for hand-written NVVM IR ---- */

#define SREG(name, expr) static int32_t sreg_##name(void) { return (int32_t)(expr); }
SREG(tid_x, cur->reg[SIMCTX_TID + 0])
SREG(tid_y, cur->reg[SIMCTX_TID + 1])
SREG(tid_z, cur->reg[SIMCTX_TID + 2])
SREG(ctaid_x, cur->reg[SIMCTX_CTAID + 0])
SREG(ctaid_y, cur->reg[SIMCTX_CTAID + 1])
SREG(ctaid_z, cur->reg[SIMCTX_CTAID + 2])
SREG(ntid_x, cur->reg[SIMCTX_NTID + 0])
SREG(ntid_y, cur->reg[SIMCTX_NTID + 1])
SREG(ntid_z, cur->reg[SIMCTX_NTID + 2])
SREG(nctaid_x, cur->reg[SIMCTX_NCTAID + 0])
SREG(nctaid_y, cur->reg[SIMCTX_NCTAID + 1])
SREG(nctaid_z, cur->reg[SIMCTX_NCTAID + 2])
SREG(warpsize, WARP)
SREG(laneid, (cur->reg[0] + cur->reg[6] * (cur->reg[1] + cur->reg[7] * cur->reg[2])) % WARP)
#undef SREG

void *simrun_sreg_fn(const char *reg) {
  static const struct { const char *name; int32_t (*fn)(void); } regs[] = {
    {"tid.x", sreg_tid_x}, {"tid.y", sreg_tid_y}, {"tid.z", sreg_tid_z},
    {"ctaid.x", sreg_ctaid_x}, {"ctaid.y", sreg_ctaid_y}, {"ctaid.z", sreg_ctaid_z},
    {"ntid.x", sreg_ntid_x}, {"ntid.y", sreg_ntid_y}, {"ntid.z", sreg_ntid_z},
    {"nctaid.x", sreg_nctaid_x}, {"nctaid.y", sreg_nctaid_y}, {"nctaid.z", sreg_nctaid_z},
    {"warpsize", sreg_warpsize}, {"laneid", sreg_laneid},
  };
  for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++)
    if (strcmp(regs[i].name, reg) == 0) return (void *)regs[i].fn;
  return NULL;
}
