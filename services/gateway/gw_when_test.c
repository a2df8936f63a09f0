/*  =========================================================================
    gw_when_test - starts_at as users write it

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

#define NOW INT64_C(1795000000000000) //  some instant in 2026, in µs

static int64_t
s_at(const char *text)
{
    int64_t at = -1;
    bus_error_t err = {0};
    return gw_when_parse(text, NOW, &at, &err) == BUS_OK ? at : -1;
}

static void
test_absolute(void)
{
    T_EQ_INT(s_at("1970-01-01T00:00:00Z"), 0);
    T_EQ_INT(s_at("2026-11-21T18:30:00Z"), INT64_C(1795285800) * 1000000);
    T_EQ_INT(s_at("2026-11-21 18:30:00"), INT64_C(1795285800) * 1000000);
    T_EQ_INT(s_at("2026-11-22T03:30:00+09:00"), INT64_C(1795285800) * 1000000);
    T_EQ_INT(s_at("2026-11-21T13:00:00-0530"), INT64_C(1795285800) * 1000000);
    T_EQ_INT(s_at("2026-11-21T18:30:00.25Z"), INT64_C(1795285800) * 1000000 + 250000);
    T_EQ_INT(s_at("2024-02-29T00:00:00Z"), INT64_C(1709164800) * 1000000);
}

static void
test_relative(void)
{
    T_EQ_INT(s_at("30m"), NOW + INT64_C(1800) * 1000000);
    T_EQ_INT(s_at("+1h"), NOW + INT64_C(3600) * 1000000);
    T_EQ_INT(s_at("1d12h"), NOW + INT64_C(129600) * 1000000);
    T_EQ_INT(s_at("1h30m15s"), NOW + INT64_C(5415) * 1000000);
    T_EQ_INT(s_at("0s"), NOW);
}

static void
test_refused(void)
{
    const char *bad[] = {
        "",
        "tomorrow",
        "1",
        "h",
        "1x",
        "1m1h",
        "1h1h",
        "-1h",
        "400d",
        "99999999999s",
        "2023-02-29T00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-11-21T24:00:00Z",
        "2026-11-21T18:30Z",
        "2026-11-21T18:30:00.Z",
        "2026-11-21T18:30:00+25:00",
        "2026-11-21T18:30:00Z ",
        "2026-11-21",
        "0000000000000000000000000000000000000000000000000000000000000000000d"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (s_at(bad[i]) != -1)
            fprintf(stderr, "# accepted: %s\n", bad[i]);
        T_EQ_INT(s_at(bad[i]), -1);
    }
    int64_t at;
    bus_error_t err = {0};
    T_EQ_INT(gw_when_parse(NULL, NOW, &at, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "starts_at");
}

int
main(void)
{
    T_RUN(test_absolute);
    T_RUN(test_relative);
    T_RUN(test_refused);
    return T_DONE();
}
