/*  =========================================================================
    ttyd_msg - the messages of ttyd's protocol from a client

    ttyd's client sends JSON first ({"AuthToken": "...", "columns": C,
    "rows": R}; its first byte is '{'), then messages whose first byte is
    the command: '0' input, '1' resize with JSON {"columns", "rows"}, '2'
    pause, '3' resume. The JSON is read by a small scanner that walks one
    object (strings, numbers, literals, nested objects and arrays up to a
    depth) and keeps the two integers it wants; the token is not looked at,
    because the proxies in front of the app authenticate (as Backend.AI
    starts ttyd without a credential). Pure: no I/O.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "ttyd_classes.h"

#define S_DEPTH_MAX 32
#define S_SIZE_MAX  65535

typedef struct {
    const char *p, *end;
} s_scan_t;

static void
s_space(s_scan_t *s)
{
    while (s->p < s->end &&
           (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

//  A string at p: its raw text (escapes left as they are) into *text_p and
//  *len_p. 0 or -1.
static int
s_string(s_scan_t *s, const char **text_p, size_t *len_p)
{
    if (s->p >= s->end || *s->p != '"')
        return -1;
    const char *start = ++s->p;
    while (s->p < s->end && *s->p != '"') {
        if ((unsigned char) *s->p < 0x20)
            return -1;
        if (*s->p == '\\') {
            s->p++;
            if (s->p >= s->end || !strchr("\"\\/bfnrtu", *s->p))
                return -1;
        }
        s->p++;
    }
    if (s->p >= s->end)
        return -1;
    *text_p = start;
    *len_p = (size_t) (s->p - start);
    s->p++;
    return 0;
}

//  A number: *value_p is its value when it is an integer of 0..S_SIZE_MAX,
//  else -1. 0 or -1 (not a number).
static int
s_number(s_scan_t *s, long *value_p)
{
    bool integer = true;
    long value = 0;
    if (s->p < s->end && *s->p == '-') {
        s->p++;
        integer = false;
    }
    if (s->p >= s->end || !isdigit((unsigned char) *s->p))
        return -1;
    while (s->p < s->end && isdigit((unsigned char) *s->p)) {
        if (value <= S_SIZE_MAX)
            value = value * 10 + (*s->p - '0');
        s->p++;
    }
    if (s->p < s->end && *s->p == '.') {
        integer = false;
        s->p++;
        if (s->p >= s->end || !isdigit((unsigned char) *s->p))
            return -1;
        while (s->p < s->end && isdigit((unsigned char) *s->p))
            s->p++;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        integer = false;
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
            s->p++;
        if (s->p >= s->end || !isdigit((unsigned char) *s->p))
            return -1;
        while (s->p < s->end && isdigit((unsigned char) *s->p))
            s->p++;
    }
    *value_p = integer && value <= S_SIZE_MAX ? value : -1;
    return 0;
}

static int s_value(s_scan_t *s, int depth, long *number_p);

//  An object or array at p (its opening character already seen), walked to
//  its end. With keys (an object), the integers of "columns" and "rows" at
//  the top level go to columns and rows.
static int
s_container(s_scan_t *s, int depth, bool object, unsigned *columns, unsigned *rows)
{
    if (depth > S_DEPTH_MAX)
        return -1;
    char close = object ? '}' : ']';
    s->p++;
    s_space(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
        return 0;
    }
    for (;;) {
        const char *key = NULL;
        size_t key_len = 0;
        if (object) {
            s_space(s);
            if (s_string(s, &key, &key_len) != 0)
                return -1;
            s_space(s);
            if (s->p >= s->end || *s->p != ':')
                return -1;
            s->p++;
        }
        long number = -1;
        if (s_value(s, depth + 1, &number) != 0)
            return -1;
        if (key && number > 0 && columns && key_len == 7 &&
            memcmp(key, "columns", 7) == 0)
            *columns = (unsigned) number;
        if (key && number > 0 && rows && key_len == 4 && memcmp(key, "rows", 4) == 0)
            *rows = (unsigned) number;
        s_space(s);
        if (s->p >= s->end)
            return -1;
        if (*s->p == close) {
            s->p++;
            return 0;
        }
        if (*s->p != ',')
            return -1;
        s->p++;
    }
}

//  One value; *number_p is set for an integer (see s_number), else -1.
static int
s_value(s_scan_t *s, int depth, long *number_p)
{
    *number_p = -1;
    s_space(s);
    if (s->p >= s->end)
        return -1;
    const char *text;
    size_t len;
    switch (*s->p) {
        case '{':
            return s_container(s, depth, true, NULL, NULL);
        case '[':
            return s_container(s, depth, false, NULL, NULL);
        case '"':
            return s_string(s, &text, &len);
        case 't':
        case 'f':
        case 'n': {
            static const char *const literals[] = {"true", "false", "null"};
            for (size_t i = 0; i < 3; i++) {
                size_t n = strlen(literals[i]);
                if ((size_t) (s->end - s->p) >= n && memcmp(s->p, literals[i], n) == 0) {
                    s->p += n;
                    return 0;
                }
            }
            return -1;
        }
        default:
            return s_number(s, number_p);
    }
}

int
ttyd_msg_json_size(const char *text, size_t size, unsigned *columns, unsigned *rows)
{
    s_scan_t s = {text, text + size};
    s_space(&s);
    if (s.p >= s.end || *s.p != '{')
        return -1;
    unsigned c = 0, r = 0;
    if (s_container(&s, 0, true, &c, &r) != 0)
        return -1;
    s_space(&s);
    if (s.p != s.end)
        return -1;
    if (c)
        *columns = c;
    if (r)
        *rows = r;
    return 0;
}

void
ttyd_msg_parse(const uint8_t *data, size_t size, ttyd_msg_t *msg)
{
    memset(msg, 0, sizeof *msg);
    msg->type = TTYD_MSG_UNKNOWN;
    if (size == 0)
        return;
    switch (data[0]) {
        case '{':
            //  ttyd starts the terminal whatever the JSON holds; so does this.
            msg->type = TTYD_MSG_HELLO;
            ttyd_msg_json_size((const char *) data, size, &msg->columns, &msg->rows);
            break;
        case '0':
            msg->type = TTYD_MSG_INPUT;
            msg->data = data + 1;
            msg->size = size - 1;
            break;
        case '1':
            msg->type = TTYD_MSG_RESIZE;
            ttyd_msg_json_size((const char *) data + 1, size - 1, &msg->columns,
                               &msg->rows);
            break;
        case '2':
            msg->type = TTYD_MSG_PAUSE;
            break;
        case '3':
            msg->type = TTYD_MSG_RESUME;
            break;
        default:
            break;
    }
}
