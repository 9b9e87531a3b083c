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
} SymKind;

typedef struct Sym {
  SymKind kind;
  const char *qname;  // MODULE/BUILTIN
  const struct BuiltinName *bn;  // BUILTIN: its registry row (builtins.h); NULL if it has none
  Node *def;          // DEF
  int ref;            // DISPATCHER: registry reference
  DType dt;           // DTYPE
  Type *cty;          // CONST: int64, float64 or bool
  int64_t ival;
  double fval;
  int slot;           // LOCAL
} Sym;

/* A local variable of one specialization. */
typedef struct Local {
  const char *name;
  Type *ty;             // NULL until an assignment types it
  Loc def_loc;          // where its current type was first assigned
  bool is_param;
  void *storage;        // lowering: allocas
} Local;

/* Error kinds compiled code reports through its status (see rt.h). */

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
  const char *symbol;      // LLVM name of the inner function
  LLVMValueRef fn;         // inner function: i32 (err*, ret*, args...)
  LLVMTypeRef fnty;
  FuncSpec *next;
};

/* Every field that changes the generated code must also be hashed by
** cache_key (cache.c), or two different compilations would share a key. */
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
} Options;

typedef struct Compile {
  lua_State *L;
  LmState *S;
  Arena *A;
  Source src;
  Node *module;            // Module node
  Options opt;
  int env_idx;             // stack index of the env table (0: none)
  int globals_idx;         // stack index of the caller's globals (0: none)
  /* module-level names: aliases from imports and frozen constants */
  struct ModName { const char *name; Sym sym; } *modnames;
  int nmodnames, capmodnames;
  FuncSpec *specs;         // every specialization made by this compilation
  struct Import { const void *disp; Node *def; } *imports;  // device functions parsed into this compilation
  int nimports, capimports;
  char *pardiag;           // parallel diagnostics text (lower_parallel.c), arena
  size_t pardiag_len;
  int *refs;               // registry references to release when the compilation ends
  int nrefs, caprefs;
  struct CacheNote *notes; // env/global values and callee keys the code depends on (cache.h)
  int nnotes, capnotes;
  char prekey[65];         // with opt.cache: the pre-key naming the index file (cachekey.h); "" if none
  const char *symtag;      // the content key: symbols are <def>__<16 hex of it>_<n> (NULL: a counter)
  int nsyms;               // symbols named from symtag so far
  const Target *target;
  const struct BuiltinHooks *builtins;  // typing and lowering of each builtin, by id (builtin_table.c)
  /* LLVM, while lowering */
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
} Compile;

/* infer.c */
FuncSpec *infer_spec(Compile *C, Node *def, Type **argtypes, int nargs, Loc at);
void infer_retype(Compile *C, FuncSpec *spec);  /* re-annotate nodes before lowering */
Sym resolve_name(Compile *C, FuncSpec *spec, const char *name, Loc loc);
Sym resolve_static(Compile *C, FuncSpec *spec, Node *n);  /* SYM_NONE if n is a runtime value */
Node *compile_find_def(Compile *C, const char *name);
void compile_collect_module_names(Compile *C);
int spec_local(FuncSpec *spec, const char *name);  /* slot or -1 */

/* lower.c */
void lower_module(Compile *C);  /* lowers every typed spec into C->mod */

/* the pipeline (compile.c): compiles def `name` of the source for argtypes.
** declared_ret may be NULL. Raises on error, after freeing everything. */
typedef struct DispSpec DispSpec;
DispSpec *compile_spec(lua_State *L, int disp_idx, const char *name, const Options *opt,
                       Type **argtypes, int nargs, Type *declared_ret);
void compile_note_ref(Compile *C, int ref);

void state_open(lua_State *L);  /* state.c: verbosity, cache and thread-count functions */
double compile_now_ms(void);

/* messages */
l_noret compile_error(Compile *C, Loc loc, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *tyname(Compile *C, const Type *t);  /* display name in the arena */

#endif
