/*
** nprandom_rt.h — np.random for compiled code (nprandom_rt.c, in core.so
** so that the cache's loader finds it: objload_extern.c): NumPy's legacy
** RandomState, draw for draw. MT19937 seeded as NumPy seeds it, its
** 53-bit doubles, the polar Gaussian with its cached second value, and the
** legacy distribution methods. The state is per thread: each thread starts
** from OS entropy, np.random.seed seeds the calling thread only (as in
** Numba). builtin_nprandom.c lowers the calls; the object mode calls the
** same function through lumba.core (core_nprandom in lumba.c's table).
*/
#ifndef nprandom_rt_h
#define nprandom_rt_h

#include <stdint.h>

#include "rt.h"

/* What lm_nprand draws; X(name, float params, int params, int result) */
#define NPRAND_FUNCS(X) \
  X(SEED, 0, 1, 0)                 \
  X(RANDOM, 0, 0, 0)               \
  X(STANDARD_NORMAL, 0, 0, 0)      \
  X(NORMAL, 2, 0, 0)               \
  X(UNIFORM, 2, 0, 0)              \
  X(STANDARD_EXPONENTIAL, 0, 0, 0) \
  X(EXPONENTIAL, 1, 0, 0)          \
  X(STANDARD_GAMMA, 1, 0, 0)       \
  X(GAMMA, 2, 0, 0)                \
  X(BETA, 2, 0, 0)                 \
  X(CHISQUARE, 1, 0, 0)            \
  X(F, 2, 0, 0)                    \
  X(STANDARD_T, 1, 0, 0)           \
  X(STANDARD_CAUCHY, 0, 0, 0)      \
  X(LOGNORMAL, 2, 0, 0)            \
  X(LAPLACE, 2, 0, 0)              \
  X(LOGISTIC, 2, 0, 0)             \
  X(GUMBEL, 2, 0, 0)               \
  X(PARETO, 1, 0, 0)               \
  X(POWER, 1, 0, 0)                \
  X(WEIBULL, 1, 0, 0)              \
  X(RAYLEIGH, 1, 0, 0)             \
  X(TRIANGULAR, 3, 0, 0)           \
  X(WALD, 2, 0, 0)                 \
  X(VONMISES, 2, 0, 0)             \
  X(BINOMIAL, 1, 1, 1)             \
  X(POISSON, 1, 0, 1)              \
  X(GEOMETRIC, 1, 0, 1)            \
  X(NEGATIVE_BINOMIAL, 2, 0, 1)    \
  X(ZIPF, 1, 0, 1)                 \
  X(LOGSERIES, 1, 0, 1)            \
  X(HYPERGEOMETRIC, 0, 3, 1)       \
  X(RANDINT, 0, 2, 1)              \
  X(SHUFFLE, 0, 3, 0)              \
  X(CHOICE_P, 0, 1, 1)             \
  X(CHOICE_NOREPLACE, 0, 1, 1)     \
  X(MULTINOMIAL, 0, 2, 1)          \
  X(DIRICHLET, 0, 1, 0)

typedef enum NpRandFn {
#define NPRAND_ENUM(name, nd, ni, isint) NPRAND_##name,
  NPRAND_FUNCS(NPRAND_ENUM)
#undef NPRAND_ENUM
  NPRAND__COUNT
} NpRandFn;

/* Draws n values of fn into out (double or int64, NPRAND_FUNCS says which)
** with the float parameters dp and the integer ones ip, after NumPy's
** checks of them. 0, or LMERR_VALUE with NumPy's message in err (the text
** in a per-thread buffer, valid until this thread's next failing check).
**   SEED: ip[0] the seed (0 .. 2**32-1); n, out unused.
**   RANDINT: ip = {low, high}, high exclusive, NumPy's masked rejection.
**   SHUFFLE: out the first element, ip = {length, stride in bytes,
**     itemsize}; shuffled in place along the first axis as NumPy does.
**   CHOICE_P: dp the probabilities (ip[0] of them, checked as NumPy checks
**     them), n indices into out by the cdf and random_sample, with
**     replacement.
**   CHOICE_NOREPLACE: ip[0] the population: the first n of a permutation
**     of 0 .. ip[0]-1 (np.random.choice(a, n, replace=False)).
**   MULTINOMIAL: dp the pvals, ip = {trials, len(pvals)}: n rows of counts.
**   DIRICHLET: dp the alphas, ip[0] of them: n rows. */
int32_t lm_nprand(LmErr *err, int32_t fn, const double *dp, const int64_t *ip, void *out, int64_t n);

/* np.random.random() and np.random.standard_normal(): one draw each, as lm_nprand draws it */
double lm_nprand_random(void);
double lm_nprand_gauss(void);

/* lumba.core._nprand for the object mode (nprandom_lua.c) */
struct lua_State;
void nprandom_open(struct lua_State *L);

#endif
