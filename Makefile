# cgtools - one non-recursive Makefile.
#
#   make                 build every tool and plugin into $(BUILD)
#   make check           unit tests (prove) and tool tests (bats)
#   make check-asan      the same, built with ASan+UBSan in build-asan/
#   make check-valgrind  the same, every tool run under valgrind
#   make showcase        build and run the showcase pipeline
#   make bench           run the benchmarks in bench/
#   make fuzz            build and run the libFuzzer targets (FUZZTIME=s)
#   make lint            every man page clean under mandoc -Tlint and groff,
#                        with no glyph outside scripts/lint-man's allow-list,
#                        and every option of a tool's --help in its page
#   make install         PREFIX=/usr/local DESTDIR= (tools, plugins, headers,
#                        man pages, cgtools.pc for pkg-config); a PREFIX or
#                        PLUGINDIR other than the last build's rebuilds what
#                        names the plugin directory first
#   make uninstall       the same variables: what install put, and the
#                        directories it left empty under PREFIX
#   make HOT_CFLAGS=     the Domineering plugin at CFLAGS too (else -O3)
#
# Sources are discovered: libcore/*/*.c make libcore.a, tools/cg-*.c one tool
# each, plugins/NAME.c or plugins/NAME/*.c one NAME.so each, plugins/cgr/
# NAME.cgr a rules file each (read by rules.so, installed beside the
# plugins), tests/unit/test_*.c one TAP test program each.

VERSION   = 0.1.0
BUILD    ?= build
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
LIBDIR   ?= $(PREFIX)/lib
PLUGINDIR ?= $(LIBDIR)/cg/plugins
INCDIR   ?= $(PREFIX)/include
MANDIR   ?= $(PREFIX)/share/man

# (undefined in sub-makes, which inherit -R from MAKEFLAGS)
ifneq ($(filter default undefined,$(origin CC)),)
CC        = gcc
endif
CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-unused-parameter
ALLCFLAGS = -std=c17 $(WARN) $(CFLAGS) $(EXTRA_CFLAGS)
CPPFLAGS += -D_GNU_SOURCE -DCG_VERSION='"$(VERSION)"'
# libcore, tools and tests see libcore's headers; plugins see include/ (the
# ABI) and the helpers in plugins/lib/ only (#include "grid.h"), so a
# reach into libcore or into another plugin fails to compile.  A plugin
# kept in a folder also sees that folder (below), and no other does.
HOST_INC   = -Iinclude -Ilibcore
PLUGIN_INC = -Iinclude -Iplugins/lib
LDLIBS   += -lz -ldl -lm -lgmp -pthread
PLUGIN_CFLAGS  = -fPIC -fvisibility=hidden
PLUGIN_LDFLAGS = -shared -Wl,-z,defs

MAKEFLAGS += -rR
.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:
ifeq ($(V),1)
Q =
else
Q = @
endif

LIB_SRC    := $(sort $(wildcard libcore/*/*.c))
TOOL_SRC   := $(sort $(wildcard tools/cg-*.c))
PLUG_SINGLE := $(sort $(wildcard plugins/*.c))
PLUG_DIRS  := $(sort $(patsubst %/,%,$(dir $(wildcard plugins/*/*.c))))
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
RULES_SRC  := $(sort $(wildcard plugins/cgr/*.cgr))
BENCH_SRC  := $(sort $(wildcard bench/*.c))

LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
TOOLS      := $(TOOL_SRC:tools/%.c=$(BUILD)/bin/%)
PLUGINS    := $(PLUG_SINGLE:plugins/%.c=$(BUILD)/plugins/%.so) \
              $(PLUG_DIRS:plugins/%=$(BUILD)/plugins/%.so)
UNITS      := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
RULES      := $(RULES_SRC:plugins/cgr/%=$(BUILD)/plugins/%)
BENCHES    := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%-bench)
MANPAGES   := $(sort $(wildcard man/man*/*.[1-9]))
DEPS_STAMP := $(BUILD)/.deps-installed
DIRS_STAMP := $(BUILD)/.dirs

all: $(TOOLS) $(PLUGINS) $(RULES) $(UNITS)

# Debian packages the build and tests need, installed when missing.
$(DEPS_STAMP): scripts/install-deps
	$(Q)mkdir -p $(BUILD)
	$(Q)sh scripts/install-deps
	$(Q)touch $@
deps: $(DEPS_STAMP)

# The directory compiled into the programs (the last place they look for
# plugins; libcore/host/plugin.c alone names it): a stamp holding it,
# rewritten only when it changes, so `make install PREFIX=...` after a
# plain `make` rebuilds what depends on it, and nothing else.
DIRS_TEXT := plugindir=$(PLUGINDIR)
$(DIRS_STAMP): FORCE
	@mkdir -p $(dir $@)
	$(Q)printf '%s\n' '$(DIRS_TEXT)' | cmp -s - $@ 2>/dev/null || \
	    printf '%s\n' '$(DIRS_TEXT)' > $@
$(BUILD)/obj/libcore/host/plugin.o: CPPFLAGS += -DCG_PLUGINDIR='"$(PLUGINDIR)"'
$(BUILD)/obj/libcore/host/plugin.o: $(DIRS_STAMP)
FORCE:

$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(HOST_INC) $(ALLCFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/pobj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(PLUGIN_INC) $(ALLCFLAGS) $(PLUGIN_CFLAGS) -MMD -MP -c -o $@ $<

# -O3 for the Domineering plugin alone: its bit-search hooks (counts over
# a board's bit lines, short loops of known length run at every
# position) are most of a deep search's time, and GCC runs them faster
# at -O3; libcore's search loop gains nothing from -O3 and keeps CFLAGS.
# bench/domineering-deep shows the difference.  HOT_CFLAGS= builds the
# plugin as the rest (for a debugger).
HOT_CFLAGS ?= -O3
$(BUILD)/pobj/plugins/domineering/%.o: ALLCFLAGS += $(HOT_CFLAGS)

$(BUILD)/libcore.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $(BUILD)/libcore.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALLCFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libcore.a $(LDLIBS)

# test_domreserve checks the Domineering plugin's own arithmetic: the one
# test that includes a plugin's internals (dom.h, which includes the
# plugins' grid.h), so the one that sees those folders.
$(BUILD)/obj/tests/unit/test_domreserve.o: \
    HOST_INC += -Iplugins/domineering -Iplugins/lib

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(BUILD)/libcore.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALLCFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libcore.a $(LDLIBS)

$(BUILD)/bench/%-bench: $(BUILD)/obj/bench/%.o $(BUILD)/libcore.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALLCFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libcore.a $(LDLIBS)

$(BUILD)/plugins/%.so: $(BUILD)/pobj/plugins/%.o
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALLCFLAGS) $(PLUGIN_CFLAGS) $(PLUGIN_LDFLAGS) -o $@ $^ -lm

# Rules files sit beside the plugins, where the uninstalled tools look.
$(BUILD)/plugins/%.cgr: plugins/cgr/%.cgr
	@mkdir -p $(dir $@)
	$(Q)cp $< $@

# A plugin kept in a directory: every .c in plugins/NAME/ links into NAME.so,
# and sees the headers of plugins/NAME/ (its own only).
define plugin_dir_rule
$(BUILD)/pobj/$(1)/%.o: PLUGIN_INC += -I$(1)
$(BUILD)/fuzz/obj/$(1)/%.o: PLUGIN_INC += -I$(1)
$(BUILD)/plugins/$(notdir $(1)).so: $(patsubst %.c,$(BUILD)/pobj/%.o,$(wildcard $(1)/*.c))
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CC) $$(ALLCFLAGS) $$(PLUGIN_CFLAGS) $$(PLUGIN_LDFLAGS) -o $$@ $$^ -lm
endef
$(foreach d,$(PLUG_DIRS),$(eval $(call plugin_dir_rule,$(d))))

# Fuzz targets built for replay (no libFuzzer): tests/fuzz/replay.c runs
# a target over its seed corpus in make check.  pos_NAME is
# tests/fuzz/fuzz_position.c with ruleset NAME compiled in.
FUZZ_LIB   := doc kbfile spr ckpt lgame
PLUG_NAMES := $(PLUG_SINGLE:plugins/%.c=%) $(PLUG_DIRS:plugins/%=%)
REPLAYS    := $(FUZZ_LIB:%=$(BUILD)/fuzz/replay_%) \
              $(PLUG_NAMES:%=$(BUILD)/fuzz/replay_pos_%) \
              $(BUILD)/fuzz/replay_rules

$(BUILD)/fuzz/replay_%: $(BUILD)/obj/tests/fuzz/fuzz_%.o \
    $(BUILD)/obj/tests/fuzz/replay.o $(BUILD)/libcore.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALLCFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(BUILD)/libcore.a $(LDLIBS)

$(BUILD)/fuzz/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(PLUGIN_INC) -DCG_STATIC_PLUGIN $(ALLCFLAGS) -MMD -MP -c -o $@ $<

# the rules interpreter is no ruleset: its target reads rules files
# (tests/fuzz/fuzz_rules.c, with plugins/rules/ compiled in)
$(BUILD)/fuzz/obj/fuzz_rules.o: tests/fuzz/fuzz_rules.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CPPFLAGS) $(HOST_INC) -DCG_STATIC_PLUGIN $(ALLCFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/fuzz/replay_rules: $(BUILD)/fuzz/obj/fuzz_rules.o \
    $(BUILD)/obj/tests/fuzz/replay.o \
    $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(wildcard plugins/rules/*.c)) \
    $(BUILD)/libcore.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALLCFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(BUILD)/libcore.a $(LDLIBS)

define replay_pos_rule
$(BUILD)/fuzz/obj/pos_$(1).o: tests/fuzz/fuzz_position.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  CC      $$@")
	$$(Q)$$(CC) $$(CPPFLAGS) $$(HOST_INC) -DCG_STATIC_PLUGIN \
	    -DFUZZ_ENTRY=cg_ruleset_entry_$(1) $$(ALLCFLAGS) -MMD -MP -c -o $$@ $$<
$(BUILD)/fuzz/replay_pos_$(1): $(BUILD)/fuzz/obj/pos_$(1).o \
    $(BUILD)/obj/tests/fuzz/replay.o \
    $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(wildcard plugins/$(1).c plugins/$(1)/*.c)) \
    $(BUILD)/libcore.a
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CC) $$(ALLCFLAGS) $$(LDFLAGS) -o $$@ $$(filter %.o,$$^) $$(BUILD)/libcore.a $$(LDLIBS)
endef
$(foreach p,$(PLUG_NAMES),$(eval $(call replay_pos_rule,$(p))))

-include $(shell find $(BUILD)/obj $(BUILD)/pobj $(BUILD)/fuzz -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- tests

# bats files run side by side, one per core (the tests of one file in
# order: they share its setup)
BATS_JOBS ?= --jobs $(shell nproc 2>/dev/null || echo 1) --no-parallelize-within-files

check: all $(REPLAYS)
	@echo "== unit tests"
	$(Q)prove -e '$(CG_WRAP)' $(UNITS)
	@echo "== fuzz corpus replayed through every fuzz target"
	$(Q)CG_WRAP='$(CG_WRAP)' sh tests/fuzz/replay $(BUILD)
	@echo "== tool tests"
	$(Q)CG_BUILD=$(abspath $(BUILD)) CG_WRAP='$(CG_WRAP)' bats $(BATS_JOBS) tests/cli
	$(Q)$(MAKE) --no-print-directory lint

test: check

# the sanitizer build's directory (per developer: ASAN_BUILD=build-me-asan)
ASAN_BUILD ?= build-asan
check-asan:
	$(Q)CG_SANITIZED=1 $(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) \
	    EXTRA_CFLAGS='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer' \
	    LDFLAGS='-fsanitize=address,undefined' check

check-valgrind: all
	$(Q)CG_SANITIZED=1 $(MAKE) --no-print-directory \
	    CG_WRAP='valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --keep-debuginfo=yes' check

# lint-help runs the tools' --help: they are built first
lint: $(DEPS_STAMP) $(TOOLS)
	$(Q)sh scripts/lint-man $(MANPAGES)
	$(Q)perl scripts/lint-help $(BUILD)/bin man
	$(Q)sh scripts/lint-layers

showcase: all
	$(Q)sh scripts/showcase $(BUILD)

bench: all $(BENCHES)
	$(Q)for b in bench/*; do [ -x "$$b" ] && CG_BUILD=$(abspath $(BUILD)) "$$b"; done; true

FUZZTIME ?= 60
fuzz: $(DEPS_STAMP)
	$(Q)sh tests/fuzz/run $(FUZZTIME)

# ---------------------------------------------------------------- install

# cgtools.pc: what an out-of-tree ruleset needs (the ABI headers: Cflags)
# and where installed tools look for rulesets (the plugindir variable).
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(INCDIR)/cg \
	    $(DESTDIR)$(PKGCONFIGDIR)
	install -m 0755 $(TOOLS) $(DESTDIR)$(BINDIR)
	install -m 0755 $(PLUGINS) $(DESTDIR)$(PLUGINDIR)
	install -m 0644 $(RULES) $(DESTDIR)$(PLUGINDIR)
	install -m 0644 include/cg/*.h $(DESTDIR)$(INCDIR)/cg
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$(INCDIR)' \
	    'plugindir=$(PLUGINDIR)' '' 'Name: cgtools' \
	    'Description: combinatorial game theory tools: the ruleset plugin ABI' \
	    'Version: $(VERSION)' 'Cflags: -I$${includedir}' \
	    > $(DESTDIR)$(PKGCONFIGDIR)/cgtools.pc
	for m in $(MANPAGES); do s=$${m##*.}; \
	    install -d $(DESTDIR)$(MANDIR)/man$$s; \
	    sed 's/@VERSION@/$(VERSION)/' $$m > $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done

# Everything install puts, then the directories it made that are left
# empty: each one, and its parents up to (not including) the prefix;
# the plugin directory, cgtools' own, wherever it is.
INST_MAN  := $(foreach m,$(MANPAGES),$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m)))
INST_DIRS := $(PLUGINDIR) $(INCDIR)/cg $(PKGCONFIGDIR) $(BINDIR) \
             $(sort $(dir $(INST_MAN)))
uninstall:
	rm -f $(TOOLS:$(BUILD)/bin/%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(PLUGINS:$(BUILD)/plugins/%=$(DESTDIR)$(PLUGINDIR)/%)
	rm -f $(RULES:$(BUILD)/plugins/%=$(DESTDIR)$(PLUGINDIR)/%)
	rm -f $(patsubst include/%,$(DESTDIR)$(INCDIR)/%,$(wildcard include/cg/*.h))
	rm -f $(INST_MAN:%=$(DESTDIR)%)
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/cgtools.pc
	@rmdir '$(DESTDIR)$(PLUGINDIR)' 2>/dev/null; \
	for d in $(patsubst %/,%,$(INST_DIRS:%=$(DESTDIR)%)); do \
	    while case $$d in '$(DESTDIR)$(PREFIX)'/*) true ;; *) false ;; esac && \
	        { [ ! -d "$$d" ] || rmdir "$$d" 2>/dev/null; }; do d=$${d%/*}; done; \
	done; true

clean:
	rm -rf $(BUILD) build-asan build-fuzz

.PHONY: all deps check test check-asan check-valgrind lint showcase bench fuzz install uninstall clean FORCE
