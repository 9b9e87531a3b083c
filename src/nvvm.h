/*
** nvvm.h — NVVM IR to PTX: libNVVM bound at run time (dlopen), the text
** fix-ups that turn LLVM 14's printed IR into the LLVM-7 dialect libNVVM
** reads, and LLVM's own NVPTX backend as the fallback where libNVVM is
** missing. Nothing here touches a lua_State: errors come back as strings.
*/
#ifndef nvvm_h
#define nvvm_h

#include <stdbool.h>
#include <stddef.h>

/* The datalayout libNVVM 2.0 requires (without i128:128:128 it fails with
** "DataLayoutError: Unsupported integer alignment"). */
#define NVVM_DATALAYOUT \
  "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-" \
  "f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
#define NVVM_TRIPLE "nvptx64-nvidia-cuda"
/* the NVVM IR version the fix-ups declare (libNVVM 2.0, CUDA 12 and 13) */
#define NVVM_IR_MAJOR 2
#define NVVM_IR_MINOR 0

typedef struct Nvvm Nvvm;  /* one opened libNVVM (per Lua state) */

/* Growing string for messages and rewritten IR; aborts nothing: on OOM the
** buffer is marked failed and nvvm_buf_take returns NULL. */
typedef struct NvBuf {
  char *s;     // NUL-terminated text so far (NULL before the first append)
  size_t len;  // bytes in s, without the NUL
  size_t cap;  // bytes allocated
  bool oom;    // an append failed
} NvBuf;
void nvvm_buf_add(NvBuf *b, const char *s, size_t n);
void nvvm_buf_str(NvBuf *b, const char *s);
void nvvm_buf_printf(NvBuf *b, const char *fmt, ...);
char *nvvm_buf_take(NvBuf *b);  /* the text (caller frees), or NULL after OOM */

/* Where CUDA may be installed, in search order: $LUMBA_CUDA_HOME,
** $CUDA_HOME, $CUDA_PATH, /usr/local/cuda (unset, empty and repeated roots
** skipped). Returns the count; roots[i] point into the environment. */
#define NVVM_MAXROOTS 4
int nvvm_roots(const char *roots[NVVM_MAXROOTS]);

/* Opens libNVVM: each root + nvvm/lib64/libnvvm.so{,.4,.3}, then the
** loader's paths. NULL when none loads; *why (malloc'd) lists every path
** tried. */
Nvvm *nvvm_load(char **why);
void nvvm_close(Nvvm *nv);
const char *nvvm_lib_path(const Nvvm *nv);  /* the file that was opened */
/* libNVVM's own version and the NVVM IR version it reads */
void nvvm_versions(const Nvvm *nv, int *major, int *minor, int *ir_major, int *ir_minor);

/* libdevice.10.bc: each root + nvvm/libdevice/, then beside the opened
** libNVVM (lib_path may be NULL). NULL + *why (malloc'd) when not found. */
char *nvvm_find_libdevice(const char *lib_path, char **why);

/* NVVM IR text (the LLVM-7 dialect, see nvvm_fixup_ir) -> PTX for
** compute_<cc_major><cc_minor>. libdevice (at libdevice_path) is added
** lazily when need_libdevice. Returns 0 and *ptx (malloc'd); or -1 and *log
** = "[NVVM_ERROR_X] nvvmStep: <libNVVM's log>". On success *log holds
** libNVVM's warnings (or NULL). */
int nvvm_compile(Nvvm *nv, const char *ir, size_t len, int cc_major, int cc_minor,
                 bool fastmath, bool need_libdevice, const char *libdevice_path,
                 char **ptx, char **log);

/* The same through LLVM's NVPTX backend (no libNVVM needed): parses the IR
** text (LLVM 14's dialect or the NVVM one), links libdevice when
** libdevice_path is given, optimises at O3 and emits PTX for the highest
** sm_XY this LLVM knows that is <= the device's. Same return convention. */
/* (in nvptx.so: core.so reaches it through backend_nvptx) */
int nvvm_compile_llvm(const char *ir, size_t len, int cc_major, int cc_minor, bool fastmath,
                      const char *libdevice_path, char **ptx, char **log);

/* LLVM 14's printed IR -> the LLVM-7 dialect libNVVM 2.0 parses (malloc'd;
** NULL on OOM). Idempotent: NVVM-dialect text passes through unchanged but
** for the datalayout and triple lines. See nvvm_fixup.c for the rules. */
char *nvvm_fixup_ir(const char *llvm14_text);

#endif
