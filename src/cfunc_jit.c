/*
** cfunc_jit.c — the C entry point of a @cfunc: a function with exactly the
** C signature the user wrote (double f(double, double)), which calls the
** specialization's inner function (i32 inner(LmErr *, Ret *, args...),
** rt.h) with an error record on its own stack and returns the result. No
** Lua state is involved, so any thread may call it. The inner function's
** optimised IR is linked in as available_externally, so it is inlined and
** the wrapper costs what a C function costs. The wrapper lives in its own
** JitCode, which depends on the specialization's: it stays valid until the
** cfunc object releases it (Backend.cfunc_release).
*/
#include <stdio.h>
#include <string.h>

#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>

#include "backend.h"
#include "dispatch.h"
#include "jit_cpu.h"
#include "lower.h"

/* an error raised inside a cfunc has nowhere to go (no Lua state): it is
** reported on stderr and the function returns zero, as Numba's cfunc
** reports an exception it cannot raise and returns the default value */
static void cfunc_report(const LmErr *e, const char *name) {
  char buf[256];
  const char *what = e->msg ? e->msg : "";
  switch (e->kind) {
    case LMERR_ZERODIV_INT: what = "ZeroDivisionError: integer division or modulo by zero"; break;
    case LMERR_ZERODIV_FLOAT: what = "ZeroDivisionError: division by zero"; break;
    case LMERR_INDEX:
      snprintf(buf, sizeof buf, "IndexError: index %lld is out of bounds for axis %d with size %lld",
               (long long)e->index, (int)e->axis, (long long)e->size);
      what = buf;
      break;
    case LMERR_VALUE_FMT: lmerr_format(e, buf, sizeof buf); what = buf; break;
    default: break;
  }
  fprintf(stderr, "lumba: cfunc %s raised an error (it returns 0): %s%s\n", name, what, e->where ? e->where : "");
}

static void fail(lua_State *L, JitCode *c, LLVMModuleRef m, const char *what, char *err) {
  if (m) LLVMDisposeModule(m);
  jit_code_release(c);
  lua_pushfstring(L, "lumba: cfunc: %s: %s", what, err ? err : "out of memory");
  free(err);
  lua_error(L);
}


/* C's calling convention for a small integer or bool: the callee extends it */
static void extend_attr(LLVMContextRef ctx, LLVMValueRef fn, unsigned idx, Type *t) {
  if (t->kind != TY_SCALAR || dtype_kinds[t->dtype] == 'f' || dtype_sizes[t->dtype] >= 4) return;
  bool zext = t->dtype == DT_BOOL || dtype_kinds[t->dtype] == 'u';
  const char *nm = zext ? "zeroext" : "signext";
  LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName(nm, 7), 0));
}

void *cfunc_jit_wrap(lua_State *L, const DispSpec *s, const char *name, void **code_out) {
  LmJit *J = lmstate_jit(L, lmstate_get(L));
  char *err = NULL;
  JitCode *c = jit_code_new(J, &err);
  if (c == NULL) fail(L, NULL, NULL, "cannot add the wrapper to the JIT", err);
  if (s->code && jit_code_depend(c, s->code, &err) != 0) fail(L, c, NULL, "cannot add the wrapper to the JIT", err);
  LLVMContextRef ctx = jit_code_context(c);
  char wname[300];
  snprintf(wname, sizeof wname, "%s_cfunc", s->symbol);
  LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(wname, ctx);
  jit_prepare_module(J, mod);
  Lower Lw = {0}, *Lo = &Lw;
  Lo->ctx = ctx;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef et = lower_err_type(ctx), rt = lower_type(Lo, s->ret);
  LLVMTypeRef inner_ps[2 + LM_MAXARGS], c_ps[LM_MAXARGS];
  inner_ps[0] = LLVMPointerType(et, 0);
  inner_ps[1] = LLVMPointerType(rt, 0);
  for (int i = 0; i < s->nargs; i++) c_ps[i] = inner_ps[2 + i] = lower_type(Lo, s->argtypes[i]);
  LLVMTypeRef inner_ty = LLVMFunctionType(i32, inner_ps, (unsigned)(2 + s->nargs), 0);
  LLVMValueRef inner = LLVMGetNamedFunction(mod, s->symbol);
  if (inner == NULL) inner = LLVMAddFunction(mod, s->symbol, inner_ty);
  bool none = s->ret->kind == TY_NONE;
  LLVMTypeRef c_ty = LLVMFunctionType(none ? LLVMVoidTypeInContext(ctx) : rt, c_ps, (unsigned)s->nargs, 0);
  LLVMValueRef fn = LLVMAddFunction(mod, wname, c_ty);
  if (!none) extend_attr(ctx, fn, LLVMAttributeReturnIndex, s->ret);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
  LLVMValueRef e = LLVMBuildAlloca(b, et, "err"), r = LLVMBuildAlloca(b, rt, "ret");
  /* the callee reads only stack_limit (0: not known yet, stack.h) and where (set only if NULL)
  ** and writes the rest on an error */
  LLVMBuildStore(b, LLVMConstNull(i32), LLVMBuildStructGEP2(b, et, e, 0, ""));
  LLVMBuildStore(b, LLVMConstNull(i64), LLVMBuildStructGEP2(b, et, e, 5, ""));
  LLVMBuildStore(b, LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(ctx), 0)), LLVMBuildStructGEP2(b, et, e, 4, ""));
  LLVMBuildStore(b, LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(ctx), 0)), LLVMBuildStructGEP2(b, et, e, 10, ""));  /* where */
  LLVMBuildStore(b, LLVMConstNull(rt), r);  /* an error returns zero */
  LLVMValueRef args[2 + LM_MAXARGS] = {e, r};
  for (int i = 0; i < s->nargs; i++) args[2 + i] = LLVMGetParam(fn, (unsigned)i);
  LLVMValueRef st = LLVMBuildCall2(b, inner_ty, inner, args, (unsigned)(2 + s->nargs), "st");
  LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(ctx, fn, "bad"), done = LLVMAppendBasicBlockInContext(ctx, fn, "done");
  LLVMValueRef failed = LLVMBuildICmp(b, LLVMIntNE, st, LLVMConstInt(i32, 0, 0), "");
  LLVMValueRef expect = LLVMGetNamedFunction(mod, "llvm.expect.i1");
  LLVMTypeRef i1 = LLVMInt1TypeInContext(ctx);
  LLVMTypeRef ety = LLVMFunctionType(i1, (LLVMTypeRef[]){i1, i1}, 2, 0);
  if (expect == NULL) expect = LLVMAddFunction(mod, "llvm.expect.i1", ety);
  failed = LLVMBuildCall2(b, ety, expect, (LLVMValueRef[]){failed, LLVMConstInt(i1, 0, 0)}, 2, "");
  LLVMBuildCondBr(b, failed, bad, done);
  LLVMPositionBuilderAtEnd(b, bad);
  /* the report function and the name, by address: this code is never cached */
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef rep_ty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), (LLVMTypeRef[]){LLVMPointerType(et, 0), i8p}, 2, 0);
  LLVMValueRef rep = LLVMConstIntToPtr(LLVMConstInt(i64, (unsigned long long)(uintptr_t)cfunc_report, 0),
                                       LLVMPointerType(rep_ty, 0));
  LLVMValueRef nm = LLVMBuildGlobalStringPtr(b, name, "name");
  LLVMBuildCall2(b, rep_ty, rep, (LLVMValueRef[]){e, nm}, 2, "");
  LLVMBuildStore(b, LLVMConstNull(rt), r);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  if (none) LLVMBuildRetVoid(b);
  else LLVMBuildRet(b, LLVMBuildLoad2(b, rt, r, "res"));
  LLVMDisposeBuilder(b);
  if (s->llvm_ir) lower_link_inline_ir(ctx, mod, s->llvm_ir, "inner");  /* after the call: the linker takes only what is referenced */
  if (jit_optimize(J, mod, 3, &err) != 0) fail(L, c, mod, "internal error: invalid IR", err);
  if (jit_code_add_module(c, mod, &err) != 0) fail(L, c, NULL, "cannot add the wrapper to the JIT", err);
  jit_code_drop_context(c);
  void *addr = jit_lookup(J, wname, &err);
  if (addr == NULL) fail(L, c, NULL, "cannot find the compiled wrapper", err);
  *code_out = c;
  return addr;
}

void cfunc_jit_release(void *code) {
  jit_code_release(code);
}
