import { describe, expect, it } from 'vitest';
import { createSmsSimulator } from './sms';

function recordingLog() {
  const lines: string[] = [];
  return { lines, info: (obj: unknown, msg?: string) => void lines.push(JSON.stringify([obj, msg])) };
}

describe('SMS simulator log', () => {
  const message = { siteId: 719, phone: '13800000719', text: '您的验证码为 482913' };

  it('logs the text while the simulators are on, so a developer can log in on the demo', async () => {
    const log = recordingLog();
    await createSmsSimulator(log).provider.send(message);
    expect(log.lines.join()).toContain('482913');
  });

  it('never logs the code or the phone with the simulators off', async () => {
    const log = recordingLog();
    await createSmsSimulator(log, { showText: false }).provider.send(message);
    expect(log.lines).toHaveLength(1);
    expect(log.lines.join()).not.toContain('482913');
    expect(log.lines.join()).not.toContain('13800000719');
  });
});
