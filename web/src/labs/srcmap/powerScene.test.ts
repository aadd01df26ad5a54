import { describe, expect, it } from 'vitest';
import { powerSeries } from './srcmapFixtures';
import { hourX, powerScene, readPower, rowAt, rowText, spinUpGlyph, xHour } from './powerScene';
import { SPINUP_STYLES, spinUpStyle } from './srcmapPalette';

const refs = { allOn: 66.1, standby: 19.8 };

describe('spin-up marks', () => {
  it('each cause its own shape and Okabe–Ito colour; unknown causes read as other I/O', () => {
    expect(SPINUP_STYLES.map((s) => s.shape)).toEqual(['triangle', 'diamond', 'bar']);
    expect(new Set(SPINUP_STYLES.map((s) => s.colour)).size).toBe(3);
    for (const s of SPINUP_STYLES) expect(['#0072B2', '#D55E00', '#CC79A7', '#009E73', '#E69F00', '#56B4E9', '#F0E442', '#000000']).toContain(s.colour);
    expect(spinUpStyle(7).word).toBe('other I/O');
    expect(spinUpGlyph('triangle', 10, 20)).toBe('M10,15L15,25L5,25Z');
    expect(spinUpGlyph('diamond', 10, 20)).toBe('M10,15L15,20L10,25L5,20Z');
    expect(spinUpGlyph('bar', 10, 20)).toBe('M9,14H11V26H9Z');
  });
});

describe('powerScene', () => {
  it('x is the hour of the day 0-24 with labelled ticks; y watts to 80 with all-on at 66.1', () => {
    const s = powerScene(powerSeries(6), refs, 6, 640);
    expect(s.width).toBe(640);
    expect(s.xTicks.map((t) => t.label)).toEqual(['00', '03', '06', '09', '12', '15', '18', '21', '24']);
    expect(s.xTicks[0]!.at).toBe(s.frame.left);
    expect(s.xTicks[8]!.at).toBe(s.frame.left + s.frame.w);
    expect(s.wMax).toBe(80);
    expect(s.yTicks.map((t) => t.label)).toEqual(['0', '20', '40', '60', '80']);
    const f = s.frame;
    expect(s.allOnY).toBeCloseTo(f.top + f.h * (1 - 66.1 / 80), 0);
    expect(s.standbyY).toBeCloseTo(f.top + f.h * (1 - 19.8 / 80), 0);
    expect(s.cursorX).toBeCloseTo(hourX(f, 6), 1);
    // Load to a round maximum on the right axis (the fixture peaks at 110 IOPS).
    expect(s.loadMax).toBe(200);
    expect(s.y2Ticks.map((t) => t.label)).toEqual(['0', '100', '200']);
  });

  it('watts as a step line: a horizontal run per minute, vertical moves between', () => {
    const s = powerScene(powerSeries(1), refs, 1, 640);
    expect(s.watts.startsWith('M46,')).toBe(true);
    expect((s.watts.match(/H/g) ?? []).length).toBe(60);
    expect((s.watts.match(/V/g) ?? []).length).toBe(59);
    expect(s.watts).not.toMatch(/L/);
    expect((s.ideal.match(/L/g) ?? []).length).toBe(59);
  });

  it('spin-ups as marks at their hours, shaped by cause; a phone gets ticks every 6 h', () => {
    const s = powerScene(powerSeries(6), refs, null, 340);
    expect(s.spinUps.map((u) => u.disk)).toEqual([3, 5]);
    expect(s.spinUps.map((u) => u.cause)).toEqual([0, 1]);
    const bottom = s.frame.top + s.frame.h;
    expect(s.spinUps[0]!.d).toBe(spinUpGlyph('triangle', s.spinUps[0]!.x, bottom - 7));
    expect(s.spinUps[1]!.d).toBe(spinUpGlyph('diamond', s.spinUps[1]!.x, bottom - 7));
    expect(s.spinUps[1]!.x).toBeCloseTo(hourX(s.frame, 5.19), 1);
    expect(s.xTicks.map((t) => t.label)).toEqual(['00', '06', '12', '18', '24']);
    expect(s.narrow).toBe(true);
    expect(s.cursorX).toBeNull();
  });

  it('nothing yet: empty paths, the references still drawn', () => {
    const s = powerScene(null, refs, 0, 640);
    expect(s.watts).toBe('');
    expect(s.allOnY).not.toBeNull();
    expect(s.spinUps).toEqual([]);
  });

  it('picks a minute by hour and reads it out', () => {
    const p = powerSeries(6);
    expect(rowAt(p, 0)).toBe(0);
    expect(rowAt(p, 5.195)).toBe(311);
    expect(rowAt(p, 99)).toBe(359);
    expect(rowAt(null, 1)).toBe(-1);
    expect(rowText(p, 311)).toBe('05:11: 33.4 W, 2 disks spinning, load 24.9 IOPS, ideal 8.66 W; spin-up of D5 (read miss).');
    expect(rowText(p, 120)).toBe(`${rowText(p, 120).split(';')[0]}; spin-up of D3 (planned).`);
    const s = powerScene(p, refs, 6, 640);
    expect(xHour(s.frame, hourX(s.frame, 7.5))).toBeCloseTo(7.5);
    expect(powerScene(p, refs, 6, 640, 311).pickX).not.toBeNull();
  });

  it('reads the view\'s columns loosely', () => {
    const cols = { t_h: new Float64Array([0, 1 / 60]), watts: new Float64Array([60, 61]), spin_up_h: [0.01], spin_up_disk: [2] };
    const p = readPower(cols)!;
    expect(Array.from(p.watts)).toEqual([60, 61]);
    expect(Array.from(p.ideal_watts)).toEqual([0, 0]);
    expect(Array.from(p.spin_up_disk)).toEqual([2]);
    expect(Array.from(p.spin_up_cause)).toEqual([2]);  // a view without causes reads as other I/O
    expect(Array.from(readPower({ ...cols, spin_up_cause: [1] })!.spin_up_cause)).toEqual([1]);
    expect(readPower({ watts: [1] })).toBeNull();
    expect(readPower(null)).toBeNull();
  });
});
