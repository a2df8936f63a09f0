/*  =========================================================================
    bus_hex - the value of a hexadecimal digit

    Chunk sizes (the storage-proxy's fetch, the wsproxy's relay) and
    percent-escapes (the gateway's web guard) read hex digits one at a
    time; this is the one place that knows them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_HEX_H_INCLUDED
#define BUS_HEX_H_INCLUDED

//  0..15 for '0'-'9', 'a'-'f' and 'A'-'F'; -1 for any other byte.
static inline int
bus_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif
