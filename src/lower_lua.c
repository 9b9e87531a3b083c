/*
** lower_lua.c — Lua 5.4 semantics for functions written in Lua: the
** lowering of what infer_lua.c types (semantics = "lua"). Lua's own rules
** are quoted from lvm.c / llimits.h where they are subtle.
*/
#include <stdio.h>
#include <string.h>

#include "lower.h"


static LLVMTypeRef i1t(Lower *L) { return LLVMInt1TypeInContext(L->ctx); }

/* Lua's shifts (lvm.c luaV_shiftl): logical; a negative count shifts the
** other way; a count of 64 or more, either way, gives 0 */
static LLVMValueRef lua_shift(Lower *L, LLVMValueRef x, LLVMValueRef y, bool left) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef zero = LLVMConstNull(t);
  if (!left) y = LLVMBuildSub(L->b, zero, y, "");  /* x >> y is x << -y (wrapping, as lvm.c) */
  LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, y, zero, "");
  LLVMValueRef n = LLVMBuildSelect(L->b, neg, LLVMBuildSub(L->b, zero, y, ""), y, "");
  LLVMValueRef big = LLVMBuildICmp(L->b, LLVMIntUGE, n, LLVMConstInt(t, 64, 0), "");
  LLVMValueRef ns = LLVMBuildSelect(L->b, big, zero, n, "");
  LLVMValueRef r = LLVMBuildSelect(L->b, neg, LLVMBuildLShr(L->b, x, ns, ""), LLVMBuildShl(L->b, x, ns, ""), "");
  return LLVMBuildSelect(L->b, big, zero, r, "");
}

static LLVMValueRef math1(Lower *L, const char *base, const char *intr, LLVMValueRef x, Type *t) {
  return L->C->target->math_call(L, base, intr, &x, 1, t->dtype == DT_FLOAT32);
}

LLVMValueRef lower_lua_binop(Lower *L, OpKind op, Val a, Val b, Type *rt) {
  if (op == OP_LShift || op == OP_RShift)
    return lua_shift(L, lower_cast(L, a, rt).v, lower_cast(L, b, rt).v, op == OP_LShift);
  if (!ty_is_float(rt)) return NULL;  /* integer // and %: Python's rules are Lua's */
  LLVMValueRef x = lower_cast(L, a, rt).v;
  if (op == OP_Pow && ty_is_int(b.ty) && LLVMIsConstant(b.v) && LLVMConstIntGetSExtValue(b.v) == 2)
    return LLVMBuildFMul(L->b, x, x, "");
  LLVMValueRef y = lower_cast(L, b, rt).v;
  switch (op) {
    case OP_Div: return LLVMBuildFDiv(L->b, x, y, "");
    case OP_Pow: {
      LLVMValueRef xs[2] = {x, y};
      return L->C->target->math_call(L, "pow", "llvm.pow", xs, 2, rt->dtype == DT_FLOAT32);
    }
    case OP_FloorDiv:  /* llimits.h luai_numidiv: floor(a / b) */
      return math1(L, "floor", "llvm.floor", LLVMBuildFDiv(L->b, x, y, ""), rt);
    case OP_Mod: {
      /* llimits.h luai_nummod: m = fmod(a, b); if ((m > 0) ? b < 0 : (m < 0 && b > 0)) m += b */
      LLVMTypeRef t = LLVMTypeOf(x);
      LLVMValueRef zero = LLVMConstReal(t, 0);
      /* fmod itself, not LLVM's frem: NVPTX expands frem as a - b * floor(a / b), which is inexact */
      LLVMValueRef xy[2] = {x, y};
      LLVMValueRef m = L->C->target->math_call(L, "fmod", NULL, xy, 2, rt->dtype == DT_FLOAT32);
      LLVMValueRef mpos = LLVMBuildFCmp(L->b, LLVMRealOGT, m, zero, "");
      LLVMValueRef bneg = LLVMBuildFCmp(L->b, LLVMRealOLT, y, zero, "");
      LLVMValueRef mneg = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, LLVMRealOLT, m, zero, ""),
                                       LLVMBuildFCmp(L->b, LLVMRealOGT, y, zero, ""), "");
      LLVMValueRef adj = LLVMBuildSelect(L->b, mpos, bneg, mneg, "");
      return LLVMBuildSelect(L->b, adj, LLVMBuildFAdd(L->b, m, y, ""), m, "");
    }
    default: return NULL;
  }
}

/* element i (1-based, negative from the end) of an axis of size dim, as a
** 0-based index; 0 and indices beyond either end give one out of [0, dim).
** For i = x + k (k a positive constant, j % n + 1 say) the test is x > -k:
** the same wherever the result is in bounds (when x + k wraps, both choices
** are out of bounds), and LLVM can then see that x >= 0 needs no select. */
LLVMValueRef lower_lua_index(Lower *L, LLVMValueRef i, LLVMValueRef dim) {
  LLVMValueRef x = i;
  int64_t k = 0;
  if (LLVMIsAInstruction(i) && LLVMGetInstructionOpcode(i) == LLVMAdd) {
    for (unsigned o = 0; o < 2 && k == 0; o++) {
      LLVMValueRef c = LLVMGetOperand(i, o);
      if (LLVMIsAConstantInt(c) && LLVMConstIntGetSExtValue(c) > 0 && LLVMConstIntGetSExtValue(c) < (1 << 30)) {
        k = LLVMConstIntGetSExtValue(c);
        x = LLVMGetOperand(i, 1 - o);
      }
    }
  }
  LLVMValueRef pos = LLVMBuildICmp(L->b, LLVMIntSGT, x, lower_i64(L, -k), "");
  return LLVMBuildSelect(L->b, pos, LLVMBuildSub(L->b, i, lower_i64(L, 1), ""), LLVMBuildAdd(L->b, i, dim, ""), "idx");
}

/* math.floor(x) of a float gives an integer in Lua when the result fits one
** and a float otherwise (NaN, infinities, beyond 2^63); compiled code returns
** an int64, so those raise Lua's "number has no integer representation"
** rather than saturate */
void lower_lua_integral(Lower *L, LLVMValueRef x) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef in = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, LLVMRealOGE, x, LLVMConstReal(t, -9223372036854775808.0), ""),
                                 LLVMBuildFCmp(L->b, LLVMRealOLT, x, LLVMConstReal(t, 9223372036854775808.0), ""), "");
  lower_raise_if(L, LLVMBuildNot(L->b, in, ""), LMERR_VALUE, "number has no integer representation");
}

/* the loop variable takes v (a scalar local: no reference counts) */
static void store_var(Lower *L, Node *target, Val v) {
  int slot = lower_ann(L, target)->slot;
  if (L->poison) L->poison[slot] = 0;
  LLVMBuildStore(L->b, lower_cast(L, v, L->spec->locals[slot].ty).v, L->slots[slot]);
}

/* the sign of a constant step: 1, -1, or 0 when not a nonzero constant */
static int const_sign(Node *n) {
  if (n == NULL) return 1;
  int s = 1;
  if (n->kind == ND_UnaryOp && n->op == OP_USub) {
    s = -1;
    n = n->operand;
  }
  if (n->kind != ND_Constant) return 0;
  if (n->ckind == CK_INT) return n->ival > 0 ? s : n->ival < 0 ? -s : 0;
  if (n->ckind == CK_FLOAT) return n->fval > 0 ? s : n->fval < 0 ? -s : 0;
  return 0;
}

/* raise "chunk:line: 'for' step is zero", Lua's message */
static void step_check(Lower *L, Node *s, LLVMValueRef is_zero) {
  const Source *src = s->loc.src ? s->loc.src : &L->C->src;  /* a device function's own file */
  const char *chunk = src->chunk ? src->chunk : "?";
  if (chunk[0] == '@' || chunk[0] == '=') chunk++;
  size_t n = strlen(chunk) + 48;
  char *msg = arena_alloc(L->C->A, n);
  snprintf(msg, n, "%s:%d: 'for' step is zero", chunk, s->loc.line);
  lower_raise_if(L, is_zero, LMERR_RAISE, msg);
}

/* lvm.c forlimit: a float limit of an integer loop is floored (step > 0)
** or ceiled; beyond the integers (NaN included) it clips to the nearer end,
** and the loop does not run when the start cannot reach it */
static LLVMValueRef float_limit(Lower *L, Val lim, LLVMValueRef pos, LLVMValueRef *skip) {
  LLVMTypeRef f64 = LLVMDoubleTypeInContext(L->ctx);
  LLVMValueRef x = lower_cast(L, lim, ty_float64).v;
  LLVMValueRef fl = LLVMBuildSelect(L->b, pos, math1(L, "floor", "llvm.floor", x, ty_float64),
                                    math1(L, "ceil", "llvm.ceil", x, ty_float64), "");
  LLVMValueRef big = LLVMBuildFCmp(L->b, LLVMRealOGE, fl, LLVMConstReal(f64, 9223372036854775808.0), "");
  LLVMValueRef small = LLVMBuildFCmp(L->b, LLVMRealULT, fl, LLVMConstReal(f64, -9223372036854775808.0), "");
  LLVMValueRef in = LLVMBuildFPToSI(L->b, LLVMBuildSelect(L->b, LLVMBuildOr(L->b, big, small, ""),
                                                          LLVMConstReal(f64, 0), fl, ""),
                                    LLVMInt64TypeInContext(L->ctx), "");
  LLVMValueRef v = LLVMBuildSelect(L->b, big, lower_i64(L, INT64_MAX),
                                   LLVMBuildSelect(L->b, small, lower_i64(L, INT64_MIN), in, ""), "");
  *skip = LLVMBuildOr(L->b, LLVMBuildAnd(L->b, big, LLVMBuildNot(L->b, pos, ""), ""),
                      LLVMBuildAnd(L->b, small, pos, ""), "");
  return v;
}

/* lvm.c forprep for integers: the iteration count is computed first, so
** the loop never overflows; the variable is start + k * step */
static void int_loop(Lower *L, Node *s, LoopCtx *lc, LLVMBasicBlockRef els) {
  Node *it = s->iter;
  bool has_step = it->args.len == 3;
  int sign = const_sign(has_step ? it->args.items[2] : NULL);
  bool unit = !has_step || (it->args.items[2]->kind == ND_Constant && it->args.items[2]->ckind == CK_INT &&
                            it->args.items[2]->ival == 1);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef start = lower_cast(L, lower_expr(L, it->args.items[0]), ty_int64).v;
  Val limv = lower_expr(L, it->args.items[1]);
  LLVMValueRef step = has_step ? lower_cast(L, lower_expr(L, it->args.items[2]), ty_int64).v : lower_i64(L, 1);
  if (sign == 0) step_check(L, s, LLVMBuildICmp(L->b, LLVMIntEQ, step, lower_i64(L, 0), ""));
  LLVMValueRef pos = sign ? LLVMConstInt(i1t(L), sign > 0, 0) : LLVMBuildICmp(L->b, LLVMIntSGT, step, lower_i64(L, 0), "");
  LLVMValueRef skip = LLVMConstInt(i1t(L), 0, 0), lim;
  if (ty_is_float(limv.ty)) lim = float_limit(L, limv, pos, &skip);
  else lim = lower_cast(L, limv, ty_int64).v;
  skip = LLVMBuildOr(L->b, skip, LLVMBuildSelect(L->b, pos, LLVMBuildICmp(L->b, LLVMIntSGT, start, lim, ""),
                                                 LLVMBuildICmp(L->b, LLVMIntSLT, start, lim, ""), ""), "");
  LLVMValueRef ctr = lower_entry_alloca(L, i64, "ctr"), rem = NULL;
  LLVMBuildStore(L->b, start, ctr);
  if (!unit) {
    /* count = (limit - start) / step, or (start - limit) / -step, unsigned */
    LLVMValueRef up = LLVMBuildUDiv(L->b, LLVMBuildSub(L->b, lim, start, ""), step, "");
    LLVMValueRef negstep = LLVMBuildAdd(L->b, LLVMBuildSub(L->b, lower_i64(L, 0), LLVMBuildAdd(L->b, step, lower_i64(L, 1), ""), ""),
                                        lower_i64(L, 1), "");
    LLVMValueRef down = LLVMBuildUDiv(L->b, LLVMBuildSub(L->b, start, lim, ""), negstep, "");
    rem = lower_entry_alloca(L, i64, "rem");
    LLVMBuildStore(L->b, LLVMBuildSelect(L->b, pos, up, down, ""), rem);
  }
  LLVMBasicBlockRef body = lower_block(L, "lfor"), latch = lower_block(L, "lnext");
  LLVMBuildCondBr(L->b, skip, els, body);
  LLVMPositionBuilderAtEnd(L->b, body);
  store_var(L, s->target, (Val){ty_int64, LLVMBuildLoad2(L->b, i64, ctr, "i"), false});
  lc->cont = latch;
  L->loop = lc;
  lower_body(L, &s->body);
  L->loop = lc->outer;
  if (!lower_terminated(L)) LLVMBuildBr(L->b, latch);
  LLVMPositionBuilderAtEnd(L->b, latch);
  LLVMValueRef c = LLVMBuildLoad2(L->b, i64, ctr, "");
  LLVMBasicBlockRef more = lower_block(L, "lmore");
  if (unit) {
    /* c < lim here, so c + 1 cannot overflow: say so, for the vectoriser */
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, c, lim, ""), els, more);
    LLVMPositionBuilderAtEnd(L->b, more);
    LLVMBuildStore(L->b, LLVMBuildNSWAdd(L->b, c, lower_i64(L, 1), ""), ctr);
  } else {
    LLVMValueRef r = LLVMBuildLoad2(L->b, i64, rem, "");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, r, lower_i64(L, 0), ""), els, more);
    LLVMPositionBuilderAtEnd(L->b, more);
    LLVMBuildStore(L->b, LLVMBuildSub(L->b, r, lower_i64(L, 1), ""), rem);
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, c, step, ""), ctr);
  }
  LLVMBuildBr(L->b, body);
}

/* lvm.c forprep and floatforloop: the loop is skipped when the limit is
** beyond the start (step > 0 ? limit < start : start < limit), and goes on
** while the next value is within it (v <= limit, or v >= limit): so a NaN
** start or limit runs the body once, as in Lua */
static void float_loop(Lower *L, Node *s, LoopCtx *lc, LLVMBasicBlockRef els) {
  Node *it = s->iter;
  bool has_step = it->args.len == 3;
  int sign = const_sign(has_step ? it->args.items[2] : NULL);
  LLVMTypeRef f64 = LLVMDoubleTypeInContext(L->ctx);
  LLVMValueRef start = lower_cast(L, lower_expr(L, it->args.items[0]), ty_float64).v;
  LLVMValueRef lim = lower_cast(L, lower_expr(L, it->args.items[1]), ty_float64).v;
  LLVMValueRef step = has_step ? lower_cast(L, lower_expr(L, it->args.items[2]), ty_float64).v : LLVMConstReal(f64, 1);
  if (sign == 0) step_check(L, s, LLVMBuildFCmp(L->b, LLVMRealOEQ, step, LLVMConstReal(f64, 0), ""));
  LLVMValueRef pos = sign ? LLVMConstInt(i1t(L), sign > 0, 0) : LLVMBuildFCmp(L->b, LLVMRealOGT, step, LLVMConstReal(f64, 0), "");
  LLVMValueRef ctr = lower_entry_alloca(L, f64, "fctr");
  LLVMBuildStore(L->b, start, ctr);
  LLVMValueRef skip = LLVMBuildSelect(L->b, pos, LLVMBuildFCmp(L->b, LLVMRealOLT, lim, start, ""),
                                      LLVMBuildFCmp(L->b, LLVMRealOLT, start, lim, ""), "");
  LLVMBasicBlockRef body = lower_block(L, "ffbody"), latch = lower_block(L, "ffnext");
  LLVMBuildCondBr(L->b, skip, els, body);
  LLVMPositionBuilderAtEnd(L->b, body);
  store_var(L, s->target, (Val){ty_float64, LLVMBuildLoad2(L->b, f64, ctr, "x"), false});
  lc->cont = latch;
  L->loop = lc;
  lower_body(L, &s->body);
  L->loop = lc->outer;
  if (!lower_terminated(L)) LLVMBuildBr(L->b, latch);
  LLVMPositionBuilderAtEnd(L->b, latch);
  LLVMValueRef c = LLVMBuildFAdd(L->b, LLVMBuildLoad2(L->b, f64, ctr, ""), step, "");
  LLVMBuildStore(L->b, c, ctr);
  LLVMValueRef go = LLVMBuildSelect(L->b, pos, LLVMBuildFCmp(L->b, LLVMRealOLE, c, lim, ""),
                                    LLVMBuildFCmp(L->b, LLVMRealOLE, lim, c, ""), "");
  LLVMBuildCondBr(L->b, go, body, els);
}

void lower_lua_for(Lower *L, Node *s) {
  LLVMBasicBlockRef els = lower_block(L, "lforelse"), end = lower_block(L, "lforend");
  LoopCtx lc = {end, NULL, L->loop};
  Node *it = s->iter;
  bool ints = ty_is_int(lower_ann(L, it->args.items[0])->ty) && (it->args.len < 3 || ty_is_int(lower_ann(L, it->args.items[2])->ty));
  if (ints) int_loop(L, s, &lc, els);
  else float_loop(L, s, &lc, els);
  LLVMPositionBuilderAtEnd(L->b, els);
  lower_body(L, &s->orelse);
  if (!lower_terminated(L)) LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
}
