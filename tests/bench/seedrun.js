#!/usr/bin/env node
/*
 * seedrun.js — times a seed page's own simulation code under node, for `make bench`.
 *
 * Usage: node tests/bench/seedrun.js SEEDFILE pbf|pbd STEPS [WARMUP [BLOCK]]
 *
 * BLOCK (pbf): the water block's side in particles instead of the page's 30.
 *
 * The seed document is read at run time: the text of its
 * <script id="simulation_code"> element is taken, and only the classes the
 * simulation needs (Simulation and Particle, Constraint, BoundaryParticle,
 * GridCell where present) are cut out of it and evaluated. The GUI class and the
 * lines that create it are never run, and there is no DOM: the one global the
 * simulation reads, `gui` (pbd.html asks gui.selectedParticle), is a stub.
 * The simulation gets the values the page's GUI would give it, runs WARMUP steps
 * (default STEPS/10, at least 10) so the JIT settles, then STEPS timed steps.
 *
 * Output: one JSON line, e.g.
 *   {"scene":"pbd","steps":2000,"warmup":200,"ms_per_step":0.05,"particles":1200,
 *    "constraints":4592,"time":11,"cx":3.9,"cy":-4.1,"miny":-7.2}
 * time is the simulated time after warm-up and timed steps. pbf reports the
 * centroid of the fluid particles (cx, cy) and the iterations of the last step
 * (iter); pbd the centroid and the lowest particle (miny).
 */
'use strict';

const fs = require('fs');

function fail(msg) {
    process.stderr.write('seedrun: ' + msg + '\n');
    process.exit(2);
}

/* The text of <script id="simulation_code">. */
function simulationScript(html) {
    const m = /<script[^>]*id\s*=\s*["']simulation_code["'][^>]*>([\s\S]*?)<\/script>/i.exec(html);
    if (!m)
        fail('no <script id="simulation_code"> in the seed file');
    return m[1];
}

/* Index just past the brace that closes the one at `open`, skipping strings,
 * template literals and comments. */
function matchBrace(src, open) {
    let depth = 0;
    for (let i = open; i < src.length; i++) {
        const ch = src[i];
        if (ch === '/' && src[i + 1] === '/') {
            const nl = src.indexOf('\n', i);
            i = nl < 0 ? src.length : nl;
        } else if (ch === '/' && src[i + 1] === '*') {
            const end = src.indexOf('*/', i + 2);
            i = end < 0 ? src.length : end + 1;
        } else if (ch === '"' || ch === "'" || ch === '`') {
            for (i++; i < src.length && src[i] !== ch; i++)
                if (src[i] === '\\')
                    i++;
        } else if (ch === '{') {
            depth++;
        } else if (ch === '}') {
            depth--;
            if (depth === 0)
                return i + 1;
        }
    }
    fail('unbalanced braces in the simulation code');
    return -1;
}

/* The source of `class NAME { ... }`, or null when the script has none. */
function classSource(src, name) {
    const re = new RegExp('\\bclass\\s+' + name + '\\b');
    const m = re.exec(src);
    if (!m)
        return null;
    const open = src.indexOf('{', m.index);
    if (open < 0)
        fail('class ' + name + ' has no body');
    return src.slice(m.index, matchBrace(src, open));
}

/* Evaluates the needed classes with `gui` bound to the stub; returns Simulation. */
function loadSimulation(script, gui) {
    const names = ['Particle', 'Constraint', 'BoundaryParticle', 'GridCell', 'Simulation'];
    const parts = [];
    for (const name of names) {
        const text = classSource(script, name);
        if (text !== null)
            parts.push(text);
        else if (name === 'Simulation')
            fail('no Simulation class in the simulation code');
    }
    const body = '"use strict";\n' + parts.join('\n') + '\nreturn Simulation;\n';
    return new Function('gui', body)(gui);
}

function centroid(particles, count) {
    let sx = 0, sy = 0, miny = Infinity;
    for (let i = 0; i < count; i++) {
        const p = particles[i];
        sx += p.x;
        sy += p.y;
        if (p.y < miny)
            miny = p.y;
    }
    return { cx: sx / count, cy: sy / count, miny: miny };
}

function main() {
    const args = process.argv.slice(2);
    if (args.length < 3)
        fail('usage: node seedrun.js SEEDFILE pbf|pbd STEPS [WARMUP]');
    const [file, scene, stepsArg, warmArg, blockArg] = args;
    const block = blockArg !== undefined ? parseInt(blockArg, 10) : 30;
    if (!(block > 0))
        fail('BLOCK must be a positive integer');
    const steps = parseInt(stepsArg, 10);
    if (!(steps > 0))
        fail('STEPS must be a positive integer');
    const warmup = warmArg !== undefined ? parseInt(warmArg, 10) : Math.max(10, Math.floor(steps / 10));
    if (!(warmup >= 0))
        fail('WARMUP must be a non-negative integer');

    let html;
    try {
        html = fs.readFileSync(file, 'utf8');
    } catch (e) {
        fail('cannot read ' + file + ': ' + e.message);
    }
    const gui = { selectedParticle: -1 };
    const Simulation = loadSimulation(simulationScript(html), gui);

    /* The values the page's GUI sets after constructing the simulation. */
    let sim;
    if (scene === 'pbf') {
        sim = new Simulation(block, block);
        sim.maxIterations = 100;
        sim.viscosity = 0.05;
        sim.gravity = -9.81;
        sim.timeStepSize = 0.005;
        sim.maxError = 0.1;
    } else if (scene === 'pbd') {
        sim = new Simulation(40, 30, 2);
        sim.numIterations = 2;
        sim.gravity = -9.81;
        sim.timeStepSize = 0.005;
        sim.mass = 0.5;
    } else {
        fail('scene must be pbf or pbd, not ' + scene);
    }

    for (let i = 0; i < warmup; i++)
        sim.simulationStep();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < steps; i++)
        sim.simulationStep();
    const t1 = process.hrtime.bigint();
    const ms = Number(t1 - t0) / 1e6 / steps;

    const out = { scene: scene, steps: steps, warmup: warmup, ms_per_step: +ms.toPrecision(6) };
    if (scene === 'pbf') {
        const c = centroid(sim.particles, sim.numFluidParticles);
        out.particles = sim.numFluidParticles;
        out.boundary = sim.numParticles - sim.numFluidParticles;
        out.time = +sim.time.toFixed(6);
        out.cx = c.cx;
        out.cy = c.cy;
        out.iter = sim.iter;
    } else {
        const c = centroid(sim.particles, sim.particles.length);
        out.particles = sim.particles.length;
        out.constraints = sim.constraints.length;
        out.time = +sim.time.toFixed(6);
        out.cx = c.cx;
        out.cy = c.cy;
        out.miny = c.miny;
    }
    process.stdout.write(JSON.stringify(out) + '\n');
}

main();
