# libbus - the static library every service links: bus, codecs, config, state, logging.
LIBBUS_SRCS := $(filter-out %_test.c,$(wildcard libbus/*.c))
LIBBUS_OBJS := $(LIBBUS_SRCS:%.c=$(BUILD)/%.o)
LIBBUS      := $(BUILD)/libbus.a

.PHONY: libbus
libbus: $(LIBBUS)

$(LIBBUS): $(LIBBUS_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)$(AR) $(ARFLAGS) $@ $^

LIBBUS_TESTS := $(patsubst libbus/%.c,$(BUILD)/test/%,$(wildcard libbus/*_test.c))
UNIT_TESTS   += $(LIBBUS_TESTS)

$(LIBBUS_TESTS): $(BUILD)/test/%: $(BUILD)/libbus/%.o $(LIBBUS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
