import { identityApi, MSG } from '@sitemall/contract';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetRequest } from '../../api/request.ts';
import { getToken } from '../../site/storage.ts';
import { fakeServer, refuse } from '../../test/fakeServer.ts';
import { logInMember, serverKey } from '../../test/fixtures.ts';
import { renderSitePage } from '../../test/sitePage.tsx';
import { ChangePasswordDialog } from './ChangePasswordDialog.tsx';

/** One key for the file: the page keeps the server's key once it has it. */
const key = serverKey();

const field = (placeholder: string) => screen.getByPlaceholderText(placeholder) as HTMLInputElement;
const type = (placeholder: string, value: string) =>
  fireEvent.change(field(placeholder), { target: { value } });
const OLD = '请输入原始密码';
const NEW = '请输入新密码';
const AGAIN = '请再次输入新密码';
/** The field messages antd shows under the form items, in order. */
const messages = () =>
  Array.from(document.querySelectorAll('.ant-form-item-explain-error')).map((e) => e.textContent);

function openDialog() {
  const onClose = vi.fn();
  renderSitePage(<ChangePasswordDialog open onClose={onClose} />, '/personalCenter?siteId=719');
  return onClose;
}

beforeEach(() => logInMember());
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('change-password dialog (spec section 5)', () => {
  it('checks the old password when it loses focus, the new ones as they are typed', async () => {
    openDialog();
    // Old password: nothing while typing, the rule once the field is left.
    type(OLD, 'abc');
    await act(async () => {});
    expect(messages()).toEqual([]);
    fireEvent.blur(field(OLD));
    await waitFor(() => expect(messages()).toEqual([MSG.passwordRule]));
    type(OLD, '');
    fireEvent.blur(field(OLD));
    await waitFor(() => expect(messages()).toEqual([MSG.oldPasswordRequired]));

    // New password: as typed.
    type(NEW, 'abcdef');
    await waitFor(() => expect(messages()).toEqual([MSG.oldPasswordRequired, MSG.passwordRule]));
    type(NEW, '');
    await waitFor(() => expect(messages()).toEqual([MSG.oldPasswordRequired, MSG.newPasswordRequired]));
    type(NEW, 'abc123');
    await waitFor(() => expect(messages()).toEqual([MSG.oldPasswordRequired]));

    // Confirmation: as typed, and again when the new password changes.
    type(AGAIN, 'abc124');
    await waitFor(() => expect(messages()).toEqual([MSG.oldPasswordRequired, MSG.passwordsDiffer]));
    type(NEW, 'abc124');
    await waitFor(() => expect(messages()).toEqual([MSG.oldPasswordRequired]));
    type(AGAIN, '');
    await waitFor(() => expect(messages()).toEqual([MSG.oldPasswordRequired, MSG.confirmPasswordRequired]));
  });

  it('confirming an empty form names all three fields and sends nothing', async () => {
    const server = fakeServer({});
    openDialog();
    fireEvent.click(screen.getByText('确认修改'));
    await waitFor(() =>
      expect(messages()).toEqual([
        MSG.oldPasswordRequired,
        MSG.newPasswordRequired,
        MSG.confirmPasswordRequired,
      ]),
    );
    expect(server.bodiesOf(identityApi.uptPassword.path)).toEqual([]);
  });

  it('sends the three passwords encrypted; success says 修改成功 and ends the session', async () => {
    const server = fakeServer({
      [identityApi.publicKey.path]: () => key.answer,
      [identityApi.uptPassword.path]: () => null,
      [identityApi.logout.path]: () => null,
    });
    const onClose = openDialog();
    type(OLD, 'old123');
    type(NEW, 'new456');
    type(AGAIN, 'new456');
    fireEvent.click(screen.getByText('确认修改'));
    expect(await screen.findByText(MSG.passwordChanged)).toBeTruthy();
    const [sent] = server.bodiesOf(identityApi.uptPassword.path);
    expect(sent?.siteId).toBe('719');
    expect([sent?.oldPsw, sent?.newPsw1, sent?.newPsw2].map(key.reveal)).toEqual([
      'old123',
      'new456',
      'new456',
    ]);
    expect(onClose).toHaveBeenCalledOnce();
    // The member logs in again with the new password.
    await waitFor(() => expect(server.bodiesOf(identityApi.logout.path)).toHaveLength(1));
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
    expect(screen.getByTestId('elsewhere').textContent).toBe('/login?siteId=719');
    expect(getToken()).toBeNull();
  });

  it("shows the server's refusal and keeps the dialog and the session", async () => {
    const server = fakeServer({
      [identityApi.publicKey.path]: () => key.answer,
      [identityApi.uptPassword.path]: () => refuse(500, '原密码错误'),
    });
    const onClose = openDialog();
    type(OLD, 'old999');
    type(NEW, 'new456');
    type(AGAIN, 'new456');
    fireEvent.click(screen.getByText('确认修改'));
    expect(await screen.findByText('原密码错误')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(server.bodiesOf(identityApi.logout.path)).toEqual([]);
    expect(getToken()).toBe('member-token');
  });
});
