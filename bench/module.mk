# Benchmarks: make bench-bus, make bench-gateway. Each reports ratios against a baseline
# measured in the same run, because the machines are shared and absolute numbers drift.
BENCH_BUS := $(BUILD)/bench/bench_bus

$(BENCH_BUS): $(BUILD)/bench/bench_bus.o $(LIBBUS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-bus
bench-bus: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_BUS)
	$(Q)$(BENCH_BUS)

# make bench-gateway: a signed, authorized request against an unsigned one on the same
# gateway (with the scheduler and accounting it runs beside), driven over loopback by
# our own load generator; then a GraphQL compute_session_list page of 20 by status over
# 100,000 sessions (BENCH_LIST_SESSIONS) against the signed request, p50/p99. The
# services are built here too; the bench finds them in $(BUILD)/bin. BENCH_ONLY=list
# runs the list alone.
BENCH_GATEWAY := $(BUILD)/bench/bench_gateway

$(BENCH_GATEWAY): $(BUILD)/bench/bench_gateway.o $(LIBBUS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-gateway
bench-gateway: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_GATEWAY) $(gateway_BIN) $(scheduler_BIN) \
	    $(accounting_BIN)
	$(Q)BENCH_ONLY=$(BENCH_ONLY) BENCH_LIST_SESSIONS=$(BENCH_LIST_SESSIONS) \
	    $(BENCH_GATEWAY) $(BUILD)/bin

# make bench-session: create-to-RUNNING latency of sessions on the busybox image through
# the HTTP API (scheduler, accounting, gateway and a real agent, as the integration tests
# start them) against bare `runc run -d` of the same image with the same limits in the
# same run, then each service's RSS. Needs root, runc, umoci and tini.
# BENCH_SESSIONS=1000 (or make bench-session BENCH_SESSIONS=1000) for the memory check.
BENCH_SESSION := $(BUILD)/bench/bench_session

$(BENCH_SESSION): $(BUILD)/bench/bench_session.o $(HARNESS) $(gateway_LIB) $(LIBBUS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-session
bench-session: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_SESSION) $(gateway_BIN) $(scheduler_BIN) \
	    $(accounting_BIN) $(agent_BIN) $(RUNNER_BIN) image-busybox
	$(Q)BACKPLANE_BINDIR=$(BUILD)/bin $(BENCH_SESSION) $(BENCH_SESSIONS)

# make bench-scheduler: sustained placements per second of the real scheduler against
# 1,000 fake agents (backplane-agent with fake.agents, 500 per process) for 100,000
# sessions of mixed shapes submitted over its session.create RPC, and p50/p99 from a
# create sent to its session_scheduled. No root, runc or images needed. Scale it down:
# make bench-scheduler BENCH_AGENTS=50 BENCH_SESSIONS=2000 (BENCH_WINDOW: creates in
# flight, 256).
BENCH_SCHEDULER := $(BUILD)/bench/bench_scheduler

$(BENCH_SCHEDULER): $(BUILD)/bench/bench_scheduler.o $(BUILD)/test/harness.o $(LIBBUS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-scheduler
bench-scheduler: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_SCHEDULER) $(scheduler_BIN) $(agent_BIN)
	$(Q)BACKPLANE_BINDIR=$(BUILD)/bin BENCH_AGENTS=$(BENCH_AGENTS) \
	    BENCH_SESSIONS=$(BENCH_SESSIONS) BENCH_WINDOW=$(BENCH_WINDOW) $(BENCH_SCHEDULER)

# make bench-scheduler-hosts (root): the same bench twice in one run, on loopback and
# with the scheduler on one testbed host and the fleets on two others (network
# namespaces on a bridge, deploy/testbed TESTBED_SERVICES=0), and the placements per
# second across hosts against loopback (bench/bench-scheduler-hosts).
.PHONY: bench-scheduler-hosts
bench-scheduler-hosts: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_SCHEDULER) $(scheduler_BIN) $(agent_BIN)
	$(Q)BACKPLANE_BINDIR=$(BUILD)/bin BENCH_AGENTS=$(BENCH_AGENTS) \
	    BENCH_SESSIONS=$(BENCH_SESSIONS) BENCH_WINDOW=$(BENCH_WINDOW) \
	    bench/bench-scheduler-hosts $(BENCH_SCHEDULER)

# make bench-storage: a 1 GiB upload (tus PATCHes of 16 MiB) and download through the
# storage-proxy's HTTP endpoint against the same copy over a raw loopback TCP connection
# in the same run, and a listing of 100,000 files through storage.files.list. BENCH_MB
# changes the size, BENCH_DIR where the volume goes (default /tmp: put it on the disk
# to measure).
BENCH_STORAGE := $(BUILD)/bench/bench_storage

$(BENCH_STORAGE): $(BUILD)/bench/bench_storage.o $(BUILD)/test/harness.o $(storage-proxy_LIB) $(LIBBUS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-storage
bench-storage: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_STORAGE) $(storage-proxy_BIN)
	$(Q)BACKPLANE_BINDIR=$(BUILD)/bin BENCH_MB=$(BENCH_MB) BENCH_DIR=$(BENCH_DIR) $(BENCH_STORAGE)

# make bench-wsproxy: a BENCH_MB MiB (1024) HTTP download and a WebSocket echo (p50 and
# p99 of small round trips, throughput of 64 KiB messages) through a wsproxy route
# against the same transfers straight to the app, in the same run. The app is
# test/integration/wsp_echo.h in the bench process; no scheduler needed (the wsproxy
# hosts its own hub).
BENCH_WSPROXY := $(BUILD)/bench/bench_wsproxy

$(BENCH_WSPROXY): $(BUILD)/bench/bench_wsproxy.o $(BUILD)/test/harness.o $(LIBBUS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-wsproxy
bench-wsproxy: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_WSPROXY) $(wsproxy_BIN)
	$(Q)BACKPLANE_BINDIR=$(BUILD)/bin BENCH_MB=$(BENCH_MB) $(BENCH_WSPROXY)

# make bench-serving: a model service's endpoint on the wsproxy (wsproxy.endpoint.set over
# three replicas of bench/tiny_model.py, a word bigram model behind the OpenAI chat API,
# and an endpoint token) against the same replicas addressed directly, in the same run:
# requests/s of six keep-alive connections, p50/p99 of one; the wsproxy's CPU per request.
# No scheduler needed (the wsproxy hosts its own hub). Last line: serving: ratio= added_p50_us=
BENCH_SERVING := $(BUILD)/bench/bench_serving

$(BENCH_SERVING): $(BUILD)/bench/bench_serving.o $(BUILD)/test/harness.o $(LIBBUS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-serving
bench-serving: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_SERVING) $(wsproxy_BIN)
	$(Q)BACKPLANE_BINDIR=$(BUILD)/bin BENCH_MODEL_PY=$(CURDIR)/bench/tiny_model.py $(BENCH_SERVING)

# make bench-accounting: the accounting's ingest of kernel.stats for 100,000 kernels
# (events/s, lag) against raw SQLite inserts, and a month's usage of one project out of
# 1,000,000 records (p50/p99) against the bare indexed count, in process
# (bench/bench_accounting.c). BENCH_KERNELS, BENCH_ROUNDS, BENCH_RECORDS, BENCH_QUERIES.
BENCH_ACCOUNTING := $(BUILD)/bench/bench_accounting

$(BENCH_ACCOUNTING): $(BUILD)/bench/bench_accounting.o $(accounting_LIB) $(LIBBUS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-accounting
bench-accounting: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_ACCOUNTING)
	$(Q)$(BENCH_ACCOUNTING)
