/*
** maps.c — counting the process's memory mappings (maps.h).
*/
#include <stdio.h>
#include <stdlib.h>

#include "maps.h"

static long read_long(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  long v = -1;
  if (fscanf(f, "%ld", &v) != 1) v = -1;
  fclose(f);
  return v;
}

static long count_maps(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (f == NULL) return -1;
  char buf[65536];
  long n = 0;
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0)
    for (size_t i = 0; i < k; i++) n += buf[i] == '\n';
  fclose(f);
  return n;
}

bool maps_room(long *used, long *limit) {
  *used = -1;
  *limit = read_long("/proc/sys/vm/max_map_count");
  const char *env = getenv("LUMBA_MAX_MAPS");
  if (env && *env && (*limit < 0 || atol(env) < *limit)) *limit = atol(env);
  if (*limit <= 0) return true;  /* not Linux, or unknown */
  *used = count_maps();
  return *used < 0 || *used + MAPS_MARGIN < *limit;
}
