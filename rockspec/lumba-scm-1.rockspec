package = "lumba"
version = "scm-1"
source = {
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
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
external_dependencies = {
  LLVM = { program = "llvm-config" },
}
build = {
  type = "make",
  build_variables = {
    LUA_INC = "-I$(LUA_INCDIR)",
    CFLAGS = "-O2 -g",
  },
  install_variables = {
    LUA_LIBDIR = "$(LIBDIR)",
    LUA_SHAREDIR = "$(LUADIR)",
    INCDIR = "$(PREFIX)/include",
  },
}
