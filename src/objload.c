/*
** objload.c — maps a relocatable x86-64 ELF object and links it against
** the caller's symbols (objload.h). Every offset, size and index read from
** the file is checked before it is used: a damaged object is refused,
** never followed. Layout of the one mapping, each part page-aligned:
**   text sections, call stubs | rodata sections, the GOT | data, bss
** Stubs (jmp *[rip+0]; .quad addr) let a 32-bit PC-relative call reach an
** external function anywhere in the address space; the GOT holds the
** addresses GOTPCREL loads read. Both have one slot per symbol.
*/
#include <elf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "objload.h"

struct ObjImage {
  unsigned char *base;  // the mapping
  size_t size;
  int nglobals;
  char **names;         // global symbols defined by the object
  void **addrs;
};

#if defined(__x86_64__) && defined(__linux__)

#define MAX_SYMS 65536
#define MAX_ALIGN 4096
#define MAX_IMAGE (1u << 30)
#ifndef SHT_X86_64_UNWIND
#define SHT_X86_64_UNWIND 0x70000001
#endif
#define SHT_LLVM_ADDRSIG_ 0x6fff4c03
#define STUB_SIZE 16

enum { G_NONE = -1, G_TEXT, G_RO, G_RW, G_COUNT };

typedef struct Loader {
  const unsigned char *file;
  size_t len;
  const Elf64_Shdr *sh;    // section headers (in the file; read through copies)
  int nsec;
  int *group;              // per section: G_* or G_NONE
  size_t *off;             // per section: offset in the mapping
  const Elf64_Sym *syms;   // symbol table (in the file)
  int nsyms;
  const char *strtab;
  size_t strsize;
  void **symaddr;          // per symbol: resolved address (NULL: not yet)
  ObjResolve resolve;
  void *ud;
  size_t stubs, got;       // offsets of the stub and GOT areas
  unsigned char *base;
  size_t size;
  char *why;
  size_t whylen;
} Loader;

static bool refuse(Loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool refuse(Loader *ld, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ld->why, ld->whylen, fmt, ap);
  va_end(ap);
  return false;
}

/* is [off, off+n) inside a buffer of len bytes? (no overflow) */
static bool in_range(uint64_t off, uint64_t n, uint64_t len) {
  return off <= len && n <= len - off;
}

static size_t align_up(size_t v, size_t a) {
  return (v + a - 1) & ~(a - 1);
}

static Elf64_Shdr shdr(const Loader *ld, int i) {
  Elf64_Shdr s;
  memcpy(&s, ld->sh + i, sizeof s);  /* the file's bytes need not be aligned */
  return s;
}

static Elf64_Sym symbol(const Loader *ld, int i) {
  Elf64_Sym s;
  memcpy(&s, ld->syms + i, sizeof s);
  return s;
}

/* ELF header → section headers */
static bool read_header(Loader *ld) {
  Elf64_Ehdr eh;
  if (ld->len < sizeof eh) return refuse(ld, "not an ELF object (%zu bytes)", ld->len);
  memcpy(&eh, ld->file, sizeof eh);
  if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return refuse(ld, "not an ELF object");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
    return refuse(ld, "not a 64-bit little-endian ELF object");
  if (eh.e_type != ET_REL) return refuse(ld, "not a relocatable object (type %u)", (unsigned)eh.e_type);
  if (eh.e_machine != EM_X86_64) return refuse(ld, "not an x86-64 object (machine %u)", (unsigned)eh.e_machine);
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shnum >= SHN_LORESERVE)
    return refuse(ld, "unexpected section header table (%u entries of %u bytes)", (unsigned)eh.e_shnum,
                  (unsigned)eh.e_shentsize);
  if (!in_range(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), ld->len))
    return refuse(ld, "the section headers lie outside the file");
  ld->sh = (const Elf64_Shdr *)(const void *)(ld->file + eh.e_shoff);
  ld->nsec = eh.e_shnum;
  return true;
}

/* which part of the mapping a section goes to; false: a kind we do not know */
static bool classify(Loader *ld, int i, int *g) {
  Elf64_Shdr s = shdr(ld, i);
  *g = G_NONE;
  switch (s.sh_type) {
    case SHT_NULL: case SHT_SYMTAB: case SHT_STRTAB: case SHT_RELA: case SHT_NOTE: case SHT_LLVM_ADDRSIG_:
      if (s.sh_flags & SHF_ALLOC) return refuse(ld, "section %d (type %u) is loadable", i, (unsigned)s.sh_type);
      return true;
    case SHT_PROGBITS: case SHT_NOBITS: case SHT_X86_64_UNWIND: break;
    default: return refuse(ld, "section %d has an unsupported type (%u)", i, (unsigned)s.sh_type);
  }
  if (s.sh_type != SHT_NOBITS && !in_range(s.sh_offset, s.sh_size, ld->len))
    return refuse(ld, "section %d lies outside the file", i);
  if (!(s.sh_flags & SHF_ALLOC)) return true;  /* debug info, comments */
  if (s.sh_flags & (SHF_TLS | SHF_GROUP | SHF_COMPRESSED))
    return refuse(ld, "section %d needs thread-local storage, groups or decompression", i);
  if (s.sh_addralign > MAX_ALIGN || (s.sh_addralign & (s.sh_addralign - 1)))
    return refuse(ld, "section %d has alignment %llu", i, (unsigned long long)s.sh_addralign);
  if (s.sh_size > MAX_IMAGE) return refuse(ld, "section %d is too large", i);
  *g = (s.sh_flags & SHF_EXECINSTR) ? G_TEXT : (s.sh_flags & SHF_WRITE) || s.sh_type == SHT_NOBITS ? G_RW : G_RO;
  if (*g == G_TEXT && (s.sh_flags & SHF_WRITE)) return refuse(ld, "section %d is writable code", i);
  return true;
}

/* the one symbol table and its string table */
static bool find_symbols(Loader *ld) {
  int symtab = -1;
  for (int i = 0; i < ld->nsec; i++) {
    if (shdr(ld, i).sh_type != SHT_SYMTAB) continue;
    if (symtab >= 0) return refuse(ld, "more than one symbol table");
    symtab = i;
  }
  if (symtab < 0) return refuse(ld, "no symbol table");
  Elf64_Shdr s = shdr(ld, symtab);
  if (s.sh_entsize != sizeof(Elf64_Sym) || s.sh_size % sizeof(Elf64_Sym) != 0 ||
      s.sh_size / sizeof(Elf64_Sym) > MAX_SYMS)
    return refuse(ld, "unexpected symbol table size");
  if (!in_range(s.sh_offset, s.sh_size, ld->len)) return refuse(ld, "the symbol table lies outside the file");
  if (s.sh_link == 0 || s.sh_link >= (Elf64_Word)ld->nsec || shdr(ld, (int)s.sh_link).sh_type != SHT_STRTAB)
    return refuse(ld, "the symbol table has no string table");
  Elf64_Shdr st = shdr(ld, (int)s.sh_link);
  if (!in_range(st.sh_offset, st.sh_size, ld->len) || st.sh_size == 0 || ld->file[st.sh_offset + st.sh_size - 1] != 0)
    return refuse(ld, "bad string table");
  ld->syms = (const Elf64_Sym *)(const void *)(ld->file + s.sh_offset);
  ld->nsyms = (int)(s.sh_size / sizeof(Elf64_Sym));
  ld->strtab = (const char *)ld->file + st.sh_offset;
  ld->strsize = st.sh_size;
  ld->symaddr = calloc((size_t)ld->nsyms + 1, sizeof(void *));
  if (ld->symaddr == NULL) return refuse(ld, "out of memory");
  return true;
}

static const char *sym_name(const Loader *ld, const Elf64_Sym *s) {
  return s->st_name < ld->strsize ? ld->strtab + s->st_name : NULL;
}

/* offsets of every loadable section, the stubs and the GOT */
static bool layout(Loader *ld) {
  size_t end[G_COUNT] = {0, 0, 0}, start[G_COUNT];
  long page = sysconf(_SC_PAGESIZE);
  size_t pg = page > 0 ? (size_t)page : 4096;
  for (int g = 0; g < G_COUNT; g++) {
    for (int i = 0; i < ld->nsec; i++) {
      if (ld->group[i] != g) continue;
      Elf64_Shdr s = shdr(ld, i);
      size_t a = s.sh_addralign ? (size_t)s.sh_addralign : 1;
      ld->off[i] = align_up(end[g], a);
      end[g] = ld->off[i] + (size_t)s.sh_size;
      if (end[g] > MAX_IMAGE) return refuse(ld, "the object is too large");
    }
    if (g == G_TEXT) {
      ld->stubs = align_up(end[g], STUB_SIZE);
      end[g] = ld->stubs + STUB_SIZE * (size_t)ld->nsyms;
    } else if (g == G_RO) {
      ld->got = align_up(end[g], 8);
      end[g] = ld->got + 8 * (size_t)ld->nsyms;
    }
  }
  size_t at = 0;
  for (int g = 0; g < G_COUNT; g++) {
    start[g] = at;
    at += align_up(end[g], pg);
  }
  for (int i = 0; i < ld->nsec; i++)
    if (ld->group[i] != G_NONE) ld->off[i] += start[ld->group[i]];
  ld->stubs += start[G_TEXT];
  ld->got += start[G_RO];
  ld->size = at ? at : pg;
  void *p = mmap(NULL, ld->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return refuse(ld, "cannot map %zu bytes", ld->size);
  ld->base = p;
  for (int i = 0; i < ld->nsec; i++) {
    Elf64_Shdr s = shdr(ld, i);
    if (ld->group[i] != G_NONE && s.sh_type != SHT_NOBITS) memcpy(ld->base + ld->off[i], ld->file + s.sh_offset, s.sh_size);
  }
  return true;
}

/* the address a symbol stands for; NULL (and why) when it cannot be had */
static void *sym_addr(Loader *ld, int k) {
  if (ld->symaddr[k]) return ld->symaddr[k];
  Elf64_Sym s = symbol(ld, k);
  void *a = NULL;
  if (s.st_shndx == SHN_UNDEF) {
    const char *name = sym_name(ld, &s);
    if (name == NULL || *name == '\0') {
      refuse(ld, "symbol %d has no name", k);
      return NULL;
    }
    a = ld->resolve(ld->ud, name);
    if (a == NULL) refuse(ld, "unknown external symbol '%s'", name);
  } else if (s.st_shndx < ld->nsec && ld->group[s.st_shndx] != G_NONE) {
    Elf64_Shdr sec = shdr(ld, s.st_shndx);
    if (s.st_value > sec.sh_size) refuse(ld, "symbol %d lies outside its section", k);
    else a = ld->base + ld->off[s.st_shndx] + s.st_value;
  } else {
    refuse(ld, "symbol %d is in section %u, which is not loaded", k, (unsigned)s.st_shndx);
  }
  ld->symaddr[k] = a;
  return a;
}

static bool fits_s32(int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX;
}

static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* a stub jumping to the symbol's address: jmp *[rip+0]; .quad addr */
static uint64_t stub_for(Loader *ld, int k, void *target) {
  unsigned char *st = ld->base + ld->stubs + (size_t)k * STUB_SIZE;
  static const unsigned char jmp[6] = {0xff, 0x25, 0, 0, 0, 0};
  memcpy(st, jmp, sizeof jmp);
  put64(st + 6, (uint64_t)(uintptr_t)target);
  st[14] = st[15] = 0xcc;
  return (uint64_t)(uintptr_t)st;
}

/* one relocation of section `target` */
static bool relocate(Loader *ld, int target, const Elf64_Rela *r) {
  Elf64_Shdr ts = shdr(ld, target);
  uint32_t type = ELF64_R_TYPE(r->r_info);
  uint64_t k = ELF64_R_SYM(r->r_info);
  size_t width = type == R_X86_64_64 || type == R_X86_64_PC64 ? 8 : 4;
  switch (type) {
    case R_X86_64_64: case R_X86_64_PC64: case R_X86_64_PC32: case R_X86_64_PLT32: case R_X86_64_32:
    case R_X86_64_32S: case R_X86_64_GOTPCREL: case R_X86_64_GOTPCRELX: case R_X86_64_REX_GOTPCRELX: break;
    default: return refuse(ld, "unsupported relocation type %u", (unsigned)type);
  }
  if (!in_range(r->r_offset, width, ts.sh_size)) return refuse(ld, "a relocation lies outside its section");
  if (k == 0 || k >= (uint64_t)ld->nsyms) return refuse(ld, "a relocation names symbol %llu", (unsigned long long)k);
  void *sa = sym_addr(ld, (int)k);
  if (sa == NULL) return false;
  unsigned char *p = ld->base + ld->off[target] + r->r_offset;
  uint64_t S = (uint64_t)(uintptr_t)sa, P = (uint64_t)(uintptr_t)p, A = (uint64_t)r->r_addend;
  int64_t v;
  switch (type) {
    case R_X86_64_64: put64(p, S + A); return true;
    case R_X86_64_PC64: put64(p, S + A - P); return true;
    case R_X86_64_32:
      if (S + A > UINT32_MAX) return refuse(ld, "a 32-bit absolute relocation does not fit");
      put32(p, (uint32_t)(S + A));
      return true;
    case R_X86_64_32S:
      if (!fits_s32((int64_t)(S + A))) return refuse(ld, "a 32-bit absolute relocation does not fit");
      put32(p, (uint32_t)(S + A));
      return true;
    case R_X86_64_PC32: case R_X86_64_PLT32:
      v = (int64_t)(S + A - P);
      if (!fits_s32(v) && symbol(ld, (int)k).st_shndx == SHN_UNDEF) v = (int64_t)(stub_for(ld, (int)k, sa) + A - P);
      if (!fits_s32(v)) return refuse(ld, "a PC-relative relocation does not reach its target");
      put32(p, (uint32_t)v);
      return true;
    default: { /* the GOTPCREL family: the symbol's address in its GOT slot */
      unsigned char *g = ld->base + ld->got + (size_t)k * 8;
      put64(g, S);
      v = (int64_t)((uint64_t)(uintptr_t)g + A - P);
      if (!fits_s32(v)) return refuse(ld, "a GOT-relative relocation does not reach the GOT");
      put32(p, (uint32_t)v);
      return true;
    }
  }
}

/* every RELA section whose target is loaded */
static bool relocate_all(Loader *ld) {
  for (int i = 0; i < ld->nsec; i++) {
    Elf64_Shdr s = shdr(ld, i);
    if (s.sh_type != SHT_RELA) continue;
    if (s.sh_info == 0 || s.sh_info >= (Elf64_Word)ld->nsec) return refuse(ld, "section %d relocates no section", i);
    if (ld->group[s.sh_info] == G_NONE) continue;  /* relocations of debug info */
    if (s.sh_link >= (Elf64_Word)ld->nsec || shdr(ld, (int)s.sh_link).sh_type != SHT_SYMTAB)
      return refuse(ld, "section %d uses no symbol table", i);
    if (s.sh_entsize != sizeof(Elf64_Rela) || s.sh_size % sizeof(Elf64_Rela) != 0 ||
        !in_range(s.sh_offset, s.sh_size, ld->len))
      return refuse(ld, "section %d: bad relocation table", i);
    for (uint64_t j = 0; j < s.sh_size / sizeof(Elf64_Rela); j++) {
      Elf64_Rela r;
      memcpy(&r, ld->file + s.sh_offset + j * sizeof r, sizeof r);
      if (!relocate(ld, (int)s.sh_info, &r)) return false;
    }
  }
  return true;
}

/* text read+execute, rodata and GOT read-only, the rest stays read+write */
static bool protect(Loader *ld) {
  long page = sysconf(_SC_PAGESIZE);
  size_t pg = page > 0 ? (size_t)page : 4096;
  size_t text_end = align_up(ld->stubs + STUB_SIZE * (size_t)ld->nsyms, pg);
  size_t ro_end = align_up(ld->got + 8 * (size_t)ld->nsyms, pg);
  if (text_end > 0 && mprotect(ld->base, text_end, PROT_READ | PROT_EXEC) != 0)
    return refuse(ld, "cannot make the code executable");
  if (ro_end > text_end && mprotect(ld->base + text_end, ro_end - text_end, PROT_READ) != 0)
    return refuse(ld, "cannot protect the constants");
  return true;
}

/* the global symbols the object defines, copied into the image */
static bool collect_globals(Loader *ld, ObjImage *im) {
  int n = 0;
  for (int k = 1; k < ld->nsyms; k++) {
    Elf64_Sym s = symbol(ld, k);
    int bind = ELF64_ST_BIND(s.st_info);
    if ((bind == STB_GLOBAL || bind == STB_WEAK) && s.st_shndx != SHN_UNDEF) n++;
  }
  im->names = calloc((size_t)n + 1, sizeof(char *));
  im->addrs = calloc((size_t)n + 1, sizeof(void *));
  if (im->names == NULL || im->addrs == NULL) return refuse(ld, "out of memory");
  for (int k = 1; k < ld->nsyms; k++) {
    Elf64_Sym s = symbol(ld, k);
    int bind = ELF64_ST_BIND(s.st_info);
    if ((bind != STB_GLOBAL && bind != STB_WEAK) || s.st_shndx == SHN_UNDEF) continue;
    const char *name = sym_name(ld, &s);
    void *a = sym_addr(ld, k);
    if (name == NULL || *name == '\0' || a == NULL) return refuse(ld, "a global symbol has no name or no place");
    im->names[im->nglobals] = strdup(name);
    if (im->names[im->nglobals] == NULL) return refuse(ld, "out of memory");
    im->addrs[im->nglobals++] = a;
  }
  return true;
}

ObjImage *objload_load(const void *obj, size_t len, ObjResolve resolve, void *ud, char *why, size_t whylen) {
  Loader ld;
  memset(&ld, 0, sizeof ld);
  ld.file = obj;
  ld.len = len;
  ld.resolve = resolve;
  ld.ud = ud;
  ld.why = why;
  ld.whylen = whylen;
  ObjImage *im = calloc(1, sizeof *im);
  bool ok = im != NULL && read_header(&ld);
  if (im == NULL) snprintf(why, whylen, "out of memory");
  if (ok) {
    ld.group = calloc((size_t)ld.nsec, sizeof(int));
    ld.off = calloc((size_t)ld.nsec, sizeof(size_t));
    ok = ld.group && ld.off ? true : refuse(&ld, "out of memory");
  }
  for (int i = 0; ok && i < ld.nsec; i++) ok = classify(&ld, i, &ld.group[i]);
  ok = ok && find_symbols(&ld) && layout(&ld);
  if (im && ld.base) {
    im->base = ld.base;
    im->size = ld.size;
  }
  ok = ok && relocate_all(&ld) && collect_globals(&ld, im) && protect(&ld);
  free(ld.group);
  free(ld.off);
  free(ld.symaddr);
  if (!ok) {
    objload_free(im);
    return NULL;
  }
  return im;
}

#else /* not x86-64 Linux */

ObjImage *objload_load(const void *obj, size_t len, ObjResolve resolve, void *ud, char *why, size_t whylen) {
  (void)obj, (void)len, (void)resolve, (void)ud;
  snprintf(why, whylen, "unsupported: objects are loaded only on x86-64 Linux");
  return NULL;
}

#endif

void objload_free(ObjImage *im) {
  if (im == NULL) return;
  if (im->base) munmap(im->base, im->size);
  for (int i = 0; i < im->nglobals; i++) free(im->names[i]);
  free(im->names);
  free(im->addrs);
  free(im);
}

void *objload_symbol(const ObjImage *im, const char *name) {
  for (int i = 0; i < im->nglobals; i++)
    if (strcmp(im->names[i], name) == 0) return im->addrs[i];
  return NULL;
}

int objload_nglobals(const ObjImage *im) {
  return im->nglobals;
}

const char *objload_global(const ObjImage *im, int i, void **addr) {
  *addr = im->addrs[i];
  return im->names[i];
}
