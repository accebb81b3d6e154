/*
 * rgb.h — colour arithmetic on rgb_t (swirl.h): mixing, scaling, and colours
 * from hue, saturation and value or lightness. Channels are 8-bit sRGB as sent
 * to the terminal; the arithmetic is done on them directly (no linear light).
 */
#ifndef SWIRL_RGB_H
#define SWIRL_RGB_H

#include "swirl.h"

/* a + (b - a) t, t clamped to [0, 1] (NaN: a). */
rgb_t rgb_mix(rgb_t a, rgb_t b, float t);
/* Each channel times s, s clamped to [0, 16] (NaN: black). */
rgb_t rgb_scale(rgb_t c, float s);
/* Hue in [0,1) (wrapped), saturation and value in [0,1] to rgb_t. */
rgb_t rgb_hsv(float h, float s, float v);
/* Hue in [0,1), saturation and lightness in [0,1] (CSS hsl()) to rgb_t. */
rgb_t rgb_hsl(float h, float s, float l);

#endif
