/*
 * param.h — a scene's tunable numbers, as the panel shows them and --set sets them.
 * Each is a const definition pointing at the one place its value lives: an
 * offset into the scene's state, usually a field of the solver's parameter struct.
 */
#ifndef SWIRL_PARAM_H
#define SWIRL_PARAM_H

#include <stdbool.h>
#include <stddef.h>

enum param_type { PARAM_FLOAT, PARAM_INT, PARAM_BOOL };

enum {
    PARAM_RESTART = 1,   /* changing it restarts the scene */
    PARAM_LOG = 2,       /* steps multiply by `step` instead of adding it */
    PARAM_ZERO = 4,      /* 0 means off; a step below `min` goes to 0 */
};

#define PARAM_CHOICES_MAX 8

/* The definition points straight at the value (a float, an int or a bool, as
 * `type` says): there is no second copy to keep in step. The panel and the
 * command line read and write that field through param_read/param_write, and
 * the scene is told which parameter changed so it can restart or re-derive what
 * depends on it. */
struct param_def {
    const char *label;   /* the panel's label, e.g. "max iterations" */
    enum param_type type;
    size_t offset;       /* of the value in the scene's state (offsetof) */
    float min, max, step;
    int flags;
    const char *unit;    /* shown after the value, or NULL */
    int nchoices;        /* PARAM_INT: the only values allowed, ascending */
    int choices[PARAM_CHOICES_MAX];
};

/* A definition in one line: PARAM_DEF("iterations", PARAM_INT, offsetof(...), 1,
 * 200, 1, 0, NULL). */
#define PARAM_DEF(label_, type_, offset_, min_, max_, step_, flags_, unit_)              \
    {.label = (label_), .type = (type_), .offset = (offset_), .min = (min_), .max = (max_), \
     .step = (step_), .flags = (flags_), .unit = (unit_)}

/* Values travel as doubles. The value at base + d->offset, and writing one
 * there (converted to the field's type; the value must be param_valid). */
double param_read(const struct param_def *d, const void *base);
void param_write(const struct param_def *d, void *base, double v);
/* Whether v is allowed: within [min, max], whole for PARAM_INT, 0/1 for
 * PARAM_BOOL, one of `choices` when given, or 0 for a PARAM_ZERO parameter,
 * whose 0 means off. */
bool param_valid(const struct param_def *d, double v);
/* The value one step up (dir > 0) or down from v (the panel's Left/Right):
 * `step` added, or multiplied for PARAM_LOG, the next of `choices`, off below
 * `min`; kept within the range; v itself when there is nowhere to go. */
double param_next(const struct param_def *d, double v, int dir);

/* Text: the command line's name (the label in lower case with hyphens for
 * spaces: "max-iterations"), a value as the panel shows
 * it ("0.005", "on", "off", "2.5 %"), the allowed values ("1 to 500, whole",
 * "1, 2 or 4", "on or off", "off, or 1e-08 to 1"). */
void param_name(const struct param_def *d, char *out, size_t n);
void param_format(const struct param_def *d, double v, char *out, size_t n);
void param_range(const struct param_def *d, char *out, size_t n);
/* Parses a value typed for d ("20", "0.01", "on", "off"); returns 0 and sets
 * *v, or -1 when it is not a number or not allowed. */
int param_parse(const struct param_def *d, const char *s, double *v);
/* strtod() in the C locale whatever the program's: "0.5" is a half under a
 * comma-decimal LC_NUMERIC too (and "0,5" is not a number). */
double param_strtod(const char *s, char **end);

#endif
