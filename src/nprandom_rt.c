/*
** nprandom_rt.c — NumPy's legacy RandomState for compiled code
** (nprandom_rt.h). Written from NumPy's sources as a specification
** (numpy/random: mt19937.c, distributions.c, legacy-distributions.c,
** mtrand.pyx, _bounded_integers.pyx.in, _common.pyx): the same arithmetic
** in the same order, so that every draw is NumPy's bit for bit.
*/
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "nprandom_rt.h"

#define MT_N 624
#define MT_M 397

/* binomial's set-up for its last (n, p), kept as NumPy keeps it */
typedef struct Binom {
  bool has;
  int64_t nsave, m;
  double psave, r, q, fm, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4;
} Binom;

typedef struct NpRand {
  uint32_t key[MT_N];
  int pos;
  bool seeded, has_gauss;
  double gauss;
  Binom binom;
} NpRand;

/* Each thread's state on the heap, reached through one thread-local
** pointer: thread-local data of a dlopen'ed library costs a
** __tls_get_addr per access, which made a draw twice as slow (12 ns
** against NumPy's 6) when the 2.5 KB state itself was thread-local. A
** pthread key frees it when its thread ends. */
static _Thread_local NpRand *thread_state;
static pthread_key_t state_key;
static pthread_once_t state_once = PTHREAD_ONCE_INIT;
static NpRand shared_state;  /* only where a thread's 2.5 KB cannot be had */

static void make_key(void) { (void)pthread_key_create(&state_key, free); }

static NpRand *state_of_thread(void) {
  NpRand *s = thread_state;
  if (s) return s;
  s = calloc(1, sizeof *s);
  if (s == NULL) return &shared_state;
  pthread_once(&state_once, make_key);
  (void)pthread_setspecific(state_key, s);
  return thread_state = s;
}
static _Thread_local char message[160];

/* ---- MT19937 ---- */

static void mt_seed(NpRand *s, uint32_t seed) {
  for (int pos = 0; pos < MT_N; pos++) {
    s->key[pos] = seed;
    seed = 1812433253U * (seed ^ (seed >> 30)) + (uint32_t)pos + 1;
  }
  s->pos = MT_N;
}

static void mt_init_by_array(NpRand *s, const uint32_t *init, int len) {
  uint32_t *mt = s->key;
  mt_seed(s, 19650218U);
  int i = 1, j = 0;
  for (int k = MT_N > len ? MT_N : len; k; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + init[j] + (uint32_t)j;
    i++, j++;
    if (i >= MT_N) mt[0] = mt[MT_N - 1], i = 1;
    if (j >= len) j = 0;
  }
  for (int k = MT_N - 1; k; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
    i++;
    if (i >= MT_N) mt[0] = mt[MT_N - 1], i = 1;
  }
  mt[0] = 0x80000000U;
  s->pos = MT_N;
}

static void mt_generate(NpRand *s) {
  uint32_t *mt = s->key, y;
  int i;
  for (i = 0; i < MT_N - MT_M; i++) {
    y = (mt[i] & 0x80000000U) | (mt[i + 1] & 0x7fffffffU);
    mt[i] = mt[i + MT_M] ^ (y >> 1) ^ (-(y & 1) & 0x9908b0dfU);
  }
  for (; i < MT_N - 1; i++) {
    y = (mt[i] & 0x80000000U) | (mt[i + 1] & 0x7fffffffU);
    mt[i] = mt[i + (MT_M - MT_N)] ^ (y >> 1) ^ (-(y & 1) & 0x9908b0dfU);
  }
  y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
  mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (-(y & 1) & 0x9908b0dfU);
  s->pos = 0;
}

/* a thread's first draw without a seed: OS entropy, as NumPy's RandomState() */
static void seed_from_entropy(NpRand *s) {
  uint32_t words[8];
  if (getentropy(words, sizeof words) != 0) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    for (int i = 0; i < 8; i++)
      words[i] = (uint32_t)(ts.tv_nsec * (i + 1)) ^ (uint32_t)ts.tv_sec ^ (uint32_t)(uintptr_t)s;
  }
  mt_init_by_array(s, words, 8);
  s->has_gauss = false;
  s->seeded = true;
}

static uint32_t next_u32(NpRand *s) {
  if (s->pos == MT_N) mt_generate(s);
  uint32_t y = s->key[s->pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  return y ^ (y >> 18);
}

static uint64_t next_u64(NpRand *s) {
  uint64_t hi = next_u32(s);
  return hi << 32 | next_u32(s);
}

static double next_double(NpRand *s) {
  int32_t a = (int32_t)(next_u32(s) >> 5), b = (int32_t)(next_u32(s) >> 6);
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

/* ---- continuous distributions (legacy-distributions.c, distributions.c) ---- */

static double gauss(NpRand *s) {
  if (s->has_gauss) {
    s->has_gauss = false;
    return s->gauss;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * next_double(s) - 1.0;
    x2 = 2.0 * next_double(s) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = sqrt(-2.0 * log(r2) / r2);  /* the polar method */
  s->gauss = f * x1;
  s->has_gauss = true;
  return f * x2;
}

static double std_exponential(NpRand *s) { return -log(1.0 - next_double(s)); }

static double std_gamma(NpRand *s, double shape) {
  if (shape == 1.0) return std_exponential(s);
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    for (;;) {
      double U = next_double(s), V = std_exponential(s);
      if (U <= 1.0 - shape) {
        double X = pow(U, 1. / shape);
        if (X <= V) return X;
      } else {
        double Y = -log((1 - U) / shape);
        double X = pow(1.0 - shape + shape * Y, 1. / shape);
        if (X <= V + Y) return X;
      }
    }
  }
  /* Marsaglia and Tsang */
  double b = shape - 1. / 3., c = 1. / sqrt(9 * b);
  for (;;) {
    double X, V;
    do {
      X = gauss(s);
      V = 1.0 + c * X;
    } while (V <= 0.0);
    V = V * V * V;
    double U = next_double(s);
    if (U < 1.0 - 0.0331 * (X * X) * (X * X)) return b * V;
    if (log(U) < 0.5 * X * X + b * (1. - V + log(V))) return b * V;
  }
}

static double beta(NpRand *s, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    for (;;) {  /* Johnk's algorithm */
      double U = next_double(s), V = next_double(s);
      double X = pow(U, 1.0 / a), Y = pow(V, 1.0 / b);
      if (X + Y <= 1.0) {
        if (X + Y > 0) return X / (X + Y);
        double logX = log(U) / a, logY = log(V) / b;
        double logM = logX > logY ? logX : logY;
        logX -= logM;
        logY -= logM;
        return exp(logX - log(exp(logX) + exp(logY)));
      }
    }
  }
  double Ga = std_gamma(s, a), Gb = std_gamma(s, b);
  return Ga / (Ga + Gb);
}

static double chisquare(NpRand *s, double df) { return 2.0 * std_gamma(s, df / 2.0); }

static double laplace(NpRand *s, double loc, double scale) {
  for (;;) {
    double U = next_double(s);
    if (U >= 0.5) return loc - scale * log(2.0 - U - U);
    if (U > 0.0) return loc + scale * log(U + U);
  }
}

static double gumbel(NpRand *s, double loc, double scale) {
  for (;;) {
    double U = 1.0 - next_double(s);
    if (U < 1.0) return loc - scale * log(-log(U));
  }
}

static double logistic(NpRand *s, double loc, double scale) {
  for (;;) {
    double U = next_double(s);
    if (U > 0.0) return loc + scale * log(U / (1.0 - U));
  }
}

static double triangular(NpRand *s, double left, double mode, double right) {
  double base = right - left, leftbase = mode - left, ratio = leftbase / base;
  double leftprod = leftbase * base, rightprod = (right - mode) * base;
  double U = next_double(s);
  if (U <= ratio) return left + sqrt(U * leftprod);
  return right - sqrt((1.0 - U) * rightprod);
}

static double wald(NpRand *s, double mean, double scale) {
  double mu_2l = mean / (2 * scale);
  double Y = gauss(s);
  Y = mean * Y * Y;
  double X = mean + mu_2l * (Y - sqrt(4 * scale * Y + Y * Y));
  double U = next_double(s);
  return U <= mean / (mean + X) ? X : mean * mean / X;
}

static double vonmises(NpRand *s, double mu, double kappa) {
  if (isnan(kappa)) return NAN;
  if (kappa < 1e-8) return M_PI * (2 * next_double(s) - 1);
  double sv;
  if (kappa < 1e-5) {
    sv = 1. / kappa + kappa;  /* second-order Taylor expansion around 0 */
  } else {
    double r = 1 + sqrt(1 + 4 * kappa * kappa);
    double rho = (r - sqrt(2 * r)) / (2 * kappa);
    sv = (1 + rho * rho) / (2 * rho);
  }
  double W;
  for (;;) {
    double U = next_double(s), Z = cos(M_PI * U);
    W = (1 + sv * Z) / (sv + Z);
    double Y = kappa * (sv - W), V = next_double(s);
    if (Y * (2 - Y) - V >= 0 || log(Y / V) + 1 - Y >= 0) break;
  }
  double U = next_double(s), result = acos(W);
  if (U < 0.5) result = -result;
  result += mu;
  bool neg = result < 0;
  double mod = fmod(fabs(result) + M_PI, 2 * M_PI) - M_PI;
  return neg ? -mod : mod;
}

/* ---- discrete distributions ---- */

static double loggam(double x) {
  static const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                               -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                               6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                               -1.39243221690590e+00};
  if (x == 1.0 || x == 2.0) return 0.0;
  int64_t n = x < 7.0 ? (int64_t)(7 - x) : 0;
  double x0 = x + (double)n, x2 = (1.0 / x0) * (1.0 / x0), gl0 = a[9];
  for (int k = 8; k >= 0; k--) {
    gl0 *= x2;
    gl0 += a[k];
  }
  double gl = gl0 / x0 + 0.5 * 1.8378770664093453e+00 + (x0 - 0.5) * log(x0) - x0;
  if (x < 7.0)
    for (int64_t k = 1; k <= n; k++) {
      gl -= log(x0 - 1.0);
      x0 -= 1.0;
    }
  return gl;
}

static int64_t poisson(NpRand *s, double lam) {
  if (lam >= 10) {  /* PTRS, Hoermann 1993 */
    double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      double U = next_double(s) - 0.5, V = next_double(s), us = 0.5 - fabs(U);
      int64_t k = (int64_t)floor((2 * a / us + b) * U + lam + 0.43);
      if (us >= 0.07 && V <= vr) return k;
      if (k < 0 || (us < 0.013 && V > us)) continue;
      if (log(V) + log(invalpha) - log(a / (us * us) + b) <= -lam + (double)k * loglam - loggam((double)k + 1))
        return k;
    }
  }
  if (lam == 0) return 0;
  double enlam = exp(-lam), prod = 1.0;
  int64_t X = 0;
  for (;;) {
    prod *= next_double(s);
    if (prod > enlam) X += 1;
    else return X;
  }
}

static int64_t binomial_inversion(NpRand *s, int64_t n, double p) {
  Binom *B = &s->binom;
  double q, qn, np;
  int64_t bound;
  if (!B->has || B->nsave != n || B->psave != p) {
    B->nsave = n, B->psave = p, B->has = true;
    B->q = q = 1.0 - p;
    B->r = qn = exp((double)n * log(q));
    B->c = np = (double)n * p;
    double lim = np + 10.0 * sqrt(np * q + 1);
    B->m = bound = (int64_t)((double)n < lim ? (double)n : lim);
  } else {
    q = B->q, qn = B->r, bound = B->m;
  }
  int64_t X = 0;
  double px = qn, U = next_double(s);
  while (U > px) {
    X++;
    if (X > bound) {
      X = 0;
      px = qn;
      U = next_double(s);
    } else {
      U -= px;
      px = ((double)(n - X + 1) * p * px) / ((double)X * q);
    }
  }
  return X;
}

/* the Stirling terms of BTPE's final test, as NumPy's legacy version adds them */
static double stirling(double x, double x2) {
  return (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x / 166320.;
}

static int64_t binomial_btpe(NpRand *s, int64_t n, double p) {
  Binom *B = &s->binom;
  if (!B->has || B->nsave != n || B->psave != p) {
    B->nsave = n, B->psave = p, B->has = true;
    double r = B->r = p < 1.0 - p ? p : 1.0 - p;
    double q = B->q = 1.0 - r;
    B->fm = (double)n * r + r;
    B->m = (int64_t)floor(B->fm);
    B->p1 = floor(2.195 * sqrt((double)n * r * q) - 4.6 * q) + 0.5;
    B->xm = (double)B->m + 0.5;
    B->xl = B->xm - B->p1;
    B->xr = B->xm + B->p1;
    B->c = 0.134 + 20.5 / (15.3 + (double)B->m);
    double a = (B->fm - B->xl) / (B->fm - B->xl * r);
    B->laml = a * (1.0 + a / 2.0);
    a = (B->xr - B->fm) / (B->xr * q);
    B->lamr = a * (1.0 + a / 2.0);
    B->p2 = B->p1 * (1.0 + 2.0 * B->c);
    B->p3 = B->p2 + B->c / B->laml;
    B->p4 = B->p3 + B->c / B->lamr;
  }
  double r = B->r, q = B->q, p1 = B->p1, xm = B->xm, xl = B->xl, xr = B->xr, c = B->c;
  double laml = B->laml, lamr = B->lamr, p2 = B->p2, p3 = B->p3, p4 = B->p4;
  int64_t m = B->m, y;
  for (;;) {
    double nrq = (double)n * r * q, u = next_double(s) * p4, v = next_double(s);
    if (u <= p1) {
      y = (int64_t)floor(xm - p1 * v + u);
      break;
    }
    if (u <= p2) {
      double x = xl + (u - p1) / c;
      v = v * c + 1.0 - fabs((double)m - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = (int64_t)floor(x);
    } else if (u <= p3) {
      y = (int64_t)floor(xl + log(v) / laml);
      if (y < 0 || v == 0.0) continue;
      v = v * (u - p2) * laml;
    } else {
      y = (int64_t)floor(xr - log(v) / lamr);
      if (y > n || v == 0.0) continue;
      v = v * (u - p3) * lamr;
    }
    int64_t k = llabs(y - m);
    if (!(k > 20 && (double)k < nrq / 2.0 - 1)) {
      double sr = r / q, a = sr * (double)(n + 1), F = 1.0;
      if (m < y)
        for (int64_t i = m + 1; i <= y; i++) F *= a / (double)i - sr;
      else if (m > y)
        for (int64_t i = y + 1; i <= m; i++) F /= a / (double)i - sr;
      if (v > F) continue;
      break;
    }
    double kd = (double)k;
    double rho = (kd / nrq) * ((kd * (kd / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    double t = -kd * kd / (2 * nrq), A = log(v);
    if (A < t - rho) break;
    if (A > t + rho) continue;
    double x1 = (double)y + 1, f1 = (double)m + 1, z = (double)n + 1 - (double)m, w = (double)n - (double)y + 1;
    double bound = xm * log(f1 / x1) + ((double)(n - m) + 0.5) * log(z / w) + (double)(y - m) * log(w * r / (x1 * q)) +
                   stirling(f1, f1 * f1) + stirling(z, z * z) + stirling(x1, x1 * x1) + stirling(w, w * w);
    if (A > bound) continue;
    break;
  }
  if (p > 0.5) y = n - y;
  return y;
}

static int64_t binomial(NpRand *s, int64_t n, double p) {
  if (p <= 0.5) return p * (double)n <= 30.0 ? binomial_inversion(s, n, p) : binomial_btpe(s, n, p);
  double q = 1.0 - p;
  return n - (q * (double)n <= 30.0 ? binomial_inversion(s, n, q) : binomial_btpe(s, n, q));
}

static int64_t geometric(NpRand *s, double p) {
  if (p >= 0.333333333333333333333333) {
    double U = next_double(s), sum = p, prod = p, q = 1.0 - p;
    int64_t X = 1;
    while (U > sum) {
      prod *= q;
      sum += prod;
      X++;
    }
    return X;
  }
  return (int64_t)ceil(log1p(-next_double(s)) / log(1 - p));
}

static int64_t zipf(NpRand *s, double a) {
  double am1 = a - 1.0, b = pow(2.0, am1);
  for (;;) {
    double U = 1.0 - next_double(s), V = next_double(s), X = floor(pow(U, -1.0 / am1));
    if (X > (double)INT64_MAX || X < 1.0) continue;  /* truncated to what an int64 holds */
    double T = pow(1.0 + 1.0 / X, am1);
    if (V * X * (T - 1.0) / (b - 1.0) <= T / b) return (int64_t)X;
  }
}

static int64_t logseries(NpRand *s, double p) {
  double r = log(1.0 - p);
  for (;;) {
    double V = next_double(s);
    if (V >= p) return 1;
    double U = next_double(s), q = 1.0 - exp(r * U);
    if (V <= q * q) {
      int64_t result = (int64_t)floor(1 + log(V) / log(q));
      if (result < 1 || V == 0.0) continue;
      return result;
    }
    return V >= q ? 1 : 2;
  }
}

static int64_t hyper_hyp(NpRand *s, int64_t good, int64_t bad, int64_t sample) {
  int64_t d1 = bad + good - sample, k = sample;
  double d2 = (double)(bad < good ? bad : good), y = d2;
  while (y > 0.0) {
    double u = next_double(s);
    y -= (double)(int64_t)floor(u + y / (double)(d1 + k));
    k--;
    if (k == 0) break;
  }
  int64_t z = (int64_t)(d2 - y);
  return good > bad ? sample - z : z;
}

static int64_t hyper_hrua(NpRand *s, int64_t good, int64_t bad, int64_t sample) {
  const double D1 = 1.7155277699214135, D2 = 0.8989161620588988;
  int64_t mingb = good < bad ? good : bad, maxgb = good > bad ? good : bad, popsize = good + bad;
  int64_t m = sample < popsize - sample ? sample : popsize - sample;
  double d4 = (double)mingb / (double)popsize, d5 = 1.0 - d4, d6 = (double)m * d4 + 0.5;
  double d7 = sqrt((double)(popsize - m) * (double)sample * d4 * d5 / (double)(popsize - 1) + 0.5);
  double d8 = D1 * d7 + D2;
  int64_t d9 = (int64_t)floor((double)(m + 1) * (double)(mingb + 1) / (double)(popsize + 2));
  double d10 = loggam((double)(d9 + 1)) + loggam((double)(mingb - d9 + 1)) + loggam((double)(m - d9 + 1)) +
               loggam((double)(maxgb - m + d9 + 1));
  double lim = (double)(m < mingb ? m : mingb) + 1.0, fl = floor(d6 + 16 * d7);
  double d11 = lim < fl ? lim : fl;
  int64_t Z;
  for (;;) {
    double X = next_double(s), Y = next_double(s), W = d6 + d8 * (Y - 0.5) / X;
    if (W < 0.0 || W >= d11) continue;
    Z = (int64_t)floor(W);
    double T = d10 - (loggam((double)(Z + 1)) + loggam((double)(mingb - Z + 1)) + loggam((double)(m - Z + 1)) +
                      loggam((double)(maxgb - m + Z + 1)));
    if (X * (4.0 - X) - 3.0 <= T) break;
    if (X * (X - T) >= 1) continue;
    if (2.0 * log(X) <= T) break;
  }
  if (good > bad) Z = m - Z;
  if (m < sample) Z = good - Z;
  return Z;
}

static int64_t hypergeometric(NpRand *s, int64_t good, int64_t bad, int64_t sample) {
  if (sample > 10) return hyper_hrua(s, good, bad, sample);
  if (sample > 0) return hyper_hyp(s, good, bad, sample);
  return 0;
}

/* ---- integers: the masked rejection of RandomState.randint and shuffle ---- */

static uint64_t mask_of(uint64_t max) {
  uint64_t m = max;
  m |= m >> 1, m |= m >> 2, m |= m >> 4, m |= m >> 8, m |= m >> 16, m |= m >> 32;
  return m;
}

/* off + a draw in [0, rng] as random_bounded_uint64_fill with use_masked */
static uint64_t bounded(NpRand *s, uint64_t rng) {
  if (rng == 0) return 0;
  uint64_t mask = mask_of(rng), v;
  if (rng <= 0xFFFFFFFFULL) {
    if (rng == 0xFFFFFFFFULL) return next_u32(s);
    while ((v = (next_u32(s) & mask)) > rng) {}
    return v;
  }
  if (rng == UINT64_MAX) return next_u64(s);
  while ((v = (next_u64(s) & mask)) > rng) {}
  return v;
}

/* random_interval: shuffle's draw in [0, max] */
static uint64_t interval(NpRand *s, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = mask_of(max), v;
  if (max <= 0xffffffffULL) {
    while ((v = (next_u32(s) & mask)) > max) {}
  } else {
    while ((v = (next_u64(s) & mask)) > max) {}
  }
  return v;
}

static void shuffle(NpRand *s, char *data, int64_t n, int64_t stride, int64_t itemsize) {
  char small[64], *buf = itemsize <= (int64_t)sizeof small ? small : malloc((size_t)itemsize);
  if (buf == NULL) return;
  for (int64_t i = n - 1; i >= 1; i--) {
    int64_t j = (int64_t)interval(s, (uint64_t)i);
    memcpy(buf, data + j * stride, (size_t)itemsize);
    memcpy(data + j * stride, data + i * stride, (size_t)itemsize);
    memcpy(data + i * stride, buf, (size_t)itemsize);
  }
  if (buf != small) free(buf);
}

/* ---- checks: _common.pyx's constraints and messages ---- */

static int32_t fail(LmErr *err, const char *fmt, const char *name) {
  snprintf(message, sizeof message, fmt, name, name, name);
  err->kind = LMERR_VALUE;
  err->msg = message;
  return LMERR_VALUE;
}

#define NONNEG(v, name) \
  if (!isnan(v) && signbit(v)) return fail(err, "%s < 0", name)
#define POSITIVE(v, name) \
  if ((v) <= 0) return fail(err, "%s <= 0", name)
#define BOUNDED_0_1(v, name) \
  if (!((v) >= 0) || !((v) <= 1)) return fail(err, "%s < 0, %s > 1 or %s is NaN", name)
#define BOUNDED_GT_0_1(v, name) \
  if (!((v) > 0) || !((v) <= 1)) return fail(err, "%s <= 0, %s > 1 or %s contains NaNs", name)
#define BOUNDED_LT_0_1(v, name) \
  if (!((v) >= 0) || !((v) < 1)) return fail(err, "%s < 0, %s >= 1 or %s is NaN", name)

/* LEGACY_POISSON_LAM_MAX: int64's max less ten of its square roots */
#define LAM_MAX (9223372036854775807.0 - 30369920396.0)

static int32_t check(LmErr *err, int32_t fn, const double *dp, const int64_t *ip, int64_t n) {
  switch (fn) {
    case NPRAND_SEED:
      if (ip[0] < 0 || ip[0] > 0xFFFFFFFFLL) return fail(err, "Seed must be between 0 and 2**32 - 1", "");
      break;
    case NPRAND_NORMAL: NONNEG(dp[1], "scale"); break;
    case NPRAND_EXPONENTIAL: NONNEG(dp[0], "scale"); break;
    case NPRAND_STANDARD_GAMMA: NONNEG(dp[0], "shape"); break;
    case NPRAND_GAMMA:
      NONNEG(dp[0], "shape");
      NONNEG(dp[1], "scale");
      break;
    case NPRAND_BETA:
      POSITIVE(dp[0], "a");
      POSITIVE(dp[1], "b");
      break;
    case NPRAND_CHISQUARE: POSITIVE(dp[0], "df"); break;
    case NPRAND_F:
      POSITIVE(dp[0], "dfnum");
      POSITIVE(dp[1], "dfden");
      break;
    case NPRAND_STANDARD_T: POSITIVE(dp[0], "df"); break;
    case NPRAND_LOGNORMAL: NONNEG(dp[1], "sigma"); break;
    case NPRAND_LAPLACE:
    case NPRAND_LOGISTIC:
    case NPRAND_GUMBEL: NONNEG(dp[1], "scale"); break;
    case NPRAND_PARETO:
    case NPRAND_POWER: POSITIVE(dp[0], "a"); break;
    case NPRAND_WEIBULL: NONNEG(dp[0], "a"); break;
    case NPRAND_RAYLEIGH: NONNEG(dp[0], "scale"); break;
    case NPRAND_TRIANGULAR:
      if (dp[0] > dp[1]) return fail(err, "left > mode", "");
      if (dp[1] > dp[2]) return fail(err, "mode > right", "");
      if (dp[0] == dp[2]) return fail(err, "left == right", "");
      break;
    case NPRAND_WALD:
      POSITIVE(dp[0], "mean");
      POSITIVE(dp[1], "scale");
      break;
    case NPRAND_VONMISES: NONNEG(dp[1], "kappa"); break;
    case NPRAND_BINOMIAL:
      BOUNDED_0_1(dp[0], "p");
      if (ip[0] < 0) return fail(err, "%s < 0", "n");
      break;
    case NPRAND_POISSON:
      if (!(dp[0] >= 0)) return fail(err, "%s < 0 or %s is NaN", "lam");
      if (!(dp[0] <= LAM_MAX)) return fail(err, "%s value too large", "lam");
      break;
    case NPRAND_GEOMETRIC: BOUNDED_GT_0_1(dp[0], "p"); break;
    case NPRAND_NEGATIVE_BINOMIAL:
      POSITIVE(dp[0], "n");
      BOUNDED_0_1(dp[1], "p");
      break;
    case NPRAND_ZIPF:
      if (!(dp[0] > 1)) return fail(err, "%s <= 1 or %s is NaN", "a");
      break;
    case NPRAND_LOGSERIES: BOUNDED_LT_0_1(dp[0], "p"); break;
    case NPRAND_HYPERGEOMETRIC:
      if (ip[0] < 0) return fail(err, "%s < 0", "ngood");
      if (ip[1] < 0) return fail(err, "%s < 0", "nbad");
      if (ip[2] < 1) return fail(err, "%s < 1 or %s is NaN", "nsample");
      if (ip[0] + ip[1] < ip[2]) return fail(err, "ngood + nbad < nsample", "");
      break;
    case NPRAND_RANDINT:
      if (ip[0] >= ip[1]) return fail(err, ip[0] == 0 ? "high <= 0" : "low >= high", "");
      break;
    case NPRAND_CHOICE_P: {
      double sum = 0, c = 0;
      bool neg = false;
      for (int64_t i = 0; i < ip[0]; i++) {  /* kahan_sum, as NumPy checks the sum */
        double y = dp[i] - c, t = sum + y;
        c = (t - sum) - y;
        sum = t;
        neg = neg || dp[i] < 0;
      }
      if (isnan(sum)) return fail(err, "probabilities contain NaN", "");
      if (neg) return fail(err, "probabilities are not non-negative", "");
      if (fabs(sum - 1.) > 1.4901161193847656e-08) return fail(err, "probabilities do not sum to 1", "");
      if (ip[0] == 0 && n > 0) return fail(err, "'a' cannot be empty unless no samples are taken", "");
      break;
    }
    case NPRAND_MULTINOMIAL: {
      double sum = 0, c = 0;
      for (int64_t i = 0; i + 1 < ip[1]; i++) {  /* kahan_sum of pvals[:-1] */
        double y = dp[i] - c, t = sum + y;
        c = (t - sum) - y;
        sum = t;
      }
      if (ip[1] > 0 && sum > 1.0 + 1e-12) return fail(err, "sum(pvals[:-1]) > 1.0", "");
      if (ip[0] < 0) return fail(err, "%s < 0", "n");
      break;
    }
    case NPRAND_DIRICHLET:
      for (int64_t i = 0; i < ip[0]; i++)
        if (dp[i] <= 0) return fail(err, "alpha <= 0", "");
      break;
    case NPRAND_CHOICE_NOREPLACE:
      if (ip[0] < 0) return fail(err, "a must be greater than 0 unless no samples are taken", "");
      if (n > ip[0]) return fail(err, "Cannot take a larger sample than population when 'replace=False'", "");
      break;
    default: break;
  }
  return 0;
}

/* ---- one entry point ---- */

static double draw_float(NpRand *s, int32_t fn, const double *dp) {
  switch (fn) {
    case NPRAND_RANDOM: return next_double(s);
    case NPRAND_STANDARD_NORMAL: return gauss(s);
    case NPRAND_NORMAL: return dp[0] + dp[1] * gauss(s);
    case NPRAND_UNIFORM: return dp[0] + (dp[1] - dp[0]) * next_double(s);
    case NPRAND_STANDARD_EXPONENTIAL: return std_exponential(s);
    case NPRAND_EXPONENTIAL: return dp[0] * std_exponential(s);
    case NPRAND_STANDARD_GAMMA: return std_gamma(s, dp[0]);
    case NPRAND_GAMMA: return dp[1] * std_gamma(s, dp[0]);
    case NPRAND_BETA: return beta(s, dp[0], dp[1]);
    case NPRAND_CHISQUARE: return chisquare(s, dp[0]);
    case NPRAND_F: {
      double num = chisquare(s, dp[0]) * dp[1];
      return num / (chisquare(s, dp[1]) * dp[0]);
    }
    case NPRAND_STANDARD_T: {
      double num = gauss(s), denom = std_gamma(s, dp[0] / 2);
      return sqrt(dp[0] / 2) * num / sqrt(denom);
    }
    case NPRAND_STANDARD_CAUCHY: {
      double num = gauss(s);
      return num / gauss(s);
    }
    case NPRAND_LOGNORMAL: return exp(dp[0] + dp[1] * gauss(s));
    case NPRAND_LAPLACE: return laplace(s, dp[0], dp[1]);
    case NPRAND_LOGISTIC: return logistic(s, dp[0], dp[1]);
    case NPRAND_GUMBEL: return gumbel(s, dp[0], dp[1]);
    case NPRAND_PARETO: return exp(std_exponential(s) / dp[0]) - 1;
    case NPRAND_POWER: return pow(1 - exp(-std_exponential(s)), 1. / dp[0]);
    case NPRAND_WEIBULL: return dp[0] == 0.0 ? 0.0 : pow(std_exponential(s), 1. / dp[0]);
    case NPRAND_RAYLEIGH: return dp[0] * sqrt(-2.0 * log1p(-next_double(s)));
    case NPRAND_TRIANGULAR: return triangular(s, dp[0], dp[1], dp[2]);
    case NPRAND_WALD: return wald(s, dp[0], dp[1]);
    case NPRAND_VONMISES: return vonmises(s, dp[0], dp[1]);
    default: return 0;
  }
}

static int64_t draw_int(NpRand *s, int32_t fn, const double *dp, const int64_t *ip) {
  switch (fn) {
    case NPRAND_BINOMIAL: return binomial(s, ip[0], dp[0]);
    case NPRAND_POISSON: return poisson(s, dp[0]);
    case NPRAND_GEOMETRIC: return geometric(s, dp[0]);
    case NPRAND_NEGATIVE_BINOMIAL: return poisson(s, (1 - dp[1]) / dp[1] * std_gamma(s, dp[0]));
    case NPRAND_ZIPF: return zipf(s, dp[0]);
    case NPRAND_LOGSERIES: return logseries(s, dp[0]);
    case NPRAND_HYPERGEOMETRIC: return hypergeometric(s, ip[0], ip[1], ip[2]);
    case NPRAND_RANDINT: return (int64_t)((uint64_t)ip[0] + bounded(s, (uint64_t)ip[1] - 1 - (uint64_t)ip[0]));
    default: return 0;
  }
}

/* np.random.choice(a, n, p=p): the cdf, normalised, searched (side='right') for each random_sample */
static int32_t choice_p(LmErr *err, NpRand *s, const double *p, int64_t k, int64_t *out, int64_t n) {
  double *cdf = malloc((size_t)(k > 0 ? k : 1) * sizeof *cdf);
  if (cdf == NULL) {
    err->kind = LMERR_MEMORY;
    err->msg = "out of memory in np.random.choice";
    return LMERR_MEMORY;
  }
  double acc = 0;
  for (int64_t i = 0; i < k; i++) cdf[i] = acc += p[i];
  for (int64_t i = 0; i < k; i++) cdf[i] /= cdf[k - 1];
  for (int64_t i = 0; i < n; i++) {
    double u = next_double(s);
    int64_t lo = 0, hi = k;  /* the first index whose cdf is > u */
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (cdf[mid] <= u) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  free(cdf);
  return 0;
}

/* np.random.choice(k, n, replace=False): permutation(k)[:n] */
static int32_t choice_noreplace(LmErr *err, NpRand *s, int64_t k, int64_t *out, int64_t n) {
  int64_t *perm = malloc((size_t)(k > 0 ? k : 1) * sizeof *perm);
  if (perm == NULL) {
    err->kind = LMERR_MEMORY;
    err->msg = "out of memory in np.random.choice";
    return LMERR_MEMORY;
  }
  for (int64_t i = 0; i < k; i++) perm[i] = i;
  shuffle(s, (char *)perm, k, 8, 8);
  memcpy(out, perm, (size_t)n * sizeof *perm);
  free(perm);
  return 0;
}

/* np.random.multinomial: NumPy 1.x's RandomState calls random_binomial, which draws nothing for n == 0 or p == 0 */
static void multinomial(NpRand *s, int64_t n, const double *p, int64_t d, int64_t *out) {
  double remaining = 1.0;
  int64_t dn = n;
  for (int64_t j = 0; j < d; j++) out[j] = 0;
  for (int64_t j = 0; j < d - 1; j++) {
    double pj = p[j] / remaining;
    out[j] = dn == 0 || pj == 0.0 ? 0 : binomial(s, dn, pj);
    dn -= out[j];
    if (dn <= 0) break;
    remaining -= p[j];
  }
  if (dn > 0) out[d - 1] = dn;
}

static void dirichlet(NpRand *s, const double *alpha, int64_t k, double *out) {
  double acc = 0.0;
  for (int64_t j = 0; j < k; j++) {
    out[j] = std_gamma(s, alpha[j]);
    acc = acc + out[j];
  }
  double inv = 1 / acc;
  for (int64_t j = 0; j < k; j++) out[j] = out[j] * inv;
}

static const bool int_result[NPRAND__COUNT] = {
#define NPRAND_ISINT(name, nd, ni, isint) isint,
    NPRAND_FUNCS(NPRAND_ISINT)
#undef NPRAND_ISINT
};

int32_t lm_nprand(LmErr *err, int32_t fn, const double *dp, const int64_t *ip, void *out, int64_t n) {
  if (fn < 0 || fn >= NPRAND__COUNT) return 0;
  int32_t st = check(err, fn, dp, ip, n);
  if (st) return st;
  NpRand *s = state_of_thread();
  if (fn == NPRAND_SEED) {
    mt_seed(s, (uint32_t)ip[0]);
    s->has_gauss = false;
    s->gauss = 0;
    s->seeded = true;
    return 0;
  }
  if (!s->seeded) seed_from_entropy(s);
  switch (fn) {
    case NPRAND_SHUFFLE: shuffle(s, out, ip[0], ip[1], ip[2]); return 0;
    case NPRAND_CHOICE_P: return choice_p(err, s, dp, ip[0], out, n);
    case NPRAND_CHOICE_NOREPLACE: return choice_noreplace(err, s, ip[0], out, n);
    case NPRAND_MULTINOMIAL:
      for (int64_t i = 0; i < n; i++) multinomial(s, ip[0], dp, ip[1], (int64_t *)out + i * ip[1]);
      return 0;
    case NPRAND_DIRICHLET:
      for (int64_t i = 0; i < n; i++) dirichlet(s, dp, ip[0], (double *)out + i * ip[0]);
      return 0;
    default: break;
  }
  if (int_result[fn]) {
    int64_t *o = out;
    for (int64_t i = 0; i < n; i++) o[i] = draw_int(s, fn, dp, ip);
  } else {
    double *o = out;
    for (int64_t i = 0; i < n; i++) o[i] = draw_float(s, fn, dp);
  }
  return 0;
}

/* the scalar draws of the hottest loops, without lm_nprand's checks and slots */
double lm_nprand_random(void) {
  NpRand *s = state_of_thread();
  if (!s->seeded) seed_from_entropy(s);
  return next_double(s);
}

double lm_nprand_gauss(void) {
  NpRand *s = state_of_thread();
  if (!s->seeded) seed_from_entropy(s);
  return gauss(s);
}
