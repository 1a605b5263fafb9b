import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type SerializerCompiler = ReturnType<SerializerFactory>;
type Serializer = ReturnType<SerializerCompiler>;
type ValidatorFactory = ReturnType<typeof AjvCompiler>;
type ValidatorCompiler = ReturnType<ValidatorFactory>;

/** Compilers of the routes no request has used yet, for compileEverySchema. */
const notYetCompiled = new Set<() => unknown>();

/**
 * `compile` deferred to the function's first use: a call, or a read of one of the `forwarded`
 * properties. Compiling all ~250 routes'
 * schemas when the server starts took ~1.3 s of CPU and left ~65 MB of generated source as
 * garbage in the heap, which V8 keeps as resident memory; a process compiles only what it serves.
 */
function onFirstUse<F extends (...args: never[]) => unknown>(
  compile: () => F,
  forwarded: readonly string[] = [],
): F {
  let compiled: F | undefined;
  const get = () => {
    if (!compiled) {
      compiled = compile();
      notYetCompiled.delete(get);
    }
    return compiled;
  };
  notYetCompiled.add(get);
  const deferred = function (this: unknown, ...args: Parameters<F>) {
    return get().apply(this, args);
  };
  for (const key of forwarded)
    Object.defineProperty(deferred, key, { get: () => (get() as unknown as Record<string, unknown>)[key] });
  return deferred as unknown as F;
}

/** How many schemas no request has used yet. */
export const schemasNotYetCompiled = () => notYetCompiled.size;

/** Compiles every schema not compiled yet; a test's proof that every route's schemas compile. */
export function compileEverySchema() {
  for (const compile of [...notYetCompiled]) compile();
}

/**
 * Fastify compiles every route's schemas for each app it builds. The endpoint table's schemas are
 * the same objects in every app of a process (each test file builds one), so the apps share one
 * Ajv per option set (Ajv keeps what it compiled by schema object) and one serializer per response
 * schema; both compile on first use.
 */
const validators = AjvCompiler();
/** Fastify reads `schemaEnv` before calling an Ajv validator and `errors` after the call. */
const validatorProperties = ['schemaEnv', 'errors'];

function deferredValidators(...args: Parameters<ValidatorFactory>): ValidatorCompiler {
  const compile = validators(...args);
  return (route) => onFirstUse(() => compile(route), validatorProperties);
}

const serializerFactory = SerializerSelector();
const serializers = new Map<string, WeakMap<object, Serializer>>();

function sharedSerializers(...[externalSchemas, options]: Parameters<SerializerFactory>): SerializerCompiler {
  const key = JSON.stringify([externalSchemas, options]);
  const built = serializers.get(key) ?? new WeakMap<object, Serializer>();
  serializers.set(key, built);
  const compile = serializerFactory(externalSchemas, options);
  return (route) => {
    const { schema } = route;
    if (typeof schema !== 'object' || schema === null) return onFirstUse(() => compile(route));
    let serialize = built.get(schema);
    if (!serialize) {
      serialize = onFirstUse(() => compile(route));
      built.set(schema, serialize);
    }
    return serialize;
  };
}

export const sharedSchemaCompilers = {
  buildValidator: deferredValidators,
  buildSerializer: sharedSerializers,
};
