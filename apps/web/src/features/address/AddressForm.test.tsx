import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../test/render.tsx';
import { AddressFormDialog } from './AddressForm.tsx';

vi.mock('../../site/SiteProvider.tsx', () => ({ useSite: () => ({ siteId: '719' }) }));
const saveAddress = vi.fn();
vi.mock('./api.ts', async (original) => ({
  ...(await original<typeof import('./api.ts')>()),
  saveAddress: (...args: unknown[]) => saveAddress(...args),
}));

afterEach(cleanup);

/** Promise rejections nobody handled while `run` ran (a page error in the browser). */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await run();
    // Let rejected promises reach the unhandled-rejection check.
    await new Promise((resolve) => setTimeout(resolve, 0));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

describe('address dialog with bad input (issue 17, item 5)', () => {
  // antd's dialog and form are heavy in jsdom on a shared 2-core machine: generous time limits.
  it('shows each field message and leaves no unhandled rejection', { timeout: 60_000 }, async () => {
    renderPage(<AddressFormDialog open address={null} onClose={() => {}} />);
    const unhandled = await unhandledDuring(async () => {
      fireEvent.click(screen.getByRole('button', { name: /保\s?存/ }));
      expect(await screen.findByText('请输入收货人姓名', {}, { timeout: 20_000 })).toBeTruthy();
      fireEvent.change(screen.getByPlaceholderText('请输入手机号码'), { target: { value: '1234' } });
      fireEvent.click(screen.getByRole('button', { name: /保\s?存/ }));
      expect(await screen.findByText('请输入正确的手机号', {}, { timeout: 20_000 })).toBeTruthy();
      await waitFor(() => expect(screen.getByText('请选择省市区')).toBeTruthy(), { timeout: 20_000 });
    });
    expect(unhandled).toEqual([]);
    expect(saveAddress).not.toHaveBeenCalled();
  });
});
