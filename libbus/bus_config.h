/*  =========================================================================
    bus_config - table-driven configuration from one YAML file per service

    A service describes its options in a table of bus_config_option_t rows:
    dotted key, type, where the value goes in its config struct, the default
    as text, the allowed range and a one-line help. The loader applies the
    defaults, then the file, then --set KEY=VALUE overrides from the command
    line. An unknown key, a wrong type or a value out of range stops start-up
    with "FILE:LINE:COLUMN: reason".

    The file is one YAML mapping; nested mappings build the dotted keys
    ("bus: {rpc_timeout_ms: 5000}" sets "bus.rpc_timeout_ms", and so does the
    flat "bus.rpc_timeout_ms: 5000"). Values are scalars: lists, anchors,
    aliases, tags, duplicate keys and a second document are errors. An empty
    file, or one with only comments, changes nothing; so does a group written
    with no value ("bus:" with every option under it commented out).

    Values, whether from the file, --set or a table default, go through the
    same parser. A default is the value's text as --set takes it (no YAML
    quoting). STRING: any text up to max bytes (max 0 = any length); in a
    file a plain null (nothing, "~", "null") is the empty string. INT:
    decimal with an optional sign. BOOL: true/false/yes/no/on/off in any case.
    BYTES: digits with an optional k, m, g or t suffix in binary units
    (1k = 1024), which may be followed by "i" and/or "b" ("64KiB", "2g").
    ENUM: exactly one of the choices.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_CONFIG_H_INCLUDED
#define BUS_CONFIG_H_INCLUDED

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bus_status.h"

//  A config file larger than this many bytes is refused.
#define BUS_CONFIG_SIZE_MAX (1024 * 1024)

typedef enum {
    BUS_CFG_STRING, //  char *, owned by the config struct (freed by bus_config_clear)
    BUS_CFG_INT,    //  int, within [min, max]
    BUS_CFG_BOOL,   //  bool: true/false/yes/no/on/off
    BUS_CFG_BYTES,  //  int64_t bytes; accepts 512, 64k, 256m, 2g (binary units)
    BUS_CFG_ENUM    //  char *, one of the '|'-separated words in choices
} bus_config_type_t;

//  Keys are words of letters, digits, '_' and '-' joined by dots. Rows that
//  share a prefix must be next to each other, in the order the file should
//  show them (bus_config_defaults checks this).
typedef struct {
    const char *key; //  "bus.rpc_timeout_ms": nested maps joined by dots
    bus_config_type_t type;
    size_t offset;             //  offsetof (service_config_t, field)
    const char *default_value; //  the value's text, as --set takes it
    int64_t min;               //  INT/BYTES: smallest allowed value
    int64_t max;               //  INT/BYTES: largest; STRING: longest length (0 = any)
    const char *choices;       //  ENUM: "fifo|lifo|drf"
    const char *help;          //  one line, shown by --help-config
} bus_config_option_t;

//  Tables end with a row whose key is NULL.
// clang-format off
#define BUS_CONFIG_END {NULL, 0, 0, NULL, 0, 0, NULL, NULL}
// clang-format on

//  Fills config with every option's default. config must start zeroed (or
//  hold values set through this table): string fields it replaces are freed.
//  0, or -1 with err (a bad table: bad default, bad or duplicate key, rows of
//  one group not next to each other); then config is left unchanged.
int bus_config_defaults(const bus_config_option_t *table, void *config, bus_error_t *err);

//  Applies a YAML file over the current values. 0, or -1 with err->detail
//  "PATH:LINE:COLUMN: reason" (unknown key, wrong type, out of range,
//  duplicate key, malformed YAML) and err->status BUS_STATUS_INVALID, or
//  "PATH: reason" and BUS_STATUS_NOT_FOUND when the file cannot be read.
//  All or nothing: after a failure config keeps every earlier value.
int bus_config_load_file(const bus_config_option_t *table,
                         void *config,
                         const char *path,
                         bus_error_t *err);

//  The same from a buffer; name stands for the path in messages.
int bus_config_load_string(const bus_config_option_t *table,
                           void *config,
                           const char *yaml,
                           size_t size,
                           const char *name,
                           bus_error_t *err);

//  Sets one option from text (command-line override). 0, or -1 with err
//  ("unknown option 'x'", or why the value is refused); then config is unchanged.
int bus_config_set(const bus_config_option_t *table,
                   void *config,
                   const char *key,
                   const char *value,
                   bus_error_t *err);

//  Frees every string the table owns in config and zeroes those fields.
void bus_config_clear(const bus_config_option_t *table, void *config);

//  Writes the table as a commented YAML document at the defaults: the
//  format of config/<service>.yaml. Used by --help-config and by a test
//  that keeps config/<service>.yaml in step with the tables. Each option comes with
//  its help as a "# " line above it; there is no header. Loading the output
//  gives exactly the defaults, for any table bus_config_defaults accepts.
void bus_config_write_defaults(const bus_config_option_t *table, FILE *out);

#endif
