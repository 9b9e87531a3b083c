/*
** simrun.h — the runtime of the CUDA simulator: a kernel's blocks run on
** the prange pool (parallel.c), several blocks at once; the threads of one
** block run either as a loop (the compiled entry iterates over threadIdx)
** or, when the kernel synchronises, as fibers (ucontext) switched at
** cuda.syncthreads() and cuda.syncwarp(); a kernel that synchronises its
** grid runs every block at once, all on one OS thread. Compiled code finds its thread
** through simrun_ctx() and its block's shared memory through
** simrun_shared(). Nothing here sees a lua_State: tests/c/test_simrun.c
** drives it with kernels written in C.
*/
#ifndef simrun_h
#define simrun_h

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt.h"

/* indices into SimCtx.reg that compiled code loads (target_sim.c) */
/* SIMCTX_DYNSMEM: the launch's dynamic shared memory bytes (cuda.shared.array(0, dtype)) */
enum { SIMCTX_TID = 0, SIMCTX_CTAID = 3, SIMCTX_NTID = 6, SIMCTX_NCTAID = 9, SIMCTX_DYNSMEM = 12, SIMCTX_NREGS = 13 };

typedef struct SimWorker SimWorker;
typedef struct SimFiber SimFiber;

/* One simulated thread as compiled code sees it. */
typedef struct SimCtx {
  int64_t reg[SIMCTX_NREGS];  // threadIdx, blockIdx, blockDim, gridDim (x, y, z each), dynamic shared bytes
  SimWorker *w;               // the runner of the block
  SimFiber *fiber;            // NULL when the block runs as a loop
} SimCtx;

/* A kernel entry: i32 entry(LmErr *err, void **params), params as for
** cuLaunchKernel (params[i] points at parameter i, cudadrv.h's ABI). A
** loop entry runs every thread of the block (SimCtx.reg[NTID..]) in
** x-fastest order, writing each threadIdx into the context first, and
** stops at the first failing status (the context then names that thread);
** a fiber entry runs the one thread of its context. */
typedef int32_t (*SimEntry)(LmErr *err, void **params);

typedef struct SimKernel {
  SimEntry entry;
  bool fibers;    // calls a barrier: one fiber per thread, entry runs one thread
  size_t stack;   // bytes of stack a fiber needs (fibers only)
  bool grid_sync; // calls cuda.cg.this_grid().sync(): every block at once (implies fibers)
} SimKernel;

typedef enum SimFailKind {
  SIMFAIL_NONE,
  SIMFAIL_THREAD,   // a thread returned a failing status (status, err)
  SIMFAIL_BARRIER,  // cuda.syncthreads() reached by `arrived` of `nthreads`, the others returned
  SIMFAIL_MIXED,    // threads wait at cuda.syncthreads() and at cuda.syncwarp() at once
  SIMFAIL_MEMORY,   // no memory for fibers, stacks or the failure records
  SIMFAIL_GRID,     // the grid's sync reached by `arrived` of `nthreads` (block[0] -1: of the grid; else of that block)
} SimFailKind;

typedef struct SimFail {
  SimFailKind kind;
  int64_t block[3];           // blockIdx of the failing block
  int64_t thread[3];          // THREAD: threadIdx of the failing thread
  int32_t status;             // THREAD: an LmErrKind
  LmErr err;                  // THREAD
  int64_t arrived, nthreads;  // BARRIER
} SimFail;

/* Runs kernel k over grid x block (every dimension >= 1, the product of the
** grid's below 2^63). Returns 0, or 1 with *fail describing the failure of
** the lowest-numbered failing block (blocks after it may not have run;
** blocks before it all ran), so a failure is the same run to run. */
int simrun_launch(const SimKernel *k, const unsigned grid[3], const unsigned block[3], void **params,
                  SimFail *fail);
/* The same with dyn_shared bytes of dynamic shared memory per block. */
int simrun_launch_shared(const SimKernel *k, const unsigned grid[3], const unsigned block[3], int64_t dyn_shared,
                         void **params, SimFail *fail);

/* The message of a failure, e.g. "IndexError in block (3,0,0) thread
** (17,0,0): index 1000 out of bounds for axis 0 with size 1000"; snprintf's
** result. */
int simrun_message(const SimFail *f, char *buf, size_t size);

/* ---- called by compiled kernels (absolute JIT symbols, compile.c) ---- */

/* The context of the thread running now (the same for the whole run of
** one simulated thread, so compiled code may treat it as readnone). */
SimCtx *simrun_ctx(void);
/* The block's shared array for allocation site id (any unique address),
** bytes long, 16-byte aligned, zeroed when first made; NULL when out of
** memory. Every thread of the block gets the same memory. */
void *simrun_shared(const void *id, int64_t bytes);
/* cuda.syncthreads(): waits until every thread of the block is here. */
void simrun_barrier(void);
/* cuda.syncwarp(mask): waits for the threads of mask in this thread's warp
** of 32. */
void simrun_syncwarp(int32_t mask);
/* cuda.cg.this_grid().sync(): waits until every thread of the grid is here
** (a grid_sync kernel's blocks all run at once). */
void simrun_grid_sync(void);

/* cuda.shfl_sync (kind 0; lane the source lane), shfl_up_sync (1),
** shfl_down_sync (2), shfl_xor_sync (3; lane the lane mask) of a value's
** 64 bits among the lanes of mask; a source outside the warp gives the
** thread its own value. */
int64_t simrun_shfl(int32_t mask, int64_t v, int32_t lane, int32_t kind);
/* ballot_sync (kind 0: the mask of true lanes), all_sync (1), any_sync (2), eq_sync (3) */
int32_t simrun_vote(int32_t mask, int32_t pred, int32_t kind);
/* cuda.activemask(): the lanes of this thread's warp that have not returned */
int32_t simrun_activemask(void);

/* For hand-written NVVM IR: the C function that reads special register reg
** ("tid.x", "ntid.y", "ctaid.z", "nctaid.x", "warpsize", "laneid"), as
** i32 (*)(void); NULL for another name. */
void *simrun_sreg_fn(const char *reg);

#endif
