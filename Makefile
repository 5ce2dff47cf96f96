# fg - flame graphs in C. See README.md; "make help" lists the targets.

VERSION   := $(shell sed -n 's/^\#define FG_VERSION "\(.*\)"/\1/p' include/folded.h)
SOVERSION := 0

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CSTD    := -std=c11 -D_GNU_SOURCE
PREFIX  ?= /usr/local
DESTDIR ?=
B       ?= build

# zlib is optional: detected with pkg-config or a test link; ZLIB=0 turns it off.
ZLIB ?= $(shell (pkg-config --exists zlib 2>/dev/null || \
	printf '#include <zlib.h>\nint main(void){return zlibVersion()==0;}\n' | \
	$(CC) -x c - -lz -o /dev/null 2>/dev/null) && echo 1 || echo 0)
ifeq ($(ZLIB),1)
ZLIB_CFLAGS := -DFG_HAVE_ZLIB
ZLIB_LIBS   := -lz
endif

ALL_CFLAGS := $(CSTD) $(WARN) -Iinclude -Isrc/lib $(ZLIB_CFLAGS) $(CFLAGS)
LIBS       := $(ZLIB_LIBS) -lpthread -lm

LIB_SRC   := $(sort $(wildcard src/lib/*.c))
LIB_OBJ   := $(LIB_SRC:src/lib/%.c=$(B)/lib/%.o) $(B)/lib/viewer_assets.o
PIC_OBJ   := $(LIB_OBJ:$(B)/lib/%.o=$(B)/pic/%.o)
CLI_OBJ   := $(B)/prog/cli.o
PROGRAMS  := $(patsubst src/prog/%.c,$(B)/%,$(sort $(wildcard src/prog/fg-*.c)))
# The viewer's script: one file per job, joined in this order (state.js opens
# the closure that main.js closes; see the top of state.js).
VIEWER_JS := src/viewer/state.js src/viewer/draw.js src/viewer/search.js src/viewer/data.js \
	     src/viewer/views.js src/viewer/table.js src/viewer/main.js
VIEWER    := src/viewer/viewer.css $(VIEWER_JS)

.PHONY: all clean check check-asan bench fuzz install uninstall help example
all: $(B)/libfolded.a $(B)/libfolded.so $(PROGRAMS)

# Objects made by pattern rules are kept: make would otherwise delete them
# as intermediates after the last command, and print that after the tests.
.SECONDARY:

# The README's picture links to examples/example-perf.svg, drawn by
# examples/example-perf.sh; `make check` fails when the committed file is
# not what the current viewer and layout draw. `make example` redraws it,
# and docs/example.png where Chromium is installed.
example: $(B)/fg-collapse-perf $(B)/fg-render
	examples/example-perf.sh $(B)
	if [ -x /usr/bin/chromium ]; then \
		h=$$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' examples/example-perf.svg); \
		chromium --headless --no-sandbox --hide-scrollbars --window-size=1200,$$h \
			--screenshot=$(CURDIR)/docs/example.png file://$(CURDIR)/examples/example-perf.svg 2>/dev/null; \
	fi

help:
	@echo "make            build the library and programs into $(B)/"
	@echo "make check      run the test suite"
	@echo "make example    redraw examples/example-perf.svg (and docs/example.png) after a viewer change"
	@echo "make check-asan run the test suite under ASan+UBSan"
	@echo "make bench      run the benchmarks (bench/)"
	@echo "make fuzz       run the libFuzzer harnesses for a bounded time"
	@echo "make install    install into \$$(DESTDIR)\$$(PREFIX) ($(PREFIX))"
	@echo "make uninstall  remove what make install installed (same PREFIX, DESTDIR)"
	@echo "make check-extra  no-zlib build, staged install + pkg-config demo, man lint, valgrind, allocation failures"

$(B)/lib $(B)/pic $(B)/prog $(B)/tools:
	mkdir -p $@

$(B)/lib/%.o: src/lib/%.c include/folded.h src/lib/*.h | $(B)/lib
	$(CC) $(ALL_CFLAGS) -c $< -o $@
$(B)/pic/%.o: src/lib/%.c include/folded.h src/lib/*.h | $(B)/pic
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@
$(B)/lib/viewer_assets.o: $(B)/lib/viewer_assets.c | $(B)/lib
	$(CC) $(ALL_CFLAGS) -c $< -o $@
$(B)/pic/viewer_assets.o: $(B)/lib/viewer_assets.c | $(B)/pic
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

# The viewer's JavaScript and CSS are real files, embedded at build time.
$(B)/tools/embed: src/tools/embed.c | $(B)/tools
	$(CC) $(CSTD) $(WARN) -O2 $< -o $@
$(B)/lib/viewer_assets.c: $(B)/tools/embed $(VIEWER) | $(B)/lib
	$(B)/tools/embed -n fg_viewer_css src/viewer/viewer.css -n fg_viewer_js $(VIEWER_JS) > $@.tmp && mv $@.tmp $@

$(B)/libfolded.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^
$(B)/libfolded.so.$(VERSION): $(PIC_OBJ)
	$(CC) -shared -Wl,-soname,libfolded.so.$(SOVERSION) $(LDFLAGS) $^ -o $@ $(LIBS)
$(B)/libfolded.so: $(B)/libfolded.so.$(VERSION)
	ln -sf libfolded.so.$(VERSION) $@
	ln -sf libfolded.so.$(VERSION) $(B)/libfolded.so.$(SOVERSION)

$(B)/prog/%.o: src/prog/%.c include/folded.h src/prog/cli.h | $(B)/prog
	$(CC) $(ALL_CFLAGS) -Isrc/prog -c $< -o $@
$(B)/fg-%: $(B)/prog/fg-%.o $(CLI_OBJ) $(B)/libfolded.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $< $(CLI_OBJ) $(B)/libfolded.a -o $@ $(LIBS)

check: all
	FG_BUILD=$(B) tests/run.sh

check-asan:
	$(MAKE) B=build-asan CC=clang CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" LDFLAGS="-fsanitize=address,undefined" all
	FG_BUILD=build-asan CC=clang FG_TEST_CFLAGS="-O1 -fsanitize=address,undefined -fno-sanitize-recover=all" \
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 tests/run.sh

bench: all
	bench/run.sh $(B)

# libFuzzer harnesses (tests/fuzz/fuzz_*.c) against a library built with
# the sanitizers; FUZZ_SECONDS each (CI runs them briefly).
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZERS      := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
.PHONY: fuzz-lib
fuzz-lib:
	$(MAKE) B=build-fuzz/lib CC=clang CFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" build-fuzz/lib/libfolded.a
# The checker is not what is fuzzed: built without coverage, it runs fast.
build-fuzz/xmlcheck.o: tests/fuzz/xmlcheck.c tests/fuzz/xmlcheck.h
	mkdir -p build-fuzz && clang $(CSTD) -O2 -c $< -o $@
build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/xmlcheck.o fuzz-lib
	clang $(CSTD) $(FUZZ_FLAGS) -fsanitize=fuzzer -Iinclude -Isrc/lib -Itests/fuzz $(ZLIB_CFLAGS) \
		$< build-fuzz/xmlcheck.o build-fuzz/lib/libfolded.a -o $@ $(LIBS)
fuzz: $(FUZZERS)
	tests/fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf build build-asan build-nozlib build-fuzz

# ---------------------------------------------------------------------------
# Install, uninstall, check-extra (issue 6). Directories may be overridden
# one by one (LIBDIR=/usr/lib/x86_64-linux-gnu); DESTDIR stages the files.
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
MANDIR       ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL      ?= install
MAN1         := $(sort $(wildcard man/*.1))
MAN3         := $(sort $(wildcard man/*.3))

# The .pc file names the installed directories and what a static link needs.
$(B)/libfolded.pc: libfolded.pc.in Makefile FORCE | $(B)/lib
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|g' \
	    -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|g' \
	    -e 's|@LIBS_PRIVATE@|$(strip $(LIBS))|g' libfolded.pc.in > $@.tmp && mv $@.tmp $@

install: all $(B)/libfolded.pc
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	$(INSTALL) -m 755 $(PROGRAMS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(B)/libfolded.a $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 755 $(B)/libfolded.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libfolded.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfolded.so.$(SOVERSION)
	ln -sf libfolded.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfolded.so
	$(INSTALL) -m 644 $(B)/libfolded.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 644 include/folded.h $(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL) -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(if $(MAN3),$(INSTALL) -m 644 $(MAN3) $(DESTDIR)$(MANDIR)/man3/)

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(PROGRAMS)))
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,libfolded.a libfolded.so libfolded.so.$(SOVERSION) libfolded.so.$(VERSION))
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/libfolded.pc $(DESTDIR)$(INCLUDEDIR)/folded.h
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) $(addprefix $(DESTDIR)$(MANDIR)/man3/,$(notdir $(MAN3)))

# No-zlib build and its tests, staged install + pkg-config example, mandoc
# lint, valgrind: see tests/extra.sh.
check-extra: all
	FG_BUILD=$(B) MAKE="$(MAKE)" tests/extra.sh

.PHONY: check-extra FORCE
FORCE:
