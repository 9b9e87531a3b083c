# lumba — build, test, bench, install.
# Overridable: LUA_INC (Lua 5.4 headers), LLVM_CONFIG, PREFIX, CC, BUSTED.

LUA_INC ?= $(shell pkg-config --cflags-only-I lua5.4 2>/dev/null || echo -I/usr/include/lua5.4)
LLVM_CONFIG ?= $(shell command -v llvm-config-14 || command -v llvm-config)
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
LLVM_LIBS := $(shell $(LLVM_CONFIG) --ldflags 2>/dev/null) $(shell $(LLVM_CONFIG) --libs 2>/dev/null)
OPT ?= -O2 -g
CFLAGS ?= $(OPT)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -fPIC $(WARN) $(CFLAGS) \
             $(LUA_INC) $(LLVM_CFLAGS) $(EXTRA_CFLAGS)
LDLIBS = $(LLVM_LIBS) -lomp -lpthread -ldl -lm
CORE_LIBS = -lpthread -ldl -lm
# LLVM's OpenMP runtime (libomp, package libomp-14-dev) runs prange loops:
# gcc compiles parallel.c with -fopenmp, libomp provides the GOMP entry points
# (never libgomp: it hangs in a forked child; see src/parallel.c)
OMP_LIBDIR := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)

BUILD ?= build
SRCS := $(wildcard src/*.c)
OBJS := $(SRCS:src/%.c=$(BUILD)/obj/%.o)
# Two shared objects: core.so loads fast at require; backend.so holds what
# needs LLVM or libomp and is opened at the first compilation (src/backend.h).
BACKEND_SRCS := $(wildcard src/infer*.c src/lower*.c src/target_*.c) src/compile.c src/resolve.c \
  src/jit_cpu.c src/parallel.c src/cache.c src/sha256.c src/nvvm_llvm.c src/backend.c src/dispatch_calls.c src/fastmath.c \
  src/simrun.c src/cudasim.c
BACKEND_OBJS := $(BACKEND_SRCS:src/%.c=$(BUILD)/obj/%.o)
CORE_OBJS := $(filter-out $(BACKEND_OBJS),$(OBJS))
MODULE = $(BUILD)/lumba/core.so
BACKEND = $(BUILD)/lumba/backend.so

.PHONY: all test check-c example install uninstall asan tsan clean bench bench-gpu
all: $(MODULE) $(BACKEND)

$(BUILD)/obj/%.o: src/%.c $(wildcard src/*.h src/*.def)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/obj/parallel.o: ALL_CFLAGS += -fopenmp

# core.so exports its internal API to backend.so (which links against it);
# backend.so exports only its table (lumba_backend_table)
$(MODULE): $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,core.so $(EXTRA_LDFLAGS) -o $@ $(CORE_OBJS) $(CORE_LIBS)

$(BACKEND): $(BACKEND_OBJS) $(MODULE) src/backend.map
	$(CC) -shared -Wl,--version-script=src/backend.map $(EXTRA_LDFLAGS) -o $@ $(BACKEND_OBJS) \
	  -L$(BUILD)/lumba -l:core.so $(LDLIBS)

# C unit tests: the parts that need no Lua state
CTESTS := $(patsubst tests/c/%.c,$(BUILD)/ctest/%,$(wildcard tests/c/test_*.c))
$(BUILD)/ctest/%: tests/c/%.c $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(filter-out $(BUILD)/obj/module.o,$(OBJS)) \
	  $(EXTRA_LDFLAGS) $(LDLIBS) -llua5.4

check-c: $(CTESTS)
	@for t in $(CTESTS); do $$t || exit 1; done

test: $(MODULE) $(BACKEND) check-c
	$(BUSTED) --exclude-tags=gpu

example: $(MODULE) $(BACKEND)
	lua5.4 examples/ising.lua

# ASan+UBSan build of the module, then the busted suite with the runtime preloaded
ASAN_LIB = $(shell $(CC) -print-file-name=libasan.so)
UBSAN_LIB = $(shell $(CC) -print-file-name=libubsan.so)
asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" build-asan/lumba/core.so build-asan/lumba/backend.so
	LD_PRELOAD="$(ASAN_LIB) $(UBSAN_LIB)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
	  LUMBA_CPATH=build-asan $(BUSTED) --exclude-tags=gpu,noasan

bench: $(MODULE) $(BACKEND)
	lua5.4 bench/run.lua

# on a machine with an NVIDIA GPU and nvcc: lumba vs CUDA C vs numba-cuda
bench-gpu: $(MODULE) $(BACKEND)
	lua5.4 bench/run_gpu.lua

install: $(MODULE) $(BACKEND)
	install -d $(DESTDIR)$(LUA_LIBDIR)/lumba $(DESTDIR)$(LUA_SHAREDIR)/lumba $(DESTDIR)$(INCDIR)
	install -m 755 $(MODULE) $(DESTDIR)$(LUA_LIBDIR)/lumba/core.so
	install -m 755 $(BACKEND) $(DESTDIR)$(LUA_LIBDIR)/lumba/backend.so
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
