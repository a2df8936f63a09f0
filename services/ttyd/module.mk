# backplane-ttyd - the web terminal behind the `ttyd` app of every kernel, bound
# read-only next to the runner at /opt/backplane/bin. Like the runner it is a static
# binary linked with libc only, its objects compiled without sanitizer flags into
# $(BUILD)/ttyd-static; the unit test links the same sources with the normal
# (sanitized) CFLAGS.
#
# The page's terminal emulator is xterm.js from npm (services/ttyd/web/package.json,
# pinned by its package-lock.json): `npm ci` installs it once into build/npm-ttyd (one
# place for every BUILD, and npm's cache makes it work offline afterwards), and
# services/ttyd/gen-assets turns it into C arrays in $(BUILD)/ttyd/ttyd_assets.c.
# Without npm, or when npm ci fails, the build goes on with a message and the program
# serves a plain fallback page; `rm -rf build/npm-ttyd` makes the next build try again.
TTYD_SRCS    := $(filter-out %_test.c,$(wildcard services/ttyd/*.c))
TTYD_BIN     := $(BUILD)/bin/backplane-ttyd
TTYD_NPM     := build/npm-ttyd
TTYD_ASSETS  := $(BUILD)/ttyd/ttyd_assets.c
TTYD_SOBJS   := $(TTYD_SRCS:%.c=$(BUILD)/ttyd-static/%.o) $(BUILD)/ttyd-static/ttyd_assets.o
TTYD_OBJS    := $(filter-out $(BUILD)/services/ttyd/ttyd_main.o,$(TTYD_SRCS:%.c=$(BUILD)/%.o)) \
                $(BUILD)/ttyd/ttyd_assets.o
TTYD_TESTS   := $(patsubst services/ttyd/%.c,$(BUILD)/test/%,$(wildcard services/ttyd/*_test.c))
BINS         += $(TTYD_BIN)
UNIT_TESTS   += $(TTYD_TESTS)

$(TTYD_NPM)/stamp: services/ttyd/web/package.json services/ttyd/web/package-lock.json
	@mkdir -p $(TTYD_NPM)
	$(Q)cp services/ttyd/web/package.json services/ttyd/web/package-lock.json $(TTYD_NPM)/
	$(Q)if command -v npm >/dev/null 2>&1 && (cd $(TTYD_NPM) && npm ci --no-audit \
	        --no-fund --ignore-scripts --prefer-offline) >$(TTYD_NPM)/npm.log 2>&1; then \
	    echo "  NPM     xterm.js for backplane-ttyd"; echo xterm > $@; \
	else \
	    echo "  NPM     npm ci failed or no npm (see $(TTYD_NPM)/npm.log):" \
	         "backplane-ttyd gets its plain fallback page; rm -rf $(TTYD_NPM) to retry"; \
	    rm -rf $(TTYD_NPM)/node_modules; echo fallback > $@; \
	fi

$(TTYD_ASSETS): $(TTYD_NPM)/stamp services/ttyd/gen-assets
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)services/ttyd/gen-assets $(TTYD_NPM)/node_modules > $@.tmp && mv $@.tmp $@

$(BUILD)/ttyd-static/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (static)")
	$(Q)$(CC) $(RUNNER_CFLAGS) -Iservices/ttyd -c -o $@ $<

$(BUILD)/ttyd-static/ttyd_assets.o: $(TTYD_ASSETS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (static)")
	$(Q)$(CC) $(RUNNER_CFLAGS) -Iservices/ttyd -c -o $@ $<

$(BUILD)/ttyd/ttyd_assets.o: $(TTYD_ASSETS)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -Iservices/ttyd -c -o $@ $<

$(TTYD_BIN): $(TTYD_SOBJS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -static -o $@ $^

# The test runs the server built with the test's own flags (under make check, ASan and
# UBSan), next to it; the static one in $(BUILD)/bin is what containers get.
$(BUILD)/test/backplane-ttyd: $(BUILD)/services/ttyd/ttyd_main.o $(TTYD_OBJS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(TTYD_TESTS): $(BUILD)/test/%: $(BUILD)/services/ttyd/%.o $(TTYD_OBJS) | $(TTYD_BIN) \
                                $(BUILD)/test/backplane-ttyd
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
