import { Register } from '../features/identity/LoginForms.tsx';

/** register (spec section 2): only where the site's configJson.showRegister is 'Y'. */
export function Component() {
  return <Register />;
}
