/*  =========================================================================
    bus_log - logfmt lines on stderr with secret masking

    A line is built in one buffer and written with one fwrite, so lines from
    several threads never interleave mid-line.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

#define LOG_LINE_MAX 4096
#define LOG_NAME_MAX 64
#define LOG_CORR_MAX 64

int bus_log_level_ = BUS_LOG_NOTICE;

static char s_service[LOG_NAME_MAX] = "backplane";
static char s_node[LOG_NAME_MAX];
static FILE *s_stream;
static _Thread_local char s_corr[LOG_CORR_MAX];

static const char *s_level_names[] = {"error", "warning", "notice", "info", "debug"};

//  Field names whose values are never written. Matched as substrings of the
//  lower-cased name, so "secret_key" and "X-Auth-Token" are both caught.
static const char *s_secret_words[] = {"secret",     "password", "passwd",
                                       "signature",  "token",    "authorization",
                                       "credential", "cookie",   NULL};

void
bus_log_init(const char *service, const char *node, int level)
{
    snprintf(s_service, sizeof s_service, "%s", service ? service : "backplane");
    snprintf(s_node, sizeof s_node, "%s", node ? node : "");
    bus_log_level_ = level;
}

void
bus_log_set_level(int level)
{
    bus_log_level_ = level;
}

int
bus_log_level_from_str(const char *name)
{
    for (int i = 0; name && i <= BUS_LOG_DEBUG; i++)
        if (strcmp(name, s_level_names[i]) == 0)
            return i;
    if (name && strcmp(name, "warn") == 0)
        return BUS_LOG_WARNING;
    return -1;
}

void
bus_log_set_stream(FILE *stream)
{
    s_stream = stream;
}

void
bus_log_set_corr(const char *corr)
{
    snprintf(s_corr, sizeof s_corr, "%s", corr ? corr : "");
}

const char *
bus_log_corr(void)
{
    return s_corr;
}

static bool
s_is_name_char(char c)
{
    return isalnum((unsigned char) c) || c == '_' || c == '-' || c == '.';
}

static bool
s_is_secret_name(const char *name, size_t len)
{
    char lower[LOG_NAME_MAX];
    if (len >= sizeof lower)
        len = sizeof lower - 1;
    for (size_t i = 0; i < len; i++)
        lower[i] = (char) tolower((unsigned char) name[i]);
    lower[len] = 0;
    for (int i = 0; s_secret_words[i]; i++)
        if (strstr(lower, s_secret_words[i]))
            return true;
    return false;
}

int
bus_log_redact(char *line, size_t size)
{
    static const char mask[] = "[redacted]";
    int masked = 0;
    size_t len = strnlen(line, size);
    size_t i = 0;
    while (i < len) {
        //  A field starts at the beginning or after a space: name=value
        if (i > 0 && line[i - 1] != ' ') {
            i++;
            continue;
        }
        size_t name_end = i;
        while (name_end < len && s_is_name_char(line[name_end]))
            name_end++;
        if (name_end == i || name_end >= len || line[name_end] != '=') {
            i++;
            continue;
        }
        size_t value = name_end + 1, value_end = value;
        if (value < len && line[value] == '"') {
            value_end = value + 1;
            while (value_end < len && line[value_end] != '"') {
                if (line[value_end] == '\\' && value_end + 1 < len)
                    value_end++;
                value_end++;
            }
            if (value_end < len)
                value_end++;
        } else
            while (value_end < len && line[value_end] != ' ')
                value_end++;
        if (s_is_secret_name(line + i, name_end - i) && value_end > value) {
            size_t old_len = value_end - value, new_len = sizeof mask - 1;
            if (len - old_len + new_len + 1 <= size) {
                //  Move the tail without its NUL and terminate afterwards:
                //  when no NUL lies within size, line[len] is past the buffer.
                memmove(line + value + new_len, line + value_end, len - value_end);
                memcpy(line + value, mask, new_len);
                len = len - old_len + new_len;
                line[len] = 0;
                value_end = value + new_len;
                masked++;
            } else {
                //  No room for the mask: blank the value instead of leaking it.
                memset(line + value, '*', old_len);
                masked++;
            }
        }
        i = value_end;
    }
    return masked;
}

//  Appends the message part, quoted, then the fields as given.
static size_t
s_append_message(char *out, size_t pos, size_t size, const char *text)
{
    //  The message is the text before the first " name=" field.
    const char *fields = NULL;
    for (const char *p = text; *p; p++) {
        if (p != text && p[-1] != ' ')
            continue;
        const char *q = p;
        while (s_is_name_char(*q))
            q++;
        if (q != p && *q == '=') {
            fields = p;
            break;
        }
    }
    size_t msg_len = fields ? (size_t) (fields - text) : strlen(text);
    while (msg_len > 0 && text[msg_len - 1] == ' ')
        msg_len--;
    pos += (size_t) snprintf(out + pos, pos < size ? size - pos : 0, " msg=\"");
    for (size_t i = 0; i < msg_len && pos + 3 < size; i++) {
        char c = text[i];
        if (c == '"' || c == '\\')
            out[pos++] = '\\';
        out[pos++] = (c == '\n' || c == '\r') ? ' ' : c;
    }
    if (pos + 1 < size)
        out[pos++] = '"';
    if (fields && pos + 1 < size)
        pos += (size_t) snprintf(out + pos, size - pos, " %s", fields);
    if (pos >= size)
        pos = size - 1;
    out[pos] = 0;
    return pos;
}

void
bus_log_write(int level, const char *fmt, ...)
{
    char text[LOG_LINE_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);

    char line[LOG_LINE_MAX + 256];
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t pos = strftime(line, sizeof line, "ts=%Y-%m-%dT%H:%M:%S", &tm);
    pos += (size_t) snprintf(line + pos, sizeof line - pos, ".%03ldZ level=%s service=%s",
                             ts.tv_nsec / 1000000,
                             s_level_names[level < 0   ? 0
                                           : level > 4 ? 4
                                                       : level],
                             s_service);
    if (*s_node)
        pos += (size_t) snprintf(line + pos, sizeof line - pos, " node=%s", s_node);
    if (*s_corr)
        pos += (size_t) snprintf(line + pos, sizeof line - pos, " corr=%s", s_corr);
    pos = s_append_message(line, pos, sizeof line - 2, text);
    for (size_t i = 0; i < pos; i++)
        if (line[i] == '\n' || line[i] == '\r')
            line[i] = ' ';
    bus_log_redact(line, sizeof line - 2);
    pos = strlen(line);
    line[pos++] = '\n';
    line[pos] = 0;
    FILE *stream = s_stream ? s_stream : stderr;
    fwrite(line, 1, pos, stream);
    fflush(stream);
}
