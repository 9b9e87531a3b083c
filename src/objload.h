/*
** objload.h — a loader for the relocatable x86-64 ELF objects LLVM writes
** into the cache (cache.h), in core.so so a cache hit needs no LLVM.
**
** It maps the SHF_ALLOC sections (one mmap: text read+execute, rodata and
** the GOT read-only, data and bss read+write), applies the relocations
** LLVM 14 emits for lumba's code (R_X86_64_64, PC32, PLT32, 32, 32S,
** GOTPCREL, GOTPCRELX, REX_GOTPCRELX, PC64) and resolves undefined symbols
** through the caller's function only. Anything else is refused, never
** guessed at: another machine or class, an unknown section or relocation
** kind, a symbol the resolver does not know, a field that points outside
** the file or its section. A refusal says why; the caller then compiles.
** On other architectures every load is refused ("unsupported").
*/
#ifndef objload_h
#define objload_h

#include <stdbool.h>
#include <stddef.h>

typedef struct ObjImage ObjImage;

/* the address of an external symbol, or NULL: the object is refused */
typedef void *(*ObjResolve)(void *ud, const char *name);

/* Loads len bytes of object code. NULL and a message in why (whylen bytes)
** when refused; the bytes are only read. */
ObjImage *objload_load(const void *obj, size_t len, ObjResolve resolve, void *ud, char *why, size_t whylen);
/* unmaps the code and frees the image; NULL is ignored */
void objload_free(ObjImage *im);

/* the address of a global symbol the object defines, or NULL */
void *objload_symbol(const ObjImage *im, const char *name);
/* the global symbols the object defines: how many, and the i-th one */
int objload_nglobals(const ObjImage *im);
const char *objload_global(const ObjImage *im, int i, void **addr);

/* The external functions compiled code may call (libm, libc, libgcc's
** helpers, lumba's runtime): their address, NULL for any other name
** (objload_extern.c). */
void *objload_extern(const char *name);

#endif
