/*  =========================================================================
    bus_log_test - secret masking, the shape of a captured line, level
    filtering and line hygiene

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

//  Redacts a copy of input in a buffer of size bytes; returns what it masked.
static int
s_redact(const char *input, char *out, size_t size)
{
    snprintf(out, size, "%s", input);
    return bus_log_redact(out, size);
}

static void
test_redact_secrets(void)
{
    struct {
        const char *input;
        const char *expect;
        int masked;
    } cases[] = {
        {"secret_key=abc123 user=bob", "secret_key=[redacted] user=bob", 1},
        {"password=hunter2", "password=[redacted]", 1},
        {"Authorization=\"HMAC-SHA256 AK1:c2lnbmF0dXJl\" path=/v1",
         "Authorization=[redacted] path=/v1", 1},
        {"signature=0123456789abcdef0123456789abcdef", "signature=[redacted]", 1},
        {"token=t", "token=[redacted]", 1},
        {"X-Auth-Token=abc.def-ghi", "X-Auth-Token=[redacted]", 1},
        {"PASSWORD=x", "PASSWORD=[redacted]", 1},
        //  Quoted values with spaces and escaped quotes are one value.
        {"password=\"a b \\\" c d\" next=1", "password=[redacted] next=1", 1},
        {"cookie=\"session=1; theme=dark\" a=b", "cookie=[redacted] a=b", 1},
        //  An unterminated quote runs to the end of the line.
        {"token=\"abc def", "token=[redacted]", 1},
        //  A value at the end of the line, after other fields.
        {"user=alice token=xyz", "user=alice token=[redacted]", 1},
        //  Several in one line.
        {"a=1 secret=s1 b=2 credential=c3 c=3",
         "a=1 secret=[redacted] b=2 credential=[redacted] c=3", 2},
        //  Other fields, the message text and empty values are left alone.
        {"user=alice access_key=AK1 n=5 path=/x?y=z",
         "user=alice access_key=AK1 n=5 path=/x?y=z", 0},
        {"msg=\"reset your password now\" user=bob",
         "msg=\"reset your password now\" user=bob", 0},
        {"token= user=bob", "token= user=bob", 0},
        {"", "", 0},
        {"no fields at all", "no fields at all", 0},
        {"==token", "==token", 0},
    };
    char buf[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int masked = s_redact(cases[i].input, buf, sizeof buf);
        T_EQ_STR(buf, cases[i].expect);
        T_EQ_INT(masked, cases[i].masked);
    }
}

static void
test_redact_small_buffer(void)
{
    //  "[redacted]" does not fit: the value is starred over in place.
    char buf[13];
    T_EQ_INT(s_redact("token=abcdef", buf, sizeof buf), 1);
    T_EQ_STR(buf, "token=******");
    char quoted[20];
    T_EQ_INT(s_redact("passwd=\"a b c\" x=1", quoted, sizeof quoted), 1);
    T_EQ_STR(quoted, "passwd=******* x=1");

    //  Exactly room for the mask and the NUL.
    char exact[17];
    T_EQ_INT(s_redact("token=a", exact, sizeof exact), 1);
    T_EQ_STR(exact, "token=[redacted]");
    char short_by_one[16];
    T_EQ_INT(s_redact("token=a", short_by_one, sizeof short_by_one), 1);
    T_EQ_STR(short_by_one, "token=*");

    //  A buffer with no NUL inside size: nothing is read or written past it.
    //  The heap copy has exactly size bytes, so ASan sees any overrun.
    const char *text = "token=abcdefghijklmnopqrstuvwxyz";
    size_t size = strlen(text);
    char *raw = malloc(size);
    T_ASSERT(raw);
    memcpy(raw, text, size);
    T_EQ_INT(bus_log_redact(raw, size), 1);
    T_ASSERT(memcmp(raw, "token=[redacted]", 16) == 0);
    T_ASSERT(memchr(raw, 0, size) != NULL);
    memcpy(raw, "password=abc", 12);
    memset(raw + 12, 'x', size - 12);
    raw[size - 1] = 'y';
    T_EQ_INT(bus_log_redact(raw, 12), 1);
    T_ASSERT(memcmp(raw, "password=***", 12) == 0);
    free(raw);
}

//  A memory stream the log writes into; text() returns what it holds.
typedef struct {
    FILE *stream;
    char *data;
    size_t size;
} capture_t;

static void
s_capture_start(capture_t *self)
{
    memset(self, 0, sizeof *self);
    self->stream = open_memstream(&self->data, &self->size);
    assert(self->stream);
    bus_log_set_stream(self->stream);
}

//  Everything written since the last call; the stream starts over.
static const char *
s_capture_text(capture_t *self)
{
    fflush(self->stream);
    static char copy[8192];
    snprintf(copy, sizeof copy, "%.*s", (int) self->size, self->data ? self->data : "");
    rewind(self->stream);
    fflush(self->stream);
    return copy;
}

static void
s_capture_stop(capture_t *self)
{
    bus_log_set_stream(NULL);
    fclose(self->stream);
    free(self->data);
}

static void
test_line_shape(void)
{
    capture_t cap;
    s_capture_start(&cap);
    bus_log_init("testsvc", "node1", BUS_LOG_INFO);
    bus_log_set_corr("req-42");
    T_EQ_STR(bus_log_corr(), "req-42");
    bus_log_info("kernel started kernel=%s agent=%s", "k1", "a1");
    const char *line = s_capture_text(&cap);

    //  ts=YYYY-MM-DDTHH:MM:SS.mmmZ then the fixed fields in order.
    T_ASSERT(strncmp(line, "ts=", 3) == 0);
    int year, mon, day, hour, min, sec, ms;
    char zone;
    T_EQ_INT(sscanf(line, "ts=%4d-%2d-%2dT%2d:%2d:%2d.%3d%c", &year, &mon, &day, &hour,
                    &min, &sec, &ms, &zone),
             8);
    T_ASSERT(year >= 2024 && mon >= 1 && mon <= 12 && day >= 1 && day <= 31);
    T_EQ_INT(zone, 'Z');
    T_EQ_INT(line[27], ' ');
    T_EQ_STR(line + 28, "level=info service=testsvc node=node1 corr=req-42 "
                        "msg=\"kernel started\" kernel=k1 agent=a1\n");

    //  No corr, no node, no fields; quotes in the message escaped.
    bus_log_set_corr(NULL);
    T_EQ_STR(bus_log_corr(), "");
    bus_log_init("other", NULL, BUS_LOG_INFO);
    bus_log_notice("said \"hi\" to c:\\x");
    line = s_capture_text(&cap);
    T_CONTAINS(line, " level=notice service=other msg=\"said \\\"hi\\\" to c:\\\\x\"\n");
    T_ASSERT(!strstr(line, "node="));
    T_ASSERT(!strstr(line, "corr="));

    //  Secrets passed as fields never reach the stream.
    bus_log_warning("login failed user=%s password=%s", "bob", "hunter2");
    line = s_capture_text(&cap);
    T_CONTAINS(line, "level=warning");
    T_CONTAINS(line, "msg=\"login failed\" user=bob password=[redacted]\n");
    T_ASSERT(!strstr(line, "hunter2"));
    s_capture_stop(&cap);
}

static void
test_level_filter(void)
{
    capture_t cap;
    s_capture_start(&cap);
    bus_log_init("testsvc", "n", BUS_LOG_WARNING);
    bus_log_info("hidden");
    bus_log_notice("hidden");
    bus_log_debug("hidden");
    T_EQ_STR(s_capture_text(&cap), "");
    bus_log_warning("shown w");
    bus_log_error("shown e");
    const char *text = s_capture_text(&cap);
    T_CONTAINS(text, "level=warning service=testsvc node=n msg=\"shown w\"\n");
    T_CONTAINS(text, "level=error service=testsvc node=n msg=\"shown e\"\n");
    T_ASSERT(!strstr(text, "hidden"));

    bus_log_set_level(BUS_LOG_DEBUG);
    bus_log_debug("now shown");
    T_CONTAINS(s_capture_text(&cap), "level=debug");
    bus_log_set_level(BUS_LOG_ERROR);
    bus_log_warning("hidden");
    T_EQ_STR(s_capture_text(&cap), "");

    T_EQ_INT(bus_log_level_from_str("error"), BUS_LOG_ERROR);
    T_EQ_INT(bus_log_level_from_str("warning"), BUS_LOG_WARNING);
    T_EQ_INT(bus_log_level_from_str("warn"), BUS_LOG_WARNING);
    T_EQ_INT(bus_log_level_from_str("notice"), BUS_LOG_NOTICE);
    T_EQ_INT(bus_log_level_from_str("info"), BUS_LOG_INFO);
    T_EQ_INT(bus_log_level_from_str("debug"), BUS_LOG_DEBUG);
    T_EQ_INT(bus_log_level_from_str("loud"), -1);
    T_EQ_INT(bus_log_level_from_str(NULL), -1);
    s_capture_stop(&cap);
}

static void
test_line_hygiene(void)
{
    capture_t cap;
    s_capture_start(&cap);
    bus_log_init("testsvc", "n", BUS_LOG_INFO);

    //  Newlines anywhere become spaces: one event is one line.
    bus_log_info("first\nsecond\r\nthird x=1\ny=2");
    const char *text = s_capture_text(&cap);
    T_CONTAINS(text, "msg=\"first second  third\" x=1 y=2\n");
    T_EQ_INT(strchr(text, '\n') - text, (long) strlen(text) - 1);

    //  An oversized message is cut, still ends in one newline.
    size_t big = 10000;
    char *huge = malloc(big + 1);
    T_ASSERT(huge);
    memset(huge, 'm', big);
    huge[big] = 0;
    bus_log_info("%s", huge);
    free(huge);
    text = s_capture_text(&cap);
    size_t len = strlen(text);
    T_ASSERT(len > 4000 && len < 4096 + 256);
    T_EQ_INT(text[len - 1], '\n');
    T_EQ_INT(strchr(text, '\n') - text, (long) len - 1);

    //  Fields full of secrets in a long line are all masked.
    char fields[3000] = "";
    for (int i = 0; i < 100; i++) {
        char one[32];
        snprintf(one, sizeof one, " token%d=abcdefghij", i);
        strcat(fields, one);
    }
    bus_log_info("many%s", fields);
    text = s_capture_text(&cap);
    T_ASSERT(!strstr(text, "abcdefghij"));
    T_CONTAINS(text, "token99=[redacted]\n");
    s_capture_stop(&cap);
}

int
main(void)
{
    T_RUN(test_redact_secrets);
    T_RUN(test_redact_small_buffer);
    T_RUN(test_line_shape);
    T_RUN(test_level_filter);
    T_RUN(test_line_hygiene);
    bus_log_init(NULL, NULL, BUS_LOG_NOTICE);
    return T_DONE();
}
