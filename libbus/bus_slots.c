/*  =========================================================================
    bus_slots - resource slot maps: parse what users type, print what Backend.AI prints

    Amounts are exact: bytes as 64-bit integers, counts as 64-bit integers of
    thousandths, rounded half to even as Python's Decimal.quantize does. A
    bytes input is "<digits>[.<digits>][k|m|g|t|p|e][b|ib|bytes|ibytes]" with
    '_' allowed anywhere, the fraction only with a suffix, and the result
    truncated to whole bytes (Backend.AI's BinarySize); a count input is a
    decimal with an optional exponent. Both take "inf", "infinite" or
    "infinity". Anything past 2^63 - 1 of the internal unit is refused.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <math.h> //  isfinite, floor for JSON reals

typedef struct {
    const char *name;
    bus_slots_unit_t unit;
} slot_type_t;

//  Backend.AI's resource_slot_types: its six original ones, then the
//  accelerators its plugins added later (IPU, Rebellions ATOM, Gaudi 2,
//  FuriosaAI Warboy and RNGD, Hyperaccel LPU). Every accelerator is a count.
static const slot_type_t s_types[] = {
    {"cpu", BUS_SLOTS_COUNT},
    {"mem", BUS_SLOTS_BYTES},
    {"cuda.device", BUS_SLOTS_COUNT},
    {"cuda.shares", BUS_SLOTS_COUNT},
    {"rocm.device", BUS_SLOTS_COUNT},
    {"tpu.device", BUS_SLOTS_COUNT},
    {"ipu.device", BUS_SLOTS_COUNT},
    {"atom.device", BUS_SLOTS_COUNT},
    {"atom-plus.device", BUS_SLOTS_COUNT},
    {"atom-max.device", BUS_SLOTS_COUNT},
    {"gaudi2.device", BUS_SLOTS_COUNT},
    {"warboy.device", BUS_SLOTS_COUNT},
    {"rngd.device", BUS_SLOTS_COUNT},
    {"hyperaccel-lpu.device", BUS_SLOTS_COUNT},
};

#define TYPE_COUNT (sizeof s_types / sizeof s_types[0])

//  The binary suffixes, each 1024 times the one before.
static const char s_suffixes[] = "kmgtpe";

bus_slots_unit_t
bus_slots_unit(const char *name)
{
    for (size_t i = 0; name && i < TYPE_COUNT; i++)
        if (strcmp(s_types[i].name, name) == 0)
            return s_types[i].unit;
    return BUS_SLOTS_UNKNOWN;
}

bool
bus_slots_whole(const char *name)
{
    static const char suffix[] = ".device";
    size_t length = name ? strlen(name) : 0;
    return bus_slots_unit(name) == BUS_SLOTS_COUNT && length > sizeof suffix - 1 &&
           strcmp(name + length - (sizeof suffix - 1), suffix) == 0;
}

static int64_t
s_ceil_div(int64_t a, int64_t b)
{
    return a <= 0 ? 0 : a / b + (a % b != 0);
}

bool
bus_slots_pair(int64_t device_capacity,
               int64_t shares_capacity,
               int64_t device_occupied,
               int64_t shares_occupied,
               bus_slots_pair_t *pair)
{
    assert(pair);
    if (device_capacity < BUS_SLOTS_COUNT_SCALE ||
        device_capacity % BUS_SLOTS_COUNT_SCALE || shares_capacity <= 0)
        return false;
    pair->devices = device_capacity / BUS_SLOTS_COUNT_SCALE;
    pair->per = shares_capacity / pair->devices;
    if (pair->per <= 0)
        return false;
    pair->whole = s_ceil_div(device_occupied, BUS_SLOTS_COUNT_SCALE);
    pair->shares = shares_occupied < 0 ? 0 : shares_occupied;
    return true;
}

int64_t
bus_slots_pair_device_room(const bus_slots_pair_t *pair)
{
    assert(pair);
    __int128 room =
        ((__int128) pair->devices - pair->whole - s_ceil_div(pair->shares, pair->per)) *
        BUS_SLOTS_COUNT_SCALE;
    return room > 0 ? (int64_t) room : 0;
}

int64_t
bus_slots_pair_shares_room(const bus_slots_pair_t *pair)
{
    assert(pair);
    __int128 room = ((__int128) pair->devices - pair->whole) * pair->per - pair->shares;
    return room > 0 ? (int64_t) room : 0;
}

json_t *
bus_slots_known(void)
{
    json_t *known = json_object();
    for (size_t i = 0; i < TYPE_COUNT; i++)
        json_object_set_new(
            known, s_types[i].name,
            json_string(s_types[i].unit == BUS_SLOTS_BYTES ? "bytes" : "count"));
    return known;
}

//  ---------------------------------------------------------------------------
//  Parsing

//  Appends digit to *value (value * 10 + digit); false on overflow.
static bool
s_push_digit(int64_t *value, int digit)
{
    if (*value > (INT64_MAX - digit) / 10)
        return false;
    *value = *value * 10 + digit;
    return true;
}

//  Copies text without '_' and surrounding blanks, lower-cased, into out.
//  False when it does not fit.
static bool
s_clean(const char *text, char *out, size_t size)
{
    while (isspace((unsigned char) *text))
        text++;
    size_t n = 0;
    for (; *text; text++) {
        if (*text == '_')
            continue;
        if (n + 1 >= size)
            return false;
        out[n++] = (char) tolower((unsigned char) *text);
    }
    while (n > 0 && isspace((unsigned char) out[n - 1]))
        n--;
    out[n] = '\0';
    return true;
}

static bool
s_is_infinity(const char *text)
{
    if (*text == '+')
        text++;
    return strcmp(text, "inf") == 0 || strcmp(text, "infinite") == 0 ||
           strcmp(text, "infinity") == 0;
}

static bool
s_ends_with(const char *text, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && memcmp(text + len - n, suffix, n) == 0;
}

//  floor(fraction / 10^digits * 2^shift), exactly: long division by
//  doubling, every step within 64 bits because fraction < 10^digits <= 10^18.
static int64_t
s_binary_fraction(int64_t fraction, int digits, int shift)
{
    int64_t denominator = 1;
    for (int i = 0; i < digits; i++)
        denominator *= 10;
    int64_t quotient = 0, remainder = fraction;
    for (int i = 0; i < shift; i++) {
        quotient *= 2;
        remainder *= 2;
        if (remainder >= denominator) {
            quotient++;
            remainder -= denominator;
        }
    }
    return quotient;
}

//  A cleaned bytes text: BUS_OK, or -1 malformed, -2 negative, -3 too large.
static int
s_parse_bytes_text(const char *text, bus_slots_value_t *out)
{
    out->infinite = false;
    out->amount = 0;
    if (*text == '-')
        return -2;
    if (s_is_infinity(text)) {
        out->infinite = true;
        return BUS_OK;
    }
    size_t len = strlen(text);
    bool needs_suffix = false;
    if (s_ends_with(text, len, "ibytes")) {
        len -= 6;
        needs_suffix = true;
    } else if (s_ends_with(text, len, "bytes"))
        len -= 5;
    else if (s_ends_with(text, len, "ib")) {
        len -= 2;
        needs_suffix = true;
    } else if (s_ends_with(text, len, "b"))
        len -= 1;
    int shift = 0;
    if (len > 0 && isalpha((unsigned char) text[len - 1])) {
        const char *suffix = strchr(s_suffixes, text[len - 1]);
        if (!suffix)
            return -1;
        shift = 10 * (int) (suffix - s_suffixes + 1);
        len--;
    } else if (needs_suffix)
        return -1;
    //  The number: digits, then an optional fraction (only with a suffix).
    int64_t whole = 0, fraction = 0;
    int whole_digits = 0, fraction_digits = 0;
    size_t i = 0;
    if (i < len && text[i] == '+')
        i++;
    for (; i < len && isdigit((unsigned char) text[i]); i++, whole_digits++)
        if (!s_push_digit(&whole, text[i] - '0'))
            return -3;
    if (i < len && text[i] == '.') {
        for (i++; i < len && isdigit((unsigned char) text[i]); i++, fraction_digits++) {
            if (fraction_digits == BUS_SLOTS_FRACTION_MAX)
                return -1;
            fraction = fraction * 10 + (text[i] - '0');
        }
        if (shift == 0 && fraction != 0)
            return -1; //  a fraction of a byte
    }
    if (i != len || whole_digits + fraction_digits == 0)
        return -1;
    if (shift && whole > (INT64_MAX >> shift))
        return -3;
    int64_t amount = whole << shift;
    int64_t part = s_binary_fraction(fraction, fraction_digits, shift);
    if (amount > INT64_MAX - part)
        return -3;
    out->amount = amount + part;
    return BUS_OK;
}

//  A cleaned count text, in thousandths rounded half to even: BUS_OK, or
//  -1 malformed, -2 negative, -3 too large.
static int
s_parse_count_text(const char *text, bus_slots_value_t *out)
{
    out->infinite = false;
    out->amount = 0;
    bool negative = *text == '-';
    if (*text == '-' || *text == '+')
        text++;
    if (s_is_infinity(text)) {
        out->infinite = true;
        return negative ? -2 : BUS_OK;
    }
    //  Significant digits (leading zeros dropped) and the power of ten of
    //  the last one, counted in thousandths.
    char digits[BUS_SLOTS_INPUT_MAX];
    int count = 0, fraction_digits = 0, seen = 0;
    const char *p = text;
    for (; isdigit((unsigned char) *p); p++, seen++)
        if (count || *p != '0')
            digits[count++] = *p;
    if (*p == '.')
        for (p++; isdigit((unsigned char) *p); p++, seen++, fraction_digits++)
            if (count || *p != '0')
                digits[count++] = *p;
    if (seen == 0)
        return -1;
    long exponent = 0;
    if (*p == 'e') {
        char *end = NULL;
        p++;
        if (!isdigit((unsigned char) *p) && *p != '-' && *p != '+')
            return -1;
        exponent = strtol(p, &end, 10);
        if (end == p || exponent > 100 || exponent < -100)
            return -1;
        p = end;
    }
    if (*p)
        return -1;
    long scale = exponent - fraction_digits + 3; //  digits * 10^scale thousandths
    int keep = count + (int) (scale < 0 ? scale : 0);
    int64_t amount = 0;
    for (int i = 0; i < keep && i < count; i++)
        if (!s_push_digit(&amount, digits[i] - '0'))
            return -3;
    for (long i = 0; scale > 0 && i < scale && amount; i++)
        if (!s_push_digit(&amount, 0))
            return -3;
    if (keep >= 0 && keep < count) {
        //  Round half to even on the dropped digits.
        int first = digits[keep] - '0';
        bool rest = false;
        for (int i = keep + 1; i < count; i++)
            rest = rest || digits[i] != '0';
        if (first > 5 || (first == 5 && (rest || (amount & 1)))) {
            if (amount == INT64_MAX)
                return -3;
            amount++;
        }
    }
    if (negative && amount)
        return -2;
    out->amount = amount;
    return BUS_OK;
}

int
bus_slots_parse_value(bus_slots_unit_t unit,
                      const char *slot,
                      json_t *input,
                      bus_slots_value_t *out,
                      bus_error_t *err)
{
    assert(out);
    assert(unit == BUS_SLOTS_COUNT || unit == BUS_SLOTS_BYTES);
    char raw[BUS_SLOTS_INPUT_MAX + 1], text[BUS_SLOTS_INPUT_MAX + 1];
    if (json_is_integer(input))
        snprintf(raw, sizeof raw, "%" JSON_INTEGER_FORMAT, json_integer_value(input));
    else if (json_is_real(input)) {
        double real = json_real_value(input);
        if (unit == BUS_SLOTS_BYTES) {
            //  Python's JSON gives floats; a whole number of bytes is fine.
            if (!isfinite(real) || real < 0 || real != floor(real) || real >= 0x1p63)
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "Cannot convert the slot %s to bytes: %g", slot,
                                     real);
            out->infinite = false;
            out->amount = (int64_t) real;
            return BUS_OK;
        }
        snprintf(raw, sizeof raw, "%.17g", real);
    } else if (json_is_string(input)) {
        if (json_string_length(input) > BUS_SLOTS_INPUT_MAX)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "Cannot convert the slot %s: value too long", slot);
        snprintf(raw, sizeof raw, "%s", json_string_value(input));
    } else
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "Cannot convert the slot %s: expected a string or a number",
                             slot);
    bool embedded_nul = json_is_string(input) &&
                        strlen(json_string_value(input)) != json_string_length(input);
    if (embedded_nul || !s_clean(raw, text, sizeof text))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "Cannot convert the slot %s: malformed value", slot);
    int rc = unit == BUS_SLOTS_BYTES ? s_parse_bytes_text(text, out)
                                     : s_parse_count_text(text, out);
    if (rc == -2)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "The slot %s must not be negative: %.64s", slot, raw);
    if (rc == -3)
        return bus_error_set(err, BUS_STATUS_INVALID, "The slot %s is too large: %.64s",
                             slot, raw);
    if (rc != BUS_OK)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "Cannot convert the slot %s to %s: %.64s", slot,
                             unit == BUS_SLOTS_BYTES ? "bytes" : "a decimal", raw);
    return BUS_OK;
}

void
bus_slots_format_value(bus_slots_unit_t unit, const bus_slots_value_t *value, char *out)
{
    assert(value && out);
    if (value->infinite) {
        snprintf(out, BUS_SLOTS_VALUE_MAX, "Infinity");
        return;
    }
    if (unit == BUS_SLOTS_BYTES) {
        snprintf(out, BUS_SLOTS_VALUE_MAX, "%" PRId64, value->amount);
        return;
    }
    int64_t whole = value->amount / BUS_SLOTS_COUNT_SCALE;
    int64_t part = value->amount % BUS_SLOTS_COUNT_SCALE;
    if (part == 0) {
        snprintf(out, BUS_SLOTS_VALUE_MAX, "%" PRId64, whole);
        return;
    }
    int n = snprintf(out, BUS_SLOTS_VALUE_MAX, "%" PRId64 ".%03" PRId64, whole, part);
    while (n > 0 && out[n - 1] == '0')
        out[--n] = '\0';
}

int
bus_slots_parse(json_t *input, json_t **out, bus_error_t *err)
{
    assert(out);
    *out = NULL;
    json_t *parsed = NULL;
    if (json_is_string(input)) {
        parsed = json_loads(json_string_value(input), JSON_DECODE_ANY, NULL);
        input = parsed;
    }
    if (!json_is_object(input)) {
        json_decref(parsed);
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "resource slots must be a JSON object");
    }
    json_t *slots = json_object();
    const char *name;
    json_t *value;
    int rc = BUS_OK;
    json_object_foreach(input, name, value)
    {
        if (json_is_null(value))
            continue;
        bus_slots_unit_t unit = bus_slots_unit(name);
        if (unit == BUS_SLOTS_UNKNOWN) {
            rc = bus_error_set(err, BUS_STATUS_INVALID, "Unknown slot type: %.64s", name);
            break;
        }
        bus_slots_value_t amount;
        rc = bus_slots_parse_value(unit, name, value, &amount, err);
        if (rc != BUS_OK)
            break;
        if (!amount.infinite && amount.amount == 0)
            continue;
        char text[BUS_SLOTS_VALUE_MAX];
        bus_slots_format_value(unit, &amount, text);
        json_object_set_new(slots, name, json_string(text));
    }
    json_decref(parsed);
    if (rc != BUS_OK) {
        json_decref(slots);
        return rc;
    }
    *out = slots;
    return BUS_OK;
}

int
bus_slots_parse_bytes(const char *label, json_t *input, int64_t *bytes, bus_error_t *err)
{
    assert(bytes);
    bus_slots_value_t value;
    int rc = bus_slots_parse_value(BUS_SLOTS_BYTES, label, input, &value, err);
    if (rc != BUS_OK)
        return rc;
    if (value.infinite)
        return bus_error_set(err, BUS_STATUS_INVALID, "%s cannot be unlimited", label);
    *bytes = value.amount;
    return BUS_OK;
}
