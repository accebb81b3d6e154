/*
 * cloth_scene.h — the cloth scene's state, shared by its model and control
 * (cloth_scene.c) and its drawing (cloth_draw.c). Private to the scenes layer.
 */
#ifndef SWIRL_CLOTH_SCENE_H
#define SWIRL_CLOTH_SCENE_H

#include "cloth.h"
#include "scene.h"
#include "view.h"

#include <stdbool.h>
#include <stddef.h>

#define TRAIL 12            /* stroke points the scissors cut along (again: cloth) */

/* The kinds of edge, numbered as the bits of cloth_edges (CLOTH_RIGHT = 1 << E_H
 * ...): (i,i+1) (i,i+w) (i,i+w+1) (i+1,i+w). */
enum { E_H, E_V, E_D1, E_D2, EDGE_KINDS };

/* Per particle, per frame: where it is on the canvas and its shading. */
struct node {
    float x, y;          /* canvas pixels */
    float lum;           /* brightness factor */
    float sheen;         /* 0..1, the stretch highlight */
    float back;          /* 0 the fabric's face shows, 1 its back (turned over) */
};

/* A point of the blade's stroke, as the cloth sees it: the particle nearest
 * it when it was made (-1: none near, the point stays put) and the offset
 * from that particle, in metres. */
struct blade_point {
    int at;
    float dx, dy;
};

struct cloth_scene {
    struct scene_opts opt;
    struct cloth c;      /* c.prm holds the solver's parameters: the panel's too */
    bool throw_release;  /* release with the pointer's velocity */
    bool strain_look;    /* draw the net coloured by strain, not the fabric */
    bool auto_size;      /* the grid follows the canvas at a restart */
    bool built_smaller;  /* the grid was built for opt.smaller (half the particles) */
    int w, h;
    struct view view;
    float k;             /* drawing: image pixels a canvas pixel this frame */
    struct node *node;   /* drawing scratch, one per particle: */
    unsigned char *edges; /* cloth_edges */
    float *tan;          /* cloth_tangents, then smoothed */
    int *tri;            /* cloth_triangles (ntri of them), and their edges' uses */
    int ntri;
    float weave;         /* how much of the weave shows (0..1) */
    unsigned char *uses;
    size_t node_cap;
    bool cutting;        /* the right button is down: draw the blade */
    float blade_x, blade_y;
    struct blade_point trail[TRAIL]; /* the blade's last points (scissors) */
    int ntrail;
    float gone_for;      /* seconds the cloth has been out of view (mend_when_gone) */
};

/* The cloth's picture (cloth_draw.c): fabric, or the net by strain. */
void cloth_draw(void *p, struct image *im);

#endif
