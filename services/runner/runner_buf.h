/*  =========================================================================
    runner_buf.h - a growable byte queue: append at the end, consume from the
    front. Embedded by value in the runner's state (init / clear), one per
    outgoing or incoming stream.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef RUNNER_BUF_H_INCLUDED
#define RUNNER_BUF_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t *data;
    size_t start; //  first unconsumed byte
    size_t end;   //  one past the last byte
    size_t capacity;
} runner_buf_t;

//  Makes an empty queue (no allocation until the first append).
void runner_buf_init(runner_buf_t *self);

//  Frees the storage; the queue is empty and usable again afterwards.
void runner_buf_clear(runner_buf_t *self);

//  Makes room for size more bytes, so that appends totalling at most size then
//  cannot fail. Returns 0, or -1 when memory runs out.
int runner_buf_reserve(runner_buf_t *self, size_t size);

//  Copies size bytes to the end. Returns 0, or -1 when memory runs out (the
//  queue is unchanged then).
int runner_buf_append(runner_buf_t *self, const void *data, size_t size);

//  Bytes queued, and a borrowed pointer to the first of them (valid until the
//  next append or clear).
size_t runner_buf_size(const runner_buf_t *self);
const uint8_t *runner_buf_data(const runner_buf_t *self);

//  Drops size bytes (at most runner_buf_size) from the front.
void runner_buf_consume(runner_buf_t *self, size_t size);

#endif
