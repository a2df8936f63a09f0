# Integration tests (test/integration/*_test.c: start the real binaries) and the
# fuzz targets (test/fuzz/fuzz_*.c). Each fuzz target builds twice: linked with
# test/fuzz/replay.c into $(BUILD)/test/<target>_replay, which replays the committed
# corpus in make check under any compiler; and with clang's libFuzzer by make fuzz.

INT_SRCS  := $(wildcard test/integration/*_test.c)
INT_TESTS := $(patsubst test/integration/%.c,$(BUILD)/test/%,$(INT_SRCS))
HARNESS   := $(BUILD)/test/harness.o $(BUILD)/test/gateway_client.o \
             $(BUILD)/test/accel_client.o $(BUILD)/test/testbed_client.o

# Integration tests may sign requests with the gateway's own gw_auth code.
$(INT_TESTS): $(BUILD)/test/%: $(BUILD)/test/integration/%.o $(HARNESS) $(gateway_LIB) $(LIBBUS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(HARNESS): $(BUILD)/test/%.o: test/integration/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

# The fake NVML (test/fake-nvml/fake_nvml.c): a plain shared object with NVML's soname,
# without sanitizers (it is dlopened into sanitized agents and tests, and allocates
# nothing), that the agent's CUDA plugin opens in tests (accelerators.cuda_nvml_library).
# Tests find it next to the binaries: $(BACKPLANE_BINDIR)/../lib/fake-nvml/.
FAKE_NVML := $(BUILD)/lib/fake-nvml/libnvidia-ml.so.1
$(FAKE_NVML): test/fake-nvml/fake_nvml.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  SO      $@")
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -g -O2 $(WARN) -fPIC -shared \
	    -Wl,-soname,libnvidia-ml.so.1 -o $@ $<
.PHONY: fake-nvml
fake-nvml: $(FAKE_NVML)

FUZZ_SRCS   := $(wildcard test/fuzz/fuzz_*.c)
FUZZ_NAMES  := $(patsubst test/fuzz/%.c,%,$(FUZZ_SRCS))
FUZZ_REPLAY := $(addprefix $(BUILD)/test/,$(addsuffix _replay,$(FUZZ_NAMES)))

# libbus goes last: the service objects a target links use it too.
$(FUZZ_REPLAY): $(BUILD)/test/%_replay: $(BUILD)/test/fuzz/%.o $(BUILD)/test/fuzz/replay.o $(LIBBUS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter-out $(LIBBUS),$^) $(LIBBUS) $(LDLIBS)

# make fuzz: real libFuzzer binaries, built with clang into build/fuzz.
# Run one:  build/fuzz/fuzz_proto -max_total_time=60 test/fuzz/corpus/fuzz_proto
# Fuzz targets that decode something a service owns link that object too.
GRAPHQL_OBJS := $(addprefix services/gateway/,gw_graphql.o gw_graphql_lex.o \
                    gw_graphql_check.o gw_graphql_value.o)
FUZZ_EXTRA_fuzz_graphql := $(GRAPHQL_OBJS)
$(BUILD)/test/fuzz_graphql_replay: $(addprefix $(BUILD)/,$(GRAPHQL_OBJS))
MINILANG_OBJS := services/gateway/gw_minilang.o services/gateway/gw_minilang_eval.o
FUZZ_EXTRA_fuzz_minilang := $(MINILANG_OBJS)
$(BUILD)/test/fuzz_minilang_replay: $(addprefix $(BUILD)/,$(MINILANG_OBJS))
FUZZ_EXTRA_fuzz_apps := services/libgateway.a
$(BUILD)/test/fuzz_apps_replay: $(gateway_LIB)
FUZZ_EXTRA_fuzz_template := services/libgateway.a
$(BUILD)/test/fuzz_template_replay: $(gateway_LIB)
FUZZ_EXTRA_fuzz_model_def := services/libgateway.a
$(BUILD)/test/fuzz_model_def_replay: $(gateway_LIB)
FUZZ_EXTRA_fuzz_multipart := services/gateway/gw_multipart.o \
    services/gateway/gw_multipart_writer.o
$(BUILD)/test/fuzz_multipart_replay: $(BUILD)/services/gateway/gw_multipart.o \
    $(BUILD)/services/gateway/gw_multipart_writer.o
FUZZ_EXTRA_fuzz_websocket := services/gateway/gw_websocket.o
$(BUILD)/test/fuzz_websocket_replay: $(BUILD)/services/gateway/gw_websocket.o
FUZZ_EXTRA_fuzz_when := services/gateway/gw_when.o
$(BUILD)/test/fuzz_when_replay: $(BUILD)/services/gateway/gw_when.o
FUZZ_EXTRA_fuzz_runner_frames := services/agent/agent_runner_proto.o
$(BUILD)/test/fuzz_runner_frames_replay: $(BUILD)/services/agent/agent_runner_proto.o
TTYD_FUZZ_OBJS := $(addprefix services/ttyd/,ttyd_ws.o ttyd_msg.o ttyd_http.o \
                    ttyd_sha1.o ttyd_buf.o)
FUZZ_EXTRA_fuzz_ttyd := $(TTYD_FUZZ_OBJS)
$(BUILD)/test/fuzz_ttyd_replay: $(addprefix $(BUILD)/,$(TTYD_FUZZ_OBJS))
FUZZ_EXTRA_fuzz_web_guard := services/gateway/gw_web_guard.o
$(BUILD)/test/fuzz_web_guard_replay: $(BUILD)/services/gateway/gw_web_guard.o
FUZZ_EXTRA_fuzz_auth := services/gateway/gw_auth.o
$(BUILD)/test/fuzz_auth_replay: $(BUILD)/services/gateway/gw_auth.o
FUZZ_EXTRA_fuzz_http_head := services/storage-proxy/sp_http_head.o
$(BUILD)/test/fuzz_http_head_replay: $(BUILD)/services/storage-proxy/sp_http_head.o
FUZZ_EXTRA_fuzz_wsp_http := services/wsproxy/wsp_http.o
$(BUILD)/test/fuzz_wsp_http_replay: $(BUILD)/services/wsproxy/wsp_http.o
ZIP_FUZZ_OBJS := $(addprefix services/storage-proxy/,sp_zip.o sp_fs.o sp_fetch_http.o)
FUZZ_EXTRA_fuzz_zip := $(ZIP_FUZZ_OBJS)
$(BUILD)/test/fuzz_zip_replay: $(addprefix $(BUILD)/,$(ZIP_FUZZ_OBJS))
GIT_FUZZ_OBJS := $(addprefix services/storage-proxy/,sp_git_pkt.o sp_git_pack.o \
                    sp_git_checkout.o sp_fs.o)
FUZZ_EXTRA_fuzz_git := $(GIT_FUZZ_OBJS)
$(BUILD)/test/fuzz_git_replay: $(addprefix $(BUILD)/,$(GIT_FUZZ_OBJS))
FUZZ_EXTRA_fuzz_mounts := services/agent/agent_mounts.o
$(BUILD)/test/fuzz_mounts_replay: $(BUILD)/services/agent/agent_mounts.o
FUZZ_EXTRA_fuzz_pushdown := $(MINILANG_OBJS) services/scheduler/sched_where.o
$(BUILD)/test/fuzz_pushdown_replay: $(addprefix $(BUILD)/,$(MINILANG_OBJS)) \
    $(BUILD)/services/scheduler/sched_where.o

# SANITIZE (not CFLAGS) carries the flags, so the Makefile's own CFLAGS still apply.
.PHONY: fuzz
fuzz: deps
	$(Q)$(MAKE) --no-print-directory CC=clang BUILD=build/fuzz/obj \
	    SANITIZE=fuzzer-no-link,address,undefined \
	    build/fuzz/obj/libbus.a $(addprefix build/fuzz/obj/test/fuzz/,$(addsuffix .o,$(FUZZ_NAMES))) \
	    $(addprefix build/fuzz/obj/,$(foreach t,$(FUZZ_NAMES),$(FUZZ_EXTRA_$(t))))
	$(Q)$(foreach t,$(FUZZ_NAMES),clang -fsanitize=fuzzer,address,undefined -o build/fuzz/$(t) \
	    build/fuzz/obj/test/fuzz/$(t).o $(addprefix build/fuzz/obj/,$(FUZZ_EXTRA_$(t))) \
	    build/fuzz/obj/libbus.a $(LDLIBS) && echo "  FUZZ    build/fuzz/$(t)" &&) true

# The GPU probe (test/gpu/gpu_probe.c), put into the gpu-probe image: always a plain
# build, whatever SANITIZE says, since its container has glibc and nothing else.
GPU_PROBE := build/gpu/gpu-probe
$(GPU_PROBE): test/gpu/gpu_probe.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -o $@ $< -ldl

# make gpu-bundle: what test/gpu/run needs on a bare GPU machine (test/gpu/bundle),
# from a plain build whatever SANITIZE says.
.PHONY: gpu-bundle
gpu-bundle: deps
	$(Q)$(MAKE) --no-print-directory SANITIZE= BUILD=build all build/test/gpu_test \
	    build/test/agent_accel_cuda_test image-gpu-probe
	$(Q)test/gpu/bundle build/gpu-bundle

# The fake driver's libcuda (test/fake-driver): a plain build, since a plain probe
# loads it in a container, whatever SANITIZE says.
FAKE_LIBCUDA := build/fake-driver/libcuda.so
$(FAKE_LIBCUDA): test/fake-driver/fake_libcuda.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -fPIC -shared \
	    -Wl,-soname,libcuda.so.1 -o $@ $<
