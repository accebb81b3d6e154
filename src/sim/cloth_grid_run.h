/*
 * cloth_grid_run.h — the vector loops of cloth_grid.c, written once and included
 * there once per vector width (a template, stb style). Before including, define
 * RUN(name) (the instance's function names), RUN_ATTR (its target attribute),
 * and the vector type and operations VF, VW (lanes), VLOAD, VSTORE, VSET1, VZERO,
 * VADD, VSUB, VMUL, VDIV, VSQRT, VAND, VANDNOT, VOR, VGT, VEVEN, VODD, VLO and
 * VHI (see cloth_grid.c); they are undefined again at the end.
 *
 * Every lane does what project_one does, with the same operations in the same
 * order, so the instances give the same bits as each other and as the scalar
 * tail: square roots and divisions are exact in every width and ISO C mode
 * contracts no multiply-add.
 */

/* on ? a : b, lane by lane. */
RUN_ATTR static inline VF RUN(pick)(VF on, VF a, VF b)
{
    return VOR(VAND(on, a), VANDNOT(on, b));
}

/* VW lanes of project_one, in place. */
RUN_ATTR static inline void RUN(project)(VF *xa, VF *ya, VF *xb, VF *yb, VF wa, VF wb,
                                         VF rest, VF *lam, int xpbd, VF at, VF ml2)
{
    VF dx = VSUB(*xa, *xb), dy = VSUB(*ya, *yb);
    VF d2 = VADD(VMUL(dx, dx), VMUL(dy, dy));
    VF ws = VADD(wa, wb);
    VF on = VAND(VAND(VGT(d2, ml2), VGT(ws, VZERO())), VGT(rest, VZERO()));
    VF dl = VSQRT(d2), s;
    if (xpbd) {
        VF num = VSUB(VSUB(rest, dl), VMUL(at, *lam));
        s = VDIV(num, VMUL(VADD(ws, at), dl));
        *lam = RUN(pick)(on, VADD(*lam, VMUL(s, dl)), *lam);
    } else {
        s = VDIV(VSUB(rest, dl), VMUL(dl, ws));
    }
    VF sa = VMUL(wa, s), sb = VMUL(wb, s);
    *xa = RUN(pick)(on, VADD(*xa, VMUL(sa, dx)), *xa);
    *ya = RUN(pick)(on, VADD(*ya, VMUL(sa, dy)), *ya);
    *xb = RUN(pick)(on, VSUB(*xb, VMUL(sb, dx)), *xb);
    *yb = RUN(pick)(on, VSUB(*yb, VMUL(sb, dy)), *yb);
}

/* m constraints at consecutive slots (DOWN, DIAG, ANTI). */
RUN_ATTR static void RUN(run1)(float *restrict xa, float *restrict ya, float *restrict xb,
                               float *restrict yb, const float *restrict wa,
                               const float *restrict wb, const float *restrict rest,
                               float *restrict lam, int m, int xpbd, float at, float ml2)
{
    const VF vat = VSET1(at), vml2 = VSET1(ml2);
    int t = 0;
    for (; t + VW <= m; t += VW) {
        VF x0 = VLOAD(xa + t), y0 = VLOAD(ya + t), x1 = VLOAD(xb + t), y1 = VLOAD(yb + t);
        VF l = xpbd ? VLOAD(lam + t) : vat;
        RUN(project)(&x0, &y0, &x1, &y1, VLOAD(wa + t), VLOAD(wb + t), VLOAD(rest + t), &l,
                     xpbd, vat, vml2);
        VSTORE(xa + t, x0);
        VSTORE(ya + t, y0);
        VSTORE(xb + t, x1);
        VSTORE(yb + t, y1);
        if (xpbd)
            VSTORE(lam + t, l);
    }
    for (; t < m; t++)
        project_one(xa, ya, xb, yb, wa, wb, rest, lam, t, xpbd ? at : 0.0f, ml2);
}

/* The lanes of the 2*VW floats at p: a and b of VW constraints of RIGHT (in
 * the order VEVEN and VODD put them, the same for every array), and back. */
RUN_ATTR static inline void RUN(split)(const float *p, VF *a, VF *b)
{
    VF lo = VLOAD(p), hi = VLOAD(p + VW);
    *a = VEVEN(lo, hi);
    *b = VODD(lo, hi);
}

RUN_ATTR static inline void RUN(join)(float *p, VF a, VF b)
{
    VSTORE(p, VLO(a, b));
    VSTORE(p + VW, VHI(a, b));
}

/*
 * m constraints (p+2t, p+2t+1) along a row, every other slot (RIGHT): x, y, w
 * and the slot arrays from p. A vector step takes 2*VW floats, VW constraints
 * and the slots between them, which are the other colour's and are written
 * back as they were.
 */
RUN_ATTR static void RUN(run2)(float *restrict x, float *restrict y, const float *restrict w,
                               const float *restrict rest, float *restrict lam, int m,
                               int xpbd, float at, float ml2)
{
    const VF vat = VSET1(at), vml2 = VSET1(ml2);
    int t = 0;
    for (; t + VW <= m; t += VW) {
        float *px = x + 2 * t, *py = y + 2 * t, *pl = lam + 2 * t;
        VF xa, xb, ya, yb, wa, wb, r, spare, l = vat, lspare = vat;
        RUN(split)(px, &xa, &xb);
        RUN(split)(py, &ya, &yb);
        RUN(split)(w + 2 * t, &wa, &wb);
        RUN(split)(rest + 2 * t, &r, &spare);
        if (xpbd)
            RUN(split)(pl, &l, &lspare);
        RUN(project)(&xa, &ya, &xb, &yb, wa, wb, r, &l, xpbd, vat, vml2);
        RUN(join)(px, xa, xb);
        RUN(join)(py, ya, yb);
        if (xpbd)
            RUN(join)(pl, l, lspare);
    }
    for (; t < m; t++)
        project_one(x, y, x + 1, y + 1, w, w + 1, rest, lam, 2 * t, xpbd ? at : 0.0f, ml2);
}

#undef RUN
#undef RUN_ATTR
#undef VF
#undef VW
#undef VLOAD
#undef VSTORE
#undef VSET1
#undef VZERO
#undef VADD
#undef VSUB
#undef VMUL
#undef VDIV
#undef VSQRT
#undef VAND
#undef VANDNOT
#undef VOR
#undef VGT
#undef VEVEN
#undef VODD
#undef VLO
#undef VHI
