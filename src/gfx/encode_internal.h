/*
 * encode_internal.h — private to src/gfx/encode.c (and the tests, whose model
 * terminal and multiplexer write glyphs the same way, and whose screen behind
 * a simulated link is judged as the encoder judges cells).
 */
#ifndef SWIRL_ENCODE_INTERNAL_H
#define SWIRL_ENCODE_INTERNAL_H

#include "buf.h"
#include "cells.h"

#include <stdint.h>

/* Appends the UTF-8 form of code point cp. */
void encode_utf8(struct buf *out, uint32_t cp);
/* How far cells shown (as many as s has: the shadow, say) are from s: the
 * mean over the cells of the most a colour they show is off, 0..255 (256 for
 * a cell of another glyph), each cell's also into err (NULL: not wanted). */
double encode_cells_error(const struct cell *shown, const struct cells *s, unsigned short *err);

#endif
