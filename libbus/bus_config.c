/*  =========================================================================
    bus_config - table-driven configuration from one YAML file per service

    The loader reads libyaml events rather than a document tree, so every
    error keeps the mark of the key or value that caused it. Nested mappings
    are walked with a stack of frames; a frame names its group as a prefix of
    some table key, and a key that is neither an option nor such a prefix is
    refused on sight, so the depth and the number of keys remembered for the
    duplicate check are bounded by the table, not by the input. Parsed values
    wait in a pending list and reach the config only once the whole document
    is good, so a failed load leaves the config exactly as it was. Defaults
    and --set values go through the same value parser as the file.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
//  libyaml's event parser: only this file reads YAML, so bus_classes.h does not carry it
#include <yaml.h>

//  Longest excerpt of a refused value quoted back in an error message.
#define S_SHOWN_MAX 40
//  Size of the first read buffer when loading a file; it doubles as needed.
#define S_READ_CHUNK 4096
//  Spaces per nesting level in bus_config_write_defaults.
#define S_INDENT 2

//  A parsed value waiting to be stored in the config.
typedef struct {
    const bus_config_option_t *option;
    int64_t number; //  INT, BOOL (0 or 1), BYTES
    char *text;     //  STRING, ENUM: owned here until stored
} s_value_t;

//  Values parsed so far; at most one per table row.
typedef struct {
    s_value_t *values;
    size_t count;
    size_t max;
} s_pending_t;

//  A path in the key space, named without copying: the first len bytes of
//  table[row].key (len 0 is the top level).
typedef struct {
    size_t row;
    size_t len;
    size_t line; //  1-based line where the key was written (seen list only)
} s_path_t;

//  One mapping being read. Between a key and its value, has_key is set and
//  key names the option (or the group) the key resolved to.
typedef struct {
    s_path_t group;
    bool has_key;
    bool key_is_group;
    s_path_t key;
} s_frame_t;

typedef struct {
    const bus_config_option_t *table;
    const char *name;
    bus_error_t *err;
    s_frame_t *frames; //  frames[0] is the top-level mapping
    size_t depth;
    size_t frames_max;
    s_path_t *seen; //  every key accepted so far, for the duplicate check
    size_t seen_count;
    size_t seen_max;
    s_pending_t pending;
    size_t documents;
    bool done;
} s_loader_t;

static size_t
s_table_rows(const bus_config_option_t *table)
{
    assert(table);
    size_t rows = 0;
    while (table[rows].key)
        rows++;
    return rows;
}

static size_t
s_count_dots(const char *key)
{
    size_t dots = 0;
    for (; *key; key++)
        if (*key == '.')
            dots++;
    return dots;
}

static bool
s_equal_nocase(const char *text, size_t len, const char *word)
{
    if (strlen(word) != len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (tolower((unsigned char) text[i]) != word[i])
            return false;
    return true;
}

//  The row whose key is exactly path, or NULL.
static const bus_config_option_t *
s_find_option(const bus_config_option_t *table, const char *path, size_t len)
{
    for (size_t row = 0; table[row].key; row++)
        if (strlen(table[row].key) == len && memcmp(table[row].key, path, len) == 0)
            return &table[row];
    return NULL;
}

//  True when path is a group: some key starts with path and a dot. Sets *row
//  to the first such row.
static bool
s_find_group(const bus_config_option_t *table, const char *path, size_t len, size_t *row)
{
    for (size_t i = 0; table[i].key; i++) {
        const char *key = table[i].key;
        if (strlen(key) > len && key[len] == '.' && memcmp(key, path, len) == 0) {
            *row = i;
            return true;
        }
    }
    return false;
}

static int s_reason(char *reason, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

//  Writes a refusal into reason; returns BUS_STATUS_INVALID for the caller to pass on.
static int
s_reason(char *reason, size_t size, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, size, fmt, args);
    va_end(args);
    return BUS_STATUS_INVALID;
}

//  Parses digits with an optional sign (when sign_ok). Returns false for bad
//  syntax; sets *overflow when the number does not fit in int64_t.
static bool
s_parse_integer(const char *text, size_t len, bool sign_ok, int64_t *out, bool *overflow)
{
    size_t at = 0;
    bool negative = false;
    if (sign_ok && len > 0 && (text[0] == '+' || text[0] == '-')) {
        negative = text[0] == '-';
        at = 1;
    }
    if (at == len)
        return false;
    uint64_t limit = negative ? (uint64_t) INT64_MAX + 1 : (uint64_t) INT64_MAX;
    uint64_t value = 0;
    *overflow = false;
    for (; at < len; at++) {
        if (!isdigit((unsigned char) text[at]))
            return false;
        unsigned digit = (unsigned) (text[at] - '0');
        if (value > (limit - digit) / 10)
            *overflow = true;
        else
            value = value * 10 + digit;
    }
    if (!*overflow)
        *out = negative ? (int64_t) (0 - value) : (int64_t) value;
    return true;
}

//  BYTES: digits, then an optional k/m/g/t, then an optional i, then an optional b.
static bool
s_parse_bytes(const char *text, size_t len, int64_t *out, bool *overflow)
{
    size_t digits = 0;
    while (digits < len && isdigit((unsigned char) text[digits]))
        digits++;
    if (digits == 0)
        return false;
    unsigned shift = 0;
    size_t at = digits;
    if (at < len) {
        const char *units = "kmgt";
        const char *unit = strchr(units, tolower((unsigned char) text[at]));
        if (!unit || !*unit)
            return false;
        shift = 10 * (unsigned) (unit - units + 1);
        at++;
        if (at < len && tolower((unsigned char) text[at]) == 'i')
            at++;
        if (at < len && tolower((unsigned char) text[at]) == 'b')
            at++;
        if (at != len)
            return false;
    }
    int64_t value = 0;
    if (!s_parse_integer(text, digits, false, &value, overflow))
        return false;
    if (!*overflow && value > (INT64_MAX >> shift))
        *overflow = true;
    if (!*overflow)
        *out = value << shift;
    return true;
}

//  ENUM: true when text is one of the '|'-separated words in choices.
static bool
s_is_choice(const char *choices, const char *text, size_t len)
{
    while (choices) {
        const char *bar = strchr(choices, '|');
        size_t word = bar ? (size_t) (bar - choices) : strlen(choices);
        if (word == len && memcmp(choices, text, len) == 0)
            return true;
        choices = bar ? bar + 1 : NULL;
    }
    return false;
}

//  The one value parser: file, --set and defaults all come here. null is
//  true for a plain YAML null, which a STRING takes as "". On success fills
//  value (value->text is owned by the caller); else writes reason and
//  returns the status.
static int
s_parse_value(const bus_config_option_t *option,
              const char *text,
              size_t len,
              bool null,
              s_value_t *value,
              char *reason,
              size_t reason_size)
{
    const char *key = option->key;
    int shown = len > S_SHOWN_MAX ? S_SHOWN_MAX : (int) len;
    const char *more = len > S_SHOWN_MAX ? "..." : "";
    *value = (s_value_t){.option = option};
    if (memchr(text, '\0', len))
        return s_reason(reason, reason_size, "value for '%s' contains a NUL byte", key);

    int64_t number = 0;
    bool overflow = false;
    switch (option->type) {
        case BUS_CFG_STRING:
            if (null)
                len = 0;
            if (option->max > 0 && (uint64_t) len > (uint64_t) option->max)
                return s_reason(reason, reason_size,
                                "value for '%s' is longer than %" PRId64 " bytes", key,
                                option->max);
            break;
        case BUS_CFG_ENUM:
            if (!s_is_choice(option->choices, text, len))
                return s_reason(
                    reason, reason_size, "expected one of %s for '%s', got '%.*s%s'",
                    option->choices ? option->choices : "(none)", key, shown, text, more);
            break;
        case BUS_CFG_INT: {
            if (!s_parse_integer(text, len, true, &number, &overflow))
                return s_reason(reason, reason_size,
                                "expected an integer for '%s', got '%.*s%s'", key, shown,
                                text, more);
            int64_t min = option->min > INT_MIN ? option->min : INT_MIN;
            int64_t max = option->max < INT_MAX ? option->max : INT_MAX;
            if (overflow || number < min || number > max)
                return s_reason(reason, reason_size,
                                "value %.*s%s out of range [%" PRId64 ", %" PRId64
                                "] for '%s'",
                                shown, text, more, min, max, key);
            value->number = number;
            return BUS_OK;
        }
        case BUS_CFG_BOOL:
            if (s_equal_nocase(text, len, "true") || s_equal_nocase(text, len, "yes") ||
                s_equal_nocase(text, len, "on"))
                value->number = 1;
            else if (s_equal_nocase(text, len, "false") ||
                     s_equal_nocase(text, len, "no") || s_equal_nocase(text, len, "off"))
                value->number = 0;
            else
                return s_reason(
                    reason, reason_size,
                    "expected true/false/yes/no/on/off for '%s', got '%.*s%s'", key,
                    shown, text, more);
            return BUS_OK;
        case BUS_CFG_BYTES:
            if (!s_parse_bytes(text, len, &number, &overflow))
                return s_reason(reason, reason_size,
                                "expected a size such as 512, 64k, 256m or 2g for '%s', "
                                "got '%.*s%s'",
                                key, shown, text, more);
            if (overflow || number < option->min || number > option->max)
                return s_reason(reason, reason_size,
                                "value %.*s%s out of range [%" PRId64 ", %" PRId64
                                "] for '%s'",
                                shown, text, more, option->min, option->max, key);
            value->number = number;
            return BUS_OK;
        default:
            return s_reason(reason, reason_size, "option '%s' has an unknown type %d",
                            key, (int) option->type);
    }
    //  STRING and ENUM keep a copy of the text
    value->text = malloc(len + 1);
    if (!value->text)
        return s_reason(reason, reason_size, "out of memory");
    memcpy(value->text, text, len);
    value->text[len] = '\0';
    return BUS_OK;
}

static int
s_pending_init(s_pending_t *self, const bus_config_option_t *table)
{
    self->count = 0;
    self->max = s_table_rows(table);
    self->values = calloc(self->max + 1, sizeof *self->values);
    return self->values ? 0 : -1;
}

//  Takes value->text. A second value for the same option replaces the first.
static void
s_pending_add(s_pending_t *self, s_value_t *value)
{
    for (size_t i = 0; i < self->count; i++)
        if (self->values[i].option == value->option) {
            free(self->values[i].text);
            self->values[i] = *value;
            return;
        }
    assert(self->count < self->max);
    self->values[self->count++] = *value;
}

//  Moves every pending value into config, then frees the list.
static void
s_pending_store(s_pending_t *self, void *config)
{
    for (size_t i = 0; i < self->count; i++) {
        s_value_t *value = &self->values[i];
        char *field = (char *) config + value->option->offset;
        switch (value->option->type) {
            case BUS_CFG_STRING:
            case BUS_CFG_ENUM:
                free(*(char **) field);
                *(char **) field = value->text;
                value->text = NULL;
                break;
            case BUS_CFG_INT:
                *(int *) field = (int) value->number;
                break;
            case BUS_CFG_BOOL:
                *(bool *) field = value->number != 0;
                break;
            case BUS_CFG_BYTES:
                *(int64_t *) field = value->number;
                break;
        }
    }
    self->count = 0;
}

static void
s_pending_destroy(s_pending_t *self)
{
    for (size_t i = 0; i < self->count; i++)
        free(self->values[i].text);
    free(self->values);
    self->values = NULL;
    self->count = 0;
}

//  ---------------------------------------------------------------------------
//  The YAML loader

static int s_fail(s_loader_t *self, yaml_mark_t mark, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

//  Sets err to "NAME:LINE:COLUMN: reason" and returns -1.
static int
s_fail(s_loader_t *self, yaml_mark_t mark, int status, const char *fmt, ...)
{
    char reason[BUS_ERROR_DETAIL_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    bus_error_set(self->err, status, "%s:%zu:%zu: %s", self->name, mark.line + 1,
                  mark.column + 1, reason);
    return -1;
}

//  The line and column of a byte offset, for reader errors, whose mark
//  libyaml leaves unset. Columns count UTF-8 characters, as libyaml's do.
static yaml_mark_t
s_mark_at(const char *yaml, size_t size, size_t offset)
{
    yaml_mark_t mark = {offset, 0, 0};
    for (size_t i = 0; i < offset && i < size; i++) {
        unsigned char c = (unsigned char) yaml[i];
        if (c == '\n' || (c == '\r' && (i + 1 >= size || yaml[i + 1] != '\n'))) {
            mark.line++;
            mark.column = 0;
        } else if (c != '\r' && (c & 0xC0) != 0x80)
            mark.column++;
    }
    return mark;
}

static int
s_fail_yaml(s_loader_t *self, const yaml_parser_t *parser, const char *yaml, size_t size)
{
    yaml_mark_t mark = parser->problem_mark;
    const char *problem = parser->problem ? parser->problem : "malformed YAML";
    if (parser->error == YAML_MEMORY_ERROR)
        return s_fail(self, parser->mark, BUS_STATUS_INTERNAL, "out of memory");
    if (parser->error == YAML_READER_ERROR) {
        mark = s_mark_at(yaml, size, parser->problem_offset);
        if (parser->problem_value >= 0)
            return s_fail(self, mark, BUS_STATUS_INVALID, "%s (byte 0x%02X)", problem,
                          (unsigned) parser->problem_value);
        return s_fail(self, mark, BUS_STATUS_INVALID, "%s", problem);
    }
    if (parser->context)
        return s_fail(self, mark, BUS_STATUS_INVALID, "%s (%s at %zu:%zu)", problem,
                      parser->context, parser->context_mark.line + 1,
                      parser->context_mark.column + 1);
    return s_fail(self, mark, BUS_STATUS_INVALID, "%s", problem);
}

//  A plain null: nothing, "~" or "null" written without quotes.
static bool
s_is_null(const yaml_event_t *event)
{
    if (event->type != YAML_SCALAR_EVENT ||
        event->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *text = (const char *) event->data.scalar.value;
    size_t len = event->data.scalar.length;
    return len == 0 || (len == 1 && text[0] == '~') ||
           (len == 4 && (memcmp(text, "null", 4) == 0 || memcmp(text, "Null", 4) == 0 ||
                         memcmp(text, "NULL", 4) == 0));
}

//  The text of a path, for messages.
static const char *
s_path_text(const s_loader_t *self, s_path_t path)
{
    return path.len ? self->table[path.row].key : "";
}

//  A key scalar in a mapping: resolve it to an option or a group, refuse
//  unknown and duplicate keys, and remember it for its value.
static int
s_on_key(s_loader_t *self, s_frame_t *frame, const yaml_event_t *event)
{
    const char *word = (const char *) event->data.scalar.value;
    size_t word_len = event->data.scalar.length;
    size_t prefix_len = frame->group.len;
    size_t len = prefix_len + (prefix_len ? 1 : 0) + word_len;
    char *path = malloc(len + 1);
    if (!path)
        return s_fail(self, event->start_mark, BUS_STATUS_INTERNAL, "out of memory");
    memcpy(path, s_path_text(self, frame->group), prefix_len);
    if (prefix_len)
        path[prefix_len] = '.';
    memcpy(path + len - word_len, word, word_len);
    path[len] = '\0';

    s_path_t key = {0, len, event->start_mark.line + 1};
    const bus_config_option_t *option = s_find_option(self->table, path, len);
    bool is_group = false;
    if (option)
        key.row = (size_t) (option - self->table);
    else
        is_group = s_find_group(self->table, path, len, &key.row);
    if (!option && !is_group) {
        s_fail(self, event->start_mark, BUS_STATUS_INVALID, "unknown option '%s'", path);
        free(path);
        return -1;
    }
    free(path);

    const char *text = self->table[key.row].key;
    for (size_t i = 0; i < self->seen_count; i++) {
        s_path_t *seen = &self->seen[i];
        if (seen->len == len && memcmp(self->table[seen->row].key, text, len) == 0)
            return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                          "duplicate option '%.*s' (first at line %zu)", (int) len, text,
                          seen->line);
    }
    if (self->seen_count == self->seen_max)
        return s_fail(self, event->start_mark, BUS_STATUS_INTERNAL,
                      "too many keys for the table");
    self->seen[self->seen_count++] = key;
    frame->has_key = true;
    frame->key_is_group = is_group;
    frame->key = key;
    return 0;
}

//  The value of the key just read: a scalar for an option, a mapping for a group.
static int
s_on_value(s_loader_t *self, s_frame_t *frame, const yaml_event_t *event)
{
    s_path_t key = frame->key;
    int key_len = (int) key.len;
    const char *key_text = self->table[key.row].key;
    frame->has_key = false;
    if (event->type == YAML_SEQUENCE_START_EVENT)
        return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                      "lists are not supported for '%.*s'", key_len, key_text);
    if (frame->key_is_group) {
        if (event->type == YAML_MAPPING_START_EVENT) {
            if (self->depth == self->frames_max)
                return s_fail(self, event->start_mark, BUS_STATUS_INTERNAL,
                              "nesting deeper than the table");
            self->frames[self->depth++] = (s_frame_t){.group = key};
            return 0;
        }
        if (s_is_null(event))
            return 0; //  a group whose options are all commented out
        return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                      "expected a map of options under '%.*s', got a value", key_len,
                      key_text);
    }
    if (event->type == YAML_MAPPING_START_EVENT)
        return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                      "expected a value for '%s', got a map", key_text);

    char reason[BUS_ERROR_DETAIL_MAX];
    s_value_t value;
    int status = s_parse_value(
        &self->table[key.row], (const char *) event->data.scalar.value,
        event->data.scalar.length, s_is_null(event), &value, reason, sizeof reason);
    if (status != BUS_OK)
        return s_fail(self, event->start_mark, status, "%s", reason);
    s_pending_add(&self->pending, &value);
    return 0;
}

//  A scalar, sequence or mapping node.
static int
s_on_node(s_loader_t *self, const yaml_event_t *event)
{
    const yaml_char_t *anchor = NULL, *tag = NULL;
    if (event->type == YAML_SCALAR_EVENT) {
        anchor = event->data.scalar.anchor;
        tag = event->data.scalar.tag;
    } else if (event->type == YAML_SEQUENCE_START_EVENT) {
        anchor = event->data.sequence_start.anchor;
        tag = event->data.sequence_start.tag;
    } else {
        anchor = event->data.mapping_start.anchor;
        tag = event->data.mapping_start.tag;
    }
    if (anchor)
        return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                      "anchors are not supported (&%s)", (const char *) anchor);
    if (tag)
        return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                      "tags are not supported (%s)", (const char *) tag);

    if (self->depth == 0) {
        //  the document itself
        if (event->type == YAML_MAPPING_START_EVENT) {
            self->frames[self->depth++] = (s_frame_t){{0, 0, 0}, false, false, {0, 0, 0}};
            return 0;
        }
        if (s_is_null(event))
            return 0; //  an empty document
        return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                      "the top level must be a map of options");
    }
    s_frame_t *frame = &self->frames[self->depth - 1];
    if (frame->has_key)
        return s_on_value(self, frame, event);
    if (event->type != YAML_SCALAR_EVENT)
        return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                      "a key must be a word, not a %s",
                      event->type == YAML_MAPPING_START_EVENT ? "map" : "list");
    return s_on_key(self, frame, event);
}

static int
s_on_event(s_loader_t *self, const yaml_event_t *event)
{
    switch (event->type) {
        case YAML_STREAM_END_EVENT:
            self->done = true;
            return 0;
        case YAML_DOCUMENT_START_EVENT:
            if (++self->documents > 1)
                return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                              "more than one document");
            return 0;
        case YAML_ALIAS_EVENT:
            return s_fail(self, event->start_mark, BUS_STATUS_INVALID,
                          "aliases are not supported (*%s)",
                          (const char *) event->data.alias.anchor);
        case YAML_MAPPING_END_EVENT:
            assert(self->depth > 0);
            self->depth--;
            return 0;
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            return s_on_node(self, event);
        default:
            //  stream start, document end; a sequence never starts
            return 0;
    }
}

static int
s_load(const bus_config_option_t *table,
       void *config,
       const char *yaml,
       size_t size,
       const char *name,
       bus_error_t *err)
{
    s_loader_t self = {.table = table, .name = name, .err = err};
    //  Frames: the top level, then one per group, and a group path is a
    //  prefix of a key ending before one of its dots. Seen: each accepted
    //  path is a key or such a prefix, and each is accepted once.
    self.frames_max = 1;
    for (size_t row = 0; table[row].key; row++) {
        size_t dots = s_count_dots(table[row].key);
        if (dots + 1 > self.frames_max)
            self.frames_max = dots + 1;
        self.seen_max += dots + 1;
    }
    self.frames = calloc(self.frames_max, sizeof *self.frames);
    self.seen = calloc(self.seen_max + 1, sizeof *self.seen);
    yaml_parser_t parser;
    bool parser_ready = false;
    int rc = -1;
    if (!self.frames || !self.seen || s_pending_init(&self.pending, table) != 0 ||
        !yaml_parser_initialize(&parser)) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "%s: out of memory", name);
        goto done;
    }
    parser_ready = true;
    yaml_parser_set_input_string(&parser, (const unsigned char *) yaml, size);
    rc = 0;
    while (rc == 0 && !self.done) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            rc = s_fail_yaml(&self, &parser, yaml, size);
            break;
        }
        rc = s_on_event(&self, &event);
        yaml_event_delete(&event);
    }
    if (rc == 0)
        s_pending_store(&self.pending, config);
done:
    if (parser_ready)
        yaml_parser_delete(&parser);
    s_pending_destroy(&self.pending);
    free(self.frames);
    free(self.seen);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Table checks for bus_config_defaults

//  Keys are dot-separated words of letters, digits, '_' and '-'.
static bool
s_key_is_valid(const char *key)
{
    bool word = false;
    for (; *key; key++) {
        if (*key == '.') {
            if (!word)
                return false;
            word = false;
        } else if (isalnum((unsigned char) *key) || *key == '_' || *key == '-')
            word = true;
        else
            return false;
    }
    return word;
}

//  True when key lies under the group path (len bytes, ending before a dot).
static bool
s_under(const char *key, const char *path, size_t len)
{
    return strncmp(key, path, len) == 0 && key[len] == '.';
}

//  Refuses tables bus_config_write_defaults could not write back faithfully.
static int
s_check_table(const bus_config_option_t *table, bus_error_t *err)
{
    for (size_t row = 0; table[row].key; row++) {
        const char *key = table[row].key;
        if (!s_key_is_valid(key))
            return bus_error_set(err, BUS_STATUS_INVALID, "bad table: malformed key '%s'",
                                 key);
        if ((unsigned) table[row].type > BUS_CFG_ENUM)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "bad table: option '%s' has an unknown type %d", key,
                                 (int) table[row].type);
        for (size_t other = 0; other < row; other++) {
            if (strcmp(table[other].key, key) == 0)
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "bad table: duplicate key '%s'", key);
            if (s_under(key, table[other].key, strlen(table[other].key)) ||
                s_under(table[other].key, key, strlen(key)))
                return bus_error_set(
                    err, BUS_STATUS_INVALID,
                    "bad table: '%s' and '%s' make one key both an option and a group",
                    table[other].key, key);
        }
        //  every group of this key must continue from the row above, or be new
        for (const char *dot = strchr(key, '.'); row > 0 && dot;
             dot = strchr(dot + 1, '.')) {
            size_t len = (size_t) (dot - key);
            if (s_under(table[row - 1].key, key, len))
                continue;
            for (size_t other = 0; other + 1 < row; other++)
                if (s_under(table[other].key, key, len))
                    return bus_error_set(
                        err, BUS_STATUS_INVALID,
                        "bad table: '%s' is not next to the other options under '%.*s'",
                        key, (int) len, key);
        }
    }
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Writing the defaults

//  True when YAML would read text differently written plain.
static bool
s_needs_quotes(const char *text)
{
    static const char *words[] = {"~",  "null", "true", "false", "yes", "no",
                                  "on", "off",  "y",    "n",     NULL};
    size_t len = strlen(text);
    if (len == 0 || strchr(" \t", text[0]) || strchr(" \t", text[len - 1]))
        return true;
    if (strchr("!&*{}[],#|>@`\"'%", text[0]))
        return true;
    if (strchr("-?:", text[0]) && (len == 1 || text[1] == ' ' || text[1] == '\t'))
        return true;
    for (const char *c = text; *c; c++)
        if (strchr(":#{}[]\"'\\", *c) || (unsigned char) *c < 0x20 || *c == 0x7F)
            return true;
    for (size_t i = 0; words[i]; i++)
        if (s_equal_nocase(text, len, words[i]))
            return true;
    return false;
}

static void
s_write_quoted(const char *text, FILE *out)
{
    fputc('"', out);
    for (const char *c = text; *c; c++) {
        unsigned char ch = (unsigned char) *c;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch == '\t')
            fputs("\\t", out);
        else if (ch == '\r')
            fputs("\\r", out);
        else if (ch < 0x20 || ch == 0x7F)
            fprintf(out, "\\x%02X", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

static void
s_write_indent(size_t level, FILE *out)
{
    fprintf(out, "%*s", (int) (level * S_INDENT), "");
}

//  ---------------------------------------------------------------------------
//  Public API

//  Fills config with every option's default: all parsed first, then stored,
//  so a bad table leaves config unchanged. Replaced strings are freed.
int
bus_config_defaults(const bus_config_option_t *table, void *config, bus_error_t *err)
{
    assert(table);
    assert(config);
    if (s_check_table(table, err) != BUS_OK)
        return -1;
    s_pending_t pending;
    if (s_pending_init(&pending, table) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t row = 0; table[row].key && rc == 0; row++) {
        const char *text = table[row].default_value ? table[row].default_value : "";
        char reason[BUS_ERROR_DETAIL_MAX];
        s_value_t value;
        int status = s_parse_value(&table[row], text, strlen(text), false, &value, reason,
                                   sizeof reason);
        if (status == BUS_OK)
            s_pending_add(&pending, &value);
        else {
            bus_error_set(err, status, "bad default: %s", reason);
            rc = -1;
        }
    }
    if (rc == 0)
        s_pending_store(&pending, config);
    s_pending_destroy(&pending);
    return rc;
}

//  Reads the whole file (up to BUS_CONFIG_SIZE_MAX) and loads it as a string.
int
bus_config_load_file(const bus_config_option_t *table,
                     void *config,
                     const char *path,
                     bus_error_t *err)
{
    assert(table);
    assert(config);
    assert(path);
    FILE *file = fopen(path, "rb");
    if (!file) {
        bus_error_set(err, BUS_STATUS_NOT_FOUND, "%s: %s", path, strerror(errno));
        return -1;
    }
    char *data = NULL;
    size_t size = 0, max = 0;
    int rc = 0;
    while (!feof(file)) {
        if (size == max) {
            if (max > BUS_CONFIG_SIZE_MAX)
                break; //  holds one byte more than allowed: too large
            size_t bigger = max ? max * 2 : S_READ_CHUNK;
            if (bigger > (size_t) BUS_CONFIG_SIZE_MAX + 1)
                bigger = (size_t) BUS_CONFIG_SIZE_MAX + 1;
            char *grown = realloc(data, bigger);
            if (!grown) {
                bus_error_set(err, BUS_STATUS_INTERNAL, "%s: out of memory", path);
                rc = -1;
                break;
            }
            data = grown;
            max = bigger;
        }
        size += fread(data + size, 1, max - size, file);
        if (ferror(file)) {
            bus_error_set(err, BUS_STATUS_NOT_FOUND, "%s: %s", path, strerror(errno));
            rc = -1;
            break;
        }
    }
    fclose(file);
    if (rc == 0)
        rc = bus_config_load_string(table, config, data ? data : "", size, path, err);
    free(data);
    return rc;
}

//  All or nothing: values reach config only when the whole document is good.
int
bus_config_load_string(const bus_config_option_t *table,
                       void *config,
                       const char *yaml,
                       size_t size,
                       const char *name,
                       bus_error_t *err)
{
    assert(table);
    assert(config);
    assert(yaml || size == 0);
    if (!name)
        name = "(string)";
    if (size > BUS_CONFIG_SIZE_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID, "%s: larger than %d bytes", name,
                      BUS_CONFIG_SIZE_MAX);
        return -1;
    }
    return s_load(table, config, yaml ? yaml : "", size, name, err);
}

//  The value is plain text, never YAML: "~" sets a string to "~".
int
bus_config_set(const bus_config_option_t *table,
               void *config,
               const char *key,
               const char *value,
               bus_error_t *err)
{
    assert(table);
    assert(config);
    assert(key);
    assert(value);
    const bus_config_option_t *option = s_find_option(table, key, strlen(key));
    if (!option) {
        bus_error_set(err, BUS_STATUS_INVALID, "unknown option '%s'", key);
        return -1;
    }
    char reason[BUS_ERROR_DETAIL_MAX];
    s_value_t parsed;
    int status = s_parse_value(option, value, strlen(value), false, &parsed, reason,
                               sizeof reason);
    if (status != BUS_OK) {
        bus_error_set(err, status, "%s", reason);
        return -1;
    }
    s_pending_t pending = {&parsed, 1, 1};
    s_pending_store(&pending, config);
    return 0;
}

//  Only the STRING and ENUM fields own memory; other fields are left alone.
void
bus_config_clear(const bus_config_option_t *table, void *config)
{
    assert(table);
    assert(config);
    for (size_t row = 0; table[row].key; row++)
        if (table[row].type == BUS_CFG_STRING || table[row].type == BUS_CFG_ENUM) {
            char **field = (char **) ((char *) config + table[row].offset);
            free(*field);
            *field = NULL;
        }
}

//  A parent map is opened the first time a row needs it and stays open while
//  the following rows share it, which is why rows must be grouped by prefix.
void
bus_config_write_defaults(const bus_config_option_t *table, FILE *out)
{
    assert(table);
    assert(out);
    const char *open = ""; //  the groups of the previous row: open[0 .. open_len)
    size_t open_len = 0;
    for (size_t row = 0; table[row].key; row++) {
        const bus_config_option_t *option = &table[row];
        const char *key = option->key;
        const char *last = strrchr(key, '.');
        size_t parent_len = last ? (size_t) (last - key) : 0;

        //  keep the groups this row shares with the previous one
        size_t common = 0;
        for (const char *dot = strchr(key, '.'); dot; dot = strchr(dot + 1, '.')) {
            size_t len = (size_t) (dot - key);
            if (len > open_len || (len < open_len && open[len] != '.') ||
                memcmp(open, key, len) != 0)
                break;
            common = len;
        }
        if (row > 0)
            fputc('\n', out);
        //  open the rest
        size_t level = 0;
        size_t start = 0;
        for (const char *dot = strchr(key, '.'); dot; dot = strchr(dot + 1, '.')) {
            size_t len = (size_t) (dot - key);
            if (len > common) {
                s_write_indent(level, out);
                fprintf(out, "%.*s:\n", (int) (len - start), key + start);
            }
            start = len + 1;
            level++;
        }
        if (option->help) {
            for (const char *line = option->help; *line;) {
                size_t line_len = strcspn(line, "\n");
                s_write_indent(level, out);
                fprintf(out, "# %.*s\n", (int) line_len, line);
                line += line_len;
                if (*line == '\n')
                    line++;
            }
        }
        s_write_indent(level, out);
        fprintf(out, "%s: ", key + start);
        const char *text = option->default_value ? option->default_value : "";
        if (option->type != BUS_CFG_BOOL && s_needs_quotes(text))
            s_write_quoted(text, out);
        else
            fputs(text, out);
        fputc('\n', out);
        open = key;
        open_len = parent_len;
    }
}
