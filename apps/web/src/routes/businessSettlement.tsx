import { MerchantSettlement } from '../features/catalog/index.ts';
import { useLabels } from '../features/category/api.ts';
import { useSite } from '../site/SiteProvider.tsx';

/** businessSettlement (spec section 2): merchant onboarding, main categories from the site's labels. */
export function Component() {
  const { siteId } = useSite();
  const labels = useLabels(siteId);
  return <MerchantSettlement categoryNames={(labels.data ?? []).map((label) => label.lableName)} />;
}
