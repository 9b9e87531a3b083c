/*
** compile.h — the state of one compilation (AST → typed specializations →
** LLVM IR) and of the per-Lua-state compiler (LmState).
*/
#ifndef compile_h
#define compile_h

#include <stdbool.h>

#include <llvm-c/Core.h>
#include <lua.h>

#include "arena.h"
#include "ast.h"
#include "types.h"

typedef struct LmJit LmJit;
typedef struct Target Target;

/* One per lua_State (a userdata in the registry): the JIT and the
** interned types outlive every compilation. */
typedef struct LmState {
  LmJit *jit;          // created at the first compile, not at require
  void (*jit_free)(LmJit *);  // set by the backend with jit
  TypeTable types;     // signature keys point here
  int64_t counter;     // makes symbol names unique
  bool closed;
  bool verbose;        // report each compilation's stages on stderr (LUMBA_VERBOSE=1)
  struct CacheFast *fast;  // code the cache's fast path loaded (cachefast.h); NULL: none
  int compiling;       // compilations running now, nested (a callee compiled for its caller)
} LmState;

LmState *lmstate_get(lua_State *L);  /* creates it on first use */
LmJit *lmstate_jit(lua_State *L, LmState *S);  /* creates the JIT lazily; raises */

/* Compile-time values a name or attribute can stand for. */
typedef enum SymKind {
  SYM_NONE,
  SYM_LOCAL,       // a local variable (slot)
  SYM_MODULE,      // math, numpy, numba, numba.cuda, ... (qname)
  SYM_BUILTIN,     // a function known by qualified name: "len", "math.sqrt", "numpy.zeros"
  SYM_DEF,         // a def of the same source (def)
  SYM_DISPATCHER,  // a lumba dispatcher found in env/globals (lua registry ref)
  SYM_DTYPE,       // np.float32, float32 (dt)
  SYM_CONST,       // a number frozen at compile time (cty, ival/fval)
  SYM_CLASS,       // a @jitclass of lumba.load's module (cls)
  SYM_FROZEN,      // a module-level array or tuple (W = np.array([...]), SHAPE = (3, 4)): its value node (def)
  SYM_DEVARRAY,    // a kernel's device array found in env/globals: its pointer, shape and strides (dev)
} SymKind;

/* a device array a kernel uses as a global, as numba-cuda does: its address and geometry at compile time */
/* the most bytes a kernel freezes into constant memory per global array:
** a GPU's constant memory is 64 KiB */
#define FROZEN_MAX_BYTES 65536

/* a complex number literal: 2j, -2j, 1 + 2j, -1.5 - 2j (resolve.c) */
bool compile_complex_literal(const Node *v, double *re, double *im);

typedef struct DevGlobal {
  uint64_t ptr;
  DType dtype;
  int ndim;
  int64_t shape[LM_MAXDIM], strides[LM_MAXDIM];
  char layout;  // 'C', 'F' or 'A', as the array's parameter would get
} DevGlobal;

typedef struct Sym {
  SymKind kind;
  const char *qname;  // MODULE/BUILTIN
  const struct BuiltinName *bn;  // BUILTIN: its registry row (builtins.h); NULL if it has none
  Node *def;          // DEF; FROZEN: the value
  int ref;            // DISPATCHER: registry reference
  DType dt;           // DTYPE
  Type *cty;          // CONST: int64, float64 or bool
  int64_t ival;
  double fval;
  int slot;           // LOCAL
  ClassInfo *cls;     // CLASS
  const DevGlobal *dev;  // DEVARRAY
} Sym;

/* A local variable of one specialization. */
typedef struct Local {
  const char *name;
  Type *ty;             // NULL until an assignment types it
  Loc def_loc;          // where its current type was first assigned
  bool is_param;
  uint64_t views_of;    // an array local: the parameters (bit i) it may be a view of (row = a[i])
  Node *frozen;         // a module constant's value (SYM_FROZEN): computed at entry, read-only
  void *storage;        // lowering: allocas
} Local;

/* Error kinds compiled code reports through its status (see rt.h). */

/* What inference found at one node for one specialization. The specs of a
** def share its tree, so these live in the spec, indexed by Node.id:
** inference writes them (infer_ann), the lowering reads them (lower_ann). */
typedef struct Ann {
  Type *ty;     // the expression's type; NULL if not typed
  int slot;     // Name, For (its hidden iterable): local variable index; -1 if none
  void *aux;    // stage-private: CallInfo on a Call, range's qname on a For, Sym on a frozen Name, ...
} Ann;

/* One function compiled for one tuple of argument types. */
typedef struct FuncSpec FuncSpec;
struct FuncSpec {
  Node *def;               // FunctionDef
  Type **argtypes;
  int nargs;
  Type *ret;               // NULL while unknown
  bool ret_fixed;          // ret comes from an eager signature: returns convert to it
  Loc ret_loc;
  Local *locals;
  int nlocals, caplocals;
  int state;               // 0 new, 1 being inferred, 2 typed
  bool parallel;           // prange loops run on the pool
  bool recursive;          // called while being inferred: entry checks the stack (stack.h)
  bool has_prange;         // inference met a prange loop: the parfor pass looks at this spec
  bool pruned;             // inference typed only one branch of an If (spec_if_taken)
  uint64_t int_float_stores;  // bit i: a float is stored into parameter i's integer elements (they truncate)
  struct ParLoop *parloops;  // the parfor pass's records of its prange loops (parfor.h)
  const char *symbol;      // LLVM name of the inner function
  LLVMValueRef fn;         // inner function: i32 (err*, ret*, args...)
  LLVMTypeRef fnty;
  Ann *anns;               // per Node.id, grown on demand in the compile arena
  int nanns;
  FuncSpec *next;
};

/* n's annotations in spec; a blank one where inference left none */
static inline const Ann *spec_ann(const FuncSpec *spec, const Node *n) {
  static const Ann blank = {NULL, -1, NULL};
  return n->id < spec->nanns ? &spec->anns[n->id] : &blank;
}
/* an If whose test inference decided at compile time (a.ndim == 2, axis is
** None): the one branch it typed, which alone is lowered; NULL when the test
** is a runtime value (infer.c records it in the If's annotation) */
static inline const NodeList *spec_if_taken(const FuncSpec *spec, const Node *s) {
  return (const NodeList *)spec_ann(spec, s)->aux;
}

/* Every field that changes the generated code must also be hashed by
** cachekey_options (cachekey.c), which the content key (cache_key) and the
** pre-key both call, or two different compilations would share a key. */
typedef struct Options {
  bool boundscheck;
  bool error_model_numpy;    // float division by zero gives inf/nan
  bool error_model_set;      // error_model was given (kernels default to 'numpy', as in numba-cuda)
  unsigned fastmath;         // LLVM fast-math flags (0: none)
  bool parallel;
  bool cache;
  bool gpu;                  // compile for the CUDA target
  bool device;               // cuda device function
  bool lua;                  // Lua 5.4 semantics (functions written in Lua; see infer_lua.c)
  bool debug;                // kernels: exceptions reach the host (an exception record, pipeline.c/kernel.c)
} Options;

typedef struct Compile Compile;

/* What the stages ask of the compilation's owner: the driver (pipeline.c)
** sets these, so no stage calls the cache or the dispatcher itself. */
typedef struct CompileHooks {
  /* resolve.c, for the cache key and index (cache.h): name was frozen as
  ** the constant s (from env or globals); it is in neither; it is the
  ** dispatcher s (s->ref) */
  void (*note_value)(Compile *C, const char *name, const Sym *s);
  void (*note_absent)(Compile *C, const char *name);
  void (*note_dispatcher)(Compile *C, const char *name, const Sym *s);
  /* infer_call.c: a call of another dispatcher (registry reference ref)
  ** for argtypes. The callee's code, compiled if need be, is described by
  ** a FuncSpec with no def (symbol, argument and return types), which the
  ** lowering declares by its symbol (lower_declare_callee). Raises. */
  FuncSpec *(*callee)(Compile *C, int ref, Type **argtypes, int nargs, Loc loc);
} CompileHooks;

struct Compile {
  lua_State *L;
  LmState *S;
  Arena *A;
  Source src;
  Node *module;            // Module node
  Options opt;
  int env_idx;             // stack index of the env table (0: none)
  int globals_idx;         // stack index of the caller's globals (0: none)
  int siblings_idx;        // stack index of lumba.load's dispatchers by name (0: none; resolve_name)
  int disp_idx;            // stack index of the dispatcher compiled (0: none): keeps its device-array globals
  Node *root;              // the def this compilation is for
  bool *reaches_root;      // per module body index: the def can call root (NULL: not computed)
  int *def_table, def_cap; // the module's defs by name, with reaches_root (resolve.c def_index)
  /* optimised IR of called dispatchers' code, linked in for inlining (pipeline.c) */
  struct CalleeIR { const char *ir; struct CalleeIR *next; } *callee_ir;
  /* module-level names: aliases from imports and frozen constants */
  struct ModName { const char *name; Sym sym; } *modnames;
  int nmodnames, capmodnames;
  FuncSpec *specs;         // every specialization made by this compilation
  struct Import { const void *disp; Node *def; } *imports;  // device functions parsed into this compilation
  int nimports, capimports;
  char *pardiag;           // parallel diagnostics text (parfor.c), arena
  size_t pardiag_len;
  int *refs;               // registry references to release when the compilation ends
  int nrefs, caprefs;
  struct CacheNote *notes; // env/global values and callee keys the code depends on (cache.h)
  int nnotes, capnotes;
  char prekey[65];         // with opt.cache: the pre-key naming the index file (cachekey.h); "" if none
  const char *symtag;      // the content key: symbols are <def>__<16 hex of it>_<n> (NULL: a counter)
  int nsyms;               // symbols named from symtag so far
  const Target *target;
  const CompileHooks *hooks;  // the cache's notes and other dispatchers' code (set by pipeline.c)
  const struct BuiltinHooks *builtins;  // typing and lowering of each builtin, by id (builtin_table.c)
  /* the NumPy prelude (builtin_prelude.c): its Module, parsed into this
  ** compilation at the first call of one of its defs (NULL: not needed);
  ** while a user's call of one is typed, that call and its NumPy name:
  ** errors in the prelude's text are reported there (compile_error) */
  Node *prelude;
  Loc prelude_call;
  const char *prelude_fname;  // "np.cumsum"; NULL: no such call
  /* LLVM, while lowering */
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
};

/* does body end by return or raise, through pruned Ifs? Then the code after
** the If it ends in is neither typed nor lowered (`if x is None: return 0`) */
static inline bool spec_leaves(const FuncSpec *spec, const NodeList *body) {
  if (body->len == 0) return false;
  const Node *s = body->items[body->len - 1];
  if (s->kind == ND_Return || s->kind == ND_Raise) return true;
  const NodeList *t = s->kind == ND_If ? spec_if_taken(spec, s) : NULL;
  return t && spec_leaves(spec, t);
}
/* a pruned If whose branch leaves: the statements after it are dead */
static inline bool spec_if_leaves(const FuncSpec *spec, const Node *s) {
  const NodeList *t = s->kind == ND_If ? spec_if_taken(spec, s) : NULL;
  return t && spec_leaves(spec, t);
}

/* is def the prelude's (builtin_prelude.c)? its names resolve among the prelude's */
static inline bool compile_in_prelude(const Compile *C, const Node *def) {
  return C->prelude && def && def->loc.src == C->prelude->loc.src;
}

/* may def use the prelude's intrinsics (_lumba.*)? the prelude's defs, and
** the drivers lumba.stencil writes (lua/lumba/stencil.lua: _lumba.overlaps) */
static inline bool compile_sees_lumba(const Compile *C, const Node *def) {
  return compile_in_prelude(C, def) || (def && def->name && strncmp(def->name, "__lumba_stencil_", 16) == 0);
}

/* infer.c */
FuncSpec *infer_spec(Compile *C, Node *def, Type **argtypes, int nargs, Loc at);
void infer_fix_ret(Compile *C, FuncSpec *spec, Type *ret);  /* an eager signature's return type */
Sym resolve_name(Compile *C, FuncSpec *spec, const char *name, Loc loc);
Sym resolve_static(Compile *C, FuncSpec *spec, Node *n);  /* SYM_NONE if n is a runtime value */
Node *compile_find_def(Compile *C, const char *name);
void compile_collect_module_names(Compile *C);

/* lower.c */
void lower_module(Compile *C);  /* lowers every typed spec into C->mod */

/* the pipeline (pipeline.c): compiles def `name` of the source for argtypes.
** declared_ret may be NULL. Raises on error, after freeing everything. */
typedef struct DispSpec DispSpec;
DispSpec *compile_spec(lua_State *L, int disp_idx, const char *name, const Options *opt,
                       Type **argtypes, int nargs, Type *declared_ret);
/* code that cannot be cached (it holds an address of this process, such as
** a @jitclass's class): compiled as usual, not stored; lumba.warnings says
** why (Numba's NumbaWarning "Cannot cache compiled function") */
void compile_skip_cache(Compile *C, const char *why);
void compile_note_ref(Compile *C, int ref);
int spec_local(FuncSpec *spec, const char *name);  /* compile.c: slot or -1 */

void state_open(lua_State *L);  /* state.c: verbosity, cache and thread-count functions */
double compile_now_ms(void);

/* messages */
l_noret compile_error(Compile *C, Loc loc, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *tyname(Compile *C, const Type *t);  /* display name in the arena */

#endif
