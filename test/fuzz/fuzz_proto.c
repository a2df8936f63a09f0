/*  =========================================================================
    fuzz_proto - libFuzzer target for every generated message decoder

    The first input byte picks a registry entry (modulo proto_entry_count)
    and the rest is the message; with PROTO_FUZZ_TYPE set to a seed name
    ("service.started", "registry.peers.reply") the whole input goes to that
    entry. Each input is validated and printed, and whatever decodes must
    survive the round-trip oracle: decode, encode, decode again, and the
    prints and the bytes must match. Any difference aborts.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

//  Set by LLVMFuzzerInitialize from PROTO_FUZZ_TYPE; NULL: the first byte picks.
static const proto_entry_t *s_fixed;

//  The entry for a seed name: "name" for events, "name.request", "name.reply".
static const proto_entry_t *
s_entry_for(const char *seed)
{
    const proto_entry_t *entry = proto_lookup(seed, PROTO_EVENT);
    const char *dot = strrchr(seed, '.');
    if (entry || !dot)
        return entry;
    char *name = strndup(seed, (size_t) (dot - seed));
    if (!name)
        return NULL;
    if (strcmp(dot, ".request") == 0)
        entry = proto_lookup(name, PROTO_REQUEST);
    else if (strcmp(dot, ".reply") == 0)
        entry = proto_lookup(name, PROTO_REPLY);
    free(name);
    return entry;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void) argc;
    (void) argv;
    const char *seed = getenv("PROTO_FUZZ_TYPE");
    if (seed && *seed) {
        s_fixed = s_entry_for(seed);
        if (!s_fixed) {
            fprintf(stderr, "fuzz_proto: PROTO_FUZZ_TYPE=%s names no registry entry\n",
                    seed);
            exit(1);
        }
    }
    return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const proto_entry_t *entry = s_fixed;
    if (!entry) {
        if (size == 0)
            return 0;
        entry = &proto_entries[data[0] % proto_entry_count];
        data++;
        size--;
    }
    bus_error_t err;
    int rc = entry->validate(data, size, &err);
    char *text = entry->print(data, size);
    //  validate and print must agree, and a failure must say why.
    if (rc != err.status || (rc == BUS_OK) != (text != NULL))
        abort();
    if (rc != BUS_OK && (err.detail[0] == 0 || rc == BUS_STATUS_INTERNAL))
        abort();
    if (entry->roundtrip(data, size) != 0) {
        fprintf(stderr, "fuzz_proto: %s %s does not round-trip: %s\n", entry->name,
                proto_kind_str(entry->kind), text ? text : "(null)");
        abort();
    }
    free(text);

    //  Names come off the wire too (topics, methods): lookups must cope.
    char name[64];
    size_t len = size < sizeof name - 1 ? size : sizeof name - 1;
    memcpy(name, data, len);
    name[len] = 0;
    (void) proto_lookup(name, PROTO_EVENT);
    (void) proto_method_idempotent(name);
    return 0;
}
