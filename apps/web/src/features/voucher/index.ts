export { CheckoutVouchers, useCheckoutVouchers } from './CheckoutVouchers.tsx';
export { MyVouchers } from './MyVouchers.tsx';
export { VoucherCenter } from './VoucherCenter.tsx';
