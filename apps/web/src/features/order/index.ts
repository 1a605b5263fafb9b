export { type Purchase, purchaseFromQuery } from './api.ts';
export { MyOrders } from './components/MyOrders.tsx';
export { OrderDetailView } from './components/OrderDetailView.tsx';
export { OrderSubmission } from './components/OrderSubmission.tsx';
export { PayPage } from './components/PayPage.tsx';
export { PaySuccess } from './components/PaySuccess.tsx';
export { WechatPayPanel } from './components/WechatPayPanel.tsx';
export { useNow } from './hooks.ts';
