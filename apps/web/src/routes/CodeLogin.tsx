import { CodeLogin } from '../features/identity/LoginForms.tsx';

/** CodeLogin (spec section 2, /login with login way 2): phone + SMS code. */
export function Component() {
  return <CodeLogin />;
}
