/*
 * rgb.c — colour arithmetic on rgb_t (0xRRGGBB, sRGB as sent; see rgb.h).
 */
#include "rgb.h"

#include <math.h>

rgb_t rgb_mix(rgb_t a, rgb_t b, float t)
{
    t = clampf(t, 0.0f, 1.0f);
    int r = rgb_r(a) + (int)lrintf((float)(rgb_r(b) - rgb_r(a)) * t);
    int g = rgb_g(a) + (int)lrintf((float)(rgb_g(b) - rgb_g(a)) * t);
    int bl = rgb_b(a) + (int)lrintf((float)(rgb_b(b) - rgb_b(a)) * t);
    return RGB(r, g, bl);
}

rgb_t rgb_scale(rgb_t c, float s)
{
    s = clampf(s, 0.0f, 16.0f);
    int r = clampi((int)lrintf((float)rgb_r(c) * s), 0, 255);
    int g = clampi((int)lrintf((float)rgb_g(c) * s), 0, 255);
    int b = clampi((int)lrintf((float)rgb_b(c) * s), 0, 255);
    return RGB(r, g, b);
}

rgb_t rgb_hsv(float h, float s, float v)
{
    h = h - floorf(h);
    if (!isfinite(h))
        h = 0.0f;
    s = clampf(s, 0.0f, 1.0f);
    v = clampf(v, 0.0f, 1.0f);
    float f = h * 6.0f;
    int i = (int)f % 6;
    float fr = f - floorf(f);
    float p = v * (1 - s), q = v * (1 - s * fr), t = v * (1 - s * (1 - fr));
    float r, g, b;
    switch (i) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
    }
    return RGB((int)lrintf(r * 255), (int)lrintf(g * 255), (int)lrintf(b * 255));
}

rgb_t rgb_hsl(float h, float s, float l)
{
    s = clampf(s, 0.0f, 1.0f);
    l = clampf(l, 0.0f, 1.0f);
    float v = l + s * fminf(l, 1.0f - l);
    return rgb_hsv(h, v > 0.0f ? 2.0f * (1.0f - l / v) : 0.0f, v);
}
