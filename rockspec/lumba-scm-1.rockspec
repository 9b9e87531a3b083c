-- lumba's rockspec: `luarocks --lua-version=5.4 make rockspec/lumba-scm-1.rockspec`
-- from a checkout builds with the Makefile (docs/install.md).
rockspec_format = "3.0"
package = "lumba"
version = "scm-1"
source = {
  -- a checkout is built in place by `luarocks make`; there is no public
  -- repository yet to fetch from (docs/install.md)
  url = "git+file:///work/main",
}
description = {
  summary = "Numba for Lua 5.4: JIT-compile numeric functions to native code (LLVM) and CUDA",
  detailed = [[
lumba type-infers numeric functions written in a Python-syntax subset per
argument signature and compiles them through LLVM to native code, or through
libNVVM to PTX for NVIDIA GPUs, working on N-dimensional typed arrays.
]],
  license = "MIT",
  labels = { "jit", "llvm", "numba", "numpy", "cuda", "arrays" },
}
-- Linux on x86-64 is what is built and tested (the JIT's target and the
-- libraries' Debian paths)
supported_platforms = { "linux" }
dependencies = {
  "lua >= 5.4, < 5.5",
}
external_dependencies = {
  -- LLVM 14 (Debian 12's llvm-dev); the Makefile checks the version
  LLVM = { program = "llvm-config" },
  -- LLVM's OpenMP runtime runs prange loops (libomp-14-dev)
  OMP = { library = "omp" },
}
build = {
  type = "make",
  build_variables = {
    CFLAGS = "$(CFLAGS)",
    LUA_INC = "-I$(LUA_INCDIR)",
    LLVM_CONFIG = "$(LLVM_BINDIR)/llvm-config",
  },
  install_variables = {
    LUA_LIBDIR = "$(LIBDIR)",
    LUA_SHAREDIR = "$(LUADIR)",
    INCDIR = "$(PREFIX)/include",
  },
}
test_dependencies = {}
test = {
  type = "command",
  command = "make test",
}
