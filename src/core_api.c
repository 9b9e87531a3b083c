/*
** core_api.c — core.so's table for backend.so and nvptx.so (core_api.h):
** a const struct built from core_api.def. luaopen_lumba_core (module.c)
** hands it to the loader (backend_load.c), which passes it to each
** library's entry point.
*/
#include "core_api.h"

const CoreApi core_api_table = {
#define CORE_FN(ret, name, params, args) .name = name,
#define CORE_VOID(name, params, args) .name = name,
#define CORE_NORET(name, params, args) .name = name,
#define CORE_VARARG(name) .name = name,
#define CORE_DATA(name) .name = &name,
#include "core_api.def"
};

#ifdef CORE_API_STATIC
/* A program that links core's and backend's objects into one (the C unit
** tests): backend code reads core's objects through this, as in backend.so,
** and calls core's functions directly (no core_api_calls.o). */
const CoreApi *core_api = &core_api_table;
#endif
