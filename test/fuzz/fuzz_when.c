/*  =========================================================================
    fuzz_when - libFuzzer target for starts_at (gw_when_parse)

    starts_at comes in a user's POST /session body. The fuzz input, cut at
    its first NUL byte as a JSON string would be, is parsed at a fixed now.
    A failure must be INVALID with a message; a success is either a delay
    (at most a year, in whole seconds, from now) or an absolute time between
    the years 0 and 9999 (with a zone of at most a day). Parsing twice gives
    the same answer. Any broken promise aborts, so the fuzzer reports it
    like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_when.h"

#define FUZZ_WHEN_NOW     INT64_C(1795000000000000)
#define FUZZ_WHEN_YEAR_US (INT64_C(366) * 86400 * 1000000)
#define FUZZ_WHEN_MIN_US  (INT64_C(-62167219200) * 1000000 - 86400 * INT64_C(1000000))
#define FUZZ_WHEN_MAX_US  (INT64_C(253402300800) * 1000000 + 86400 * INT64_C(1000000))

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256)
        return 0;
    char text[257];
    memcpy(text, data, size);
    text[size] = '\0';
    int64_t at = 0, again = 0;
    bus_error_t err = {0}, again_err = {0};
    int rc = gw_when_parse(text, FUZZ_WHEN_NOW, &at, &err);
    int rc_again = gw_when_parse(text, FUZZ_WHEN_NOW, &again, &again_err);
    s_check(rc == rc_again);
    if (rc != BUS_OK) {
        s_check(rc == BUS_STATUS_INVALID && err.detail[0] != '\0');
        return 0;
    }
    s_check(at == again);
    bool delay = at >= FUZZ_WHEN_NOW && at <= FUZZ_WHEN_NOW + FUZZ_WHEN_YEAR_US &&
                 (at - FUZZ_WHEN_NOW) % 1000000 == 0;
    bool absolute = at >= FUZZ_WHEN_MIN_US && at <= FUZZ_WHEN_MAX_US;
    s_check(delay || absolute);
    return 0;
}
