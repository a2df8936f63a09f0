# Backplane - one non-recursive Makefile. Each directory adds its sources in a
# module.mk fragment; objects land in $(BUILD) with -MMD dependency files.
#
#   make              libbus.a, the six service binaries and the web UI (webui/)
#   make check        deps, sanitizer build, unit + integration tests, fuzz corpus,
#                     proto drift; ends with "N passed, N failed, N skipped"
#   make run          deps, build, start every service and one agent on loopback
#                     (RUN_IMAGES=busybox: only the image that needs no download)
#   make bench-bus    bus throughput against raw libzmq
#   make bench-gateway  signed against unsigned requests on one gateway
#   make bench-session  session create-to-RUNNING latency against bare runc, RSS
#   make bench-serving  a model service endpoint on the wsproxy against its replicas
#   make fuzz         libFuzzer binaries (clang) in build/fuzz
#   make proto        regenerate libbus/proto_*.[ch] from proto/*.yaml (dev tool)
#   make testbed      the platform on five hosts made of network namespaces (root);
#                     make testbed-down stops it (deploy/testbed)
#   make install      PREFIX, DESTDIR, BINDIR, SYSCONFDIR honoured
#   make config       rewrite config/*.yaml from the option tables; make format(-check)

include config.mk

ifeq ($(SANITIZE),)
BUILD      ?= build
else
BUILD      ?= build/san
endif

MSGPACK := $(shell pkg-config --exists msgpack-c 2>/dev/null && echo msgpack-c || echo msgpack)
PKGS    := libczmq libzmq libevent libevent_openssl libevent_pthreads yaml-0.1 sqlite3 \
           libssl libcrypto jansson zlib $(MSGPACK)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN    := -Wall -Wextra -Werror -Wformat=2 -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-format-nonliteral
OPT     := $(if $(DEBUG),-O0,-O2)
CFLAGS  ?=
CFLAGS  += -std=c11 -D_GNU_SOURCE -g $(OPT) $(WARN) -MMD -MP -Ilibbus -Itest $(PKG_CFLAGS)
LDFLAGS ?=
LDLIBS  += $(PKG_LIBS) -lpthread -lm
ARFLAGS := rcs

ifneq ($(SANITIZE),)
CFLAGS  += -O1 -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

BINS        :=
UNIT_TESTS  :=
INT_TESTS   :=
ALL_OBJS    :=

.PHONY: all
all: libbus services webui

include libbus/module.mk
include services/service.mk
include $(sort $(wildcard services/*/module.mk))
include test/module.mk
include bench/module.mk
include deploy/images/module.mk
include webui/module.mk

.PHONY: services
services: $(BINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

# ---- checks -----------------------------------------------------------------------
# make check: the whole suite under ASan+UBSan, as CI runs it.
.PHONY: check check-run deps
deps:
	$(Q)deploy/install-deps

check: deps
	$(Q)$(MAKE) --no-print-directory SANITIZE=address,undefined check-run

check-run: $(BINS) webui $(UNIT_TESTS) $(INT_TESTS) $(FUZZ_REPLAY) $(GPU_PROBE) $(FAKE_LIBCUDA) $(FAKE_NVML)
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    LSAN_OPTIONS=suppressions=$(CURDIR)/test/lsan.supp \
	    BACKPLANE_BINDIR=$(BUILD)/bin BACKPLANE_SANITIZE=$(SANITIZE) \
	    test/run-tests $(BUILD)/test-logs \
	    $(UNIT_TESTS) $(INT_TESTS) $(FUZZ_REPLAY) \
	    test/proto-drift test/config-drift test/format-check test/openapi-check \
	    test/image-check

# ---- proto ------------------------------------------------------------------------
.PHONY: proto
proto:
	$(Q)$(PYTHON) proto/gen.py --out libbus --fuzz-corpus test/fuzz/corpus

# ---- config: config/<service>.yaml from each binary's option table ---------------
.PHONY: config
config: $(BINS)
	$(Q)for b in $(filter-out %/backplane-runner %/backplane-ttyd,$(BINS)); do s=$${b##*/backplane-}; $$b --print-config > config/$$s.yaml; done

# ---- format -----------------------------------------------------------------------
FORMAT_SRCS = $(filter-out libbus/proto_% libbus/proto.c libbus/proto.h, \
    $(wildcard libbus/*.[ch] services/*/*.[ch] test/*.[ch] test/*/*.[ch] bench/*.[ch]))
.PHONY: format format-check
format:
	$(Q)clang-format -i $(FORMAT_SRCS)
format-check:
	$(Q)test/format-check

# ---- run --------------------------------------------------------------------------
# RUN_IMAGES: the images `make run` builds first (fresh_start_test runs it with busybox
# alone: the Debian ones need the archive).
RUN_IMAGES ?= busybox python
.PHONY: run
run: deps
	$(Q)$(MAKE) --no-print-directory all $(addprefix image-,$(RUN_IMAGES))
	$(Q)deploy/run-local $(BUILD)/bin

# ---- testbed ----------------------------------------------------------------------
# make testbed: the platform on five hosts (network namespaces) of this machine, from an
# installed layout in $(TESTBED_DIR)/root (deploy/testbed says how); make testbed-down
# stops it and leaves nothing behind but the state.
TESTBED_DIR ?= $(BUILD)/testbed
.PHONY: testbed testbed-down
testbed: deps
	$(Q)$(MAKE) --no-print-directory all $(addprefix image-,$(RUN_IMAGES))
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(abspath $(TESTBED_DIR))/root \
	    PREFIX=/usr SYSCONFDIR=/etc >/dev/null
	$(Q)deploy/testbed up $(TESTBED_DIR)
testbed-down:
	$(Q)deploy/testbed down $(TESTBED_DIR)

# ---- install ----------------------------------------------------------------------
.PHONY: install uninstall
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSCONFDIR)/backplane $(DESTDIR)$(UNITDIR)
	install -m 0755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 0644 config/*.yaml $(DESTDIR)$(SYSCONFDIR)/backplane
	if [ -f $(WEBUI_OUT)/index.html ]; then \
	    install -d $(DESTDIR)$(PREFIX)/share/backplane && \
	    rm -rf $(DESTDIR)$(PREFIX)/share/backplane/webui && \
	    cp -R $(WEBUI_OUT) $(DESTDIR)$(PREFIX)/share/backplane/webui; fi
	for u in deploy/systemd/*.service; do \
	    sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' $$u \
	        > $(DESTDIR)$(UNITDIR)/$$(basename $$u); done
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(BINS)))
	rm -f $(addprefix $(DESTDIR)$(UNITDIR)/,$(notdir $(wildcard deploy/systemd/*.service)))
	rm -rf $(DESTDIR)$(SYSCONFDIR)/backplane $(DESTDIR)$(PREFIX)/share/backplane

.PHONY: clean help
clean:
	rm -rf build

help:
	@sed -n '1,/^$$/{/^#/p}' Makefile | sed 's/^# \{0,1\}//'

# The dependency files of every object this tree builds, named from the sources rather
# than searched for: $(BUILD) also holds the state of `make run` (build/run), where the
# agent unpacks images whose trees have directories such as etc/rc2.d.
DEP_FILES := $(patsubst %.c,$(BUILD)/%.d,$(wildcard libbus/*.c services/*/*.c \
                 test/*/*.c bench/*.c)) \
             $(RUNNER_SOBJS:.o=.d) $(TTYD_SOBJS:.o=.d) $(HARNESS:.o=.d)
-include $(DEP_FILES)
