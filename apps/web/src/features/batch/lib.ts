import { BATCH_MAX_BYTES, type BatchGroup } from '@sitemall/contract';

export type GroupState = 'error' | 'ok' | 'short';

/**
 * The state of each order of a batch preview: 有错误 for a group with a bad row; otherwise the
 * orders are paid in turn from the balance, and the first one the balance no longer covers,
 * and every one after it, is 余额不足 (it can be submitted, but stays unpaid).
 */
export function groupStates(groups: readonly BatchGroup[], balance: number): Map<number, GroupState> {
  const states = new Map<number, GroupState>();
  let left = balance;
  for (const group of groups) {
    if (!group.isValid) {
      states.set(group.groupNo, 'error');
      continue;
    }
    if (group.totalAmount <= left) {
      left -= group.totalAmount;
      states.set(group.groupNo, 'ok');
    } else {
      left = -1;
      states.set(group.groupNo, 'short');
    }
  }
  return states;
}

/** Why a chosen sheet is not sent for checking ('' when it is): the server refuses more than 1 MB anyway. */
export const uploadRefusal = (file: Pick<File, 'size'>): string =>
  file.size > BATCH_MAX_BYTES ? '文件不能超过 1 MB' : '';
