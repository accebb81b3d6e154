/*
 * param.c — reading, writing, stepping and naming scene parameters (see param.h).
 *
 * A value lives in the scene's state as a float, an int or a bool; here it is a
 * double on the way in and out. Float parameters are compared and stepped in
 * float, the type they are stored in, so that a value typed on the command line
 * or reached by steps lands exactly on what the panel shows (0.001 + 0.001 is
 * 0.002, and --set time-step=0.001 is the range's own 0.001f).
 */
#include "param.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

double param_read(const struct param_def *d, const void *base)
{
    const char *p = (const char *)base + d->offset;
    switch (d->type) {
    case PARAM_INT: return (double)*(const int *)(const void *)p;
    case PARAM_BOOL: return *(const bool *)(const void *)p ? 1.0 : 0.0;
    default: return (double)*(const float *)(const void *)p;
    }
}

void param_write(const struct param_def *d, void *base, double v)
{
    char *p = (char *)base + d->offset;
    switch (d->type) {
    case PARAM_INT: *(int *)(void *)p = (int)lround(v); break;
    case PARAM_BOOL: *(bool *)(void *)p = v != 0.0; break;
    default: *(float *)(void *)p = (float)v; break;
    }
}

static int choice_index(const struct param_def *d, double v)
{
    int best = 0;
    for (int i = 1; i < d->nchoices; i++)
        if (fabs(d->choices[i] - v) < fabs(d->choices[best] - v))
            best = i;
    return best;
}

bool param_valid(const struct param_def *d, double v)
{
    if (!isfinite(v))
        return false;
    if ((d->flags & PARAM_ZERO) && v == 0.0)
        return true;
    switch (d->type) {
    case PARAM_BOOL: return v == 0.0 || v == 1.0;
    case PARAM_INT:
        if (v != floor(v) || v < d->min || v > d->max)
            return false;
        return d->nchoices == 0 || d->choices[choice_index(d, v)] == v;
    default: {
        float f = (float)v;
        return f >= d->min && f <= d->max;
    }
    }
}

double param_next(const struct param_def *d, double v, int dir)
{
    if (d->nchoices > 0) {
        int i = choice_index(d, v) + (dir > 0 ? 1 : -1);
        return i < 0 || i >= d->nchoices ? v : d->choices[i];
    }
    float cur = (float)v, nv;
    if ((d->flags & PARAM_ZERO) && cur == 0.0f)
        return dir > 0 ? d->min : 0.0; /* from off to the smallest value */
    if (d->flags & PARAM_LOG)
        nv = dir > 0 ? cur * d->step : cur / d->step;
    else
        nv = cur + (float)dir * d->step;
    if ((d->flags & PARAM_ZERO) && nv < d->min * 0.999f)
        return 0.0; /* below the smallest value: off */
    if (d->type != PARAM_FLOAT)
        nv = roundf(nv);
    else if (!(d->flags & PARAM_LOG)) /* sums of steps stay on the step grid */
        nv = roundf(nv / d->step) * d->step;
    nv = nv < d->min ? d->min : nv > d->max ? d->max : nv;
    return nv;
}

void param_name(const struct param_def *d, char *out, size_t n)
{
    size_t i = 0;
    for (const char *s = d->label; *s && i + 1 < n; s++)
        out[i++] = *s == ' ' ? '-' : (char)((*s >= 'A' && *s <= 'Z') ? *s - 'A' + 'a' : *s);
    if (n)
        out[i] = 0;
}

void param_format(const struct param_def *d, double v, char *out, size_t n)
{
    if (d->type == PARAM_BOOL)
        snprintf(out, n, "%s", v != 0.0 ? "on" : "off");
    else if ((d->flags & PARAM_ZERO) && v == 0.0)
        snprintf(out, n, "off");
    else
        snprintf(out, n, "%.4g%s%s", v, d->unit ? " " : "", d->unit ? d->unit : "");
}

void param_range(const struct param_def *d, char *out, size_t n)
{
    if (d->type == PARAM_BOOL) {
        snprintf(out, n, "on or off");
        return;
    }
    if (d->nchoices > 0) {
        size_t len = 0;
        out[0] = 0;
        for (int i = 0; i < d->nchoices && len < n; i++)
            len += (size_t)snprintf(out + len, n - len, "%s%d",
                                    i == 0 ? "" : i + 1 == d->nchoices ? " or " : ", ",
                                    d->choices[i]);
        return;
    }
    snprintf(out, n, "%s%g to %g%s", d->flags & PARAM_ZERO ? "off, or " : "", (double)d->min,
             (double)d->max, d->type == PARAM_INT ? ", whole" : "");
}

int param_parse(const struct param_def *d, const char *s, double *v)
{
    static const char *const on[] = {"on", "true", "yes"}, *const off[] = {"off", "false", "no"};
    for (int i = 0; i < 3; i++) {
        if (strcasecmp(s, on[i]) == 0 && d->type == PARAM_BOOL)
            return *v = 1.0, 0;
        if (strcasecmp(s, off[i]) == 0 && (d->type == PARAM_BOOL || (d->flags & PARAM_ZERO)))
            return *v = 0.0, 0;
    }
    char *end;
    double x = param_strtod(s, &end);
    if (end == s || *end || !param_valid(d, x))
        return -1;
    *v = x;
    return 0;
}

double param_strtod(const char *s, char **end)
{
    /* This thread alone reads numbers the C way for the one call. */
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (c == (locale_t)0)
        return strtod(s, end);
    locale_t was = uselocale(c);
    double x = strtod(s, end);
    int e = errno; /* strtod's ERANGE, whatever the calls after it do */
    uselocale(was);
    freelocale(c);
    errno = e;
    return x;
}
