import { useSearchParams } from 'react-router';
import { AfterSaleCase } from '../features/aftersale/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** afterSaleDetail (query afterSaleNo): one case with its progress, return parcel and messages. */
export function Component() {
  const [params] = useSearchParams();
  const afterSaleNo = params.get('afterSaleNo') ?? '';
  return (
    <RequireMember title="售后详情">
      <AfterSaleCase key={afterSaleNo} afterSaleNo={afterSaleNo} />
    </RequireMember>
  );
}
