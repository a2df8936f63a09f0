# backplane-runner - the kernel runner bind-mounted into every container. It is a
# static binary linked with libc only (no libbus, czmq or zmq), so it does not use the
# SERVICE macro. Its objects are compiled without the sanitizer flags into
# $(BUILD)/runner-static, because -static cannot link ASan/UBSan and the binary must
# run inside images that have no sanitizer runtime; the unit tests link the same
# sources compiled with the normal (sanitized) CFLAGS.
RUNNER_SRCS   := $(filter-out %_test.c,$(wildcard services/runner/*.c)) \
                 services/agent/agent_runner_proto.c
RUNNER_BIN    := $(BUILD)/bin/backplane-runner
RUNNER_SOBJS  := $(RUNNER_SRCS:%.c=$(BUILD)/runner-static/%.o)
RUNNER_OBJS   := $(filter-out $(BUILD)/services/runner/runner_main.o, \
                   $(RUNNER_SRCS:%.c=$(BUILD)/%.o))
RUNNER_CFLAGS  = $(filter-out -fsanitize=% -fno-sanitize-recover=%,$(CFLAGS))
RUNNER_TESTS  := $(patsubst services/runner/%.c,$(BUILD)/test/%, \
                   $(wildcard services/runner/*_test.c))
BINS          += $(RUNNER_BIN)
UNIT_TESTS    += $(RUNNER_TESTS)

$(BUILD)/runner-static/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (static)")
	$(Q)$(CC) $(RUNNER_CFLAGS) -c -o $@ $<

$(RUNNER_BIN): $(RUNNER_SOBJS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -static -o $@ $^

# The tests start $(RUNNER_BIN) (found through BACKPLANE_BINDIR or next to the test).
$(RUNNER_TESTS): $(BUILD)/test/%: $(BUILD)/services/runner/%.o $(RUNNER_OBJS) | $(RUNNER_BIN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
