import { PageContainer } from '@ant-design/pro-components';
import { useSearchParams } from 'react-router';
import { Budgets } from './Budgets';
import { CardBatches } from './CardBatches';
import { Cards } from './Cards';
import { Claims } from './Claims';
import { PackProducts } from './PackProducts';
import { VipLevels } from './VipLevels';
import { VoucherTemplates } from './VoucherTemplates';

const TABS = [
  { key: 'vouchers', tab: '优惠券', page: <VoucherTemplates /> },
  { key: 'claims', tab: '领取审核', page: <Claims /> },
  { key: 'budgets', tab: '活动预算', page: <Budgets /> },
  { key: 'packs', tab: '卡包商品', page: <PackProducts /> },
  { key: 'batches', tab: '发卡单', page: <CardBatches /> },
  { key: 'cards', tab: '卡查询', page: <Cards /> },
  { key: 'vip', tab: '会员等级', page: <VipLevels /> },
];

/** The promotion screens (vouchers, packs, VIP), one tab each; the tab lives in the URL (?tab=). */
export function PromotionsPage() {
  const [params, setParams] = useSearchParams();
  const key = TABS.some((t) => t.key === params.get('tab')) ? (params.get('tab') as string) : 'vouchers';
  return (
    <PageContainer
      header={{ title: '优惠券与卡包' }}
      tabList={TABS.map(({ key: k, tab }) => ({ key: k, tab }))}
      tabActiveKey={key}
      onTabChange={(next) => setParams({ tab: next }, { replace: true })}
    >
      {TABS.find((t) => t.key === key)?.page}
    </PageContainer>
  );
}
