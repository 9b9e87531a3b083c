/*
** maps.h — how close the process is to the kernel's limit on memory
** mappings (vm.max_map_count, or LUMBA_MAX_MAPS when lower). Compiled code
** takes mappings (the JIT's sections, the cache's loaded objects); at the
** limit mmap fails, and LLVM then aborts the process, so loaders ask first.
*/
#ifndef maps_h
#define maps_h

#include <stdbool.h>

/* mappings kept free for the host and for loads between two checks */
#define MAPS_MARGIN 8192

/* Whether more than MAPS_MARGIN mappings are left; *used and *limit say
** how many there are and may be (-1 where unknown: then true). */
bool maps_room(long *used, long *limit);

#endif
