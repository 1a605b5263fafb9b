/**
 * TypeBox for the storefront's production build. The contract's schemas are the server's (it
 * validates with them and publishes them as OpenAPI); the storefront reads only an endpoint's
 * method, path and encoding, never a schema. So every `Type.X(...)` here builds an empty object
 * and TypeBox (~14 KB gzip) stays out of the storefront.
 */
const schema = () => ({});
export const Type: unknown = new Proxy({}, { get: () => schema });
