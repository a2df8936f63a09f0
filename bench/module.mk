# Benchmarks: make bench-bus. Each reports ratios against a raw baseline measured in
# the same run, because the machines are shared and absolute numbers drift.
BENCH_BUS := $(BUILD)/bench/bench_bus

$(BENCH_BUS): $(BUILD)/bench/bench_bus.o $(LIBBUS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-bus
bench-bus: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_BUS)
	$(Q)$(BENCH_BUS)
