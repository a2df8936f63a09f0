/*  =========================================================================
    runner_buf - a growable byte queue for the runner's streams

    Consumed bytes stay in front until an append needs the room, then the live
    bytes move down (or the block doubles), so a stream that is drained as fast as
    it fills never reallocates.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"

//  First allocation; later ones double.
#define S_INITIAL_CAPACITY 4096

void
runner_buf_init(runner_buf_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
runner_buf_clear(runner_buf_t *self)
{
    assert(self);
    free(self->data);
    runner_buf_init(self);
}

int
runner_buf_reserve(runner_buf_t *self, size_t size)
{
    assert(self);
    if (self->capacity - self->end < size) {
        size_t live = self->end - self->start;
        if (self->start > 0 && self->capacity - live >= size) {
            memmove(self->data, self->data + self->start, live);
        } else {
            size_t capacity = self->capacity ? self->capacity : S_INITIAL_CAPACITY;
            while (capacity - live < size) {
                if (capacity > SIZE_MAX / 2)
                    return -1;
                capacity *= 2;
            }
            uint8_t *grown = malloc(capacity);
            if (!grown)
                return -1;
            if (live)
                memcpy(grown, self->data + self->start, live);
            free(self->data);
            self->data = grown;
            self->capacity = capacity;
        }
        self->start = 0;
        self->end = live;
    }
    return 0;
}

int
runner_buf_append(runner_buf_t *self, const void *data, size_t size)
{
    assert(self);
    if (size == 0)
        return 0;
    if (runner_buf_reserve(self, size) != 0)
        return -1;
    memcpy(self->data + self->end, data, size);
    self->end += size;
    return 0;
}

size_t
runner_buf_size(const runner_buf_t *self)
{
    assert(self);
    return self->end - self->start;
}

const uint8_t *
runner_buf_data(const runner_buf_t *self)
{
    assert(self);
    return self->data + self->start;
}

void
runner_buf_consume(runner_buf_t *self, size_t size)
{
    assert(self);
    assert(size <= self->end - self->start);
    self->start += size;
    if (self->start == self->end)
        self->start = self->end = 0;
}
