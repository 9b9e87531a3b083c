/*
** cudasim.h — the CUDA simulator as a driver: a CudaState (cudadrv.h)
** whose CudaDriver table is host code. Device memory is host memory
** (cuMemAlloc is an aligned malloc, copies are memcpy), streams run their
** work at once and in order, events read a monotonic clock, "PTX" is the
** NVVM IR text itself and loading it compiles it for the CPU (so the
** hand-written kernels of the driver tests run too). cuda.jit kernels are
** compiled by target_sim and launched through cudasim_launch, which
** reports a failing thread with its block and thread.
*/
#ifndef cudasim_h
#define cudasim_h

#include <lua.h>

#include "cudadrv.h"
#include "simrun.h"

/* A ready simulator state (refct 1, one device, its context current);
** NULL when out of memory. */
CudaState *cudasim_new(void);

/* Checks the configuration as cudrv_launch does (and the grid limits a
** GPU has), runs kernel k, and raises the failure's message, e.g.
** "IndexError in block (3,0,0) thread (17,0,0): index 1000 out of bounds
** for axis 0 with size 1000". */
void cudasim_launch(lua_State *L, CudaState *S, const SimKernel *k, const unsigned grid[3],
                    const unsigned block[3], unsigned shared, void **params);

#endif
