/*
 * test_plumbing.c — each scene parameter reaches exactly the field it names.
 *
 * Each scene's list (plumbing.h: the present scenes' below, a new scene's in
 * its own test file, found by the scene table) says, for every parameter of
 * the scene, which field it must write: a field of the solver's own struct
 * (the dye's struct fluid, pbf's struct pbf, the cloth's struct cloth,
 * reached through the public headers) or one of the scene's own, each found
 * through the scene's member() operation, which is written apart from the
 * scene's param_def table. A parameter is set
 * to a value other than the one it starts with, by scene_param_set, by the
 * panel's keys and by --set (the app's options), and that very field is read
 * back; the fields of all the other parameters must not move. So one offsetof
 * in a scene's table that points at a neighbour fails here, which a test of
 * "the run differs" may not see. Last, the dye solver: each of the fields the
 * panel sets does its own job in a step, so a solver reading one field for
 * another fails too.
 */
#include "app.h"
#include "cloth.h"
#include "fluid.h"
#include "pbf.h"
#include "plumbing.h"
#include "swirl.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

PLUMBING(dye,
    PLUMBING_SOLVER("viscosity", "fluid", struct fluid, viscosity),
    PLUMBING_SOLVER("dye diffusion", "fluid", struct fluid, diffusion),
    PLUMBING_SOLVER("dye decay", "fluid", struct fluid, decay),
    PLUMBING_SOLVER("velocity dissipation", "fluid", struct fluid, dissipation),
    PLUMBING_SOLVER("vorticity", "fluid", struct fluid, vorticity),
    PLUMBING_OWN("force", "force", PLUMBING_FLOAT),
    PLUMBING_OWN("splat radius", "radius", PLUMBING_FLOAT),
    PLUMBING_SOLVER("pressure accuracy", "fluid", struct fluid, tolerance),
    PLUMBING_OWN("grid scale", "scale", PLUMBING_INT),
    PLUMBING_OWN("shading", "shading", PLUMBING_BOOL));

PLUMBING(pbf,
    PLUMBING_OWN("block width", "block_w", PLUMBING_INT),
    PLUMBING_OWN("block height", "block_h", PLUMBING_INT),
    PLUMBING_SOLVER("time step", "pbf", struct pbf, dt),
    PLUMBING_SOLVER("max density error", "pbf", struct pbf, max_error_pct),
    PLUMBING_SOLVER("max iterations", "pbf", struct pbf, max_iter),
    PLUMBING_SOLVER("viscosity", "pbf", struct pbf, viscosity),
    PLUMBING_SOLVER("rest damping", "pbf", struct pbf, rest_damping),
    PLUMBING_SOLVER("rest speed", "pbf", struct pbf, rest_speed),
    PLUMBING_SOLVER("gravity", "pbf", struct pbf, gravity),
    PLUMBING_SOLVER("tensile s_corr", "pbf", struct pbf, scorr),
    PLUMBING_SOLVER("vorticity", "pbf", struct pbf, vorticity));

PLUMBING(cloth,
    PLUMBING_SOLVER("width", "cloth", struct cloth, w),
    PLUMBING_SOLVER("height", "cloth", struct cloth, h),
    PLUMBING_SOLVER("fixed particles", "cloth", struct cloth, fixed),
    PLUMBING_SOLVER("time step", "cloth", struct cloth, dt),
    PLUMBING_SOLVER("iterations", "cloth", struct cloth, iterations),
    PLUMBING_SOLVER("gravity", "cloth", struct cloth, gravity),
    PLUMBING_SOLVER("mass", "cloth", struct cloth, mass),
    PLUMBING_SOLVER("XPBD compliance", "cloth", struct cloth, compliance),
    PLUMBING_SOLVER("substeps", "cloth", struct cloth, substeps),
    PLUMBING_SOLVER("tearing", "cloth", struct cloth, tearing),
    PLUMBING_SOLVER("tear strain", "cloth", struct cloth, tear_strain),
    PLUMBING_OWN("release with velocity", "throw_release", PLUMBING_BOOL),
    PLUMBING_OWN("strain colours", "strain_look", PLUMBING_BOOL),
    PLUMBING_SOLVER("buckle", "cloth", struct cloth, buckle));

/* Every scene's list, by the scene table: a new scene's is in its own test
 * file (plumbing.h). */
#define PLUMBING_LIST_(NAME) {#NAME, plumbing_##NAME, &plumbing_##NAME##_n},
static const struct {
    const char *scene;
    const struct plumbing_field *fields;
    const int *n;
} lists[] = {SCENE_TABLE(PLUMBING_LIST_)};
#undef PLUMBING_LIST_
#define NLISTS ((int)(sizeof lists / sizeof lists[0]))

/* The entries of every list. */
static int nfields(void)
{
    int n = 0;
    for (int l = 0; l < NLISTS; l++)
        n += *lists[l].n;
    return n;
}
#define PARAMS_MAX 32

/* The entry of s's list for its parameter i, or NULL. */
static const struct plumbing_field *field_of(const struct scene_ops *s, int i)
{
    for (int l = 0; l < NLISTS; l++)
        for (int k = 0; strcmp(lists[l].scene, s->name) == 0 && k < *lists[l].n; k++)
            if (strcmp(lists[l].fields[k].label, s->params[i].label) == 0)
                return &lists[l].fields[k];
    return NULL;
}

/* The field's value in the scene's state st, read where the table says it is
 * (NAN when the scene has no such member). */
static double field_read(const struct scene_ops *s, void *st, const struct plumbing_field *f)
{
    const char *base = s->member(st, f->member);
    if (!base)
        return NAN;
    const char *p = base + f->off;
    float fv;
    int iv;
    bool bv;
    switch (f->kind) {
    case PLUMBING_INT: memcpy(&iv, p, sizeof iv); return iv;
    case PLUMBING_BOOL: memcpy(&bv, p, sizeof bv); return bv ? 1.0 : 0.0;
    default: memcpy(&fv, p, sizeof fv); return fv;
    }
}

/* Every field the table gives for scene s, in parameter order. */
static void read_all(const struct scene_ops *s, void *st, double *v)
{
    for (int i = 0; i < s->nparams; i++)
        v[i] = field_read(s, st, field_of(s, i));
}

/* A value for parameter i other than v: one step up, or down at the top. */
static double other_value(const struct scene_ops *s, int i, double v)
{
    double nv = param_next(&s->params[i], v, +1);
    return nv != v ? nv : param_next(&s->params[i], v, -1);
}

/* After parameter i of scene s was set to want (or, want NAN, to anything but
 * its start): its field holds the value, the other parameters' fields are as
 * they were in before[]. */
static void check_fields(const struct scene_ops *s, void *st, int i, double want,
                         const double *before, const char *how)
{
    double now[PARAMS_MAX];
    read_all(s, st, now);
    const char *label = s->params[i].label;
    if (isnan(want))
        CHECK_MSG(now[i] != before[i], "%s %s (%s): its field stayed at %g", s->name, label, how,
                  before[i]);
    else
        CHECK_MSG(now[i] == want, "%s %s (%s): set to %g, its field holds %g", s->name, label,
                  how, want, now[i]);
    CHECK_MSG(now[i] == scene_param_get(s, st, i),
              "%s %s (%s): the panel shows %g, its field holds %g", s->name, label, how,
              scene_param_get(s, st, i), now[i]);
    for (int j = 0; j < s->nparams; j++)
        if (j != i)
            CHECK_MSG(now[j] == before[j], "%s %s (%s) moved %s's field from %g to %g", s->name,
                      label, how, s->params[j].label, before[j], now[j]);
}

/* The table and the scenes agree: one entry a parameter, no entry for a
 * parameter that does not exist, every member there and of the parameter's
 * type. */
TEST(plumbing_every_parameter_has_its_field_in_the_table)
{
    int listed = 0;
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        const struct scene_ops *s = scenes[sc];
        CHECK(s->nparams <= PARAMS_MAX);
        CHECK_MSG(s->member != NULL, "%s has no member()", s->name);
        if (!s->member)
            continue;
        struct scene_opts o = {.seed = 1};
        void *st = s->create(&o, 48, 30);
        CHECK(st != NULL);
        for (int i = 0; i < s->nparams; i++) {
            const struct plumbing_field *f = field_of(s, i);
            CHECK_MSG(f != NULL, "%s %s: not in the table", s->name, s->params[i].label);
            if (!f)
                continue;
            listed++;
            CHECK_MSG(s->member(st, f->member) != NULL, "%s: no member %s", s->name, f->member);
            static const enum plumbing_kind of_type[] = {[PARAM_FLOAT] = PLUMBING_FLOAT,
                                                         [PARAM_INT] = PLUMBING_INT,
                                                         [PARAM_BOOL] = PLUMBING_BOOL};
            CHECK_MSG(of_type[s->params[i].type] == f->kind, "%s %s: a field of another type",
                      s->name, s->params[i].label);
        }
        CHECK(s->member(st, "no such member") == NULL);
        s->destroy(st);
    }
    CHECK_MSG(listed == nfields(), "%d of the lists' %d entries name a parameter", listed,
              nfields());
}

/* scene_param_set (the one path the panel and --set take): each parameter,
 * set to a value other than its start on a fresh scene, lands in its field
 * and in no other parameter's. */
TEST(plumbing_each_parameter_writes_exactly_its_field)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        const struct scene_ops *s = scenes[sc];
        for (int i = 0; i < s->nparams; i++) {
            if (!field_of(s, i))
                continue; /* the table's test says so */
            struct scene_opts o = {.seed = 1};
            void *st = s->create(&o, 48, 30);
            double before[PARAMS_MAX];
            read_all(s, st, before);
            double v = other_value(s, i, before[i]);
            CHECK_MSG(v != before[i], "%s %s: no other value", s->name, s->params[i].label);
            CHECK_MSG(scene_param_set(s, st, i, v) == 0, "%s %s=%g refused", s->name,
                      s->params[i].label, v);
            check_fields(s, st, i, v, before, "scene_param_set");
            s->destroy(st);
        }
    }
}

/* The same through the app: the panel's keys (p, Down to it, Right or Left)
 * and --set (the options the command line fills in). */
TEST(plumbing_panel_and_set_write_exactly_the_parameters_field)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        const struct scene_ops *s = scenes[sc];
        for (int i = 0; i < s->nparams; i++) {
            if (!field_of(s, i))
                continue;
            struct app_opts o;
            app_opts_default(&o);
            o.scene = sc;
            struct app a;
            CHECK(app_init(&a, &o, 48, 16) == 0);
            double before[PARAMS_MAX];
            read_all(s, a.st[sc], before);
            struct input_event e = {.type = INPUT_KEY, .key = 'p'};
            app_input(&a, &e);
            e.key = IK_DOWN;
            for (int k = 0; k < i; k++)
                app_input(&a, &e);
            CHECK_INT(a.sel, i);
            e.key = IK_RIGHT;
            app_input(&a, &e);
            if (scene_param_get(s, a.st[sc], i) == before[i]) {
                e.key = IK_LEFT; /* at the top already */
                app_input(&a, &e);
            }
            check_fields(s, a.st[sc], i, NAN, before, "panel");
            double v = scene_param_get(s, a.st[sc], i);
            app_free(&a);

            o.sets[0] = (struct app_set){.scene = sc, .param = i, .value = v};
            o.nsets = 1;
            CHECK(app_init(&a, &o, 48, 16) == 0);
            check_fields(s, a.st[sc], i, v, before, "--set");
            app_free(&a);
        }
    }
}

/* ---- the dye solver reads each of its fields for what it says ------------- */

/* One step of a stirred 32 x 24 fluid (dye grid 64 x 48) with every field
 * that shapes the flow 0 but `field`, set to `value`. */
static void one_step(size_t field, float value, struct fluid *f)
{
    struct fluid_params p;
    fluid_params_default(&p);
    p.viscosity = p.diffusion = p.decay = p.dissipation = p.vorticity = 0.0f;
    if (field != (size_t)-1)
        memcpy((char *)&p + field, &value, sizeof value);
    CHECK(fluid_init(f, &p, 32, 24, 64, 48) == 0);
    struct rng r = {7};
    for (int k = 0; k < 12; k++) {
        float x = rng_float(&r) * 64.0f, y = rng_float(&r) * 48.0f;
        float rgb[3] = {rng_float(&r), rng_float(&r), rng_float(&r)};
        fluid_splat(f, x, y, 6.0f, (rng_float(&r) - 0.5f) * 300.0f,
                    (rng_float(&r) - 0.5f) * 300.0f, (rng_float(&r) - 0.5f) * 150.0f, rgb);
    }
    fluid_step(f);
}

static bool same_velocity(const struct fluid *a, const struct fluid *b)
{
    size_t nu = (size_t)(a->nx + 1) * (size_t)a->ny, nv = (size_t)a->nx * (size_t)(a->ny + 1);
    return memcmp(a->u, b->u, nu * sizeof *a->u) == 0 && memcmp(a->v, b->v, nv * sizeof *a->v) == 0;
}

static bool same_dye(const struct fluid *a, const struct fluid *b)
{
    return memcmp(a->dye, b->dye, 3 * (size_t)a->dw * (size_t)a->dh * sizeof *a->dye) == 0;
}

/* The largest |a/b - k| over the velocity samples where b is not tiny. */
static double velocity_ratio_error(const struct fluid *a, const struct fluid *b, double k)
{
    size_t nu = (size_t)(a->nx + 1) * (size_t)a->ny, nv = (size_t)a->nx * (size_t)(a->ny + 1);
    double worst = 0.0;
    int used = 0;
    for (size_t i = 0; i < nu + nv; i++) {
        double x = i < nu ? a->u[i] : a->v[i - nu], y = i < nu ? b->u[i] : b->v[i - nu];
        if (fabs(y) > 1.0) {
            worst = fmax(worst, fabs(x / y - k));
            used++;
        }
    }
    return used > 100 ? worst : INFINITY;
}

/* Each of the fields the panel sets, alone, does its own job and no other:
 * viscosity, dissipation and vorticity change the velocity; diffusion and
 * decay the dye only (the velocity the same to the bit); decay scales the
 * dye's total by exp(-decay dt), diffusion keeps it; dissipation scales the
 * step's velocity by 1 / (1 + dissipation dt), which viscosity and
 * vorticity do not. A solver that reads one field for another fails. */
TEST(plumbing_dye_solver_reads_each_field_for_its_own_job)
{
    const float dt = 1.0f / 30.0f;
    struct fluid base;
    one_step((size_t)-1, 0.0f, &base);
    double total0 = fluid_total_dye(&base);
    CHECK(total0 > 0.0);
    static const struct {
        const char *name;
        size_t off;
        float value;
        bool moves_velocity;
    } cases[] = {
        {"viscosity", offsetof(struct fluid_params, viscosity), 4.0f, true},
        {"dissipation", offsetof(struct fluid_params, dissipation), 3.0f, true},
        {"vorticity", offsetof(struct fluid_params, vorticity), 20.0f, true},
        {"diffusion", offsetof(struct fluid_params, diffusion), 4.0f, false},
        {"decay", offsetof(struct fluid_params, decay), 3.0f, false},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct fluid f;
        one_step(cases[k].off, cases[k].value, &f);
        const char *n = cases[k].name;
        if (cases[k].moves_velocity)
            CHECK_MSG(!same_velocity(&f, &base), "%s: the velocity is as without it", n);
        else
            CHECK_MSG(same_velocity(&f, &base), "%s: the velocity changed", n);
        CHECK_MSG(!same_dye(&f, &base), "%s: the dye is as without it", n);
        double ratio = fluid_total_dye(&f) / total0;
        double fade = exp(-3.0 * (double)dt);
        if (strcmp(n, "decay") == 0)
            CHECK_MSG(fabs(ratio - fade) < 1e-4, "decay: the dye's total went x%.6f, not x%.6f",
                      ratio, fade);
        if (strcmp(n, "diffusion") == 0)
            CHECK_MSG(fabs(ratio - 1.0) < 1e-3, "diffusion: the dye's total went x%.6f", ratio);
        double keep = 1.0 / (1.0 + 3.0 * (double)dt);
        double err = velocity_ratio_error(&f, &base, keep);
        if (strcmp(n, "dissipation") == 0)
            CHECK_MSG(err < 1e-4, "dissipation: the velocity is not x%.4f the one without (%g)",
                      keep, err);
        else if (cases[k].moves_velocity)
            CHECK_MSG(err > 1e-2, "%s: the velocity is the dissipated one", n);
        fluid_free(&f);
    }
    fluid_free(&base);
}
