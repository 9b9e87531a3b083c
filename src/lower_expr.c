/*
** lower_expr.c — expressions with Python's semantics: casts, arithmetic
** (floor division and modulo with the divisor's sign, wrapping int64,
** ZeroDivisionError), comparisons, boolean operators.
*/
#include <math.h>
#include <string.h>

#include "builtin_hooks.h"
#include "lower.h"
#include "lower_complex.h"

static LLVMTypeRef f64t(Lower *L) { return LLVMDoubleTypeInContext(L->ctx); }
static LLVMTypeRef i1t(Lower *L) { return LLVMInt1TypeInContext(L->ctx); }

/* an Optional's number; None raises as Numba does ("expected int64, got None") */
static Val optional_value(Lower *L, Val v) {
  Type *num = ty_scalar(v.ty->dtype);
  char msg[120];
  snprintf(msg, sizeof msg, "TypeError: expected %s, got None", num->name);
  lower_raise_if(L, LLVMBuildNot(L->b, LLVMBuildExtractValue(L->b, v.v, 1, "isset"), ""), LMERR_RAISE, msg);
  return (Val){num, LLVMBuildExtractValue(L->b, v.v, 0, ""), false};
}

/* an Optional of type to holding number x (set) or nothing (None) */
static Val optional_make(Lower *L, Type *to, LLVMValueRef x, LLVMValueRef set) {
  LLVMTypeRef lt = lower_type(L, to);
  LLVMValueRef r = LLVMBuildInsertValue(L->b, LLVMGetUndef(lt), x ? x : LLVMConstNull(LLVMStructGetTypeAtIndex(lt, 0)), 0, "");
  return (Val){to, LLVMBuildInsertValue(L->b, r, set, 1, "opt"), false};
}

Val lower_number(Lower *L, Val v) {
  return v.ty->kind == TY_OPTIONAL ? optional_value(L, v) : v;
}

Val lower_cast(Lower *L, Val v, Type *to) {
  Type *from = v.ty;
  if (from == to || to == NULL) return v;
  if (to->kind == TY_OPTIONAL) {  /* None, a number or another Optional */
    Type *num = ty_scalar(to->dtype);
    if (from->kind == TY_NONE) return optional_make(L, to, NULL, LLVMConstInt(i1t(L), 0, 0));
    if (from->kind == TY_SCALAR) return optional_make(L, to, lower_cast(L, v, num).v, LLVMConstInt(i1t(L), 1, 0));
    LM_ASSERT(from->kind == TY_OPTIONAL);
    Val x = {ty_scalar(from->dtype), LLVMBuildExtractValue(L->b, v.v, 0, ""), false};
    return optional_make(L, to, lower_cast(L, x, num).v, LLVMBuildExtractValue(L->b, v.v, 1, ""));
  }
  if (from->kind == TY_OPTIONAL) return lower_cast(L, optional_value(L, v), to);
  if (from->kind == TY_ARRAY && to->kind == TY_ARRAY) {
    /* layout widening to 'A' keeps the same representation */
    return (Val){to, v.v, v.owned};
  }
  if (from->kind == TY_NONE && to->kind == TY_CLASS)  /* None as an instance: NULL (optional(node_type)) */
    return (Val){to, LLVMConstNull(lower_type(L, to)), false};
  if (from->kind == TY_TUPLE && to->kind == TY_TUPLE) {
    LLVMValueRef r = LLVMGetUndef(lower_type(L, to));
    for (int i = 0; i < to->nelems; i++) {
      Val e = {from->elems[i], LLVMBuildExtractValue(L->b, v.v, (unsigned)i, ""), false};
      r = LLVMBuildInsertValue(L->b, r, lower_cast(L, e, to->elems[i]).v, (unsigned)i, "");
    }
    return (Val){to, r, v.owned};
  }
  LM_ASSERT(from->kind == TY_SCALAR && to->kind == TY_SCALAR);
  if (ty_is_complex(from) || ty_is_complex(to)) return lower_complex_cast(L, v, to);
  LLVMTypeRef lt = lower_type(L, to);
  LLVMValueRef x = v.v, r;
  if (ty_is_bool(to)) {
    r = ty_is_float(from) ? LLVMBuildFCmp(L->b, LLVMRealUNE, x, LLVMConstReal(lower_type(L, from), 0), "")
                          : LLVMBuildICmp(L->b, LLVMIntNE, x, LLVMConstNull(lower_type(L, from)), "");
  } else if (ty_is_float(to)) {
    if (ty_is_float(from)) r = ty_bits(from) < ty_bits(to) ? LLVMBuildFPExt(L->b, x, lt, "") : LLVMBuildFPTrunc(L->b, x, lt, "");
    else if (ty_is_signed(from)) r = LLVMBuildSIToFP(L->b, x, lt, "");
    else r = LLVMBuildUIToFP(L->b, x, lt, "");
  } else if (ty_is_float(from) && L->C->target->gpu) {
    r = ty_is_signed(to) ? LLVMBuildFPToSI(L->b, x, lt, "") : LLVMBuildFPToUI(L->b, x, lt, "");
  } else if (ty_is_float(from)) {
    /* as NumPy's C casts on x86-64 (and Numba's): truncate toward zero to
    ** 64 bits, then wrap to the width (-1.5 -> uint8 255, 300.7 -> int8 44);
    ** uint64 takes the unsigned conversion from 0 up. Saturating, so NaN and
    ** values beyond 64 bits (undefined in C) never become poison. */
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), tys[2] = {i64, lower_type(L, from)};
    LLVMValueRef s64 = lower_intrinsic(L, "llvm.fptosi.sat", tys, 2, &x, 1);
    if (ty_bits(to) < 64) {
      r = LLVMBuildTrunc(L->b, s64, lt, "");
    } else if (ty_is_signed(to)) {
      r = s64;
    } else {
      LLVMValueRef u64 = lower_intrinsic(L, "llvm.fptoui.sat", tys, 2, &x, 1);
      LLVMValueRef neg = LLVMBuildFCmp(L->b, LLVMRealOLT, x, LLVMConstReal(tys[1], 0), "");
      r = LLVMBuildSelect(L->b, neg, s64, u64, "");
    }
  } else {
    int fb = ty_bits(from), tb = ty_bits(to);
    if (fb == tb) r = x;
    else if (fb > tb) r = LLVMBuildTrunc(L->b, x, lt, "");
    else if (ty_is_signed(from)) r = LLVMBuildSExt(L->b, x, lt, "");
    else r = LLVMBuildZExt(L->b, x, lt, "");
  }
  return (Val){to, r, false};
}

LLVMValueRef lower_truth(Lower *L, Val v) {
  if (L->C->opt.lua && v.ty->kind == TY_SCALAR && !ty_is_bool(v.ty)) return LLVMConstInt(i1t(L), 1, 0);  /* Lua: numbers are true */
  return lower_cast(L, v, ty_bool).v;
}

LLVMValueRef lower_cond(Lower *L, Node *n) {
  return lower_truth(L, lower_expr(L, n));
}

static void zero_check(Lower *L, LLVMValueRef b, bool is_float) {
  if (is_float && L->C->opt.error_model_numpy) return;
  LLVMValueRef z = is_float ? LLVMBuildFCmp(L->b, LLVMRealOEQ, b, LLVMConstReal(LLVMTypeOf(b), 0), "")
                            : LLVMBuildICmp(L->b, LLVMIntEQ, b, LLVMConstNull(LLVMTypeOf(b)), "");
  lower_raise_if(L, z, is_float ? LMERR_ZERODIV_FLOAT : LMERR_ZERODIV_INT,
                 is_float ? "division by zero" : "integer division or modulo by zero");
}

/* Python's a // b and a % b on integers for b != 0. b == -1 takes a
** branch of its own (sdiv INT64_MIN, -1 traps on x86): with b invariant
** in a loop, LLVM unswitches the loop on it, as Numba's code lets it, where
** the selects it replaces stayed in the loop body. */
static LLVMValueRef int_floordiv_mod_nz(Lower *L, LLVMValueRef a, LLVMValueRef b, bool is_signed, bool want_mod) {
  LLVMTypeRef t = LLVMTypeOf(a);
  if (!is_signed) return want_mod ? LLVMBuildURem(L->b, a, b, "") : LLVMBuildUDiv(L->b, a, b, "");
  LLVMValueRef zero = LLVMConstNull(t);
  if (LLVMIsAConstantInt(b) && LLVMConstIntGetSExtValue(b) == -1) return want_mod ? zero : LLVMBuildSub(L->b, zero, a, "");
  LLVMValueRef minus1 = LLVMBuildICmp(L->b, LLVMIntEQ, b, LLVMConstAllOnes(t), "");
  LLVMBasicBlockRef m1 = lower_block(L, "divm1"), div = lower_block(L, "div"), join = lower_block(L, "divjoin");
  LLVMBuildCondBr(L->b, minus1, m1, div);
  LLVMPositionBuilderAtEnd(L->b, m1);
  LLVMValueRef vm1 = want_mod ? zero : LLVMBuildSub(L->b, zero, a, "");
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, div);
  LLVMValueRef q = LLVMBuildSDiv(L->b, a, b, "");
  LLVMValueRef r = LLVMBuildSRem(L->b, a, b, "");
  /* the remainder takes the divisor's sign */
  LLVMValueRef adjust = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntNE, r, zero, ""),
                                     LLVMBuildICmp(L->b, LLVMIntNE, LLVMBuildICmp(L->b, LLVMIntSLT, r, zero, ""),
                                                   LLVMBuildICmp(L->b, LLVMIntSLT, b, zero, ""), ""), "");
  LLVMValueRef v = want_mod ? LLVMBuildSelect(L->b, adjust, LLVMBuildAdd(L->b, r, b, ""), r, "")
                            : LLVMBuildSelect(L->b, adjust, LLVMBuildSub(L->b, q, LLVMConstInt(t, 1, 0), ""), q, "");
  LLVMBasicBlockRef end = LLVMGetInsertBlock(L->b);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
  LLVMValueRef phi = LLVMBuildPhi(L->b, t, "");
  LLVMAddIncoming(phi, (LLVMValueRef[]){vm1, v}, (LLVMBasicBlockRef[]){m1, end}, 2);
  return phi;
}

/* a // b, a % b on integers: ZeroDivisionError, or 0 under error_model numpy */
static LLVMValueRef int_floordiv_mod(Lower *L, LLVMValueRef a, LLVMValueRef b, bool is_signed, bool want_mod) {
  LLVMTypeRef t = LLVMTypeOf(a);
  if (L->C->opt.error_model_numpy) {
    /* NumPy's (and Numba's) integer x // 0 and x % 0 are 0: divide by 1, then select 0 */
    LLVMValueRef bz = LLVMBuildICmp(L->b, LLVMIntEQ, b, LLVMConstNull(t), "");
    LLVMValueRef safe = LLVMBuildSelect(L->b, bz, LLVMConstInt(t, 1, 0), b, "");
    LLVMValueRef r = int_floordiv_mod_nz(L, a, safe, is_signed, want_mod);
    return LLVMBuildSelect(L->b, bz, LLVMConstNull(t), r, "");
  }
  zero_check(L, b, false);
  return int_floordiv_mod_nz(L, a, b, is_signed, want_mod);
}

/* Python's float divmod (Objects/floatobject.c float_divmod) */
static LLVMValueRef float_floordiv_mod(Lower *L, LLVMValueRef a, LLVMValueRef b, bool want_mod) {
  LLVMTypeRef t = LLVMTypeOf(a);
  zero_check(L, b, true);
  LLVMValueRef zero = LLVMConstReal(t, 0), one = LLVMConstReal(t, 1);
  LLVMValueRef mod = LLVMBuildFRem(L->b, a, b, "");
  LLVMValueRef div = LLVMBuildFDiv(L->b, LLVMBuildFSub(L->b, a, mod, ""), b, "");
  LLVMValueRef nz = LLVMBuildFCmp(L->b, LLVMRealUNE, mod, zero, "");
  LLVMValueRef signs = LLVMBuildXor(L->b, LLVMBuildFCmp(L->b, LLVMRealOLT, b, zero, ""),
                                    LLVMBuildFCmp(L->b, LLVMRealOLT, mod, zero, ""), "");
  LLVMValueRef adj = LLVMBuildAnd(L->b, nz, signs, "");
  LLVMValueRef mod2 = LLVMBuildSelect(L->b, adj, LLVMBuildFAdd(L->b, mod, b, ""), mod, "");
  if (want_mod) {
    /* a zero remainder takes the divisor's sign (x % 0.0 stays NaN under error_model numpy) */
    LLVMValueRef z = LLVMBuildFCmp(L->b, LLVMRealOEQ, mod2, zero, "");
    LLVMValueRef args[2] = {zero, b};
    LLVMValueRef sz = lower_fmath(L, "copysign", args, 2);
    return LLVMBuildSelect(L->b, z, sz, mod2, "");
  }
  LLVMValueRef div2 = LLVMBuildSelect(L->b, adj, LLVMBuildFSub(L->b, div, one, ""), div, "");
  LLVMValueRef fl = lower_fmath(L, "floor", &div2, 1);
  LLVMValueRef half = LLVMConstReal(t, 0.5);
  LLVMValueRef up = LLVMBuildFCmp(L->b, LLVMRealOGT, LLVMBuildFSub(L->b, div2, fl, ""), half, "");
  LLVMValueRef fd = LLVMBuildSelect(L->b, up, LLVMBuildFAdd(L->b, fl, one, ""), fl, "");
  /* div == 0: the quotient takes the sign of a / b */
  LLVMValueRef dz = LLVMBuildFCmp(L->b, LLVMRealOEQ, div2, zero, "");
  LLVMValueRef q = LLVMBuildFDiv(L->b, a, b, "");
  LLVMValueRef args[2] = {zero, q};
  LLVMValueRef sz = lower_fmath(L, "copysign", args, 2);
  LLVMValueRef res = LLVMBuildSelect(L->b, dz, sz, fd, "");
  if (!L->C->opt.error_model_numpy) return res;
  /* error_model numpy: x // 0.0 is x / 0.0 (inf or nan), as NumPy's floor_divide */
  LLVMValueRef bz = LLVMBuildFCmp(L->b, LLVMRealOEQ, b, zero, "");
  return LLVMBuildSelect(L->b, bz, q, res, "");
}

/* integer power by squaring; Numba's rules for negative exponents */
static LLVMValueRef int_pow(Lower *L, LLVMValueRef a, LLVMValueRef e, bool is_signed) {
  LLVMTypeRef t = LLVMTypeOf(a);
  if (LLVMIsConstant(e)) {
    long long k = LLVMConstIntGetSExtValue(e);
    if (k >= 0 && k <= 4) {
      LLVMValueRef r = LLVMConstInt(t, 1, 0);
      for (long long i = 0; i < k; i++) r = i ? LLVMBuildMul(L->b, r, a, "") : a;
      return r;
    }
  }
  LLVMValueRef one = LLVMConstInt(t, 1, 0), zero = LLVMConstNull(t);
  LLVMValueRef r = lower_entry_alloca(L, t, "pr"), base = lower_entry_alloca(L, t, "pb"), ex = lower_entry_alloca(L, t, "pe");
  LLVMValueRef result = lower_entry_alloca(L, t, "pres");
  LLVMBasicBlockRef neg = lower_block(L, "pneg"), loop = lower_block(L, "ploop"), body = lower_block(L, "pbody"),
                    done = lower_block(L, "pdone"), end = lower_block(L, "pend");
  LLVMValueRef isneg = is_signed ? LLVMBuildICmp(L->b, LLVMIntSLT, e, zero, "") : LLVMConstInt(i1t(L), 0, 0);
  LLVMBuildStore(L->b, one, r);
  LLVMBuildStore(L->b, a, base);
  LLVMBuildStore(L->b, e, ex);
  LLVMBuildCondBr(L->b, isneg, neg, loop);
  /* negative exponent: 0 raises, 1 and -1 stay units, anything else truncates to 0 */
  LLVMPositionBuilderAtEnd(L->b, neg);
  lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, a, zero, ""), LMERR_RAISE,
                 "ZeroDivisionError: 0 cannot be raised to a negative power");
  LLVMValueRef odd = LLVMBuildTrunc(L->b, e, i1t(L), "");
  LLVMValueRef m1 = LLVMBuildSelect(L->b, odd, LLVMConstAllOnes(t), one, "");
  LLVMValueRef nv = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, a, one, ""), one,
                                    LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, a, LLVMConstAllOnes(t), ""), m1, zero, ""), "");
  LLVMBuildStore(L->b, nv, result);
  LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, loop);
  LLVMValueRef ec = LLVMBuildLoad2(L->b, t, ex, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, ec, zero, ""), done, body);
  LLVMPositionBuilderAtEnd(L->b, body);
  LLVMValueRef bc = LLVMBuildLoad2(L->b, t, base, "");
  LLVMValueRef rc = LLVMBuildLoad2(L->b, t, r, "");
  LLVMValueRef bit = LLVMBuildTrunc(L->b, ec, i1t(L), "");
  LLVMBuildStore(L->b, LLVMBuildSelect(L->b, bit, LLVMBuildMul(L->b, rc, bc, ""), rc, ""), r);
  LLVMBuildStore(L->b, LLVMBuildMul(L->b, bc, bc, ""), base);
  LLVMBuildStore(L->b, LLVMBuildLShr(L->b, ec, one, ""), ex);
  LLVMBuildBr(L->b, loop);
  LLVMPositionBuilderAtEnd(L->b, done);
  LLVMBuildStore(L->b, LLVMBuildLoad2(L->b, t, r, ""), result);
  LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
  return LLVMBuildLoad2(L->b, t, result, "");
}

/* float ** integer as Numba does it: square-and-multiply (unrolled for a
** literal exponent), 1.0 / r for a negative one, libm pow past |e| > 2^16.
** The products come in Numba's order, so results agree bit for bit; a
** loop of x ** 6 costs three multiplications, not a pow call. */
#define POW_CUTOFF 0x10000

static LLVMValueRef invert_pow(Lower *L, LLVMValueRef r) {
  zero_check(L, r, true);  /* Numba's 1.0 / r: ZeroDivisionError, inf under error_model numpy */
  return LLVMBuildFDiv(L->b, LLVMConstReal(LLVMTypeOf(r), 1.0), r, "");
}

static LLVMValueRef float_int_pow(Lower *L, LLVMValueRef x, Val e, Type *rt) {
  LLVMTypeRef t = LLVMTypeOf(x), i64 = LLVMInt64TypeInContext(L->ctx);
  bool sg = ty_is_signed(e.ty);
  if (LLVMIsAConstantInt(e.v)) {
    long long k = sg ? LLVMConstIntGetSExtValue(e.v) : (long long)LLVMConstIntGetZExtValue(e.v);
    bool fits = sg ? (k >= -POW_CUTOFF && k <= POW_CUTOFF) : (unsigned long long)k <= POW_CUTOFF;
    if (fits) {
      unsigned long long m = k < 0 ? (unsigned long long)-k : (unsigned long long)k;
      LLVMValueRef r = NULL, v = x;
      for (; m; m >>= 1) {
        if (m & 1) r = r ? LLVMBuildFMul(L->b, r, v, "") : v;  /* Numba's first product is 1.0 * v == v */
        if (m > 1) v = LLVMBuildFMul(L->b, v, v, "");
      }
      if (r == NULL) r = LLVMConstReal(t, 1.0);
      return k < 0 ? invert_pow(L, r) : r;
    }
  }
  LLVMValueRef ev = lower_cast(L, e, ty_scalar(sg ? DT_INT64 : DT_UINT64)).v;
  LLVMValueRef zero = lower_i64(L, 0), one = lower_i64(L, 1);
  LLVMValueRef neg = sg ? LLVMBuildICmp(L->b, LLVMIntSLT, ev, zero, "") : LLVMConstInt(i1t(L), 0, 0);
  LLVMValueRef m = LLVMBuildSelect(L->b, neg, LLVMBuildNeg(L->b, ev, ""), ev, "pm");
  LLVMValueRef res = lower_entry_alloca(L, t, "powr");
  LLVMBasicBlockRef big = lower_block(L, "powbig"), head = lower_block(L, "powhead"), body = lower_block(L, "powbody"),
                    done = lower_block(L, "powdone"), end = lower_block(L, "powend");
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntUGT, m, lower_i64(L, POW_CUTOFF), ""), big, head);
  LLVMPositionBuilderAtEnd(L->b, big);
  LLVMValueRef args[2] = {x, sg ? LLVMBuildSIToFP(L->b, ev, t, "") : LLVMBuildUIToFP(L->b, ev, t, "")};
  LLVMBuildStore(L->b, L->C->target->math_call(L, "pow", "llvm.pow", args, 2, rt->dtype == DT_FLOAT32), res);
  LLVMBuildBr(L->b, end);
  /* while m: if m & 1: r *= a; m >>= 1; a *= a */
  LLVMPositionBuilderAtEnd(L->b, head);
  LLVMValueRef pr = LLVMBuildPhi(L->b, t, "r"), pa = LLVMBuildPhi(L->b, t, "a"), pm = LLVMBuildPhi(L->b, i64, "m");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, pm, zero, ""), done, body);
  LLVMPositionBuilderAtEnd(L->b, body);
  LLVMValueRef bit = LLVMBuildICmp(L->b, LLVMIntNE, LLVMBuildAnd(L->b, pm, one, ""), zero, "");
  LLVMValueRef nr = LLVMBuildSelect(L->b, bit, LLVMBuildFMul(L->b, pr, pa, ""), pr, "");
  LLVMValueRef na = LLVMBuildFMul(L->b, pa, pa, "");
  LLVMValueRef nm = LLVMBuildLShr(L->b, pm, one, "");
  LLVMBuildBr(L->b, head);
  LLVMAddIncoming(pr, (LLVMValueRef[]){LLVMConstReal(t, 1.0), nr}, (LLVMBasicBlockRef[]){pre, body}, 2);
  LLVMAddIncoming(pa, (LLVMValueRef[]){x, na}, (LLVMBasicBlockRef[]){pre, body}, 2);
  LLVMAddIncoming(pm, (LLVMValueRef[]){m, nm}, (LLVMBasicBlockRef[]){pre, body}, 2);
  LLVMPositionBuilderAtEnd(L->b, done);
  LLVMBasicBlockRef inv = lower_block(L, "powinv"), keep = lower_block(L, "powkeep");
  LLVMBuildCondBr(L->b, neg, inv, keep);
  LLVMPositionBuilderAtEnd(L->b, inv);
  LLVMBuildStore(L->b, invert_pow(L, pr), res);
  LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, keep);
  LLVMBuildStore(L->b, pr, res);
  LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
  return LLVMBuildLoad2(L->b, t, res, "");
}

/* a op b, both converted to the operation's type first */
LLVMValueRef lower_binop(Lower *L, OpKind op, Val a, Val b, Type *rt, Loc loc) {
  a = lower_number(L, a);
  b = lower_number(L, b);
  (void)loc;
  if (L->C->opt.lua) {
    LLVMValueRef r = lower_lua_binop(L, op, a, b, rt);
    if (r) return r;
  }
  if (ty_is_complex(rt)) {
    int cop = op == OP_Add ? '+' : op == OP_Sub ? '-' : op == OP_Mult ? '*' : op == OP_Div ? '/' : 'p';
    return lower_complex_arith(L, cop, rt, lower_cast(L, a, rt).v, lower_cast(L, b, rt).v);
  }
  if (op == OP_Div) {
    LLVMValueRef x = lower_cast(L, a, rt).v, y = lower_cast(L, b, rt).v;
    zero_check(L, y, true);
    return LLVMBuildFDiv(L->b, x, y, "");
  }
  if (op == OP_Pow && ty_is_float(rt)) {
    LLVMValueRef x = lower_cast(L, a, rt).v;
    if (ty_is_int(b.ty)) return float_int_pow(L, x, b, rt);
    LLVMValueRef y = lower_cast(L, b, rt).v;
    LLVMTypeRef t = lower_type(L, rt);
    if (!L->C->opt.error_model_numpy) {
      /* 0.0 ** negative raises in Python */
      LLVMValueRef bad = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, LLVMRealOEQ, x, LLVMConstReal(t, 0), ""),
                                      LLVMBuildFCmp(L->b, LLVMRealOLT, y, LLVMConstReal(t, 0), ""), "");
      lower_raise_if(L, bad, LMERR_RAISE, "ZeroDivisionError: 0.0 cannot be raised to a negative power");
    }
    LLVMValueRef args[2] = {x, y};
    return L->C->target->math_call(L, "pow", "llvm.pow", args, 2, rt->dtype == DT_FLOAT32);
  }
  Type *ot = rt;
  if (ty_is_bool(rt)) ot = ty_bool;
  LLVMValueRef x = lower_cast(L, a, ot).v, y = lower_cast(L, b, ot).v;
  bool fl = ty_is_float(ot), sg = ty_is_signed(ot);
  LLVMValueRef r;
  switch (op) {
    case OP_Add: r = fl ? LLVMBuildFAdd(L->b, x, y, "") : LLVMBuildAdd(L->b, x, y, ""); break;
    case OP_Sub: r = fl ? LLVMBuildFSub(L->b, x, y, "") : LLVMBuildSub(L->b, x, y, ""); break;
    case OP_Mult: r = fl ? LLVMBuildFMul(L->b, x, y, "") : LLVMBuildMul(L->b, x, y, ""); break;
    case OP_FloorDiv: return fl ? float_floordiv_mod(L, x, y, false) : int_floordiv_mod(L, x, y, sg, false);
    case OP_Mod: return fl ? float_floordiv_mod(L, x, y, true) : int_floordiv_mod(L, x, y, sg, true);
    case OP_Pow: return int_pow(L, x, y, sg);
    case OP_BitAnd: return LLVMBuildAnd(L->b, x, y, "");
    case OP_BitOr: return LLVMBuildOr(L->b, x, y, "");
    case OP_BitXor: return LLVMBuildXor(L->b, x, y, "");
    case OP_LShift: case OP_RShift: {
      LLVMTypeRef t = LLVMTypeOf(x);
      if (sg) lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, y, LLVMConstNull(t), ""), LMERR_VALUE, "negative shift count");
      /* shifts of 64 or more: Python gives 0 (or -1 for negative >>), LLVM poison */
      LLVMValueRef big = LLVMBuildICmp(L->b, LLVMIntUGE, y, LLVMConstInt(t, 64, 0), "");
      LLVMValueRef ys = LLVMBuildSelect(L->b, big, LLVMConstInt(t, 63, 0), y, "");
      if (op == OP_LShift) {
        r = LLVMBuildSelect(L->b, big, LLVMConstNull(t), LLVMBuildShl(L->b, x, ys, ""), "");
      } else {
        LLVMValueRef sh = sg ? LLVMBuildAShr(L->b, x, ys, "") : LLVMBuildLShr(L->b, x, ys, "");
        r = sg ? sh : LLVMBuildSelect(L->b, big, LLVMConstNull(t), sh, "");
      }
      return r;
    }
    default: LM_UNREACHABLE();
  }
  return r;
}

static LLVMValueRef compare(Lower *L, OpKind op, Val a, Val b) {
  a = lower_number(L, a);
  b = lower_number(L, b);
  Type *ct = ty_arith(a.ty, b.ty);
  if (ty_is_bool(a.ty) && ty_is_bool(b.ty)) ct = ty_bool;
  LLVMValueRef x = lower_cast(L, a, ct).v, y = lower_cast(L, b, ct).v;
  if (ty_is_complex(ct)) return lower_complex_eq(L, x, y, op == OP_NotEq);  /* typing allows only == and != */
  if (ty_is_float(ct)) {
    LLVMRealPredicate p = op == OP_Eq ? LLVMRealOEQ : op == OP_NotEq ? LLVMRealUNE : op == OP_Lt ? LLVMRealOLT
                        : op == OP_LtE ? LLVMRealOLE : op == OP_Gt ? LLVMRealOGT : LLVMRealOGE;
    return LLVMBuildFCmp(L->b, p, x, y, "");
  }
  bool sg = ty_is_signed(ct);
  LLVMIntPredicate p = op == OP_Eq ? LLVMIntEQ : op == OP_NotEq ? LLVMIntNE
                     : op == OP_Lt ? (sg ? LLVMIntSLT : LLVMIntULT) : op == OP_LtE ? (sg ? LLVMIntSLE : LLVMIntULE)
                     : op == OP_Gt ? (sg ? LLVMIntSGT : LLVMIntUGT) : (sg ? LLVMIntSGE : LLVMIntUGE);
  return LLVMBuildICmp(L->b, p, x, y, "");
}

/* a < b < c: each operand evaluated once, stopping at the first false */
static bool none_const(Node *x) { return x->kind == ND_Constant && x->ckind == CK_NONE; }

/* x is None / x is not None at run time (infer_class.c let it through): an
** instance is None when NULL; an optional number field has a flag */
static Val lower_is_none(Lower *L, Node *n) {
  Node *x = none_const(n->left) ? n->elts.items[0] : n->left;
  LLVMValueRef r;
  if (lower_ann(L, x)->ty->kind == TY_NONE) {  /* a None argument: known */
    r = LLVMConstInt(i1t(L), 1, 0);
  } else if (lower_ann(L, x)->ty->kind == TY_OPTIONAL) {  /* an Optional: its is-set flag clear */
    Val v = lower_expr(L, x);
    r = LLVMBuildNot(L->b, LLVMBuildExtractValue(L->b, v.v, 1, ""), "isnone");
  } else if (lower_ann(L, x)->ty->kind == TY_CLASS) {
    Val v = lower_expr(L, x);
    r = LLVMBuildIsNull(L->b, v.v, "isnone");
    lower_release(L, v);
  } else {
    r = lower_class_target(L, x)->class_is_none(L, x);
  }
  if (n->cmpops[0] == OP_IsNot) r = LLVMBuildNot(L->b, r, "");
  return (Val){ty_bool, r, false};
}

/* a is b between two instances: the same MemInfo (None being NULL) */
static Val lower_is_same(Lower *L, Node *n) {
  Val a = lower_expr(L, n->left);
  int mark = lower_hold(L, a);
  Val b = lower_expr(L, n->elts.items[0]);
  lower_unhold(L, mark);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef x = a.ty->kind == TY_NONE ? lower_i64(L, 0) : LLVMBuildPtrToInt(L->b, a.v, i64, "");
  LLVMValueRef y = b.ty->kind == TY_NONE ? lower_i64(L, 0) : LLVMBuildPtrToInt(L->b, b.v, i64, "");
  LLVMValueRef r = LLVMBuildICmp(L->b, n->cmpops[0] == OP_Is ? LLVMIntEQ : LLVMIntNE, x, y, "is");
  lower_release(L, b);
  lower_release(L, a);
  return (Val){ty_bool, r, false};
}

static Val lower_compare(Lower *L, Node *n) {
  if (n->elts.len == 1 && (n->cmpops[0] == OP_Is || n->cmpops[0] == OP_IsNot))
    return none_const(n->left) || none_const(n->elts.items[0]) ? lower_is_none(L, n) : lower_is_same(L, n);
  Val left = lower_expr(L, n->left);
  if (n->elts.len == 1) return (Val){ty_bool, compare(L, n->cmpops[0], left, lower_expr(L, n->elts.items[0])), false};
  LLVMValueRef res = lower_entry_alloca(L, i1t(L), "cmp");
  LLVMBasicBlockRef end = lower_block(L, "cmpend");
  for (int i = 0; i < n->elts.len; i++) {
    Val right = lower_expr(L, n->elts.items[i]);
    LLVMValueRef c = compare(L, n->cmpops[i], left, right);
    LLVMBuildStore(L->b, c, res);
    if (i + 1 < n->elts.len) {
      LLVMBasicBlockRef next = lower_block(L, "cmpnext");
      LLVMBuildCondBr(L->b, c, next, end);
      LLVMPositionBuilderAtEnd(L->b, next);
    }
    left = right;
  }
  LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
  return (Val){ty_bool, LLVMBuildLoad2(L->b, i1t(L), res, ""), false};
}

/* x and y / x or y return an operand, as in Python */
static Val lower_boolop(Lower *L, Node *n) {
  Type *rt = lower_ann(L, n)->ty;
  LLVMValueRef res = lower_entry_alloca(L, lower_type(L, rt), "bool");
  LLVMBasicBlockRef end = lower_block(L, "boolend");
  for (int i = 0; i < n->elts.len; i++) {
    Val v = lower_expr(L, n->elts.items[i]);
    LLVMBuildStore(L->b, lower_cast(L, v, rt).v, res);
    if (i + 1 < n->elts.len) {
      LLVMBasicBlockRef next = lower_block(L, "boolnext");
      LLVMValueRef t = lower_truth(L, v);
      if (n->op == OP_And) LLVMBuildCondBr(L->b, t, next, end);
      else LLVMBuildCondBr(L->b, t, end, next);
      LLVMPositionBuilderAtEnd(L->b, next);
    }
  }
  LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
  return (Val){rt, LLVMBuildLoad2(L->b, lower_type(L, rt), res, ""), false};
}

static Val lower_ifexp(Lower *L, Node *n) {
  Type *rt = lower_ann(L, n)->ty;
  LLVMValueRef res = lower_entry_alloca(L, lower_type(L, rt), "ifexp");
  LLVMBasicBlockRef a = lower_block(L, "ifx"), b = lower_block(L, "ifelse"), end = lower_block(L, "ifend");
  LLVMBuildCondBr(L->b, lower_cond(L, n->test), a, b);
  LLVMPositionBuilderAtEnd(L->b, a);
  Val va = lower_cast(L, lower_expr(L, n->body_e), rt);
  if (!va.owned) lower_incref(L, va);
  LLVMBuildStore(L->b, va.v, res);
  LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, b);
  Val vb = lower_cast(L, lower_expr(L, n->orelse_e), rt);
  if (!vb.owned) lower_incref(L, vb);
  LLVMBuildStore(L->b, vb.v, res);
  LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
  /* both branches made the value owned (a no-op for scalars) */
  return (Val){rt, LLVMBuildLoad2(L->b, lower_type(L, rt), res, ""), L->refcount && rt->kind != TY_SCALAR};
}

Val lower_const_sym(Lower *L, const Sym *s) {
  if (s->kind == SYM_DEVARRAY) {  /* a device array global: its address and geometry as constants */
    const DevGlobal *g = s->dev;
    Type *t = ty_array(&L->C->S->types, g->dtype, g->ndim, g->layout);  /* its infer type (infer_expr.c) */
    LLVMTypeRef dpt = LLVMStructGetTypeAtIndex(lower_type(L, t), 1);
    LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
    for (int k = 0; k < g->ndim; k++) shape[k] = lower_i64(L, g->shape[k]), strides[k] = lower_i64(L, g->strides[k]);
    LLVMValueRef addr = LLVMConstInt(LLVMInt64TypeInContext(L->ctx), g->ptr, 0), data;
    if (L->C->target->gpu)  /* global memory: NVVM then loads and stores with ld.global/st.global */
      data = LLVMConstAddrSpaceCast(LLVMConstIntToPtr(addr, LLVMPointerType(LLVMGetElementType(dpt), 1)), dpt);
    else
      data = LLVMConstIntToPtr(addr, dpt);
    LLVMValueRef mi = LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0));
    return (Val){t, lower_arr_make(L, t, mi, data, shape, strides), false};
  }
  if (s->cty == ty_float64) return (Val){ty_float64, LLVMConstReal(f64t(L), s->fval), false};
  if (s->cty == ty_bool) return (Val){ty_bool, LLVMConstInt(i1t(L), (unsigned long long)s->ival, 0), false};
  return (Val){ty_int64, lower_i64(L, s->ival), false};
}

/* dtype values are compile-time: the value, a.dtype == np.float64 and
** dt.itemsize fold to constants (their operands have no effects worth running) */
static bool lower_dtype_fold(Lower *L, Node *n, Val *out) {
  Type *t = lower_ann(L, n)->ty;
  const CallInfo *ci = n->kind == ND_Call ? lower_ann(L, n)->aux : NULL;
  if (t && t->kind == TY_DTYPE && (ci == NULL || ci->kind == CALL_BUILTIN)) {  /* a def's call runs */
    *out = (Val){t, LLVMConstInt(lower_type(L, t), (unsigned long long)t->dtype, 0), false};
    return true;
  }
  Node *sub = n->kind == ND_Compare ? n->left : n->kind == ND_Attribute ? n->value : NULL;
  Type *st = sub ? lower_ann(L, sub)->ty : NULL;
  if (st == NULL || st->kind != TY_DTYPE) return false;
  if (n->kind == ND_Attribute) {  /* itemsize, the one attribute inference lets through */
    *out = (Val){ty_int64, lower_i64(L, dtype_sizes[st->dtype]), false};
    return true;
  }
  bool same = st->dtype == lower_ann(L, n->elts.items[0])->ty->dtype;
  *out = (Val){ty_bool, LLVMConstInt(i1t(L), same == (n->cmpops[0] == OP_Eq), 0), false};
  return true;
}

Val lower_expr(Lower *L, Node *n) {
  Val folded;
  if ((n->kind == ND_Name || n->kind == ND_Attribute || n->kind == ND_Call || n->kind == ND_Compare) &&
      lower_dtype_fold(L, n, &folded))
    return folded;
  if (n->kind == ND_BinOp && n->op == OP_MatMult && !L->C->opt.lua)  /* a @ b: see infer_expr */
    return L->C->builtins[BI_numpy_matmul].lower(L, n, lower_ann(L, n)->aux);
  if ((n->kind == ND_BinOp || n->kind == ND_UnaryOp || n->kind == ND_Compare) && lower_ann(L, n)->ty->kind == TY_ARRAY) {
    if (L->C->target->array_expr == NULL)
      compile_error(L->C, n->loc, "UnsupportedError", "whole-array arithmetic is not supported on this target");
    return L->C->target->array_expr(L, n);
  }
  switch (n->kind) {
    case ND_Constant:
      switch (n->ckind) {
        case CK_INT: return (Val){ty_int64, lower_i64(L, n->ival), false};
        case CK_FLOAT: return (Val){ty_float64, LLVMConstReal(f64t(L), n->fval), false};
        case CK_IMAG: {
          Type *ct = ty_scalar(DT_COMPLEX128);
          return (Val){ct, lower_complex_make(L, ct, LLVMConstReal(f64t(L), 0), LLVMConstReal(f64t(L), n->fval)), false};
        }
        case CK_BOOL: return (Val){ty_bool, LLVMConstInt(i1t(L), n->bval, 0), false};
        default: return (Val){&ty_none, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
      }
    case ND_Name:
      if (lower_ann(L, n)->slot >= 0) {
        Type *t = L->spec->locals[lower_ann(L, n)->slot].ty;
        if (L->poison && L->poison[lower_ann(L, n)->slot])
          compile_error(L->C, n->loc, "TypingError",
                        "'%s' is assigned inside a prange loop, where it is private to each iteration, and cannot "
                        "be read after the loop (make it a reduction such as '%s += ...', or store into an array)",
                        n->name, n->name);
        Val v = {t, LLVMBuildLoad2(L->b, lower_type(L, t), L->slots[lower_ann(L, n)->slot], n->name), false};
        /* an Optional used as a number (infer_expr): None raises */
        if (t->kind == TY_OPTIONAL && lower_ann(L, n)->ty->kind != TY_OPTIONAL) return optional_value(L, v);
        return v;
      }
      return lower_const_sym(L, (Sym *)lower_ann(L, n)->aux);
    case ND_BinOp: {
      Val a = lower_expr(L, n->left), b = lower_expr(L, n->right);
      return (Val){lower_ann(L, n)->ty, lower_binop(L, n->op, a, b, lower_ann(L, n)->ty, n->loc), false};
    }
    case ND_UnaryOp: {
      Val a = lower_number(L, lower_expr(L, n->operand));
      if (n->op == OP_Not) return (Val){ty_bool, LLVMBuildNot(L->b, lower_truth(L, a), ""), false};
      Val x = lower_cast(L, a, lower_ann(L, n)->ty);
      if (n->op == OP_UAdd) return x;
      if (n->op == OP_Invert) return (Val){lower_ann(L, n)->ty, LLVMBuildNot(L->b, x.v, ""), false};
      if (ty_is_complex(x.ty)) return (Val){x.ty, lower_complex_neg(L, x.ty, x.v), false};
      return (Val){lower_ann(L, n)->ty, ty_is_float(lower_ann(L, n)->ty) ? LLVMBuildFNeg(L->b, x.v, "") : LLVMBuildNeg(L->b, x.v, ""), false};
    }
    case ND_BoolOp: return lower_boolop(L, n);
    case ND_Compare: return lower_compare(L, n);
    case ND_IfExp: return lower_ifexp(L, n);
    case ND_Call: return lower_call(L, n);
    case ND_Attribute: return lower_attribute(L, n);
    case ND_Subscript: return lower_subscript(L, n);
    case ND_Tuple: {
      LLVMValueRef r = LLVMGetUndef(lower_type(L, lower_ann(L, n)->ty));
      bool owned = false;
      int mark = L->nheld;
      for (int i = 0; i < n->elts.len; i++) {
        Val e = lower_number(L, lower_expr(L, n->elts.items[i]));  /* (f(c), 1): an Optional result's number */
        /* a tuple holding arrays owns a reference to each (held until the
        ** tuple is whole: a later element may raise) */
        if (L->refcount && e.ty->kind != TY_SCALAR && !e.owned) lower_incref(L, e);
        owned = owned || (L->refcount && e.ty->kind != TY_SCALAR);
        lower_hold(L, (Val){e.ty, e.v, L->refcount && e.ty->kind != TY_SCALAR});
        r = LLVMBuildInsertValue(L->b, r, e.v, (unsigned)i, "");
      }
      lower_unhold(L, mark);
      return (Val){lower_ann(L, n)->ty, r, owned};
    }
    default: LM_UNREACHABLE();
  }
}
