/*
 * encode_internal.h — private to src/gfx/encode.c (and the tests, whose model
 * terminal and multiplexer write glyphs the same way).
 */
#ifndef SWIRL_ENCODE_INTERNAL_H
#define SWIRL_ENCODE_INTERNAL_H

#include "buf.h"

#include <stdint.h>

/* Appends the UTF-8 form of code point cp. */
void encode_utf8(struct buf *out, uint32_t cp);

#endif
