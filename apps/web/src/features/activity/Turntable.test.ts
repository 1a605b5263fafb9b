// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { landingAngle } from './Turntable.tsx';

describe('turntable landing', () => {
  it('brings the won slot under the top pointer after whole turns, always forward', () => {
    // Four slots of 90°: slot 0 spans 0-90°, so its middle (45°) needs 315° to reach the top.
    expect(landingAngle(0, 0, 4)).toBe(5 * 360 + 315);
    expect(landingAngle(0, 2, 4) % 360).toBe(135);
    const next = landingAngle(5 * 360 + 315, 1, 4);
    expect(next).toBeGreaterThan(5 * 360 + 315);
    expect(next % 360).toBe(225);
  });
});
