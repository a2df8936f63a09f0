//  GENERATED FROM proto/policy.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_policy - resource policies as the gateway changes them, for services
    that enforce them

    Structs and codecs of the policy domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_POLICY_H_INCLUDED
#define PROTO_POLICY_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_POLICY_CHANGED       "policy.changed"
#define PROTO_POLICY_SCALING_GROUP "policy.scaling_group"

//  ---------------------------------------------------------------------------
//  policy.changed, event (broadcast, durable): a keypair, user or project resource policy
//  was created, modified or deleted

typedef struct {
    //  Keypair, user or project (required, at most 16 bytes)
    const char *kind;
    //  The policy's name (required, at most 64 bytes)
    const char *name;
    //  True when the policy was deleted
    bool deleted;
    //  The whole policy as a JSON object (absent when deleted) (at most 65536 bytes)
    const char *policy;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_policy_changed_t;

#define PROTO_POLICY_CHANGED_KIND_MAX   16
#define PROTO_POLICY_CHANGED_NAME_MAX   64
#define PROTO_POLICY_CHANGED_POLICY_MAX 65536

void proto_policy_changed_init(proto_policy_changed_t *self);
void proto_policy_changed_clear(proto_policy_changed_t *self);
PROTO_MUST_USE int proto_policy_changed_check(const proto_policy_changed_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_policy_changed_write(const proto_policy_changed_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_policy_changed_encode(const proto_policy_changed_t *self);
int proto_policy_changed_read(proto_policy_changed_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_policy_changed_decode(proto_policy_changed_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_policy_changed_print(const proto_policy_changed_t *self);

//  ---------------------------------------------------------------------------
//  policy.scaling_group, event (broadcast, durable): a resource group's scheduling rules
//  were created, changed or deleted

typedef struct {
    //  The resource group (required, at most 64 bytes)
    const char *name;
    //  True when the group was deleted
    bool deleted;
    //  Fifo, lifo, drf or priority (at most 16 bytes)
    const char *scheduler;
    //  JSON object: agent_selector, num_retries_to_skip, pending_timeout, aging_sec, idle
    //  and lifetime rules (at most 65536 bytes)
    const char *scheduler_opts;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_policy_scaling_group_t;

#define PROTO_POLICY_SCALING_GROUP_NAME_MAX           64
#define PROTO_POLICY_SCALING_GROUP_SCHEDULER_MAX      16
#define PROTO_POLICY_SCALING_GROUP_SCHEDULER_OPTS_MAX 65536

void proto_policy_scaling_group_init(proto_policy_scaling_group_t *self);
void proto_policy_scaling_group_clear(proto_policy_scaling_group_t *self);
PROTO_MUST_USE int proto_policy_scaling_group_check(const proto_policy_scaling_group_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_policy_scaling_group_write(const proto_policy_scaling_group_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_policy_scaling_group_encode(const proto_policy_scaling_group_t *self);
int proto_policy_scaling_group_read(proto_policy_scaling_group_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_policy_scaling_group_decode(proto_policy_scaling_group_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_policy_scaling_group_print(const proto_policy_scaling_group_t *self);

#endif
