/*
** dtype.c — dtype facts generated from dtype.def, and names users write.
*/
#include <string.h>

#include <lauxlib.h>

#include "array.h"

const char *const dtype_names[DT__COUNT] = {
#define DTYPE(e, name, ctype, size, k) name,
#include "dtype.def"
#undef DTYPE
};

const int dtype_sizes[DT__COUNT] = {
#define DTYPE(e, name, ctype, size, k) size,
#include "dtype.def"
#undef DTYPE
};

const char dtype_kinds[DT__COUNT] = {
#define DTYPE(e, name, ctype, size, k) k,
#include "dtype.def"
#undef DTYPE
};
