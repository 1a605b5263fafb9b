export { BatchOrder } from './BatchOrder.tsx';
