/*
 * test_nsearch.c — the cell-grid neighbour search against brute force.
 *
 * Points come from the deterministic rng of swirl.h. A list is compared as a set
 * (sorted copy) with the brute-force set of all j != i meeting the search's
 * criterion dist2 - radius2 < 1e-6, evaluated with the same float expression.
 * A grid built in steps over a frame of the caller's (points placed in ranges,
 * some beyond the frame) is held to the same.
 */
#include "nsearch.h"
#include "nsearch_internal.h"
#include "swirl.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 2048

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static bool brute_neighbour(const float *x, const float *y, int i, int j, float radius)
{
    const float dx = x[i] - x[j], dy = y[i] - y[j];
    const float radius2 = radius * radius;
    return j != i && dx * dx + dy * dy - radius2 < 1e-6f;
}

/* Checks every query list of a build against brute force; returns the number of
 * lists that differ (and reports the first). */
static int compare_with_brute_force(const struct nsearch *ns, const float *x, const float *y,
                                    int n, int nquery, float radius)
{
    static int got[MAX_POINTS], want[MAX_POINTS];
    int bad = 0;
    CHECK_INT(ns->start[0], 0);
    for (int i = 0; i < nquery; i++) {
        int ngot = ns->start[i + 1] - ns->start[i];
        int nwant = 0;
        for (int j = 0; j < n; j++)
            if (brute_neighbour(x, y, i, j, radius))
                want[nwant++] = j;
        if (ngot < 0 || ngot > MAX_POINTS) {
            bad++;
            continue;
        }
        memcpy(got, ns->nbr + ns->start[i], (size_t)ngot * sizeof *got);
        qsort(got, (size_t)ngot, sizeof *got, cmp_int);
        if (ngot != nwant || memcmp(got, want, (size_t)ngot * sizeof *got) != 0) {
            if (bad == 0)
                CHECK_MSG(false, "point %d: %d neighbours, brute force %d", i, ngot, nwant);
            bad++;
        }
    }
    return bad;
}

static float xs[MAX_POINTS], ys[MAX_POINTS];

/* Random points in a square, a few far away, some coincident, some exactly one
 * radius apart (the criterion's edge). */
static void make_points(struct rng *r, int n, float side, float radius)
{
    for (int i = 0; i < n; i++) {
        xs[i] = (rng_float(r) - 0.5f) * side;
        ys[i] = (rng_float(r) - 0.5f) * side;
    }
    xs[1] = xs[0]; /* coincident pair */
    ys[1] = ys[0];
    xs[2] = xs[3] + radius; /* exactly at the radius */
    ys[2] = ys[3];
    xs[4] = 1.0e4f; /* far away, alone */
    ys[4] = -3.0e3f;
    xs[5] = -2.0e4f; /* far away, with a close partner */
    ys[5] = 5.0e3f;
    xs[6] = -2.0e4f + 0.5f * radius;
    ys[6] = 5.0e3f;
}

TEST(nsearch_matches_brute_force)
{
    struct rng r = {42};
    struct nsearch ns;
    nsearch_init(&ns);
    const int sizes[] = {7, 100, 600, 1500, 300};
    const float radii[] = {0.1f, 0.05f, 0.1f, 0.02f, 0.3f};
    for (int round = 0; round < 5; round++) {
        int n = sizes[round], nquery = n - n / 5;
        make_points(&r, n, 2.0f, radii[round]);
        CHECK_INT(nsearch_build(&ns, xs, ys, n, nquery, radii[round]), 0);
        CHECK_INT(compare_with_brute_force(&ns, xs, ys, n, nquery, radii[round]), 0);
    }
    nsearch_free(&ns);
}

TEST(nsearch_finds_coincident_and_edge_points)
{
    struct rng r = {7};
    struct nsearch ns;
    nsearch_init(&ns);
    make_points(&r, 50, 1.0f, 0.1f);
    CHECK_INT(nsearch_build(&ns, xs, ys, 50, 50, 0.1f), 0);
    bool one_in_zero = false, three_in_two = false, six_in_five = false, four_alone;
    for (int e = ns.start[0]; e < ns.start[1]; e++)
        one_in_zero |= ns.nbr[e] == 1;
    for (int e = ns.start[2]; e < ns.start[3]; e++)
        three_in_two |= ns.nbr[e] == 3;
    for (int e = ns.start[5]; e < ns.start[6]; e++)
        six_in_five |= ns.nbr[e] == 6;
    four_alone = ns.start[5] == ns.start[4];
    CHECK(one_in_zero);
    CHECK(three_in_two);
    CHECK(six_in_five);
    CHECK(four_alone);
    for (int i = 0; i < 50; i++)
        for (int e = ns.start[i]; e < ns.start[i + 1]; e++)
            CHECK(ns.nbr[e] != i);
    nsearch_free(&ns);
}

TEST(nsearch_honours_the_criterion_slack)
{
    /* dist2 - radius2 < 1e-6 accepts pairs slightly beyond the radius: with
     * radius 0.1, up to 0.100005. Such a pair straddling two cell borders would be
     * two radius-sized cells apart; the search must still find it. */
    struct nsearch ns;
    nsearch_init(&ns);
    const float px[] = {0.0f, 0.1f - 1e-6f, 0.1f - 1e-6f + 0.100003f, 0.5f};
    const float py[] = {0.0f, 0.0f, 0.0f, 0.0f};
    CHECK(brute_neighbour(px, py, 1, 2, 0.1f));
    CHECK_INT(nsearch_build(&ns, px, py, 4, 4, 0.1f), 0);
    bool found = false;
    for (int e = ns.start[1]; e < ns.start[2]; e++)
        found |= ns.nbr[e] == 2;
    CHECK(found);
    CHECK_INT(compare_with_brute_force(&ns, px, py, 4, 4, 0.1f), 0);
    nsearch_free(&ns);
}

TEST(nsearch_far_points_keep_the_grid_small)
{
    /* Two clusters 1e6 apart: a grid of radius-sized cells would have ~1e14
     * cells; the search must coarsen it and still be exact. */
    struct rng r = {3};
    struct nsearch ns;
    nsearch_init(&ns);
    for (int i = 0; i < 400; i++) {
        float off = i < 200 ? 0.0f : 1.0e6f;
        xs[i] = off + rng_float(&r);
        ys[i] = off + rng_float(&r);
    }
    CHECK_INT(nsearch_build(&ns, xs, ys, 400, 400, 0.1f), 0);
    CHECK((long long)ns.gw * ns.gh <= 65536);
    CHECK_INT(compare_with_brute_force(&ns, xs, ys, 400, 400, 0.1f), 0);
    nsearch_free(&ns);
}

TEST(nsearch_frame_in_steps_is_exact)
{
    /* A frame over the middle of the points only (the rest beyond its edges,
     * some far), placed in ranges out of order: the queries are exact. */
    struct rng r = {13};
    struct nsearch ns;
    nsearch_init(&ns);
    const int n = 600;
    make_points(&r, n, 1.0f, 0.1f);
    CHECK_INT(nsearch_frame(&ns, n, 0.1f, -0.3f, -0.2f, 0.3f, 0.25f), 0);
    nsearch_place(&ns, xs, ys, 400, n);
    nsearch_place(&ns, xs, ys, 0, 150);
    nsearch_place(&ns, xs, ys, 150, 400);
    nsearch_sort(&ns, xs, ys);
    static int got[MAX_POINTS];
    int bad = 0;
    for (int i = 0; i < n; i++) {
        CHECK(nsearch_candidates(&ns, i) <= n);
        const int k = nsearch_query(&ns, i, got);
        int want = 0, missing = 0;
        for (int j = 0; j < n; j++)
            want += brute_neighbour(xs, ys, i, j, 0.1f);
        for (int e = 0; e < k; e++)
            missing += !brute_neighbour(xs, ys, i, got[e], 0.1f);
        bad += k != want || missing != 0;
    }
    CHECK_INT(bad, 0);
    CHECK_INT(nsearch_frame(&ns, n, 0.1f, NAN, 0.0f, 1.0f, 1.0f), -1);
    CHECK_INT(nsearch_frame(&ns, n, 0.1f, 1.0f, 0.0f, 0.0f, 1.0f), -1);
    CHECK_INT(nsearch_frame(&ns, n, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f), -1);
    nsearch_free(&ns);
}

TEST(nsearch_guards_nonfinite_points)
{
    struct rng r = {11};
    struct nsearch ns;
    nsearch_init(&ns);
    make_points(&r, 200, 1.0f, 0.1f);
    xs[10] = NAN;
    ys[11] = INFINITY;
    xs[12] = -INFINITY;
    ys[12] = NAN;
    xs[13] = 3.0e38f; /* finite, but its squared distances overflow */
    CHECK_INT(nsearch_build(&ns, xs, ys, 200, 200, 0.1f), 0);
    CHECK_INT(compare_with_brute_force(&ns, xs, ys, 200, 200, 0.1f), 0);
    for (int k = 10; k <= 13; k++)
        CHECK_INT(ns.start[k + 1] - ns.start[k], 0);
    for (int e = 0; e < ns.start[200]; e++)
        CHECK(ns.nbr[e] < 10 || ns.nbr[e] > 13);
    nsearch_free(&ns);
}

TEST(nsearch_reuses_its_storage)
{
    struct rng r = {5};
    struct nsearch ns;
    nsearch_init(&ns);
    make_points(&r, 500, 1.0f, 0.1f);
    CHECK_INT(nsearch_build(&ns, xs, ys, 500, 400, 0.1f), 0);
    const int *cells = ns.cell_start, *cell_of = ns.cell_of, *sorted = ns.sorted;
    const int *start = ns.start, *nbr = ns.nbr;
    /* Same sizes again: not one allocation, the same lists. */
    for (int round = 0; round < 3; round++)
        CHECK_INT(nsearch_build(&ns, xs, ys, 500, 400, 0.1f), 0);
    CHECK(ns.cell_start == cells);
    CHECK(ns.cell_of == cell_of);
    CHECK(ns.sorted == sorted);
    CHECK(ns.start == start);
    CHECK(ns.nbr == nbr);
    CHECK_INT(compare_with_brute_force(&ns, xs, ys, 500, 400, 0.1f), 0);
    /* Moved points and then fewer points: still exact. */
    for (int i = 0; i < 500; i++)
        xs[i] += (rng_float(&r) - 0.5f) * 0.05f;
    CHECK_INT(nsearch_build(&ns, xs, ys, 500, 500, 0.1f), 0);
    CHECK_INT(compare_with_brute_force(&ns, xs, ys, 500, 500, 0.1f), 0);
    CHECK_INT(nsearch_build(&ns, xs, ys, 20, 10, 0.1f), 0);
    CHECK_INT(compare_with_brute_force(&ns, xs, ys, 20, 10, 0.1f), 0);
    nsearch_free(&ns);
}

TEST(nsearch_edge_cases)
{
    struct nsearch ns;
    nsearch_init(&ns);
    xs[0] = ys[0] = 0.0f;
    CHECK_INT(nsearch_build(&ns, xs, ys, 0, 0, 0.1f), 0);
    CHECK_INT(ns.start[0], 0);
    CHECK_INT(nsearch_build(&ns, xs, ys, 1, 1, 0.1f), 0);
    CHECK_INT(ns.start[1], 0);
    CHECK_INT(nsearch_build(&ns, xs, ys, 1, 1, 0.0f), -1);
    CHECK_INT(nsearch_build(&ns, xs, ys, 1, 1, NAN), -1);
    CHECK_INT(nsearch_build(&ns, xs, ys, 1, 2, 0.1f), -1);
    nsearch_free(&ns);
    nsearch_free(&ns); /* twice is harmless */
}

/* Every group of `lanes` of the first nquery points against the flat lists of
 * the same grid (ns built with nsearch_build): slot-major, the neighbours
 * below the split first, each lane's in its query order, padded. Returns the
 * entries that differ. */
static int lanes_against_lists(const struct nsearch *ns, struct nsearch_lanes *ln, int nquery,
                               int split, int lanes, int pad)
{
    int bad = 0;
    for (int i0 = 0; i0 < nquery; i0 += lanes) {
        int klo, khi;
        CHECK_INT(nsearch_lanes(ns, i0, lanes, nquery, split, pad, ln, 5, &klo, &khi), 0);
        for (int l = 0; l < lanes; l++) {
            const int i = i0 + l;
            int want[MAX_POINTS], nlo = 0, nhi = 0;
            for (int e = i < nquery ? ns->start[i] : 0; i < nquery && e < ns->start[i + 1]; e++)
                nlo += ns->nbr[e] < split;
            int a = 0, b = nlo;
            for (int e = i < nquery ? ns->start[i] : 0; i < nquery && e < ns->start[i + 1]; e++)
                want[ns->nbr[e] < split ? a++ : b++] = ns->nbr[e];
            nhi = b - nlo;
            for (int k = 0; k < klo + khi; k++) {
                const int got = ln->nbr[5 + k * lanes + l];
                const int expect = k < klo ? (k < nlo ? want[k] : pad)
                                           : (k - klo < nhi ? want[nlo + k - klo] : pad);
                bad += got != expect;
            }
            bad += nlo > klo || nhi > khi;
        }
    }
    return bad;
}

TEST(nsearch_lanes_interleave_the_queries)
{
    /* Groups of 8 random points (each lane in cells of its own). */
    struct rng r = {9};
    struct nsearch ns;
    struct nsearch_lanes ln = {0};
    nsearch_init(&ns);
    const int n = 300, nquery = 203, split = 150;
    make_points(&r, n, 1.0f, 0.1f);
    CHECK_INT(nsearch_build(&ns, xs, ys, n, nquery, 0.1f), 0);
    CHECK_INT(lanes_against_lists(&ns, &ln, nquery, split, 8, -7), 0);
    nsearch_lanes_free(&ln);
    nsearch_free(&ns);
}

TEST(nsearch_lanes_of_points_sorted_by_cell_share_their_blocks)
{
    /* Water as pbf keeps it: a jittered lattice of spacing a fifth of the
     * radius, sorted by cell (groups of 16 in a few neighbouring cells, which
     * share their blocks; some across a row of cells, some with lanes too far
     * apart to share), a few stray points, the walls' points after the split:
     * the same lists as one query at a time. */
    struct rng r = {17};
    struct nsearch ns;
    struct nsearch_lanes ln = {0};
    nsearch_init(&ns);
    const int cols = 37, rows = 23, nwater = cols * rows, n = nwater + 2 * cols;
    static float x0[MAX_POINTS], y0[MAX_POINTS];
    const float d = 0.02f, radius = 0.1f;
    for (int k = 0; k < nwater; k++) {
        x0[k] = (float)(k % cols) * d + (rng_float(&r) - 0.5f) * 0.3f * d;
        y0[k] = (float)(k / cols) * d + (rng_float(&r) - 0.5f) * 0.3f * d;
    }
    x0[40] += 0.25f, y0[41] += 0.3f, x0[500] -= 0.4f; /* strays */
    for (int k = 0; k < cols; k++) { /* walls below and above, after the split */
        x0[nwater + 2 * k] = x0[nwater + 2 * k + 1] = (float)k * d;
        y0[nwater + 2 * k] = -d, y0[nwater + 2 * k + 1] = (float)rows * d;
    }
    CHECK_INT(nsearch_grid(&ns, x0, y0, nwater, radius), 0);
    for (int k = 0; k < nwater; k++) /* the water in the grid's order */
        xs[k] = x0[ns.sorted[k]], ys[k] = y0[ns.sorted[k]];
    memcpy(xs + nwater, x0 + nwater, (size_t)(n - nwater) * sizeof *xs);
    memcpy(ys + nwater, y0 + nwater, (size_t)(n - nwater) * sizeof *ys);
    CHECK_INT(nsearch_build(&ns, xs, ys, n, nwater, radius), 0);
    CHECK_INT(lanes_against_lists(&ns, &ln, nwater, nwater, 16, n), 0);
    CHECK_INT(lanes_against_lists(&ns, &ln, nwater, nwater, 8, n), 0);
    /* (and as a CPU without the widest vectors makes them) */
    for (ln.lanes_most = 1; ln.lanes_most <= 8; ln.lanes_most *= 2)
        CHECK_INT(lanes_against_lists(&ns, &ln, nwater, nwater, 16, n), 0);
    nsearch_lanes_free(&ln);
    nsearch_free(&ns);
}
