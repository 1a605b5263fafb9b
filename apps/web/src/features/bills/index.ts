export { BillDetails } from './BillDetails.tsx';
