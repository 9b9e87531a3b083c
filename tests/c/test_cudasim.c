/* The simulator's driver table: every entry point cudadrv.h binds is
** there (a new one added to CUDRV_FUNCS without a host version fails
** here, not as a NULL call in the simulator), and the host versions behave
** as the driver's do. */
#include <stdint.h>
#include <string.h>

#include "cudasim.h"
#include "test.h"

int main(void) {
  CudaState *S = cudasim_new();
  ASSERT(1, S != NULL);
  int missing = 0;
#define CHECK_FIELD(field, sym, alt, params) \
  if (S->fn.field == NULL) { printf("# no simulator version of %s\n", sym); missing++; }
  CUDRV_FUNCS(CHECK_FIELD)
#undef CHECK_FIELD
  ASSERT(0, missing);
  ASSERT(1, S->sim);
  ASSERT(1024, S->cur->max_threads);

  /* memory: allocation, copies both ways, a device copy, a refused size */
  CUdeviceptr a = 0, b = 0;
  ASSERT(0, S->fn.cuMemAlloc(&a, 64));
  ASSERT(0, S->fn.cuMemAlloc(&b, 64));
  ASSERT(0, (long long)(a % 256));
  double in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {0};
  ASSERT(0, S->fn.cuMemcpyHtoD(a, in, sizeof in));
  ASSERT(0, S->fn.cuMemcpyDtoDAsync(b, a, sizeof in, NULL));
  ASSERT(0, S->fn.cuMemcpyDtoH(out, b, sizeof out));
  ASSERT(1, memcmp(in, out, sizeof in) == 0);
  CUcontext ctx = NULL;
  ASSERT(0, S->fn.cuCtxGetCurrent(&ctx));
  ASSERT(0, S->fn.cuMemcpyPeer(a, ctx, b, ctx, 8));
  ASSERT(201, S->fn.cuMemcpyPeer(a, ctx, b, (CUcontext)(uintptr_t)16, 8));
  CUdeviceptr huge = 0;
  ASSERT(2, S->fn.cuMemAlloc(&huge, SIZE_MAX / 2));
  const char *name = NULL, *text = NULL;
  ASSERT(0, S->fn.cuGetErrorName(2, &name));
  ASSERT(0, S->fn.cuGetErrorString(2, &text));
  ASSERT_STR("CUDA_ERROR_OUT_OF_MEMORY", name);
  ASSERT_STR("out of memory", text);
  ASSERT(0, S->fn.cuMemFree(a));
  ASSERT(0, S->fn.cuMemFree(b));

  /* events: an unrecorded one has no time; recorded ones are ordered */
  CUevent e0, e1, e2;
  float ms = -1;
  ASSERT(0, S->fn.cuEventCreate(&e0, 0));
  ASSERT(0, S->fn.cuEventCreate(&e1, 0));
  ASSERT(0, S->fn.cuEventCreate(&e2, 2));  /* CU_EVENT_DISABLE_TIMING */
  ASSERT(400, S->fn.cuEventElapsedTime(&ms, e0, e1));
  ASSERT(0, S->fn.cuEventRecord(e0, NULL));
  ASSERT(0, S->fn.cuEventRecord(e1, NULL));
  ASSERT(0, S->fn.cuEventRecord(e2, NULL));
  ASSERT(0, S->fn.cuEventElapsedTime(&ms, e0, e1));
  ASSERT(1, ms >= 0);
  ASSERT(400, S->fn.cuEventElapsedTime(&ms, e0, e2));
  S->fn.cuEventDestroy(e0);
  S->fn.cuEventDestroy(e1);
  S->fn.cuEventDestroy(e2);

  /* a module of NVVM IR: a kernel found by name, a missing one not */
  static const char ir[] =
      "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "define void @iota(i32* %out) {\n"
      "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %i = zext i32 %t to i64\n"
      "  %p = getelementptr i32, i32* %out, i64 %i\n"
      "  store i32 %t, i32* %p\n"
      "  ret void\n"
      "}\n";
  CUmodule mod;
  CUfunction f;
  ASSERT(0, S->fn.cuModuleLoadDataEx(&mod, ir, 0, NULL, NULL));
  ASSERT(500, S->fn.cuModuleGetFunction(&f, mod, "nope"));
  ASSERT(0, S->fn.cuModuleGetFunction(&f, mod, "iota"));
  int32_t res[5] = {-1, -1, -1, -1, -1};
  int32_t *resp = res;
  void *params[] = {&resp};
  ASSERT(0, S->fn.cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, params, NULL));
  ASSERT(3, res[3]);
  ASSERT(-1, res[4]);
  ASSERT(1, S->fn.cuLaunchKernel(f, 1, 1, 1, 4, 1, 65, 0, NULL, params, NULL));
  ASSERT(0, S->fn.cuModuleUnload(mod));

  char log[256] = "";
  int opts[] = {5, 6};
  void *vals[] = {log, (void *)(uintptr_t)sizeof log};
  ASSERT(218, S->fn.cuModuleLoadDataEx(&mod, "define void @k() {\n  call void @llvm.nvvm.membar.gl()\n  ret void\n}\n"
                                       "declare void @llvm.nvvm.membar.gl()\n", 2, opts, vals));
  ASSERT_STR("the simulator does not implement llvm.nvvm.membar.gl", log);
  cudrv_release(S);
  TEST_END();
}
