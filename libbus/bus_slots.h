/*  =========================================================================
    bus_slots - resource slot maps: parse what users type, print what Backend.AI prints

    A resource slot map names an amount per slot type: {"cpu": "2", "mem":
    "4294967296", "cuda.shares": "0.5"}. Each known slot type has a unit:
    "count" (decimals kept to three places) or "bytes" (whole bytes; input
    may carry binary suffixes such as "1g" or "512MiB"). Either may be
    unlimited: "inf" in, "Infinity" out. Users send values as strings or
    numbers; the normalized map drops zero amounts and holds decimal strings
    without exponent, which is the form Backend.AI stores and answers with
    (reference §8). Pure code, no I/O.

    The known slot types are a static table: Backend.AI's resource slot
    types (cpu, mem and the accelerators' *.device and cuda.shares slots).
    An agent's accelerator plugins declare slots from this table.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_SLOTS_H_INCLUDED
#define BUS_SLOTS_H_INCLUDED

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "bus_status.h"

#define BUS_SLOTS_VALUE_MAX    32   //  longest formatted amount, with its NUL
#define BUS_SLOTS_INPUT_MAX    64   //  longest accepted input text for one amount
#define BUS_SLOTS_COUNT_SCALE  1000 //  a count keeps three decimal places
#define BUS_SLOTS_FRACTION_MAX 18   //  digits after the point a bytes input may have
//  In an agent's refusal of kernel.create (BUS_STATUS_CONFLICT): the
//  accelerators asked for do not fit its devices now, which the scheduler
//  answers by putting the session back in the queue.
#define BUS_SLOTS_NO_FIT "does not fit"

typedef enum {
    BUS_SLOTS_UNKNOWN = -1,
    BUS_SLOTS_COUNT,
    BUS_SLOTS_BYTES,
} bus_slots_unit_t;

//  One amount: bytes, or thousandths of a count; or unlimited.
typedef struct {
    bool infinite;
    int64_t amount;
} bus_slots_value_t;

//  The unit of a known slot type, BUS_SLOTS_UNKNOWN for any other name.
bus_slots_unit_t bus_slots_unit(const char *name);

//  Whether name is a known slot of whole devices (Backend.AI's "<x>.device"
//  convention: cuda.device, rocm.device...), whose amounts are whole
//  numbers; cuda.shares and cpu take fractions.
bool bus_slots_whole(const char *name);

//  An accelerator offered both whole (<p>.device) and as shares (<p>.shares)
//  over the same devices, where each device is given either way, never
//  both: its devices, shares per device, devices held whole and shares in
//  use (thousandths). The scheduler's pass and the gateway's check-presets
//  count it the same way through it.
typedef struct {
    int64_t devices; //  whole devices
    int64_t per;     //  shares per device, thousandths
    int64_t whole;   //  devices held whole
    int64_t shares;  //  shares in use, thousandths
} bus_slots_pair_t;

//  Reads a pair from the two slots' capacities and occupied amounts
//  (thousandths). False when the capacities do not make whole devices with
//  shares on each (then the slots are not tied).
bool bus_slots_pair(int64_t device_capacity,
                    int64_t shares_capacity,
                    int64_t device_occupied,
                    int64_t shares_occupied,
                    bus_slots_pair_t *pair);

//  What one more kernel could still be given of the device slot
//  (thousandths: devices neither held whole nor holding shares, the shares
//  packed) and of the shares slot (those of devices not held whole, less
//  those in use); never below zero.
int64_t bus_slots_pair_device_room(const bus_slots_pair_t *pair);
int64_t bus_slots_pair_shares_room(const bus_slots_pair_t *pair);

//  Every known slot type and its unit, {"cpu": "count", "mem": "bytes", ...},
//  as GET /config/resource-slots answers. Caller owns return value.
json_t *bus_slots_known(void);

//  Parses one amount of unit from a JSON string or number. Negative,
//  malformed or too large amounts are BUS_STATUS_INVALID with a detail that
//  names slot (any label, for the message only).
int bus_slots_parse_value(bus_slots_unit_t unit,
                          const char *slot,
                          json_t *input,
                          bus_slots_value_t *out,
                          bus_error_t *err);

//  Writes value as a decimal string without exponent ("2", "0.5",
//  "1073741824", "Infinity") into out, which holds BUS_SLOTS_VALUE_MAX bytes.
void
bus_slots_format_value(bus_slots_unit_t unit, const bus_slots_value_t *value, char *out);

//  Normalizes a user's slot map: input is a JSON object, or a JSON string
//  holding one (GraphQL's JSONString); null members are skipped, zero
//  amounts dropped. On BUS_OK *out is the normalized object of strings
//  (caller owns it). An unknown slot is BUS_STATUS_INVALID "Unknown slot
//  type: X"; any bad value BUS_STATUS_INVALID too.
int bus_slots_parse(json_t *input, json_t **out, bus_error_t *err);

//  A single bytes amount (shared memory, say) as a whole number of bytes;
//  unlimited is refused. BUS_OK or BUS_STATUS_INVALID.
int
bus_slots_parse_bytes(const char *label, json_t *input, int64_t *bytes, bus_error_t *err);

#endif
