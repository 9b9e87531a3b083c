# lumba — build, test, bench, install.
# Overridable: LUA_INC (Lua 5.4 headers), LLVM_CONFIG, PREFIX, CC, BUSTED.

LUA_INC ?= $(shell pkg-config --cflags-only-I lua5.4 2>/dev/null || echo -I/usr/include/lua5.4)
LLVM_CONFIG ?= $(shell command -v llvm-config-14 || command -v llvm-config)
# lumba is written against LLVM 14's C API (Debian 12): say so at once when
# another one, or none, is found (clean and uninstall need none)
LLVM_VERSION := $(shell $(LLVM_CONFIG) --version 2>/dev/null)
ifneq ($(filter-out clean uninstall,$(or $(MAKECMDGOALS),all)),)
ifeq ($(LLVM_VERSION),)
$(error LLVM not found: install llvm-dev (LLVM 14) or set LLVM_CONFIG=/path/to/llvm-config)
else ifneq ($(firstword $(subst ., ,$(LLVM_VERSION))),14)
$(error lumba needs LLVM 14, found $(LLVM_VERSION) ($(LLVM_CONFIG)): set LLVM_CONFIG=llvm-config-14)
endif
endif
PREFIX ?= /usr/local
LUA_VERSION = 5.4
LUA_LIBDIR ?= $(PREFIX)/lib/lua/$(LUA_VERSION)
LUA_SHAREDIR ?= $(PREFIX)/share/lua/$(LUA_VERSION)
INCDIR ?= $(PREFIX)/include
BUSTED ?= busted --lua=lua5.4

# the warnings of Lua's own makefile
WARN = -Wall -Wextra -Wshadow -Wundef -Wwrite-strings -Wmissing-prototypes \
       -Wstrict-prototypes -Wredundant-decls
LLVM_CFLAGS := $(shell $(LLVM_CONFIG) --cflags 2>/dev/null | sed 's/-std=[^ ]*//')
# backend.so links the LLVM components it uses statically, its symbols hidden:
# libLLVM-14.so (every target, 110 MB) costs a first call ~11 ms to load and
# relocate; the X86 parts alone, with libstdc++, ~2.5 ms (and LLVM's options
# can be set without touching another LLVM in the process). nvptx.so (LLVM's
# NVPTX backend, used only where libNVVM is missing) has a copy of its own:
# inside backend.so it cost every first call 0.3 ms more to load.
# LLVM_LINK=shared links libLLVM-14.so instead (faster to link, slower to load).
LLVM_LINK ?= static
LLVM_COMPONENTS = core analysis irreader passes orcjit x86codegen x86desc x86info
NVPTX_LLVM_COMPONENTS = core analysis bitreader irreader linker passes nvptxcodegen nvptxdesc nvptxinfo
# packed relative relocations (DT_RELR, binutils 2.38+, glibc 2.36+): the
# backend's 108,000 relocations load 0.25 ms faster
LD_RELR := $(shell $(CC) -shared -Wl,-z,pack-relative-relocs -o /dev/null -x c /dev/null 2>/dev/null && \
  echo -Wl,-z,pack-relative-relocs)
ifeq ($(LLVM_LINK),static)
LLVM_PRIVATE = -DLUMBA_LLVM_PRIVATE
llvm_static = -Wl,--gc-sections -Wl,--exclude-libs,ALL $(shell $(LLVM_CONFIG) --ldflags 2>/dev/null) \
  $(shell $(LLVM_CONFIG) --link-static --libs $(1) 2>/dev/null) \
  -Wl,--as-needed $(shell $(LLVM_CONFIG) --link-static --system-libs 2>/dev/null) -Wl,--no-as-needed \
  -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic
LLVM_LIBS := $(call llvm_static,$(LLVM_COMPONENTS))
NVPTX_LLVM_LIBS := $(call llvm_static,$(NVPTX_LLVM_COMPONENTS))
else
LLVM_LIBS := $(shell $(LLVM_CONFIG) --ldflags 2>/dev/null) $(shell $(LLVM_CONFIG) --libs 2>/dev/null)
NVPTX_LLVM_LIBS := $(LLVM_LIBS)
endif
OPT ?= -O2 -g
CFLAGS ?= $(OPT)
# hidden by default: each .so exports only what LUMBA_API marks (src/lm.h)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -fPIC -fvisibility=hidden $(WARN) $(CFLAGS) \
             $(LUA_INC) $(LLVM_CFLAGS) $(LLVM_PRIVATE) $(EXTRA_CFLAGS)
LDLIBS = $(LLVM_LIBS) -lomp -lpthread -ldl -lm
CORE_LIBS = -lpthread -ldl -lm
# LLVM's OpenMP runtime (libomp, package libomp-14-dev) runs prange loops:
# gcc compiles parallel.c with -fopenmp, libomp provides the GOMP entry points
# (never libgomp: it hangs in a forked child; see src/parallel.c)
OMP_LIBDIR := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)

BUILD ?= build
# build/obj: one object per file, each name defined once (what tools such as
# tools/layers.lua reads); build/glue: the libraries' forwarders to core
# (core_api_calls.c, the same names again) and the C tests' table pointer
GLUE_SRCS = src/core_api_calls.c
SRCS := $(filter-out $(GLUE_SRCS),$(wildcard src/*.c))
OBJS := $(SRCS:src/%.c=$(BUILD)/obj/%.o)
GLUE = $(BUILD)/glue/core_api_calls.o
# Two shared objects: core.so loads fast at require; backend.so holds what
# needs LLVM or libomp and is opened at the first compilation (src/backend.h).
# A new file of the compiler (what runs at compilation, or needs LLVM) goes in
# BACKEND_SRCS, by a wildcard below or by name; every other file is core's.
BACKEND_SRCS := $(wildcard src/infer*.c src/lower*.c src/target_*.c src/builtin_*.c) src/builtins.c src/builtins_infer.c src/compile.c src/pipeline.c \
  src/parfor.c src/resolve.c \
  src/jit_cpu.c src/jit_code.c src/parallel.c src/cache.c src/backend.c src/dispatch_calls.c src/fastmath.c src/vecmath.c \
  src/simrun.c src/cudasim.c src/cfunc_jit.c src/libdevice_sim.c
BACKEND_OBJS := $(BACKEND_SRCS:src/%.c=$(BUILD)/obj/%.o)
NVPTX_OBJS := $(BUILD)/obj/nvvm_llvm.o
CORE_OBJS := $(filter-out $(BACKEND_OBJS) $(NVPTX_OBJS),$(OBJS)) $(BUILD)/obj/prelude_text.o
MODULE = $(BUILD)/lumba/core.so
BACKEND = $(BUILD)/lumba/backend.so
NVPTX = $(BUILD)/lumba/nvptx.so

.PHONY: all test check-c example install uninstall asan tsan clean bench bench-gpu
all: $(MODULE) $(BACKEND) $(NVPTX)

define compile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(1) -c -o $@ $<
endef
$(BUILD)/obj/%.o: src/%.c $(wildcard src/*.h src/*.def)
	$(call compile)
$(BUILD)/glue/%.o: src/%.c $(wildcard src/*.h src/*.def)
	$(call compile)

$(BUILD)/obj/parallel.o: ALL_CFLAGS += -fopenmp
# the rounding-mode variants of cuda.libdevice switch modes around their arithmetic
$(BUILD)/obj/libdevice_sim.o: ALL_CFLAGS += -frounding-math

# the NumPy prelude (the .py files of src/prelude, builtin_prelude.c): its files as one
# C string in core.so (compiled code reads it through core_api.def, the object
# mode through lumba.core._prelude()), each line a literal ("\" and '"' escaped), the
# files joined in name order
PRELUDE_PY := $(sort $(wildcard src/prelude/*.py))
$(BUILD)/gen/prelude_text.c: $(PRELUDE_PY) Makefile
	@mkdir -p $(dir $@)
	@{ echo '/* generated from the files of src/prelude by the Makefile: do not edit */'; \
	  echo 'const char prelude_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $(PRELUDE_PY); echo ';'; \
	} > $@
$(BUILD)/obj/prelude_text.o: $(BUILD)/gen/prelude_text.c
	$(call compile)

# backend.so and nvptx.so call core.so through the table core hands them
# (src/core_api.h): their objects call core's functions by name (hidden
# forwarders, core_api_calls.c; one section each, so that a library keeps
# only those it calls) and read core's objects through the table.
$(BACKEND_OBJS) $(NVPTX_OBJS) $(GLUE): ALL_CFLAGS += -DCORE_API_CLIENT -include src/core_api.h
$(GLUE): ALL_CFLAGS += -ffunction-sections

# No library calls into another but through its table. Not -z defs: the
# lua_* functions come from the host program (linking liblua would load a
# second Lua into a host that has Lua built in). Instead the build fails
# when a library's undefined symbols name a function of the other's objects:
# $(call no_calls_into,library,the other's objects,the other's name,what to do)
define no_calls_into
	@nm -g --defined-only $(2) | awk 'NF == 3 {print $$3}' | sort -u > $(1).theirs; \
	used=$$(nm -D --undefined-only $(1) | awk '$$1 == "U" {print $$2}' | grep -Fx -f $(1).theirs | tr '\n' ' '); \
	rm -f $(1).theirs; \
	if [ -n "$$used" ]; then echo "$(1) calls $(3)'s $$used(hidden there): $(4)" >&2; rm -f $(1); exit 1; fi
endef

# core.so exports only luaopen_lumba_core and lumba.h's functions;
# backend.so and nvptx.so only their entry points (the .map files)
$(MODULE): $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,core.so $(EXTRA_LDFLAGS) -o $@ $(CORE_OBJS) $(CORE_LIBS)

CORE_API_FIX = add a row for each to src/core_api.def (or, if its file belongs to the compiler, list the file in BACKEND_SRCS)
BACKEND_API_FIX = call it through struct Backend (src/backend.h), or list the caller's file in BACKEND_SRCS, or drop its row from src/core_api.def if its file moved to the backend
$(BACKEND): $(BACKEND_OBJS) $(GLUE) $(MODULE) src/backend.map
	$(CC) -shared -Wl,--version-script=src/backend.map $(LD_RELR) $(EXTRA_LDFLAGS) -o $@ $(BACKEND_OBJS) $(GLUE) $(LDLIBS)
	$(call no_calls_into,$@,$(CORE_OBJS),core.so,$(CORE_API_FIX))
	$(call no_calls_into,$(MODULE),$(BACKEND_OBJS),backend.so,$(BACKEND_API_FIX))

$(NVPTX): $(NVPTX_OBJS) $(GLUE) $(MODULE) src/nvptx.map
	$(CC) -shared -Wl,--version-script=src/nvptx.map $(LD_RELR) $(EXTRA_LDFLAGS) -o $@ $(NVPTX_OBJS) $(GLUE) \
	  $(NVPTX_LLVM_LIBS) -lpthread -lm
	$(call no_calls_into,$@,$(CORE_OBJS),core.so,$(CORE_API_FIX))

# core's objects for programs that call its internals, hidden in core.so
# (the fuzz targets: the linker takes only the members they need)
CORE_ARCHIVE = $(BUILD)/lumba-core.a
$(CORE_ARCHIVE): $(filter-out $(BUILD)/obj/module.o $(BUILD)/obj/core_api.o,$(CORE_OBJS))
	rm -f $@
	$(AR) rcs $@ $^

# core's table for a program linking core's and backend's objects together
# (the C unit tests): backend code reads core's objects through it
$(BUILD)/glue/core_api_static.o: src/core_api.c $(wildcard src/*.h src/*.def)
	$(call compile,-DCORE_API_STATIC)

# C unit tests: the parts that need no Lua state
CTESTS := $(patsubst tests/c/%.c,$(BUILD)/ctest/%,$(wildcard tests/c/test_*.c))
CTEST_OBJS = $(filter-out $(BUILD)/obj/module.o $(BUILD)/obj/core_api.o,$(OBJS)) $(BUILD)/glue/core_api_static.o $(BUILD)/obj/prelude_text.o
$(BUILD)/ctest/%: tests/c/%.c $(CTEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(CTEST_OBJS) \
	  $(EXTRA_LDFLAGS) $(LDLIBS) -llua5.4

check-c: $(CTESTS)
	@for t in $(CTESTS); do $$t || exit 1; done

test: $(MODULE) $(BACKEND) $(NVPTX) check-c
	$(BUSTED) --exclude-tags=gpu

example: $(MODULE) $(BACKEND) $(NVPTX)
	lua5.4 examples/ising.lua

# ASan+UBSan build of the module, then the busted suite with the runtime preloaded
ASAN_LIB = $(shell $(CC) -print-file-name=libasan.so)
UBSAN_LIB = $(shell $(CC) -print-file-name=libubsan.so)
asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" build-asan/lumba/core.so build-asan/lumba/backend.so build-asan/lumba/nvptx.so
	LD_PRELOAD="$(ASAN_LIB) $(UBSAN_LIB)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
	  LUMBA_CPATH=build-asan $(BUSTED) --exclude-tags=gpu,noasan

# run.lua writes its results only where BENCH_OUT says; make bench means bench/
bench: $(MODULE) $(BACKEND) $(NVPTX)
	BENCH_OUT=$${BENCH_OUT:-bench} BENCH_BUILD=$${BENCH_BUILD:-bench/out} lua5.4 bench/run.lua

# on a machine with an NVIDIA GPU and nvcc: lumba vs CUDA C vs numba-cuda
bench-gpu: $(MODULE) $(BACKEND) $(NVPTX)
	lua5.4 bench/run_gpu.lua

install: $(MODULE) $(BACKEND) $(NVPTX)
	install -d $(DESTDIR)$(LUA_LIBDIR)/lumba $(DESTDIR)$(LUA_SHAREDIR)/lumba $(DESTDIR)$(INCDIR)
	install -m 755 $(MODULE) $(DESTDIR)$(LUA_LIBDIR)/lumba/core.so
	install -m 755 $(BACKEND) $(DESTDIR)$(LUA_LIBDIR)/lumba/backend.so
	install -m 755 $(NVPTX) $(DESTDIR)$(LUA_LIBDIR)/lumba/nvptx.so
	install -m 644 lua/lumba/*.lua $(DESTDIR)$(LUA_SHAREDIR)/lumba/
	install -m 644 src/lumba.h $(DESTDIR)$(INCDIR)/lumba.h

uninstall:
	rm -rf $(DESTDIR)$(LUA_LIBDIR)/lumba $(DESTDIR)$(LUA_SHAREDIR)/lumba $(DESTDIR)$(INCDIR)/lumba.h

# ThreadSanitizer on the parallel runtime and its test. archer (libomp's
# OMPT tool) tells TSan about the runtime's own barriers; die_after_fork=0
# lets the fork test's child start its threads.
TSAN_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -O1 -g -fsanitize=thread
tsan:
	@mkdir -p build-tsan
	$(CC) $(TSAN_CFLAGS) -fopenmp -c -o build-tsan/parallel.o src/parallel.c
	$(CC) $(TSAN_CFLAGS) -Isrc -o build-tsan/test_parallel tests/c/test_parallel.c \
	  build-tsan/parallel.o -L$(OMP_LIBDIR) -lomp -lpthread
	OMP_TOOL_LIBRARIES=$(OMP_LIBDIR)/libarcher.so \
	  TSAN_OPTIONS="ignore_noninstrumented_modules=1 die_after_fork=0 exitcode=66" \
	  build-tsan/test_parallel

clean:
	rm -rf build build-asan build-tsan

# The C embedding example: a host linked against core.so (examples/embed/README.md)
.PHONY: embed
EMBED = $(BUILD)/embed/host
embed: $(EMBED)
$(EMBED): examples/embed/host.c src/lumba.h $(MODULE) $(BACKEND)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) $(LUA_INC) -Isrc -o $@ $< \
	  -L$(BUILD)/lumba -l:core.so -Wl,-rpath,'$$ORIGIN/../lumba' -llua5.4 -lm $(EXTRA_LDFLAGS)
test: embed

# ---- fuzzing (tests/fuzz/README.md): libFuzzer targets, clang with ASan+UBSan.
# `make fuzz` builds core.so and backend.so instrumented in build-fuzz/lumba
# and the targets linked to them; `make fuzz-smoke` runs each for
# FUZZ_SECONDS on its corpus (tests/fuzz/corpus/<target>, new finds go to
# build-fuzz/corpus).
FUZZ_CC ?= clang-14
FUZZ_BUILD ?= build-fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 15
# FUZZ_RUNS=N: a fixed number of executions from a fixed seed instead of a
# time budget, so the same inputs run every time (CI: a red build means a
# real regression, not a lucky mutation)
FUZZ_LIMIT = $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS) -seed=1,-max_total_time=$(FUZZ_SECONDS))
FUZZ_ENV = ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
.PHONY: fuzz fuzz-smoke fuzz-lib
fuzz-lib:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" EXTRA_LDFLAGS="$(FUZZ_SAN)" \
	  $(FUZZ_BUILD)/lumba/core.so $(FUZZ_BUILD)/lumba/backend.so $(FUZZ_BUILD)/lumba/nvptx.so \
	  $(FUZZ_BUILD)/lumba-core.a
# a target calls core's internals (parse_source, sha256, objload_load) from
# lumba-core.a, and lumba's Lua API from core.so
$(FUZZ_BUILD)/%: tests/fuzz/%.c tests/fuzz/fuzz.h fuzz-lib
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 $(WARN) $(FUZZ_SAN) -fsanitize=fuzzer $(LUA_INC) -Isrc -o $@ $< \
	  $(FUZZ_BUILD)/lumba-core.a -L$(FUZZ_BUILD)/lumba -l:core.so -Wl,-rpath,'$$ORIGIN/lumba' -llua5.4 -lm
fuzz: $(FUZZ_TARGETS)
fuzz-smoke: fuzz
	@for t in $(FUZZ_TARGETS); do n=$$(basename $$t); mkdir -p $(FUZZ_BUILD)/corpus/$$n; \
	  echo "== $$n ($(FUZZ_SECONDS) s)"; \
	  $(FUZZ_ENV) $$t $(FUZZ_LIMIT) -timeout=20 -rss_limit_mb=4096 -malloc_limit_mb=1048576 \
	    $$(test $$n = fuzz_parse && echo -dict=tests/fuzz/python.dict) \
	    -print_final_stats=1 $(FUZZ_BUILD)/corpus/$$n tests/fuzz/corpus/$$n > $(FUZZ_BUILD)/$$n.log 2>&1; rc=$$?; \
	  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|SUMMARY|fuzz:)|ERROR|Done' $(FUZZ_BUILD)/$$n.log; \
	  test $$rc -eq 0 || { tail -40 $(FUZZ_BUILD)/$$n.log; exit 1; }; done

# ---- soak (tests/soak.lua; not part of busted): many functions and a million
# arrays in one state, then a small round under valgrind: lua_close frees all
SOAK_FUNCS ?= 100000
SOAK_ARRAYS ?= 1000000
# --num-callers=30: the stacks reach the lumba function that dlopened a library,
# which tests/valgrind.supp's libNVVM entry names (the default 12 stop short)
VALGRIND = valgrind --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite --num-callers=30 \
           --suppressions=tests/valgrind.supp
.PHONY: soak valgrind
soak: $(MODULE)
	lua5.4 tests/soak.lua $(SOAK_FUNCS) $(SOAK_ARRAYS)
	$(VALGRIND) lua5.4 tests/soak.lua 40 20000

# ---- embedding under ThreadSanitizer (tests/embed/threads.c): several
# threads with Lua states of their own compile and call at once, close their
# states with everything alive. core.so and backend.so are built with
# -fsanitize=thread in build-tsan-embed/lumba.
.PHONY: tsan-embed tsan-embed-lib embed-threads
tsan-embed-lib:
	$(MAKE) BUILD=build-tsan-embed OPT="-O1 -g" EXTRA_CFLAGS=-fsanitize=thread EXTRA_LDFLAGS=-fsanitize=thread \
	  build-tsan-embed/lumba/core.so build-tsan-embed/lumba/backend.so build-tsan-embed/lumba/nvptx.so
build-tsan-embed/threads: tests/embed/threads.c tsan-embed-lib
	$(CC) $(TSAN_CFLAGS) $(LUA_INC) -Isrc -o $@ $< -Lbuild-tsan-embed/lumba -l:core.so \
	  -Wl,-rpath,'$$ORIGIN/lumba' -llua5.4 -lpthread
tsan-embed: build-tsan-embed/threads
	OMP_TOOL_LIBRARIES=$(OMP_LIBDIR)/libarcher.so \
	  TSAN_OPTIONS="ignore_noninstrumented_modules=1 die_after_fork=0 exitcode=66" \
	  build-tsan-embed/threads 4 3 nofork

# the same program in the plain build, fork included, and a host that loads
# and unloads core.so again and again (tests/embed_threads_spec.lua)
embed-threads: $(BUILD)/threads $(BUILD)/embed/reload $(BUILD)/embed/interrupt
$(BUILD)/embed/interrupt: tests/embed/interrupt.c $(MODULE) $(BACKEND)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) $(LUA_INC) -Isrc -o $@ $< \
	  -L$(BUILD)/lumba -l:core.so -Wl,-rpath,'$$ORIGIN/../lumba' -llua5.4 -lpthread $(EXTRA_LDFLAGS)
$(BUILD)/embed/reload: tests/embed/reload.c $(MODULE) $(BACKEND)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) $(LUA_INC) -o $@ $< -llua5.4 $(EXTRA_LDFLAGS)
$(BUILD)/threads: tests/embed/threads.c $(MODULE) $(BACKEND)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) $(LUA_INC) -Isrc -o $@ $< \
	  -L$(BUILD)/lumba -l:core.so -Wl,-rpath,'$$ORIGIN/lumba' -llua5.4 -lpthread $(EXTRA_LDFLAGS)

# a C host calling @cfunc pointers from two threads (tests/cfunc_spec.lua)
.PHONY: embed-cfunc
embed-cfunc: $(BUILD)/embed/cfunc_host
$(BUILD)/embed/cfunc_host: tests/embed/cfunc_host.c src/lumba.h $(MODULE) $(BACKEND)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) $(LUA_INC) -Isrc -o $@ $< \
	  -L$(BUILD)/lumba -l:core.so -Wl,-rpath,'$$ORIGIN/../lumba' -llua5.4 -lpthread -lm $(EXTRA_LDFLAGS)

# a C host handing Lua arrays of its structs, aligned and packed (tests/record_spec.lua)
.PHONY: embed-records
embed-records: $(BUILD)/embed/records_host
$(BUILD)/embed/records_host: tests/embed/records_host.c src/lumba.h $(MODULE) $(BACKEND)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) $(LUA_INC) -Isrc -o $@ $< \
	  -L$(BUILD)/lumba -l:core.so -Wl,-rpath,'$$ORIGIN/../lumba' -llua5.4 -lm $(EXTRA_LDFLAGS)

# valgrind memcheck of a representative subset of the specs (tests/RELIABILITY.md):
# no errors, no definitely-lost bytes
VALGRIND_SPECS ?= tests/parse_errors_spec.lua tests/ast_spec.lua tests/array_spec.lua \
                  tests/array_errors_spec.lua tests/random_spec.lua tests/prange_spec.lua tests/bad_input_spec.lua
valgrind: $(MODULE)
	$(VALGRIND) lua5.4 $$(command -v busted) $(VALGRIND_SPECS)

# the part CI runs (.ci/run; under 60 s on 2 cores): the parser's errors,
# arrays from Lua and their errors, compile errors, prange loops and compiled
# code removed from the JIT (callees kept while callers live); fails on any
# memcheck error or definitely-lost byte
VALGRIND_CI_SPECS ?= tests/parse_errors_spec.lua tests/array_spec.lua tests/array_errors_spec.lua \
                     tests/errors_spec.lua tests/prange_spec.lua
.PHONY: valgrind-ci
valgrind-ci: $(MODULE) $(BACKEND) $(NVPTX)
	$(VALGRIND) lua5.4 $$(command -v busted) $(VALGRIND_CI_SPECS)
	$(VALGRIND) lua5.4 $$(command -v busted) --filter='stays%swhile' --filter='shared' --filter='compiles%sagain' tests/jit_code_spec.lua
