/*
 * cloth_grid_lanes.h — the vector loops of cloth_grid.c, written once for any
 * width and included there once per width W (4, 8, 16; see simd.h), which it
 * undefines again at the end.
 */

#define VF SIMD_VEC(W)
#define V(op) SIMD_OP(W, op)
#define FN(f) SIMD_NAME(f, W)
#define TARGET SIMD_TARGET(W)

/* W lanes of project_one, in place: every lane does what project_one does,
 * with the same operations in the same order, and keeps its old values where
 * project_one would skip (a select, not a branch). */
SIMD_INLINE TARGET void FN(project_lanes)(VF *xa, VF *ya, VF *xb, VF *yb, VF wa, VF wb,
                                          VF rest, VF *lam, int xpbd, VF at, VF ml2,
                                          int buckle)
{
    VF dx = V(sub)(*xa, *xb), dy = V(sub)(*ya, *yb);
    VF d2 = V(add)(V(mul)(dx, dx), V(mul)(dy, dy));
    VF ws = V(add)(wa, wb);
    VF on = V(and)(V(and)(V(gt)(d2, ml2), V(gt)(ws, V(zero)())), V(gt)(rest, V(zero)()));
    VF dl = V(sqrt)(d2), s;
    if (buckle)
        on = V(and)(on, V(gt)(dl, rest));
    if (xpbd) {
        VF num = V(sub)(V(sub)(rest, dl), V(mul)(at, *lam));
        s = V(div)(num, V(mul)(V(add)(ws, at), dl));
        *lam = V(select)(on, V(add)(*lam, V(mul)(s, dl)), *lam);
    } else {
        s = V(div)(V(sub)(rest, dl), V(mul)(dl, ws));
    }
    VF sa = V(mul)(wa, s), sb = V(mul)(wb, s);
    *xa = V(select)(on, V(add)(*xa, V(mul)(sa, dx)), *xa);
    *ya = V(select)(on, V(add)(*ya, V(mul)(sa, dy)), *ya);
    *xb = V(select)(on, V(sub)(*xb, V(mul)(sb, dx)), *xb);
    *yb = V(select)(on, V(sub)(*yb, V(mul)(sb, dy)), *yb);
}

/* m constraints at consecutive slots (DOWN, DIAG, ANTI), W at a time, the
 * rest one by one. */
TARGET static void FN(project_slots)(float *restrict xa, float *restrict ya, float *restrict xb,
                                     float *restrict yb, const float *restrict wa,
                                     const float *restrict wb, const float *restrict rest,
                                     float *restrict lam, int m, int xpbd, float at, float ml2,
                                     int buckle)
{
    const VF vat = V(set1)(at), vml2 = V(set1)(ml2);
    int t = 0;
    for (; t + W <= m; t += W) {
        VF x0 = V(load)(xa + t), y0 = V(load)(ya + t), x1 = V(load)(xb + t);
        VF y1 = V(load)(yb + t);
        VF l = xpbd ? V(load)(lam + t) : vat;
        FN(project_lanes)(&x0, &y0, &x1, &y1, V(load)(wa + t), V(load)(wb + t),
                          V(load)(rest + t), &l, xpbd, vat, vml2, buckle);
        V(store)(xa + t, x0);
        V(store)(ya + t, y0);
        V(store)(xb + t, x1);
        V(store)(yb + t, y1);
        if (xpbd)
            V(store)(lam + t, l);
    }
    for (; t < m; t++)
        project_one(xa, ya, xb, yb, wa, wb, rest, lam, t, xpbd ? at : 0.0f, ml2, buckle);
}

/* The 2W floats at p as a (the even ones) and b (the odd ones), in the order
 * even and odd put them, the same for every array; and back. */
SIMD_INLINE TARGET void FN(load_split)(const float *p, VF *a, VF *b)
{
    VF lo = V(load)(p), hi = V(load)(p + W);
    *a = V(even)(lo, hi);
    *b = V(odd)(lo, hi);
}

SIMD_INLINE TARGET void FN(store_joined)(float *p, VF a, VF b)
{
    V(store)(p, V(zip_lo)(a, b));
    V(store)(p + W, V(zip_hi)(a, b));
}

/*
 * m constraints (p+2t, p+2t+1) along a row at every other slot (RIGHT): x, y,
 * w and the slot arrays from p. A vector step takes 2W floats, W constraints
 * and the slots between them, which are the other colour's and are written
 * back as they were.
 */
TARGET static void FN(project_alternate)(float *restrict x, float *restrict y,
                                         const float *restrict w, const float *restrict rest,
                                         float *restrict lam, int m, int xpbd, float at,
                                         float ml2, int buckle)
{
    const VF vat = V(set1)(at), vml2 = V(set1)(ml2);
    int t = 0;
    for (; t + W <= m; t += W) {
        float *px = x + 2 * t, *py = y + 2 * t, *pl = lam + 2 * t;
        VF xa, xb, ya, yb, wa, wb, r, spare, l = vat, lspare = vat;
        FN(load_split)(px, &xa, &xb);
        FN(load_split)(py, &ya, &yb);
        FN(load_split)(w + 2 * t, &wa, &wb);
        FN(load_split)(rest + 2 * t, &r, &spare);
        if (xpbd)
            FN(load_split)(pl, &l, &lspare);
        FN(project_lanes)(&xa, &ya, &xb, &yb, wa, wb, r, &l, xpbd, vat, vml2, buckle);
        FN(store_joined)(px, xa, xb);
        FN(store_joined)(py, ya, yb);
        if (xpbd)
            FN(store_joined)(pl, l, lspare);
    }
    for (; t < m; t++)
        project_one(x, y, x + 1, y + 1, w, w + 1, rest, lam, 2 * t, xpbd ? at : 0.0f, ml2,
                    buckle);
}

#undef VF
#undef V
#undef FN
#undef TARGET
#undef W
