import { PasswordLogin } from '../features/identity/LoginForms.tsx';

/** AccountLogin (spec section 2, /login with login way 3): username + password. */
export function Component() {
  return <PasswordLogin by="account" />;
}
