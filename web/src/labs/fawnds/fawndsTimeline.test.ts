// The QPS timeline: maintenance shaded, the lock dark, labelled axes.
import { describe, expect, it } from 'vitest';
import { sceneText, sceneTexts } from '../../viz/canvasScene';
import { fixtureTimeline } from './fawndsFixtures';
import { niceMax, timelineScene } from './fawndsTimeline';

describe('timelineScene', () => {
  it('rounds the axis and marks maintenance and its lock (snapshot)', async () => {
    expect([0, 7, 10, 11, 800, 1300, 51000].map(niceMax)).toEqual([10, 10, 10, 20, 1000, 2000, 100000]);
    const { timeline, now } = fixtureTimeline();
    const scene = timelineScene(timeline, now, 700);
    const lock = scene.items.find((i) => i.t === 'rect' && i.tag === 'lock');
    const maint = scene.items.find((i) => i.t === 'rect' && i.tag === 'compact');
    expect(lock && maint && lock.t === 'rect' && maint.t === 'rect' && lock.x > maint.x && lock.x < maint.x + maint.w).toBe(true);
    expect(sceneTexts(scene)).toEqual(expect.arrayContaining(['queries per second (completed, per 50 ms bin)', '1,000', 'compact', 'virtual time (s) · shaded: maintenance; dark: its lock']));
    await expect(sceneText(scene)).toMatchFileSnapshot('./__snapshots__/fawndsTimeline.txt');
  });
});
