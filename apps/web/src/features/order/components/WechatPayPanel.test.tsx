import type { WechatCode } from '@sitemall/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../test/render.tsx';
import { WechatPayPanel } from './WechatPayPanel.tsx';

afterEach(cleanup);

const NOW = Date.parse('2030-01-01T00:00:00Z');
const failed: WechatCode = {
  outTradeNo: 'T1',
  codeUrl: 'weixin://wxpay/bizpayurl?pr=abc',
  state: 'failed',
  cashAmount: 10_000,
  pointsAmount: 0,
  expireTime: new Date(NOW + 60_000).toISOString(),
};

describe('WeChat QR overlay (issue 17, item 11)', () => {
  it('after a failed payment says the payment failed and offers a new code', () => {
    const onRefresh = vi.fn();
    renderPage(
      <WechatPayPanel
        code={failed}
        now={NOW}
        cashUnit="积分"
        canRefresh
        isRefreshing={false}
        onRefresh={onRefresh}
        onBack={() => {}}
      />,
    );
    const overlay = screen.getByTestId('wechat-overlay');
    expect(overlay.textContent).toContain('支付失败');
    expect(document.body.textContent).not.toContain('二维码过期');
    expect(document.body.textContent).not.toContain('点击刷新');
    fireEvent.click(screen.getByRole('button', { name: '获取新二维码' }));
    expect(onRefresh).toHaveBeenCalledOnce();
  });
});
