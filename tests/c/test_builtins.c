/* builtins: the registry's rows are sorted (builtin_find bisects them),
** every name is found again, canonical names map to their own entry, and
** names that are not builtins are not found. */
#include <string.h>

#include "builtins.h"
#include "test.h"

int main(void) {
  int unsorted = 0;
  for (int i = 1; i < builtin_nindex; i++)
    if (strcmp(builtin_index[i - 1].name, builtin_index[i].name) >= 0) {
      printf("FAIL builtins.def: \"%s\" must come before \"%s\"\n", builtin_index[i].name, builtin_index[i - 1].name);
      unsorted++;
    }
  ASSERT(0, unsorted);
  int lost = 0;
  for (int i = 0; i < builtin_nindex; i++) {
    const BuiltinName *nm = builtin_find(builtin_index[i].name);
    if (nm != &builtin_index[i]) lost++;
    /* every name is its module followed by its member */
    size_t n = strlen(nm->name), m = strlen(nm->member);
    if (m > n || strcmp(nm->name + n - m, nm->member) != 0) lost++;
  }
  ASSERT(0, lost);
  int miscanonical = 0;
  for (int id = 1; id < BI__COUNT; id++)
    if ((int)builtin_id(builtin_entries[id].name) != id) miscanonical++;
  ASSERT(0, miscanonical);
  ASSERT(BI_len, builtin_id("len"));
  ASSERT(BI_prange, builtin_id("prange"));
  ASSERT(BI_prange, builtin_id("numba.prange"));
  ASSERT(BI_math_asin, builtin_id("numpy.arcsin"));
  ASSERT(BF_NUMPY, builtin_find("numpy.floor")->flags);
  ASSERT(0, builtin_find("math.floor")->flags);
  ASSERT(BI_NONE, builtin_id("numpy.foo"));
  ASSERT(BI_NONE, builtin_id(""));
  ASSERT(BI_NONE, builtin_id("zzz"));
  ASSERT(BI_NONE, builtin_id("math."));
  ASSERT(BI_math_sqrt, builtin_find_member("math.", "sqrt")->id);
  ASSERT(BI_NONE, builtin_find_member("math.", "sqr") != NULL);
  ASSERT_STR("sqrt", builtin_entries[BI_math_sqrt].member);
  TEST_END();
}
