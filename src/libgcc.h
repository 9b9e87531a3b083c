/*
** libgcc.h — the libgcc helpers LLVM's code generator calls (llvm.powi,
** 128-bit division). Compiled code finds them through lumba, not the
** process's symbol scope: the JIT defines them (jit_cpu.c), the cache's
** loader resolves them (objload_extern.c).
*/
#ifndef libgcc_h
#define libgcc_h

double __powidf2(double, int);
float __powisf2(float, int);
__int128 __divti3(__int128, __int128);
__int128 __modti3(__int128, __int128);
unsigned __int128 __udivti3(unsigned __int128, unsigned __int128);
unsigned __int128 __umodti3(unsigned __int128, unsigned __int128);

#endif
