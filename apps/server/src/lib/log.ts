import type { FastifyServerOptions } from 'fastify';

/**
 * What the logs may say about a failure: its class, a message without client values, the
 * database error code and the stack frames. Drizzle wraps every driver error as
 * "Failed query: <sql>\nparams: <values>"; the SQL and its parameters (a member's phone, an
 * address, whatever a client sent) never reach the log, and neither do request bodies.
 */

const MAX_MESSAGE = 300;
/** Quoted literals in PostgreSQL messages are values, except the names of schema objects. */
const QUOTED = /(\w+ )?"[^"]*"/g;
const NAMES = new Set([
  'constraint ',
  'relation ',
  'column ',
  'table ',
  'type ',
  'index ',
  'function ',
  'schema ',
]);
const hideValues = (message: string) =>
  message.replace(QUOTED, (quoted, word?: string) =>
    word === undefined ? '"?"' : NAMES.has(word) ? quoted : `${word}"?"`,
  );

interface DriverError {
  code?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  routine?: unknown;
}

export const isDrizzleQueryError = (error: Error) =>
  error.name === 'DrizzleQueryError' || error.constructor?.name === 'DrizzleQueryError';

function safeMessage(error: Error): string {
  if (isDrizzleQueryError(error) || error.message.startsWith('Failed query:')) return 'Failed query';
  return hideValues(error.message).slice(0, MAX_MESSAGE);
}

/** The stack's frames only: its first line repeats the message, which may hold values. */
const framesOf = (stack: string | undefined) =>
  (stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 15)
    .join('\n');

const pick = (e: DriverError) =>
  Object.fromEntries(
    (['code', 'constraint', 'table', 'column', 'routine'] as const)
      .filter((k) => typeof e[k] === 'string' || typeof e[k] === 'number')
      .map((k) => [k, e[k]]),
  );

export interface SafeError {
  type: string;
  message: string;
  stack: string;
  cause?: SafeError;
  [key: string]: unknown;
}

/** The pino serializer for `err`. */
export function safeError(error: unknown, depth = 0): SafeError {
  if (!(error instanceof Error)) return { type: typeof error, message: 'non-error thrown', stack: '' };
  const type =
    error.constructor?.name && error.constructor.name !== 'Error' ? error.constructor.name : error.name;
  const out: SafeError = {
    type,
    message: safeMessage(error),
    ...pick(error as DriverError),
    stack: framesOf(error.stack),
  };
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  if (typeof statusCode === 'number') out.statusCode = statusCode;
  if (error.cause !== undefined && depth < 3) out.cause = safeError(error.cause, depth + 1);
  return out;
}

/** Paths never logged, whatever a call site passes (bodies, SQL parameters, credentials). */
export const REDACT_PATHS = [
  'body',
  'req.body',
  'request.body',
  'params',
  'query',
  'headers.token',
  'headers.authorization',
  'req.headers.token',
  'req.headers.authorization',
];

/** The app's logger options with the safe error serializer and the redactions added. */
export function safeLoggerOptions(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const given = logger === true ? {} : logger;
  return {
    ...given,
    serializers: { ...given.serializers, err: safeError, error: safeError },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}
