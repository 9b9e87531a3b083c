/*
** builtin_ufunc.c — NumPy's ufuncs: the UFUNC rows of builtins.def, and the
** MATH rows and abs under their NumPy names. Typing picks the loop NumPy
** picks for the inputs' dtypes (the first of the ufunc's loops every input
** casts to safely; Numba has no float16, so those loops are skipped); the
** element hook computes one element with NumPy's semantics (no raise on a
** zero divisor, NaN rules, shifts past the width); the call's lowering runs
** it once on scalars, as an array expression over arrays (fused with the
** elementwise operations around it, lower_arrayexpr.c), or into an output
** array (lower_ufunc.c).
*/
#include <math.h>
#include <string.h>

#include "builtin_hooks.h"

/* the loops a ufunc has: a range of cands[], their output bool (pred) or the input dtype */
typedef enum Special {  /* flags */
  SP_NONE = 0,
  SP_TRUEDIV = 1,  // integer inputs compute in float64 (NumPy's true division, np.sinc)
  SP_NOBOOL = 2,   // bool inputs have no loop (negative, subtract, positive, sign, gcd, lcm)
  SP_LDEXP = 4,    // a float and an integer exponent
  SP_NOOUT = 8,    // not a ufunc: no out (np.sinc)
} Special;

typedef struct Loops {
  signed char lo, hi;  // cands[lo..hi]; hi 0: not a ufunc
  bool pred;           // the output is bool
  unsigned char sp;    // Special flags
  bool libm;           // a MATH row: computed by builtin_math.c's libm call
} Loops;

static const DType cands[] = {DT_BOOL,  DT_INT8,   DT_UINT8, DT_INT16,   DT_UINT16,  DT_INT32,
                              DT_UINT32, DT_INT64, DT_UINT64, DT_FLOAT32, DT_FLOAT64, DT_COMPLEX64,
                              DT_COMPLEX128};
#define LAST_COMPLEX 12  /* the complex loops follow a ufunc's hi where bcomplex_has_loop says so */
#define ALL(sp) {0, 10, false, sp}
#define NUM(sp) {1, 10, false, sp}
#define BITS {0, 8, false, SP_NONE}
#define INTS(sp) {1, 8, false, sp}
#define FLOATS(sp) {9, 10, false, sp}
#define PRED {0, 10, true, SP_NONE}

static const Loops loops[BI__COUNT] = {
/* MATH rows: float loops; isnan/isinf/isfinite take every dtype */
#define MATH(id, mod, mem, base, n, r, intr) [BI_##id] = {r == 'B' ? 0 : 9, 10, r == 'B', SP_NONE, true},
#include "builtins.def"
    [BI_abs] = ALL(SP_NONE),
    [BI_numpy_add] = ALL(SP_NONE),
    [BI_numpy_bitwise_and] = BITS,
    [BI_numpy_bitwise_or] = BITS,
    [BI_numpy_bitwise_xor] = BITS,
    [BI_numpy_divide] = FLOATS(SP_TRUEDIV),
    [BI_numpy_equal] = PRED,
    [BI_numpy_fix] = FLOATS(SP_NONE),
    [BI_numpy_float_power] = {10, 10, false, SP_NONE},
    [BI_numpy_floor_divide] = NUM(SP_NONE),
    [BI_numpy_fmax] = ALL(SP_NONE),
    [BI_numpy_fmin] = ALL(SP_NONE),
    [BI_numpy_fmod] = NUM(SP_NONE),
    [BI_numpy_gcd] = INTS(SP_NOBOOL),
    [BI_numpy_greater] = PRED,
    [BI_numpy_greater_equal] = PRED,
    [BI_numpy_heaviside] = FLOATS(SP_NONE),
    [BI_numpy_invert] = BITS,
    [BI_numpy_lcm] = INTS(SP_NOBOOL),
    [BI_numpy_ldexp] = FLOATS(SP_LDEXP),
    [BI_numpy_left_shift] = INTS(SP_NONE),
    [BI_numpy_less] = PRED,
    [BI_numpy_less_equal] = PRED,
    [BI_numpy_logaddexp] = FLOATS(SP_NONE),
    [BI_numpy_logaddexp2] = FLOATS(SP_NONE),
    [BI_numpy_logical_and] = PRED,
    [BI_numpy_logical_not] = PRED,
    [BI_numpy_logical_or] = PRED,
    [BI_numpy_logical_xor] = PRED,
    [BI_numpy_maximum] = ALL(SP_NONE),
    [BI_numpy_minimum] = ALL(SP_NONE),
    [BI_numpy_multiply] = ALL(SP_NONE),
    [BI_numpy_negative] = NUM(SP_NOBOOL),
    [BI_numpy_nextafter] = FLOATS(SP_NONE),
    [BI_numpy_not_equal] = PRED,
    [BI_numpy_positive] = NUM(SP_NOBOOL),
    [BI_numpy_power] = NUM(SP_NONE),
    [BI_numpy_reciprocal] = NUM(SP_NONE),
    [BI_numpy_remainder] = NUM(SP_NONE),
    [BI_numpy_right_shift] = INTS(SP_NONE),
    [BI_numpy_sign] = NUM(SP_NOBOOL),
    [BI_numpy_signbit] = {9, 10, true, SP_NONE},
    [BI_numpy_sinc] = FLOATS(SP_TRUEDIV | SP_NOOUT),
    [BI_numpy_square] = NUM(SP_NONE),
    [BI_numpy_subtract] = NUM(SP_NOBOOL),
};

/* ---- typing ---- */

static int kind_rank(DType d) {
  char k = dtype_kinds[d];
  return k == 'b' ? 0 : k == 'c' ? 3 : k == 'f' ? 2 : 1;
}

/* np.can_cast(f, t, 'safe') */
bool ufunc_cast_safe(DType f, DType t) {
  if (f == t || f == DT_BOOL) return true;
  char kf = dtype_kinds[f], kt = dtype_kinds[t];
  int sf = dtype_sizes[f], st = dtype_sizes[t];
  if (kt == 'c') return kf == 'c' ? st >= sf : kf == 'f' ? st >= 2 * sf : st == 16 || sf <= 2;
  if (kf == 'c') return false;
  if (kt == 'b' || kf == 'f') return kt == kf && st >= sf;
  if (kt == 'f') return st == 8 || sf <= 2;
  if (kf == kt) return sf <= st;
  return kf == 'u' && sf < st;
}

/* np.can_cast(f, t, 'same_kind'): safe, or to a kind no lower (b < u < i < f) */
bool ufunc_cast_same_kind(DType f, DType t) {
  static const char order[] = "buifc";
  return ufunc_cast_safe(f, t) || strchr(order, dtype_kinds[f]) <= strchr(order, dtype_kinds[t]);
}

/* input i of type a fits a loop of dtype t; a weak input is a scalar of a
** kind no higher than the arrays' (Numba's rule, and NumPy's for Python
** scalars): it fits any loop of its kind or a higher one */
static bool fits(Type *a, bool weak, DType t) { return weak ? kind_rank(t) >= kind_rank(a->dtype) : ufunc_cast_safe(a->dtype, t); }

static void no_loop(Infer *I, Node *n, const char *name, Type **at, int nin) {
  Compile *C = I->C;
  const char *t1 = tyname(C, at[0]), *t2 = nin > 1 ? tyname(C, at[1]) : "";
  compile_error(C, n->loc, "TypingError", "ufunc '%s' has no loop for the input types (%s%s%s) under NumPy's safe casting",
                name, t1, nin > 1 ? ", " : "", t2);
}

Type *bufunc_infer(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  const Loops *lp = &loops[nm->id];
  const char *name = b->member;
  int nin = b->lo;
  static const char *const out_kw[] = {"out", NULL};
  bool has_out = !(lp->sp & SP_NOOUT);
  infer_only_keywords(I, n, name, has_out ? out_kw : NULL);
  infer_nargs(I, n, name, nin, has_out ? nin + 1 : nin);
  if (n->args.len > nin && n->keywords.len)
    compile_error(C, n->loc, "TypingError", "%s() got multiple values for argument 'out'", name);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  ci->ufunc = true;
  ci->nargs = nin;
  ci->out = has_out ? infer_arg_or_kw(n, nin, "out") : NULL;
  Type *at[2];
  if (!infer_arg_types(I, n->args.items, nin, at)) return NULL;
  int nd = -1, top = 0;
  for (int i = 0; i < nin; i++) {
    bool arr = at[i]->kind == TY_ARRAY;
    if ((!ty_is_number(at[i]) && !arr) || (arr && dtype_is_record(at[i]->dtype)))
      compile_error(C, n->args.items[i]->loc, "TypingError", "%s() needs a number or an array, not %s", name,
                    tyname(C, at[i]));
    if (arr && at[i]->ndim > nd) nd = at[i]->ndim;
    if (arr && kind_rank(at[i]->dtype) > top) top = kind_rank(at[i]->dtype);
  }
  bool weak[2], allbool = true, strong_float = false;
  for (int i = 0; i < nin; i++) {
    weak[i] = nd >= 0 && at[i]->kind == TY_SCALAR && kind_rank(at[i]->dtype) <= top;
    allbool = allbool && at[i]->dtype == DT_BOOL;
    strong_float = strong_float || (!weak[i] && dtype_kinds[at[i]->dtype] == 'f');
  }
  if ((lp->sp & SP_NOBOOL) && allbool) {
    if (nm->id == BI_numpy_negative)
      compile_error(C, n->loc, "TypingError", "The numpy boolean negative, the `-` operator, is not supported, use the "
                                              "`~` operator or the logical_not function instead.");
    if (nm->id == BI_numpy_subtract)
      compile_error(C, n->loc, "TypingError", "numpy boolean subtract, the `-` operator, is not supported, use the "
                                              "bitwise_xor, the `^` operator, or the logical_xor function instead.");
    no_loop(I, n, name, at, nin);
  }
  int loop = -1, hi = bcomplex_has_loop(nm->id) ? LAST_COMPLEX : lp->hi;
  for (int c = lp->lo; c <= hi && loop < 0; c++) {
    bool ok = fits(at[0], weak[0], cands[c]);
    if (nin == 2 && !(lp->sp & SP_LDEXP)) ok = ok && fits(at[1], weak[1], cands[c]);
    if (ok) loop = c;
  }
  if ((lp->sp & SP_LDEXP) && (dtype_kinds[at[1]->dtype] == 'f' || (!weak[1] && at[1]->dtype == DT_UINT64))) loop = -1;
  if (loop < 0) no_loop(I, n, name, at, nin);
  ci->dt = cands[loop];
  if ((lp->sp & SP_TRUEDIV) && !strong_float && dtype_kinds[ci->dt] != 'c') ci->dt = DT_FLOAT64;
  DType od = lp->pred || (dtype_kinds[ci->dt] == 'c' && (nm->id == BI_numpy_equal || nm->id == BI_numpy_not_equal))
                 ? DT_BOOL
             : dtype_kinds[ci->dt] == 'c' && nm->id == BI_abs ? (ci->dt == DT_COMPLEX64 ? DT_FLOAT32 : DT_FLOAT64)
                                                               : ci->dt;
  ci->dt_out = od;
  Type *rt = nd >= 0 ? ty_array(&C->S->types, od, nd, 'C') : ty_scalar(od);
  if (ci->out == NULL) return rt;
  Type *ot = infer_expr(I, ci->out);
  if (ot == NULL) return NULL;
  if (ot->kind != TY_ARRAY)
    compile_error(C, ci->out->loc, "TypingError", "%s(): the output (out) must be an array, not %s", name, tyname(C, ot));
  if (ot->ndim < (nd < 0 ? 0 : nd))
    compile_error(C, ci->out->loc, "TypingError", "%s(): the output has %d dimensions, the inputs broadcast to %d", name,
                  ot->ndim, nd);
  if (!ufunc_cast_same_kind(od, ot->dtype))
    compile_error(C, ci->out->loc, "TypingError",
                  "%s(): cannot cast the result from %s to the output's %s with casting rule 'same_kind'", name,
                  dtype_names[od], dtype_names[ot->dtype]);
  return ot;
}

/* ---- the element ---- */

static LLVMValueRef fconst(Lower *L, Type *t, double v) { return LLVMConstReal(lower_type(L, t), v); }
static LLVMValueRef sel(Lower *L, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildSelect(L->b, c, a, b, ""); }
static LLVMValueRef fcmp(Lower *L, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFCmp(L->b, p, a, b, ""); }
static LLVMValueRef icmp(Lower *L, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildICmp(L->b, p, a, b, ""); }
static LLVMValueRef fmath(Lower *L, Type *t, const char *base, const char *intr, LLVMValueRef *xs, int n) {
  return L->C->target->math_call(L, base, intr, xs, n, t->dtype == DT_FLOAT32);
}

/* x != 0, NaN true */
static LLVMValueRef truth(Lower *L, Val x) {
  if (ty_is_float(x.ty)) return fcmp(L, LLVMRealUNE, x.v, LLVMConstNull(LLVMTypeOf(x.v)));
  return icmp(L, LLVMIntNE, x.v, LLVMConstNull(LLVMTypeOf(x.v)));
}

static LLVMValueRef compare(Lower *L, BuiltinId id, Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_float(t)) {
    LLVMRealPredicate p = id == BI_numpy_equal ? LLVMRealOEQ : id == BI_numpy_not_equal ? LLVMRealUNE
                        : id == BI_numpy_less ? LLVMRealOLT : id == BI_numpy_less_equal ? LLVMRealOLE
                        : id == BI_numpy_greater ? LLVMRealOGT : LLVMRealOGE;
    return fcmp(L, p, a, b);
  }
  bool sg = ty_is_signed(t);
  LLVMIntPredicate p = id == BI_numpy_equal ? LLVMIntEQ : id == BI_numpy_not_equal ? LLVMIntNE
                     : id == BI_numpy_less ? (sg ? LLVMIntSLT : LLVMIntULT)
                     : id == BI_numpy_less_equal ? (sg ? LLVMIntSLE : LLVMIntULE)
                     : id == BI_numpy_greater ? (sg ? LLVMIntSGT : LLVMIntUGT) : (sg ? LLVMIntSGE : LLVMIntUGE);
  return icmp(L, p, a, b);
}

/* maximum/minimum: a NaN propagates (the first); fmax/fmin: a NaN is ignored */
static LLVMValueRef minmax(Lower *L, Type *t, LLVMValueRef x, LLVMValueRef y, bool mx, bool nan_ignored) {
  if (ty_is_float(t)) {
    if (nan_ignored) {
      LLVMTypeRef lt = lower_type(L, t);
      LLVMValueRef xs[2] = {x, y};
      return lower_intrinsic(L, mx ? "llvm.maxnum" : "llvm.minnum", &lt, 1, xs, 2);
    }
    LLVMValueRef pick_y = LLVMBuildAnd(L->b, fcmp(L, LLVMRealORD, x, x), fcmp(L, mx ? LLVMRealUGT : LLVMRealULT, y, x), "");
    return sel(L, pick_y, y, x);
  }
  bool sg = ty_is_signed(t);
  return sel(L, icmp(L, mx ? (sg ? LLVMIntSGT : LLVMIntUGT) : (sg ? LLVMIntSLT : LLVMIntULT), y, x), y, x);
}

static LLVMValueRef int_abs(Lower *L, Type *t, LLVMValueRef x) {
  if (!ty_is_signed(t)) return x;
  return sel(L, icmp(L, LLVMIntSLT, x, LLVMConstNull(LLVMTypeOf(x))), LLVMBuildNeg(L->b, x, ""), x);
}

/* NumPy's sign: -1, 0 or 1 of the type, NaN for NaN, 0.0 for -0.0 */
static LLVMValueRef sign(Lower *L, Type *t, LLVMValueRef x) {
  if (ty_is_float(t)) {
    LLVMValueRef zero = fconst(L, t, 0.0);
    LLVMValueRef r = sel(L, fcmp(L, LLVMRealOEQ, x, zero), zero, x);
    r = sel(L, fcmp(L, LLVMRealOLT, x, zero), fconst(L, t, -1.0), r);
    return sel(L, fcmp(L, LLVMRealOGT, x, zero), fconst(L, t, 1.0), r);
  }
  LLVMTypeRef lt = lower_type(L, t);
  LLVMValueRef zero = LLVMConstNull(lt);
  LLVMValueRef pos = LLVMBuildZExt(L->b, icmp(L, ty_is_signed(t) ? LLVMIntSGT : LLVMIntUGT, x, zero), lt, "");
  if (!ty_is_signed(t)) return pos;
  return LLVMBuildSub(L->b, pos, LLVMBuildZExt(L->b, icmp(L, LLVMIntSLT, x, zero), lt, ""), "");
}

/* shifts past the width: 0, or -1 for a negative >> (NumPy's npy_lshift/npy_rshift) */
static LLVMValueRef shift(Lower *L, Type *t, LLVMValueRef x, LLVMValueRef y, bool left) {
  LLVMTypeRef lt = lower_type(L, t);
  LLVMValueRef bits = LLVMConstInt(lt, (unsigned long long)dtype_sizes[t->dtype] * 8, 0);
  LLVMValueRef in = icmp(L, LLVMIntULT, y, bits);
  LLVMValueRef ys = sel(L, in, y, LLVMConstNull(lt));
  LLVMValueRef zero = LLVMConstNull(lt);
  if (left) return sel(L, in, LLVMBuildShl(L->b, x, ys, ""), zero);
  if (!ty_is_signed(t)) return sel(L, in, LLVMBuildLShr(L->b, x, ys, ""), zero);
  LLVMValueRef past = sel(L, icmp(L, LLVMIntSLT, x, zero), LLVMConstAllOnes(lt), zero);
  return sel(L, in, LLVMBuildAShr(L->b, x, ys, ""), past);
}

/* C's fmod on integers: the dividend's sign; x % 0 is 0 as in NumPy */
static LLVMValueRef int_fmod(Lower *L, Type *t, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef lt = lower_type(L, t);
  LLVMValueRef bad = icmp(L, LLVMIntEQ, y, LLVMConstNull(lt));
  if (ty_is_signed(t)) bad = LLVMBuildOr(L->b, bad, icmp(L, LLVMIntEQ, y, LLVMConstAllOnes(lt)), "");
  LLVMValueRef ys = sel(L, bad, LLVMConstInt(lt, 1, 0), y);
  LLVMValueRef r = ty_is_signed(t) ? LLVMBuildSRem(L->b, x, ys, "") : LLVMBuildURem(L->b, x, ys, "");
  return sel(L, bad, LLVMConstNull(lt), r);
}

/* Euclid's gcd of |x| and |y| (a loop of its own inside the element) */
static LLVMValueRef gcd(Lower *L, Type *t, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef lt = lower_type(L, t);
  LLVMValueRef pa = lower_entry_alloca(L, lt, "gcda"), pb = lower_entry_alloca(L, lt, "gcdb");
  LLVMBuildStore(L->b, int_abs(L, t, x), pa);
  LLVMBuildStore(L->b, int_abs(L, t, y), pb);
  LLVMBasicBlockRef head = lower_block(L, "gcd"), body = lower_block(L, "gcdstep"), done = lower_block(L, "gcdend");
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, head);
  LLVMValueRef b = LLVMBuildLoad2(L->b, lt, pb, "");
  LLVMBuildCondBr(L->b, icmp(L, LLVMIntEQ, b, LLVMConstNull(lt)), done, body);
  LLVMPositionBuilderAtEnd(L->b, body);
  LLVMValueRef a = LLVMBuildLoad2(L->b, lt, pa, "");
  LLVMBuildStore(L->b, b, pa);
  LLVMBuildStore(L->b, LLVMBuildURem(L->b, a, b, ""), pb);  /* |x| fits unsigned, INT_MIN included */
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, done);
  return LLVMBuildLoad2(L->b, lt, pa, "");
}

static LLVMValueRef lcm(Lower *L, Type *t, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef lt = lower_type(L, t);
  LLVMValueRef g = gcd(L, t, x, y);
  LLVMValueRef z = icmp(L, LLVMIntEQ, g, LLVMConstNull(lt));
  LLVMValueRef q = LLVMBuildUDiv(L->b, int_abs(L, t, x), sel(L, z, LLVMConstInt(lt, 1, 0), g), "");
  return sel(L, z, LLVMConstNull(lt), LLVMBuildMul(L->b, q, int_abs(L, t, y), ""));
}

/* log(exp(x) + exp(y)) without overflow; base 2 for logaddexp2 */
static LLVMValueRef logaddexp(Lower *L, Type *t, LLVMValueRef x, LLVMValueRef y, bool base2) {
  LLVMValueRef d = LLVMBuildFSub(L->b, x, y, "");
  LLVMValueRef ad = lower_fmath(L, "fabs", &d, 1);
  LLVMValueRef nad = LLVMBuildFNeg(L->b, ad, "");
  LLVMValueRef e = base2 ? fmath(L, t, "exp2", "llvm.exp2", &nad, 1) : fmath(L, t, "exp", "llvm.exp", &nad, 1);
  LLVMValueRef l = fmath(L, t, "log1p", NULL, &e, 1);
  if (base2) l = LLVMBuildFMul(L->b, l, fconst(L, t, 1.4426950408889634), "");
  LLVMValueRef m = sel(L, fcmp(L, LLVMRealOGT, x, y), x, y);
  LLVMValueRef r = LLVMBuildFAdd(L->b, m, l, "");
  LLVMValueRef same = LLVMBuildFAdd(L->b, x, fconst(L, t, base2 ? 1.0 : 0.6931471805599453), "");
  r = sel(L, fcmp(L, LLVMRealUNO, d, d), d, r);  /* a NaN, or inf - inf of opposite signs is handled by m */
  r = sel(L, fcmp(L, LLVMRealUNO, x, y), LLVMBuildFAdd(L->b, x, y, ""), r);
  return sel(L, fcmp(L, LLVMRealOEQ, x, y), same, r);  /* equal infinities included */
}

/* the float next to x toward y */
static LLVMValueRef next_toward(Lower *L, Type *t, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef it = t->dtype == DT_FLOAT32 ? LLVMInt32TypeInContext(L->ctx) : LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef bits = LLVMBuildBitCast(L->b, x, it, "");
  LLVMValueRef one = LLVMConstInt(it, 1, 0);
  LLVMValueRef away = LLVMBuildXor(L->b, fcmp(L, LLVMRealOLT, x, y), fcmp(L, LLVMRealOLT, x, fconst(L, t, 0.0)), "");
  LLVMValueRef nb = sel(L, away, LLVMBuildAdd(L->b, bits, one, ""), LLVMBuildSub(L->b, bits, one, ""));
  LLVMValueRef r = LLVMBuildBitCast(L->b, nb, lower_type(L, t), "");
  LLVMValueRef tiny = LLVMBuildBitCast(L->b, one, lower_type(L, t), "");
  LLVMValueRef cs[2] = {tiny, y};
  r = sel(L, fcmp(L, LLVMRealOEQ, x, fconst(L, t, 0.0)), lower_fmath(L, "copysign", cs, 2), r);
  r = sel(L, fcmp(L, LLVMRealOEQ, x, y), y, r);
  return sel(L, fcmp(L, LLVMRealUNO, x, y), LLVMBuildFAdd(L->b, x, y, ""), r);
}

/* x * 2**e through libm's ldexp, the exponent clamped to an int */
static LLVMValueRef ldexp_(Lower *L, Node *n, Type *t, LLVMValueRef x, Val e) {
  if (L->C->target->gpu) compile_error(L->C, n->loc, "UnsupportedError", "np.ldexp is not supported in CUDA kernels");
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
  LLVMValueRef k = lower_cast(L, e, ty_int64).v;
  LLVMValueRef lo = lower_i64(L, INT32_MIN), hi = lower_i64(L, INT32_MAX);
  k = sel(L, icmp(L, LLVMIntSLT, k, lo), lo, sel(L, icmp(L, LLVMIntSGT, k, hi), hi, k));
  k = LLVMBuildTrunc(L->b, k, i32, "");
  LLVMTypeRef ps[2] = {lower_type(L, t), i32};
  LLVMValueRef f = lower_rt_fn(L, t->dtype == DT_FLOAT32 ? "ldexpf" : "ldexp", ps[0], ps, 2);
  LLVMValueRef args[2] = {x, k};
  return LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, 2, "");
}

/* a binary operator of lower_expr.c under NumPy's error model (x // 0 and x % 0 give 0, no raise) */
static LLVMValueRef numpy_binop(Lower *L, Node *n, OpKind op, Val a, Val b, Type *t) {
  bool saved = L->C->opt.error_model_numpy;
  L->C->opt.error_model_numpy = true;
  LLVMValueRef r = lower_binop(L, op, a, b, t, n->loc);
  L->C->opt.error_model_numpy = saved;
  return r;
}

/* NumPy's integer power: a negative exponent is a ValueError */
static LLVMValueRef int_power(Lower *L, Node *n, Val a, Val b, Type *t) {
  if (ty_is_signed(t))
    lower_raise_if(L, icmp(L, LLVMIntSLT, b.v, LLVMConstNull(LLVMTypeOf(b.v))), LMERR_VALUE,
                   "Integers to negative integer powers are not allowed.");
  return numpy_binop(L, n, OP_Pow, a, b, t);
}

/* 1 / x in x's type: integers as NumPy computes them on x86 (1/0 is INT_MIN of 32 and 64 bits, else 0) */
static LLVMValueRef reciprocal(Lower *L, Type *t, LLVMValueRef x) {
  if (ty_is_float(t)) return LLVMBuildFDiv(L->b, fconst(L, t, 1.0), x, "");
  LLVMTypeRef lt = lower_type(L, t);
  LLVMValueRef one = LLVMConstInt(lt, 1, 0), m1 = LLVMConstAllOnes(lt), zero = LLVMConstNull(lt);
  LLVMValueRef r = sel(L, icmp(L, LLVMIntEQ, x, one), one, zero);
  if (ty_is_signed(t)) r = sel(L, icmp(L, LLVMIntEQ, x, m1), m1, r);
  if (ty_is_signed(t) && dtype_sizes[t->dtype] >= 4)
    r = sel(L, icmp(L, LLVMIntEQ, x, zero), LLVMConstShl(one, LLVMConstInt(lt, dtype_sizes[t->dtype] * 8 - 1, 0)), r);
  return r;
}

/* a MATH row under its NumPy name */
static LLVMValueRef math_elem(Lower *L, CallInfo *ci, Type *t, Val *a) {
  if (loops[ci->bi].pred) {  /* isnan, isinf, isfinite */
    if (!ty_is_float(t)) return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), ci->bi == BI_math_isfinite, 0);
    LLVMValueRef x = a[0].v, ax = lower_fmath(L, "fabs", &x, 1), inf = fconst(L, t, INFINITY);
    return ci->bi == BI_math_isnan ? fcmp(L, LLVMRealUNO, x, x)
         : ci->bi == BI_math_isinf ? fcmp(L, LLVMRealOEQ, ax, inf) : fcmp(L, LLVMRealOLT, ax, inf);
  }
  LLVMValueRef xs[2] = {a[0].v, builtin_entries[ci->bi].lo == 2 ? a[1].v : NULL};
  return bmath_float_call(L, ci->bi, xs, t);
}

/* the scalar result type of the call's loop (abs called by its Python name: the call's type) */
static Type *elem_type(Lower *L, Node *n, CallInfo *ci) {
  if (!ci->ufunc) return ty_scalar(lower_ann(L, n)->ty->dtype);
  return ty_scalar(ci->dt_out);
}

Val bufunc_elem(Lower *L, Node *n, CallInfo *ci, Val *x) {
  Type *rt = elem_type(L, n, ci);
  Type *t = ci->ufunc ? ty_scalar(ci->dt) : rt;
  if (ty_is_complex(t) || ty_is_complex(x[0].ty))  /* a complex loop (abs(z) by its Python name too) */
    return bcomplex_ufunc_elem(L, n, ci, x, ty_is_complex(t) ? t : x[0].ty, rt);
  Val a = lower_cast(L, x[0], t), b = {0};
  BuiltinId id = ci->bi;
  if (builtin_entries[id].lo == 2) b = id == BI_numpy_ldexp ? x[1] : lower_cast(L, x[1], t);
  bool fl = ty_is_float(t), bl = ty_is_bool(t);
  LLVMValueRef r;
  if (loops[id].libm) {
    Val ab[2] = {a, b};
    return (Val){rt, math_elem(L, ci, t, ab), false};
  }
  switch (id) {
    case BI_abs: r = fl ? lower_fmath(L, "fabs", &a.v, 1) : int_abs(L, t, a.v); break;
    case BI_numpy_negative: r = fl ? LLVMBuildFNeg(L->b, a.v, "") : LLVMBuildNeg(L->b, a.v, ""); break;
    case BI_numpy_positive: r = a.v; break;
    case BI_numpy_reciprocal: r = reciprocal(L, t, a.v); break;
    case BI_numpy_square: r = fl ? LLVMBuildFMul(L->b, a.v, a.v, "") : LLVMBuildMul(L->b, a.v, a.v, ""); break;
    case BI_numpy_sign: r = sign(L, t, a.v); break;
    case BI_numpy_fix: r = fmath(L, t, "trunc", "llvm.trunc", &a.v, 1); break;
    case BI_numpy_signbit: {
      LLVMTypeRef it = LLVMIntTypeInContext(L->ctx, (unsigned)dtype_sizes[t->dtype] * 8);
      r = icmp(L, LLVMIntSLT, LLVMBuildBitCast(L->b, a.v, it, ""), LLVMConstNull(it));
      break;
    }
    case BI_numpy_sinc: {
      LLVMValueRef nz = sel(L, fcmp(L, LLVMRealOEQ, a.v, fconst(L, t, 0.0)), fconst(L, t, 1e-20), a.v);
      LLVMValueRef y = LLVMBuildFMul(L->b, fconst(L, t, 3.141592653589793), nz, "");
      r = LLVMBuildFDiv(L->b, fmath(L, t, "sin", "llvm.sin", &y, 1), y, "");
      break;
    }
    case BI_numpy_logical_not: r = LLVMBuildNot(L->b, truth(L, a), ""); break;
    case BI_numpy_invert: r = LLVMBuildNot(L->b, a.v, ""); break;
    case BI_numpy_logical_and: r = LLVMBuildAnd(L->b, truth(L, a), truth(L, b), ""); break;
    case BI_numpy_logical_or: r = LLVMBuildOr(L->b, truth(L, a), truth(L, b), ""); break;
    case BI_numpy_logical_xor: r = LLVMBuildXor(L->b, truth(L, a), truth(L, b), ""); break;
    case BI_numpy_bitwise_and: r = LLVMBuildAnd(L->b, a.v, b.v, ""); break;
    case BI_numpy_bitwise_or: r = LLVMBuildOr(L->b, a.v, b.v, ""); break;
    case BI_numpy_bitwise_xor: r = LLVMBuildXor(L->b, a.v, b.v, ""); break;
    case BI_numpy_left_shift: r = shift(L, t, a.v, b.v, true); break;
    case BI_numpy_right_shift: r = shift(L, t, a.v, b.v, false); break;
    case BI_numpy_add: r = bl ? LLVMBuildOr(L->b, a.v, b.v, "") : numpy_binop(L, n, OP_Add, a, b, t); break;
    case BI_numpy_subtract: r = numpy_binop(L, n, OP_Sub, a, b, t); break;
    case BI_numpy_multiply: r = bl ? LLVMBuildAnd(L->b, a.v, b.v, "") : numpy_binop(L, n, OP_Mult, a, b, t); break;
    case BI_numpy_divide: r = LLVMBuildFDiv(L->b, a.v, b.v, ""); break;
    case BI_numpy_floor_divide: r = numpy_binop(L, n, OP_FloorDiv, a, b, t); break;
    case BI_numpy_remainder: r = numpy_binop(L, n, OP_Mod, a, b, t); break;
    case BI_numpy_fmod: r = fl ? LLVMBuildFRem(L->b, a.v, b.v, "") : int_fmod(L, t, a.v, b.v); break;
    case BI_numpy_power: r = fl ? numpy_binop(L, n, OP_Pow, a, b, t) : int_power(L, n, a, b, t); break;
    case BI_numpy_float_power: r = numpy_binop(L, n, OP_Pow, a, b, t); break;
    case BI_numpy_maximum: r = minmax(L, t, a.v, b.v, true, false); break;
    case BI_numpy_minimum: r = minmax(L, t, a.v, b.v, false, false); break;
    case BI_numpy_fmax: r = minmax(L, t, a.v, b.v, true, true); break;
    case BI_numpy_fmin: r = minmax(L, t, a.v, b.v, false, true); break;
    case BI_numpy_logaddexp: r = logaddexp(L, t, a.v, b.v, false); break;
    case BI_numpy_logaddexp2: r = logaddexp(L, t, a.v, b.v, true); break;
    case BI_numpy_nextafter: r = next_toward(L, t, a.v, b.v); break;
    case BI_numpy_ldexp: r = ldexp_(L, n, t, a.v, b); break;
    case BI_numpy_gcd: r = gcd(L, t, a.v, b.v); break;
    case BI_numpy_lcm: r = lcm(L, t, a.v, b.v); break;
    case BI_numpy_heaviside: {
      LLVMValueRef zero = fconst(L, t, 0.0);
      r = sel(L, fcmp(L, LLVMRealOLT, a.v, zero), zero, fconst(L, t, 1.0));
      r = sel(L, fcmp(L, LLVMRealOEQ, a.v, zero), b.v, r);
      r = sel(L, fcmp(L, LLVMRealUNO, a.v, a.v), a.v, r);
      break;
    }
    case BI_numpy_equal: case BI_numpy_not_equal: case BI_numpy_less: case BI_numpy_less_equal:
    case BI_numpy_greater: case BI_numpy_greater_equal:
      r = compare(L, id, t, a.v, b.v);
      break;
    default: LM_UNREACHABLE();
  }
  return (Val){rt, r, false};
}

/* ---- the call ---- */

Val bufunc_lower(Lower *L, Node *n, CallInfo *ci) {
  if (ci->out) return lower_ufunc_out(L, n, ci);
  if (lower_ann(L, n)->ty->kind == TY_ARRAY) {
    if (L->C->target->array_expr == NULL)
      compile_error(L->C, n->loc, "UnsupportedError", "ufuncs on arrays are not supported on this target");
    return L->C->target->array_expr(L, n);
  }
  Val x[2];
  for (int i = 0; i < ci->nargs; i++) x[i] = lower_arg(L, ci, i);
  return bufunc_elem(L, n, ci, x);
}
