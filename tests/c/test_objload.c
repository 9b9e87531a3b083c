/* objload: relocatable objects compiled by cc at test time (three code
** models, so every relocation kind objload handles is exercised), linked
** and called; then hostile copies of them (fields pointing outside the
** file or their section, out-of-range symbol indices, another machine,
** unknown relocation types and symbols), each refused with its reason;
** then every truncation and every single-byte change of one object, none
** of which may crash. */
#include <elf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "objload.h"
#include "test.h"

static const char *const src =
    "extern double cos(double);\n"
    "static double table[4] = {1.5, 2.5, 3.5, 4.5};\n"
    "double scale = 2.0;\n"
    "int counter;\n"
    "double ext_call(double x) { return cos(x) + table[1]; }\n"
    "double use_data(int i) { counter += 1; return table[i & 3] * scale; }\n"
    "int get_counter(void) { return counter; }\n";

static char dir[64];

/* cc -c with flags: the object's bytes (malloc'd), NULL if cc failed */
static unsigned char *compile(const char *flags, size_t *len) {
  char cmd[512], c[128], o[128];
  snprintf(c, sizeof c, "%s/a.c", dir);
  snprintf(o, sizeof o, "%s/a.o", dir);
  FILE *f = fopen(c, "w");
  if (f == NULL) return NULL;
  fputs(src, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "cc -O1 -c -fno-stack-protector -fcf-protection=none %s -o %s %s", flags, o, c);
  if (system(cmd) != 0) return NULL;
  f = fopen(o, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc(*len);
  if (p == NULL || fread(p, 1, *len, f) != *len) {
    free(p);
    p = NULL;
  }
  fclose(f);
  return p;
}

/* cos as the objects see it: a function of this program, whose code lies
** far (> 2 GiB) from the mappings mmap picks, so 32-bit calls need stubs */
static double far_cos(double x) {
  return cos(x);
}

static void *libm_only(void *ud, const char *name) {
  (void)ud;
  return strcmp(name, "cos") == 0 ? (void *)far_cos : NULL;
}

static void *nothing(void *ud, const char *name) {
  (void)ud, (void)name;
  return NULL;
}

static char why[300];

static const char *refusal(const unsigned char *obj, size_t len) {
  ObjImage *im = objload_load(obj, len, libm_only, NULL, why, sizeof why);
  if (im == NULL) return why;
  objload_free(im);
  return "(loaded)";
}

/* the object's functions run with its data, the GOT and the stubs */
static void check_runs(const char *flags) {
  size_t len;
  unsigned char *obj = compile(flags, &len);
  ASSERT(1, obj != NULL);
  if (obj == NULL) return;
  ObjImage *im = objload_load(obj, len, libm_only, NULL, why, sizeof why);
  ASSERT_STR("", im ? "" : why);
  if (im == NULL) {
    free(obj);
    return;
  }
  double (*ext_call)(double) = (double (*)(double))objload_symbol(im, "ext_call");
  double (*use_data)(int) = (double (*)(int))objload_symbol(im, "use_data");
  int (*get_counter)(void) = (int (*)(void))objload_symbol(im, "get_counter");
  double *scale = objload_symbol(im, "scale");
  ASSERT(1, ext_call && use_data && get_counter && scale);
  ASSERT(1, objload_symbol(im, "table") == NULL);  /* static: not global */
  ASSERT(5, objload_nglobals(im));                  /* ext_call use_data get_counter scale counter */
  ASSERT(1, ext_call(0.0) == 3.5);                  /* cos(0) + 2.5 */
  ASSERT(1, use_data(2) == 7.0);                    /* 3.5 * 2.0 */
  *scale = 10.0;                                    /* data stays writable */
  ASSERT(1, use_data(7) == 45.0);                   /* table[3] * 10 */
  ASSERT(2, get_counter());                         /* bss, zeroed, written */
  objload_free(im);
  /* the same object with cos unknown: refused by name */
  im = objload_load(obj, len, nothing, NULL, why, sizeof why);
  ASSERT(1, im == NULL);
  ASSERT_STR("unknown external symbol 'cos'", why);
  free(obj);
}

/* ---- hostile copies of an object ---- */

typedef struct Obj {
  unsigned char *p;
  size_t len;
  Elf64_Ehdr eh;
} Obj;

static Elf64_Shdr *sh(Obj *o, int i) {
  return (Elf64_Shdr *)(void *)(o->p + o->eh.e_shoff + (size_t)i * sizeof(Elf64_Shdr));
}

static int find_section(Obj *o, const char *name) {
  Elf64_Shdr *names = sh(o, o->eh.e_shstrndx);
  for (int i = 0; i < o->eh.e_shnum; i++)
    if (strcmp((char *)o->p + names->sh_offset + sh(o, i)->sh_name, name) == 0) return i;
  return -1;
}

static Obj copy_of(const unsigned char *p, size_t len) {
  Obj o;
  o.p = malloc(len);
  memcpy(o.p, p, len);
  o.len = len;
  memcpy(&o.eh, p, sizeof o.eh);
  return o;
}

static Elf64_Rela *first_rela(Obj *o) {
  return (Elf64_Rela *)(void *)(o->p + sh(o, find_section(o, ".rela.text"))->sh_offset);
}

static void check_hostile(void) {
  size_t len;
  unsigned char *good = compile("-fPIC", &len);
  ASSERT(1, good != NULL);
  if (good == NULL) return;
  ASSERT_STR("(loaded)", refusal(good, len));

  Obj o = copy_of(good, len);
  int text = find_section(&o, ".text");
  sh(&o, text)->sh_offset = len;  /* a section past the end */
  char want[100];
  snprintf(want, sizeof want, "section %d lies outside the file", text);
  ASSERT_STR(want, refusal(o.p, o.len));
  free(o.p);

  o = copy_of(good, len);
  sh(&o, text)->sh_size = (uint64_t)-16;  /* offset + size wraps around */
  ASSERT_STR(want, refusal(o.p, o.len));
  free(o.p);

  o = copy_of(good, len);
  Elf64_Shdr *symtab = sh(&o, find_section(&o, ".symtab"));
  uint64_t nsyms = symtab->sh_size / sizeof(Elf64_Sym);
  Elf64_Rela *r = first_rela(&o);
  r->r_info = ELF64_R_INFO(nsyms + 5, ELF64_R_TYPE(r->r_info));  /* symbol index out of range */
  snprintf(want, sizeof want, "a relocation names symbol %llu", (unsigned long long)(nsyms + 5));
  ASSERT_STR(want, refusal(o.p, o.len));
  free(o.p);

  o = copy_of(good, len);
  first_rela(&o)->r_offset = sh(&o, text)->sh_size - 2;  /* a 4-byte field past its section's end */
  ASSERT_STR("a relocation lies outside its section", refusal(o.p, o.len));
  free(o.p);

  o = copy_of(good, len);
  r = first_rela(&o);
  r->r_info = ELF64_R_INFO(ELF64_R_SYM(r->r_info), R_X86_64_GOTOFF64);
  ASSERT_STR("unsupported relocation type 25", refusal(o.p, o.len));
  free(o.p);

  o = copy_of(good, len);
  ((Elf64_Ehdr *)(void *)o.p)->e_machine = EM_AARCH64;
  ASSERT_STR("not an x86-64 object (machine 183)", refusal(o.p, o.len));
  free(o.p);

  o = copy_of(good, len);
  ((Elf64_Ehdr *)(void *)o.p)->e_shoff = (uint64_t)-64;  /* the header table wraps around */
  ASSERT_STR("the section headers lie outside the file", refusal(o.p, o.len));
  free(o.p);

  o = copy_of(good, len);
  symtab = sh(&o, find_section(&o, ".symtab"));
  symtab->sh_link = 999;
  ASSERT_STR("the symbol table has no string table", refusal(o.p, o.len));
  free(o.p);

  o = copy_of(good, len);
  Elf64_Sym *syms = (Elf64_Sym *)(void *)(o.p + sh(&o, find_section(&o, ".symtab"))->sh_offset);
  for (uint64_t k = 1; k < nsyms; k++)
    if (ELF64_ST_BIND(syms[k].st_info) == STB_GLOBAL && syms[k].st_shndx != SHN_UNDEF) syms[k].st_value = 1u << 30;
  ASSERT(1, strstr(refusal(o.p, o.len), "lies outside its section") != NULL);
  free(o.p);

  o = copy_of(good, len);
  sh(&o, text)->sh_type = SHT_DYNAMIC;  /* a section kind objload does not know */
  snprintf(want, sizeof want, "section %d has an unsupported type (%u)", text, (unsigned)SHT_DYNAMIC);
  ASSERT_STR(want, refusal(o.p, o.len));
  free(o.p);

  ASSERT_STR("not an ELF object (10 bytes)", refusal((const unsigned char *)"0123456789", 10));

  /* every truncation is refused; no single-byte change may crash */
  int refused = 0;
  for (size_t n = 0; n < len; n++) refused += strcmp(refusal(good, n), "(loaded)") != 0;
  ASSERT((long long)len, refused);
  o = copy_of(good, len);
  for (size_t i = 0; i < len; i++) {
    unsigned char keep = o.p[i];
    o.p[i] ^= 0xa5;
    (void)refusal(o.p, o.len);  /* loaded or refused, never followed outside */
    o.p[i] = keep;
  }
  ASSERT_STR("(loaded)", refusal(o.p, o.len));
  free(o.p);
  free(good);
}

/* absolute 32-bit addresses cannot reach a mapping above 4 GiB */
static void check_small_model(void) {
  size_t len;
  unsigned char *obj = compile("-fno-pic", &len);
  ASSERT(1, obj != NULL);
  if (obj == NULL) return;
  ASSERT_STR("a 32-bit absolute relocation does not fit", refusal(obj, len));
  free(obj);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/lumba-objload-%d", (int)getpid());
  char cmd[128];
  snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
  if (system(cmd) != 0) return 1;
  check_runs("-fPIC");                    /* PLT32 through a stub, GOTPCREL, PC32 */
  check_runs("-fno-pic -mcmodel=large");  /* R_X86_64_64 */
  check_runs("");                         /* PIE: PC32 and PLT32 */
  check_hostile();
  check_small_model();
  ASSERT_STR("sin", objload_extern("sin") == (void *)sin ? "sin" : "?");
  ASSERT(1, objload_extern("system") == NULL);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) return 1;
  TEST_END();
}
