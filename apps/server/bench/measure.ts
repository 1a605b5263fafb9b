/** One measurement of a scenario against a running server: autocannon, or the scenario's own loop. */
import { ADMIN_API_PREFIX } from '@sitemall/contract';
import autocannon from 'autocannon';
import type { LoopResult } from './orders';
import type { Scenario } from './scenarios';

export interface Result {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p90: number;
  /** Only where the bench keeps every latency (its own loops); autocannon reports 97.5. */
  p95?: number;
  p97_5: number;
  p99: number;
  errors: number;
  /** Answers that were not HTTP 2xx, or whose envelope code was not 200. */
  failed: number;
  /** Requests (or paid orders) that succeeded in the run. */
  count?: number;
  /** CPU milliseconds the server process spent per request (PGlite: the database's work too). */
  serverCpuMs?: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;

export const WARM_UP_SECONDS = 2;

/** Measures for `seconds` with `connections` unless the scenario says how many. */
export function measurer(options: { seconds: number; connections: number }) {
  const { seconds, connections } = options;
  const measurerFor = (warmSeconds: number) => measurer({ seconds: warmSeconds, connections });

  function loopResult(name: string, used: number, loop: LoopResult): Result {
    const sorted = [...loop.latencies].sort((a, b) => a - b);
    return {
      name,
      connections: used,
      rps: Math.round(loop.count / seconds),
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p95: percentile(sorted, 95),
      p97_5: percentile(sorted, 97.5),
      p99: percentile(sorted, 99),
      errors: loop.errors,
      failed: loop.failed,
      count: loop.count,
    };
  }

  async function measure(base: string, scenario: Scenario): Promise<Result> {
    const used = scenario.connections ?? connections;
    if (scenario.run) return loopResult(scenario.name, used, await scenario.run(base, seconds));
    // The APIs answer the envelope (a refusal is HTTP 200 with another code); the ceilings do not.
    const isEnvelope = ['/front-mall-api/', `${ADMIN_API_PREFIX}/`].some((p) => scenario.path.startsWith(p));
    let envelopeFailures = 0;
    const onResponse = (status: number, body: string) => {
      if (isEnvelope && status === 200 && !body.startsWith('{"code":200')) envelopeFailures++;
    };
    const { makeBody } = scenario;
    const request = makeBody
      ? {
          onResponse,
          setupRequest: (req: autocannon.Request) => ({ ...req, body: JSON.stringify(makeBody()) }),
        }
      : { onResponse };
    const result = await autocannon({
      url: base + scenario.path,
      method: scenario.method ?? 'POST',
      headers: { 'content-type': 'application/json', ...scenario.headers },
      body: scenario.body === undefined ? undefined : JSON.stringify(scenario.body),
      requests: [request],
      connections: used,
      duration: seconds,
    });
    return {
      name: scenario.name,
      connections: used,
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p90: result.latency.p90,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      failed: result.non2xx + envelopeFailures,
      count: result.requests.total,
    };
  }

  /**
   * A second of a path's load, not counted, before it is measured: the measured seconds then
   * compare code the server (and autocannon) has compiled, not a path's first second of JIT.
   * The order loops are warmed too: unwarmed, the first of them measured a server that had not
   * yet compiled its order code (317 paid orders/s, 2.55 ms of server CPU each, then 469 and
   * 1.51 ms in the row after it). Each member and specification has points and stock for far
   * more orders than a run makes. A `cold` path is not warmed.
   */
  async function warmUp(base: string, scenario: Scenario): Promise<void> {
    if (scenario.cold) return;
    await measurerFor(WARM_UP_SECONDS).measure(base, scenario);
  }

  return { measure, loopResult, warmUp };
}
