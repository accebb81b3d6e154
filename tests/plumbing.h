/*
 * plumbing.h — what tests/test_plumbing.c checks each scene's parameters
 * against: for every parameter of a scene, the field it must write, written
 * apart from the scene's param_def table. Each scene of the scene table
 * (scene.h) has its list, plumbing_NAME, given once with PLUMBING() (or
 * PLUMBING_NONE() for a scene without parameters) in a test file: the present
 * scenes' in test_plumbing.c, a new scene's in its own test file. A scene of
 * the table without one leaves swirl-test unlinked (plumbing_NAME undefined).
 */
#ifndef SWIRL_PLUMBING_H
#define SWIRL_PLUMBING_H

#include "scene.h"

#include <stdbool.h>
#include <stddef.h>

enum plumbing_kind { PLUMBING_FLOAT, PLUMBING_INT, PLUMBING_BOOL };

/* A parameter (its panel label) and the field it writes: `off` bytes into
 * the scene's member() called `member`, of the type `kind`. */
struct plumbing_field {
    const char *label, *member;
    size_t off;
    enum plumbing_kind kind;
};

/* The kind of a field, from its declared type (not evaluated). */
#define PLUMBING_KIND_OF(x) _Generic((x), float: PLUMBING_FLOAT, int: PLUMBING_INT, \
                                     bool: PLUMBING_BOOL)
/* A field of the solver's parameters (the prm of the solver's struct `type`,
 * the scene's member `member`), and one of the scene's own (a member of its
 * own, of `kind`). */
#define PLUMBING_SOLVER(label, member, type, f) \
    {label, member, offsetof(type, prm.f), PLUMBING_KIND_OF(((type *)0)->prm.f)}
#define PLUMBING_OWN(label, member, kind) {label, member, 0, kind}

/* The list of the scene NAME: PLUMBING(NAME, PLUMBING_SOLVER(...), ...); with
 * no parameters, PLUMBING_NONE(NAME). */
#define PLUMBING(NAME, ...)                                                          \
    const struct plumbing_field plumbing_##NAME[] = {__VA_ARGS__};                   \
    const int plumbing_##NAME##_n = (int)(sizeof plumbing_##NAME / sizeof plumbing_##NAME[0])
#define PLUMBING_NONE(NAME)                                                          \
    const struct plumbing_field plumbing_##NAME[1] = {{NULL, NULL, 0, PLUMBING_FLOAT}}; \
    const int plumbing_##NAME##_n = 0

#define PLUMBING_EXTERN_(NAME)                                                       \
    extern const struct plumbing_field plumbing_##NAME[];                            \
    extern const int plumbing_##NAME##_n;
SCENE_TABLE(PLUMBING_EXTERN_)
#undef PLUMBING_EXTERN_

#endif
