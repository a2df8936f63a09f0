/*  =========================================================================
    ttyd_buf - a bounded byte queue: append at the end, consume from the
    front, never more than its max

    Every queue of a connection (what came from the socket, what goes to it,
    what goes to the shell) is one of these, so a client that floods or one
    that stops reading cannot grow the program's memory past the sum of the
    maxima: the loop stops reading whatever would pass one.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "ttyd_classes.h"

void
ttyd_buf_init(ttyd_buf_t *self, size_t max)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->max = max;
}

void
ttyd_buf_clear(ttyd_buf_t *self)
{
    assert(self);
    free(self->data);
    self->data = NULL;
    self->start = self->end = self->capacity = 0;
}

size_t
ttyd_buf_size(const ttyd_buf_t *self)
{
    return self->end - self->start;
}

uint8_t *
ttyd_buf_data(ttyd_buf_t *self)
{
    return self->data ? self->data + self->start : NULL;
}

size_t
ttyd_buf_room(const ttyd_buf_t *self)
{
    return self->max - ttyd_buf_size(self);
}

uint8_t *
ttyd_buf_reserve(ttyd_buf_t *self, size_t size)
{
    size_t used = ttyd_buf_size(self);
    if (size > self->max - used)
        return NULL;
    if (self->end + size > self->capacity) {
        //  Move what is queued to the front first; grow only if that is not enough.
        if (self->start > 0 && used)
            memmove(self->data, self->data + self->start, used);
        self->start = 0;
        self->end = used;
        if (used + size > self->capacity) {
            size_t capacity = self->capacity ? self->capacity : 1024;
            while (capacity < used + size)
                capacity *= 2;
            if (capacity > self->max)
                capacity = self->max;
            uint8_t *data = realloc(self->data, capacity ? capacity : 1);
            if (!data)
                return NULL;
            self->data = data;
            self->capacity = capacity;
        }
    }
    return self->data + self->end;
}

void
ttyd_buf_commit(ttyd_buf_t *self, size_t n)
{
    assert(self->end + n <= self->capacity);
    self->end += n;
}

int
ttyd_buf_append(ttyd_buf_t *self, const void *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t *at = ttyd_buf_reserve(self, size);
    if (!at)
        return -1;
    if (size)
        memcpy(at, data, size);
    ttyd_buf_commit(self, size);
    return 0;
}

void
ttyd_buf_consume(ttyd_buf_t *self, size_t size)
{
    assert(size <= ttyd_buf_size(self));
    self->start += size;
    if (self->start == self->end)
        self->start = self->end = 0;
}
