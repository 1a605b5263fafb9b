import { PersonalCenter } from '../features/identity/PersonalCenter.tsx';
import { PointsBalance } from '../features/points/PointsBalance.tsx';

/** personalCenter (spec section 2): member info with the points balance. */
export function Component() {
  return <PersonalCenter extra={<PointsBalance />} />;
}
