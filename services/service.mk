# The shape every service shares: services/<name>/*.c except main.c and *_test.c form
# lib<name>.a; main.c links it into build/bin/backplane-<name>; each *_test.c becomes
# build/test/<file>. A service's module.mk is one line: $(eval $(call SERVICE,<name>)).
define SERVICE
$(1)_SRCS  := $$(filter-out %_test.c services/$(1)/main.c,$$(wildcard services/$(1)/*.c))
$(1)_LIB   := $(BUILD)/services/lib$(1).a
$(1)_BIN   := $(BUILD)/bin/backplane-$(1)
$(1)_TESTS := $$(patsubst services/$(1)/%.c,$(BUILD)/test/%,$$(wildcard services/$(1)/*_test.c))
BINS       += $$($(1)_BIN)
UNIT_TESTS += $$($(1)_TESTS)

$$($(1)_LIB): $$($(1)_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $$(dir $$@)
	$(Q)$(AR) $(ARFLAGS) $$@ $$^

$$($(1)_BIN): $(BUILD)/services/$(1)/main.o $$($(1)_LIB) $$(LIBBUS)
	@mkdir -p $$(dir $$@)
	@$$(if $(Q),echo "  LD      $$@")
	$(Q)$(CC) $(LDFLAGS) -o $$@ $$^ $(LDLIBS)

$$($(1)_TESTS): $(BUILD)/test/%: $(BUILD)/services/$(1)/%.o $$($(1)_LIB) $$(LIBBUS)
	@mkdir -p $$(dir $$@)
	$(Q)$(CC) $(LDFLAGS) -o $$@ $$^ $(LDLIBS)
endef
