/*
** cachefast.c — the cache's fast path (cachefast.h): from a dispatcher and
** argument types to loaded code, in core.so, before the backend is needed.
*/
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <lauxlib.h>

#include "backend.h"
#include "cachefast.h"
#include "cachefile.h"
#include "cachekey.h"
#include "maps.h"
#include "objload.h"

#define LOADED_KEY "lumba.fastcache"
#define MAX_DEPTH 32               /* calls nested deeper than this go to the compiler */
#define MAX_SPECS 256              /* dispatch.c's limit */

struct CacheFast {
  ObjImage **images;
  int nimages, capimages;
  const char **names;  // global symbols of the images (owned by them)
  void **addrs;
  int nsyms, capsyms;
  int *slots;          // open-addressing index over names: 1 + position, 0 free
  int nslots;          // a power of two, at least twice nsyms
  int nsynced;         // the first nsynced are defined in the JIT
  lua_Integer hits;
  unsigned loads;      // objects loaded (maps_left checks every so many)
};

/* ---- memory mappings ----
** Each loaded object takes up to three mappings (code, constants, data)
** until the state closes. As jit_cpu.c does for the JIT, every 128th load
** looks at the process's mappings, and once fewer than MAPS_MARGIN of
** vm.max_map_count (or LUMBA_MAX_MAPS) remain, loads miss: the compiler's
** path then reports the limit as an error. */
#define MAPS_CHECK_EVERY 128

static bool maps_left(unsigned loads) {
  long used, limit;
  return loads % MAPS_CHECK_EVERY != 0 || maps_room(&used, &limit);
}

/* ---- the per-state record ---- */

static struct CacheFast *fast_of(LmState *S) {
  if (S->fast == NULL) S->fast = calloc(1, sizeof *S->fast);
  return S->fast;
}

/* FNV-1a: the slot where the search for name starts */
static unsigned name_hash(const char *name) {
  uint32_t h = 2166136261u;
  for (const char *p = name; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
  return h;
}

static void *registered(const struct CacheFast *F, const char *name) {
  if (F == NULL || F->nslots == 0) return NULL;
  for (unsigned k = name_hash(name) & (unsigned)(F->nslots - 1);; k = (k + 1) & (unsigned)(F->nslots - 1)) {
    int i = F->slots[k] - 1;
    if (i < 0) return NULL;
    if (strcmp(F->names[i], name) == 0) return F->addrs[i];
  }
}

static void index_add(struct CacheFast *F, int i) {
  unsigned k = name_hash(F->names[i]) & (unsigned)(F->nslots - 1);
  while (F->slots[k]) k = (k + 1) & (unsigned)(F->nslots - 1);
  F->slots[k] = i + 1;
}

/* room in the index for n symbols in all; false when out of memory */
static bool index_reserve(struct CacheFast *F, int n) {
  if (2 * n <= F->nslots) return true;
  int cap = F->nslots ? F->nslots : 32;
  while (cap < 2 * n) cap *= 2;
  int *slots = calloc((size_t)cap, sizeof *slots);
  if (slots == NULL) return false;
  free(F->slots);
  F->slots = slots;
  F->nslots = cap;
  for (int i = 0; i < F->nsyms; i++) index_add(F, i);
  return true;
}

/* objload's resolver: the runtime table, then code loaded before */
static void *resolve(void *ud, const char *name) {
  void *a = objload_extern(name);
  return a ? a : registered(ud, name);
}

/* keeps im and its symbols; false when out of memory (im is freed) */
static bool keep(struct CacheFast *F, ObjImage *im) {
  int n = objload_nglobals(im);
  if (F->nimages == F->capimages) {
    int cap = F->capimages ? 2 * F->capimages : 8;
    ObjImage **p = realloc(F->images, sizeof *p * (size_t)cap);
    if (p == NULL) goto oom;
    F->images = p;
    F->capimages = cap;
  }
  if (F->nsyms + n > F->capsyms) {
    int cap = F->capsyms ? 2 * F->capsyms : 16;
    while (cap < F->nsyms + n) cap *= 2;
    const char **names = realloc(F->names, sizeof *names * (size_t)cap);
    if (names == NULL) goto oom;
    F->names = names;
    void **addrs = realloc(F->addrs, sizeof *addrs * (size_t)cap);
    if (addrs == NULL) goto oom;
    F->addrs = addrs;
    F->capsyms = cap;
  }
  if (!index_reserve(F, F->nsyms + n)) goto oom;
  F->images[F->nimages++] = im;
  for (int i = 0; i < n; i++) {
    F->names[F->nsyms] = objload_global(im, i, &F->addrs[F->nsyms]);
    index_add(F, F->nsyms);
    F->nsyms++;
  }
  return true;
oom:
  objload_free(im);
  return false;
}

int cachefast_pending(LmState *S, const char *const **names, void *const **addrs) {
  struct CacheFast *F = S->fast;
  if (F == NULL) return 0;
  *names = F->names + F->nsynced;
  *addrs = F->addrs + F->nsynced;
  return F->nsyms - F->nsynced;
}

void cachefast_synced(LmState *S) {
  if (S->fast) S->fast->nsynced = S->fast->nsyms;
}

void cachefast_free(LmState *S) {
  struct CacheFast *F = S->fast;
  if (F == NULL) return;
  for (int i = 0; i < F->nimages; i++) objload_free(F->images[i]);
  free(F->images);
  free(F->names);
  free(F->addrs);
  free(F->slots);
  free(F);
  S->fast = NULL;
}

void cachefast_push_loaded(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, LOADED_KEY) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, LOADED_KEY);
}

lua_Integer cachefast_hits(lua_State *L) {
  LmState *S = lmstate_get(L);
  return S->fast ? S->fast->hits : 0;
}

/* ---- one lookup ---- */

typedef struct Lookup {
  char why[300];        // the last miss
  DispSpec *out;        // the result of the outermost load
} Lookup;

/* "lumba cache: fast <what> f(int64, float64[:]) key <16 hex>: <why> (<path>)" on stderr */
static void say(const char *what, const Dispatcher *d, Type **argtypes, int nargs, const char *key, const char *why,
                const char *path) {
  if (!cachefile_debug()) return;
  char sig[512];
  ty_args_text(argtypes, nargs, sig, sizeof sig);
  fprintf(stderr, "lumba cache: fast %s %s(%s)%s%.16s: %s (%s)\n", what, d->name, sig, key ? " key " : "",
          key ? key : "", why, path ? path : "-");
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* LUMBA_VERBOSE=1: "lumba: loaded f(int64) -> int64 from the cache in 0.12 ms (no compilation)" */
static void report(const DispSpec *out, const char *name, double ms) {
  char sig[512];
  ty_args_text(out->argtypes, out->nargs, sig, sizeof sig);
  fprintf(stderr, "lumba: loaded %s(%s) -> %s from the cache in %.2f ms (no compilation)\n", name, sig, out->ret->name,
          ms);
}

static bool miss(Lookup *lk, const char *why) {
  snprintf(lk->why, sizeof lk->why, "%s", why);
  return false;
}

/* the value `name` stands for, pushed: the env table's if not nil, else the
** globals' (resolve.c resolve_name's order); env and globals are stack
** indices, 0 when not a table */
static void lookup(lua_State *L, int env, int globals, const char *name) {
  if (env) {
    lua_getfield(L, env, name);
    if (!lua_isnil(L, -1)) return;
    lua_pop(L, 1);
  }
  if (globals) lua_getfield(L, globals, name);
  else lua_pushnil(L);
}

/* Is key's code in this state's JIT? Only when the JIT exists, so the
** backend is loaded already and asking it costs no wait. */
static bool in_jit(lua_State *L, const char *key) {
  LmState *S = lmstate_get(L);
  const Backend *B = backend_loaded();
  return S->jit != NULL && B != NULL && B->jit_has_code(S->jit, key);
}

static DispSpec *load(lua_State *L, Lookup *lk, Dispatcher *d, int didx, Type **argtypes, int nargs,
                      Type *declared_ret, int depth);

/* a called dispatcher (at cidx): its code for the note's argument types
** must be loaded, by this path, with the note's key */
static bool check_callee(lua_State *L, Lookup *lk, int cidx, CacheIndexNote *n, int depth) {
  Dispatcher *cd = lua_touserdata(L, cidx);
  if (cd->name == NULL || cd->opt.gpu || n->nargs != cd->nparams) return miss(lk, "a callee changed");
  if (!cd->opt.cache) return miss(lk, "a callee has no cache = true");
  for (DispSpec *s = cd->specs; s; s = s->next) {
    if (s->nargs != n->nargs || memcmp(s->argtypes, n->argtypes, sizeof(Type *) * (size_t)n->nargs) != 0) continue;
    if (strcmp(s->key, n->key) != 0) return miss(lk, "a callee's key changed");
    if (registered(lmstate_get(L)->fast, s->symbol) == NULL) return miss(lk, "a callee was compiled by the JIT");
    return true;
  }
  if (cd->eager) return miss(lk, "an eager callee has no such signature");
  if (cd->nspecs >= MAX_SPECS) return miss(lk, "a callee has too many specializations");
  DispSpec *cs = load(L, lk, cd, cidx, n->argtypes, n->nargs, NULL, depth + 1);
  if (cs == NULL) return false;
  cs->next = cd->specs;  /* it is the callee's code either way */
  cd->specs = cs;
  cd->nspecs++;
  if (strcmp(cs->key, n->key) != 0) return miss(lk, "a callee's key changed");
  return true;
}

/* every note of the index against the dispatcher's env and globals */
static bool check_notes(lua_State *L, Lookup *lk, int didx, const CacheIndex *ix, int depth) {
  int top = lua_gettop(L);
  luaL_checkstack(L, 8, "calls nested too deeply");
  lua_getiuservalue(L, didx, DISP_UV_ENV);
  int env = lua_istable(L, -1) ? lua_gettop(L) : 0;
  lua_getiuservalue(L, didx, DISP_UV_GLOBALS);
  int globals = lua_istable(L, -1) ? lua_gettop(L) : 0;
  lua_getiuservalue(L, didx, DISP_UV_SIBLINGS);
  int siblings = lua_istable(L, -1) ? lua_gettop(L) : 0;
  bool ok = true;
  for (int i = 0; i < ix->nnotes && ok; i++) {
    CacheIndexNote *n = &ix->notes[i];
    lookup(L, env, globals, n->name);
    switch (n->kind) {
      case 'n': ok = lua_isnil(L, -1); break;
      case 'i': ok = lua_isinteger(L, -1) && lua_tointeger(L, -1) == n->ival; break;
      case 'b': ok = lua_isboolean(L, -1) && lua_toboolean(L, -1) == (n->ival != 0); break;
      case 'f': {
        double v = lua_tonumber(L, -1);
        ok = lua_type(L, -1) == LUA_TNUMBER && !lua_isinteger(L, -1) && memcmp(&v, &n->ival, sizeof v) == 0;
        break;
      }
      case 'D': ok = dispatch_test(L, -1); break;
      case 'd':
        if (siblings) {  /* a function of the same lumba.load module (resolve_name) */
          lua_getfield(L, siblings, n->name);
          if (dispatch_test(L, -1)) lua_replace(L, -2);
          else lua_pop(L, 1);
        }
        ok = dispatch_test(L, -1);
        if (ok) {
          if (!check_callee(L, lk, lua_gettop(L), n, depth)) {
            lua_settop(L, top);
            return false;
          }
        }
        break;
      default: ok = false;
    }
    if (!ok) snprintf(lk->why, sizeof lk->why, "'%s' changed in env/globals", n->name);
    lua_pop(L, 1);
  }
  lua_settop(L, top);
  return ok;
}

/* The DispSpec of d (at didx) for argtypes from the cache, counted as a
** hit; NULL and lk->why on a miss. */
static DispSpec *load(lua_State *L, Lookup *lk, Dispatcher *d, int didx, Type **argtypes, int nargs,
                      Type *declared_ret, int depth) {
  int top = lua_gettop(L);
  LmState *S = lmstate_get(L);
  double t0 = S->verbose ? now_ms() : 0;
  char pre[2 * SHA256_LEN + 1];
  if (depth > MAX_DEPTH) return miss(lk, "calls nested too deeply"), NULL;
  if (!cachekey_pre(L, didx, d->name, &d->opt, argtypes, nargs, declared_ret, pre))
    return miss(lk, "no build id for lumba's libraries"), NULL;
  const char *dir = cachefile_push_dir(L);
  if (dir == NULL) return miss(lk, "no cache directory"), NULL;
  const char *ipath = cachefile_push_path(L, dir, d->name, pre, CACHEFILE_INDEX_SUFFIX);
  CacheIndex ix;
  if (!cachefile_read_index(L, ipath, pre, &ix, lk->why, sizeof lk->why)) {
    if (strcmp(lk->why, "no file") == 0) snprintf(lk->why, sizeof lk->why, "no index");
    say("miss", d, argtypes, nargs, NULL, lk->why, ipath);
    lua_settop(L, top);
    return NULL;
  }
  DispSpec *out = NULL;
  const char *path = ipath;
  if (in_jit(L, ix.key)) {
    miss(lk, "already compiled by the JIT in this state");
  } else if (check_notes(L, lk, didx, &ix, depth)) {
    path = cachefile_push_path(L, dir, d->name, ix.key, CACHEFILE_SUFFIX);
    const char *ir = NULL;
    size_t irlen = 0;
    void *wrap = NULL;
    cachefast_push_loaded(L);
    if (lua_getfield(L, -1, ix.key) == LUA_TTABLE) {  /* another dispatcher of the same code loaded it */
      lua_getfield(L, -1, "ir");
      ir = lua_tolstring(L, -1, &irlen);
      wrap = registered(S->fast, ix.wrap);
      if (wrap == NULL) miss(lk, "the loaded code has no wrapper");
    } else {
      CacheEntry e;
      ObjImage *im = NULL;
      if (!cachefile_read_entry(L, path, ix.key, d->name, &e, lk->why, sizeof lk->why)) {
        /* why says */
      } else if (e.symlen != strlen(ix.symbol) || memcmp(e.sym, ix.symbol, e.symlen) != 0) {
        miss(lk, "the entry's symbol is not the index's");
      } else if (fast_of(S) == NULL || !maps_left(S->fast->loads++)) {
        miss(lk, S->fast ? "few memory mappings left (vm.max_map_count, LUMBA_MAX_MAPS)" : "out of memory");
      } else if ((im = objload_load(e.obj, e.objlen, resolve, S->fast, lk->why, sizeof lk->why)) == NULL) {
        /* why says */
      } else if ((wrap = objload_symbol(im, ix.wrap)) == NULL || objload_symbol(im, ix.symbol) == NULL) {
        objload_free(im);
        miss(lk, "the object lacks the index's symbols");
      } else if (!keep(S->fast, im)) {
        wrap = NULL;
        miss(lk, "out of memory");
      } else {
        ir = e.ir;
        irlen = e.irlen;
        lua_createtable(L, 0, 2);  /* loaded[key] = {symbol =, ir =} */
        lua_pushstring(L, ix.symbol);
        lua_setfield(L, -2, "symbol");
        lua_pushlstring(L, ir, irlen);
        lua_setfield(L, -2, "ir");
        lua_setfield(L, -4, ix.key);
      }
    }
    if (wrap) {
      out = calloc(1, sizeof *out);
      if (out) {
        memcpy(out->argtypes, argtypes, sizeof(Type *) * (size_t)nargs);
        out->nargs = nargs;
        out->ret = ix.ret;
        out->ret_slots = ty_slots(ix.ret);
        out->int_float_stores = ix.int_float_stores;
        out->wrap = (int32_t(*)(LmErr *, int64_t *, int64_t *))wrap;
        out->symbol = strdup(ix.symbol);
        out->llvm_ir = strndup(ir ? ir : "", ir ? irlen : 0);
        out->types = strdup(ix.types);
        memcpy(out->key, ix.key, CACHEFILE_KEY_HEX + 1);
        if (out->symbol == NULL || out->llvm_ir == NULL || out->types == NULL) {
          dispatch_free_spec(out);
          out = NULL;
          miss(lk, "out of memory");
        }
      } else {
        miss(lk, "out of memory");
      }
    }
  }
  if (out) {
    S->fast->hits++;
    utimensat(AT_FDCWD, path, NULL, 0);  /* the most recently used entry (the cache's size cap, cache.c) */
    say("hit", d, argtypes, nargs, out->key, "loaded", path);
    if (S->verbose) report(out, d->name, now_ms() - t0);
  } else {
    say("miss", d, argtypes, nargs, ix.key, lk->why, path);
  }
  lua_settop(L, top);
  return out;
}

typedef struct FastCall {
  Lookup lk;
  Dispatcher *d;
  Type **argtypes;
  int nargs;
  Type *declared_ret;
} FastCall;

/* (fastcall, dispatcher): raises only on errors of Lua itself (memory,
** an __index metamethod of env or globals), which are misses too */
static int fast_protected(lua_State *L) {
  FastCall *fc = lua_touserdata(L, 1);
  fc->lk.out = load(L, &fc->lk, fc->d, 2, fc->argtypes, fc->nargs, fc->declared_ret, 0);
  return 0;
}

DispSpec *cachefast_spec(lua_State *L, Dispatcher *d, int didx, Type **argtypes, int nargs, Type *declared_ret) {
  if (!d->opt.cache || d->opt.gpu) return NULL;
  int top = lua_gettop(L);
  FastCall fc;
  memset(&fc, 0, sizeof fc);
  fc.d = d;
  fc.argtypes = argtypes;
  fc.nargs = nargs;
  fc.declared_ret = declared_ret;
  didx = lua_absindex(L, didx);
  lua_pushcfunction(L, fast_protected);
  lua_pushlightuserdata(L, &fc);
  lua_pushvalue(L, didx);
  if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
    say("miss", d, argtypes, nargs, NULL, lua_tostring(L, -1) ? lua_tostring(L, -1) : "error", NULL);
    dispatch_free_spec(fc.lk.out);
    fc.lk.out = NULL;
  }
  lua_settop(L, top);
  return fc.lk.out;
}
