import { PasswordLogin } from '../features/identity/LoginForms.tsx';

/** PwdLogin (spec section 2, /login with login way 1): phone + password. */
export function Component() {
  return <PasswordLogin by="phone" />;
}
