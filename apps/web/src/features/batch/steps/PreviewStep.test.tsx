import type { BatchGroup, BatchPreview, BatchRow } from '@sitemall/contract';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../../api/request.ts';
import { fakeServer } from '../../../test/fakeServer.ts';
import { logInMember } from '../../../test/fixtures.ts';
import { renderSitePage } from '../../../test/sitePage.tsx';
import { PreviewStep } from './PreviewStep.tsx';

const row = (rowNo: number, errors: string[] = []): BatchRow => ({
  rowNo,
  product: `商品${rowNo}`,
  specification: '默认',
  num: '1',
  consignee: '张三',
  phone: '13900000000',
  address: '北京市 东城区 1号',
  productId: rowNo,
  specificationId: rowNo,
  name: `商品${rowNo}`,
  specificationValue: '默认',
  price: 1000,
  amount: 1000,
  groupNo: 1,
  errors,
});

const group = (isValid: boolean): BatchGroup => ({
  groupNo: 1,
  consignee: '张三',
  phone: '13900000000',
  address: '北京市 东城区 1号',
  rowNos: [2, 3],
  lineCount: 2,
  goodsAmount: 2000,
  freightAmount: 0,
  totalAmount: 2000,
  isValid,
});

const preview = (rows: BatchRow[]): BatchPreview => {
  const errorCount = rows.filter((r) => r.errors.length > 0).length;
  return {
    batchId: 'b1',
    rows,
    groups: [group(errorCount === 0)],
    errorCount,
    goodsAmount: 2000,
    freightAmount: 0,
    totalAmount: 2000,
    balance: 100_000,
    isBalanceEnough: true,
  };
};

const show = (checked: BatchPreview) => {
  fakeServer({});
  renderSitePage(
    <PreviewStep
      preview={checked}
      fileName="批量.xlsx"
      busy={false}
      onSubmit={() => {}}
      onRestart={() => {}}
    />,
    '/batchOrder?siteId=719',
  );
};

const submitButton = () => screen.getByTestId('batch-submit') as HTMLButtonElement;
const shownRowNos = () =>
  within(screen.getByTestId('batch-rows'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.querySelector('td')?.textContent);

beforeEach(() => logInMember());
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('batch preview step', () => {
  it('with a bad row shows the errors first, only the bad rows, and cannot submit', async () => {
    show(preview([row(2), row(3, ['商品不存在'])]));
    expect(await screen.findByTestId('batch-has-errors')).toBeTruthy();
    expect(shownRowNos()).toEqual(['3']);
    expect(submitButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole('switch'));
    expect(shownRowNos()).toEqual(['2', '3']);
  });

  it('without errors shows every row and offers one order per recipient', async () => {
    show(preview([row(2), row(3)]));
    await screen.findByTestId('batch-rows');
    expect(screen.queryByTestId('batch-has-errors')).toBeNull();
    expect(shownRowNos()).toEqual(['2', '3']);
    expect(submitButton().disabled).toBe(false);
    expect(submitButton().textContent?.replace(/\s/g, '')).toBe('提交1个订单');
  });
});
