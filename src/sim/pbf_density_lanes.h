/*
 * pbf_density_lanes.h — the density loop's passes over one group of PBF_LANES
 * particles in vectors of W lanes (simd.h), written once and included by
 * pbf_density.c once per width W (4, 8, 16), which it undefines again at the
 * end. Every lane does what the plain loops of pbf_density.c do for its
 * particle, with the same operations in the same order: the same bits at
 * every width. A group of 16 is 16 / W blocks of W lanes, each going over
 * the group's slot-major lists (entry k of lane l at k * PBF_LANES + l) on
 * its own.
 */

#define VF SIMD_VEC(W)
#define V(op) SIMD_OP(W, op)
#define FN(f) SIMD_NAME(f, W)
#define TARGET SIMD_TARGET(W)
#define CONSTS SIMD_NAME(lane_consts, W)

/* The kernel's constants and a few others, broadcast. */
struct CONSTS {
    VF inv_h, k2, gfac, tiny, one, half, four, sign;
};

/* max(v, 0) as pos_part: (v + |v|) / 2. */
SIMD_INLINE TARGET VF FN(pos)(VF v, VF half, VF sign)
{
    return V(mul)(half, V(add)(v, V(andnot)(sign, v)));
}

/* kernel_pair in W lanes: W_ij into *w, the gradient's factor into *g. */
SIMD_INLINE TARGET void FN(kernel)(const struct CONSTS *c, VF r2, VF *w, VF *g)
{
    const VF rl = V(sqrt)(r2);
    const VF q = V(mul)(rl, c->inv_h);
    const VF t = FN(pos)(V(sub)(c->one, q), c->half, c->sign);
    const VF u = FN(pos)(V(sub)(c->half, q), c->half, c->sign);
    const VF t2 = V(mul)(t, t), u2 = V(mul)(u, u);
    *w = V(mul)(c->k2, V(sub)(V(mul)(t2, t), V(mul)(V(mul)(c->four, u2), u)));
    *g = V(div)(V(mul)(c->gfac, V(sub)(t2, V(mul)(c->four, u2))), V(add)(rl, c->tiny));
}

/* The group's lambda pass (lambda_part's, group g; the neighbours' positions
 * from the pairs in xy): W_ij and grad W_ij into
 * the caches, and per lane rho_i, lambda_i and max(rho_i - rho0, 0) into
 * rho, lam and over (all PBF_LANES lanes, whatever their count). */
TARGET static void FN(lambda_group)(const struct lambda_args *a, int g, float *rho, float *lam,
                                    float *over)
{
    const struct lane_set sc = a->c;
    const struct CONSTS c = {V(set1)(sc.inv_h), V(set1)(sc.k2), V(set1)(sc.gfac),
                                  V(set1)(KERNEL_TINY), V(set1)(1.0f), V(set1)(0.5f),
                                  V(set1)(4.0f), V(set1)(-0.0f)};
    const int off = a->gstart[g], kw = a->gkw[g], kb = a->gkb[g];
    const int *nbr = a->nbr + off;
    float *pw = a->pw + off, *pgx = a->pgx + off, *pgy = a->pgy + off;
    const VF m = V(set1)(sc.m), k = V(set1)(sc.k), inv_rho0 = V(set1)(sc.inv_rho0);
    const VF rho0 = V(set1)(sc.rho0), eps = V(set1)(sc.eps);
    for (int b = 0; b < PBF_LANES; b += W) {
        const VF xi = V(load)(a->x + g * PBF_LANES + b), yi = V(load)(a->y + g * PBF_LANES + b);
        VF sw = V(zero)(), sx = V(zero)(), sy = V(zero)(), s2 = V(zero)();
        for (int e = b; e < kw * PBF_LANES; e += PBF_LANES) {
            VF xj, yj;
            V(gather2)(a->xy, nbr + e, &xj, &yj);
            const VF rx = V(sub)(xi, xj), ry = V(sub)(yi, yj);
            VF w, gs;
            FN(kernel)(&c, V(add)(V(mul)(rx, rx), V(mul)(ry, ry)), &w, &gs);
            const VF gx = V(mul)(gs, rx), gy = V(mul)(gs, ry);
            V(store)(pw + e, w);
            V(store)(pgx + e, gx);
            V(store)(pgy + e, gy);
            sw = V(add)(sw, w);
            sx = V(add)(sx, gx);
            sy = V(add)(sy, gy);
            s2 = V(add)(s2, V(add)(V(mul)(gx, gx), V(mul)(gy, gy)));
        }
        VF bw = V(zero)(), bx = V(zero)(), by = V(zero)();
        for (int e = kw * PBF_LANES + b; e < (kw + kb) * PBF_LANES; e += PBF_LANES) {
            VF xj, yj;
            V(gather2)(a->xy, nbr + e, &xj, &yj);
            const VF rx = V(sub)(xi, xj), ry = V(sub)(yi, yj);
            const VF pj = V(gather)(a->psi, nbr + e);
            VF w, gs;
            FN(kernel)(&c, V(add)(V(mul)(rx, rx), V(mul)(ry, ry)), &w, &gs);
            const VF gx = V(mul)(gs, rx), gy = V(mul)(gs, ry);
            V(store)(pgx + e, gx);
            V(store)(pgy + e, gy);
            bw = V(add)(bw, V(mul)(pj, w));
            bx = V(add)(bx, V(mul)(pj, gx));
            by = V(add)(by, V(mul)(pj, gy));
        }
        const VF r = V(add)(V(mul)(m, V(add)(k, sw)), bw);
        const VF gx = V(add)(V(mul)(m, sx), bx), gy = V(add)(V(mul)(m, sy), by);
        const VF cc = FN(pos)(V(sub)(V(mul)(r, inv_rho0), c.one), c.half, c.sign);
        const VF sum = V(add)(V(add)(V(mul)(V(mul)(m, m), s2), V(mul)(gx, gx)), V(mul)(gy, gy));
        const VF denom = V(mul)(V(mul)(sum, inv_rho0), inv_rho0);
        V(store)(rho + b, r);
        V(store)(lam + b, V(div)(V(xor)(cc, c.sign), V(add)(denom, eps)));
        V(store)(over + b, FN(pos)(V(sub)(r, rho0), c.half, c.sign));
    }
}

/* The group's corrections (correction_part's, group g), before the clamp:
 * per lane the new x and y (all PBF_LANES lanes) into nx, ny. */
TARGET static void FN(correction_group)(const struct correction_args *a, int g, float *nx,
                                        float *ny)
{
    const int off = a->gstart[g], kw = a->gkw[g], kb = a->gkb[g];
    const int *nbr = a->nbr + off;
    const float *pw = a->pw + off, *pgx = a->pgx + off, *pgy = a->pgy + off;
    const VF m = V(set1)(a->m), inv_rho0 = V(set1)(a->inv_rho0);
    const VF scorr_k = V(set1)(a->scorr_k), inv_w_dq = V(set1)(a->inv_w_dq);
    const VF lox = V(set1)(a->lox), hix = V(set1)(a->hix);
    const VF loy = V(set1)(a->loy), hiy = V(set1)(a->hiy);
    for (int b = 0; b < PBF_LANES; b += W) {
        const int i = g * PBF_LANES + b;
        const VF li = V(load)(a->lambda + i);
        VF sx = V(zero)(), sy = V(zero)();
        for (int e = b; e < kw * PBF_LANES; e += PBF_LANES) {
            VF coef = V(add)(li, V(gather)(a->lambda, nbr + e));
            if (a->scorr_k != 0.0f) {
                VF t = V(mul)(V(load)(pw + e), inv_w_dq);
                t = V(mul)(t, t);
                coef = V(sub)(coef, V(mul)(V(mul)(scorr_k, t), t));
            }
            sx = V(add)(sx, V(mul)(coef, V(load)(pgx + e)));
            sy = V(add)(sy, V(mul)(coef, V(load)(pgy + e)));
        }
        VF bx = V(zero)(), by = V(zero)();
        for (int e = kw * PBF_LANES + b; e < (kw + kb) * PBF_LANES; e += PBF_LANES) {
            const VF pj = V(gather)(a->psi, nbr + e);
            bx = V(add)(bx, V(mul)(pj, V(load)(pgx + e)));
            by = V(add)(by, V(mul)(pj, V(load)(pgy + e)));
        }
        const VF dx = V(add)(V(mul)(m, sx), V(mul)(li, bx));
        const VF dy = V(add)(V(mul)(m, sy), V(mul)(li, by));
        const VF px = V(add)(V(load)(a->x + i), V(mul)(dx, inv_rho0));
        const VF py = V(add)(V(load)(a->y + i), V(mul)(dy, inv_rho0));
        /* clampf: v >= lo ? (v <= hi ? v : hi) : lo (NaN comes out as lo). */
        V(store)(nx + b, V(select)(V(ge)(px, lox), V(select)(V(le)(px, hix), px, hix), lox));
        V(store)(ny + b, V(select)(V(ge)(py, loy), V(select)(V(le)(py, hiy), py, hiy), loy));
    }
}

#undef VF
#undef V
#undef FN
#undef TARGET
#undef CONSTS
#undef W
