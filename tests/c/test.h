/* chibicc-style assertions for the C unit tests: each prints "ok N - expr"
** or "FAIL file:line: expr: expected X, got Y" and counts failures. */
#ifndef test_h
#define test_h
#include <stdio.h>
#include <string.h>
static int t_count, t_failed;
#define ASSERT(expected, expr) do { \
    long long e_ = (long long)(expected), g_ = (long long)(expr); \
    t_count++; \
    if (e_ == g_) printf("ok %d - %s\n", t_count, #expr); \
    else { t_failed++; printf("FAIL %s:%d: %s: expected %lld, got %lld\n", __FILE__, __LINE__, #expr, e_, g_); } \
  } while (0)
#define ASSERT_STR(expected, expr) do { \
    const char *e_ = (expected), *g_ = (expr); \
    t_count++; \
    if (g_ && strcmp(e_, g_) == 0) printf("ok %d - %s\n", t_count, #expr); \
    else { t_failed++; printf("FAIL %s:%d: %s: expected \"%s\", got \"%s\"\n", __FILE__, __LINE__, #expr, e_, g_ ? g_ : "(null)"); } \
  } while (0)
#define TEST_END() return t_failed ? 1 : 0
#endif
