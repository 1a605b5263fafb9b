import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type SerializerCompiler = ReturnType<SerializerFactory>;
type Serializer = ReturnType<SerializerCompiler>;

/**
 * Fastify compiles every route's schemas for each app it builds: about 1.5 s of Ajv and
 * fast-json-stringify for our ~250 routes. The endpoint table's schemas are the same objects in
 * every app of a process (each test file builds one), so the apps share one Ajv per option set
 * (Ajv keeps what it compiled by schema object) and one serializer per response schema.
 */
const validators = AjvCompiler();

const serializerFactory = SerializerSelector();
const serializers = new Map<string, WeakMap<object, Serializer>>();

function sharedSerializers(...[externalSchemas, options]: Parameters<SerializerFactory>): SerializerCompiler {
  const key = JSON.stringify([externalSchemas, options]);
  const built = serializers.get(key) ?? new WeakMap<object, Serializer>();
  serializers.set(key, built);
  const compile = serializerFactory(externalSchemas, options);
  return (route) => {
    const { schema } = route;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let serialize = built.get(schema);
    if (!serialize) {
      serialize = compile(route);
      built.set(schema, serialize);
    }
    return serialize;
  };
}

export const sharedSchemaCompilers = { buildValidator: validators, buildSerializer: sharedSerializers };
